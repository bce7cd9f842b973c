"""The core built natively with gcc under AddressSanitizer and UndefinedBehaviorSanitizer.

The C tests (core/tests/test_core.c) must pass, and the native build must agree
with CPython on rounding, pow and both sums, as the WebAssembly build does.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from support.doubles import double_to_bits, near_decimal_tie, random_double
from support.pythons import NON_FMA_ENV, require_python, run_python

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which(os.environ.get("CC", "gcc")) is None:
        pytest.skip("no C compiler (gcc) to build the core natively")
    out = tmp_path_factory.mktemp("native")
    subprocess.run(["bash", str(REPOSITORY / "build" / "build_native.sh"), str(out)], check=True,
                   capture_output=True, text=True)
    return out


def run_native(binary: Path, stdin: str = "") -> str:
    env = dict(os.environ, **NON_FMA_ENV, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    done = subprocess.run([str(binary)], input=stdin, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "runtime error" not in done.stderr and "Sanitizer" not in done.stderr, done.stderr[-3000:]
    return done.stdout


def test_c_tests_pass_under_sanitizers(native: Path) -> None:
    assert run_native(native / "test_core").strip() == "all core checks passed"


ORACLE = r"""
import sys, struct
def bits(x): return format(struct.unpack('<Q', struct.pack('<d', x))[0], '016x')
def val(h): return struct.unpack('<d', struct.pack('<Q', int(h, 16)))[0]
for line in sys.stdin:
    verb, *rest = line.split()
    if verb == 'round':
        print(1400, bits(round(val(rest[0]), int(rest[1]))))
    elif verb == 'pow':
        a, b = val(rest[0]), val(rest[1])
        try:
            v = a ** b
            print(*((1400, bits(v)) if isinstance(v, float) else (1414, '0' * 16)))
        except ZeroDivisionError:
            print(1413, '0' * 16)
        except OverflowError as e:
            print(1418 if 'complex' in str(e) else 1415, '0' * 16)
    else:
        print(1400, bits(sum(val(h) for h in rest[2:])))
"""


def _is_nan_bits(text: str) -> bool:
    bits = int(text, 16)
    return (bits >> 52) & 0x7FF == 0x7FF and bits & ((1 << 52) - 1) != 0


def _same(mine: str, oracle: str) -> bool:
    """Same status and bits; NaNs compare as NaN whatever their sign and payload."""
    if mine == oracle:
        return True
    (mine_status, mine_bits), (oracle_status, oracle_bits) = mine.split(), oracle.split()
    return mine_status == oracle_status and _is_nan_bits(mine_bits) and _is_nan_bits(oracle_bits)


@pytest.mark.parametrize(("rule", "minor"), [(0, 11), (1, 12)])
def test_native_build_agrees_with_cpython(native: Path, rule: int, minor: int) -> None:
    rnd = random.Random(rule)
    lines = []
    for _ in range(20_000):
        n = rnd.randrange(0, 16)
        x = random_double(rnd) if rnd.random() < 0.6 else near_decimal_tie(rnd, n)
        lines.append(f"round {double_to_bits(x):016x} {n}")
        lines.append(f"pow {double_to_bits(random_double(rnd)):016x} {double_to_bits(random_double(rnd)):016x}")
        row = [random_double(rnd) for _ in range(rnd.randrange(1, 9))]
        lines.append(f"sum {rule} {len(row)} " + " ".join(f"{double_to_bits(v):016x}" for v in row))
    stdin = "\n".join(lines) + "\n"
    python = require_python(minor)
    expected = run_python(python, ORACLE, stdin).splitlines()
    mine = run_native(native / "driver", stdin).splitlines()
    assert len(mine) == len(expected) == len(lines)
    bad = [(line, m, e) for line, m, e in zip(lines, mine, expected) if not _same(m, e)]
    assert bad == [], f"{len(bad)} mismatches, e.g. {bad[:5]}"
