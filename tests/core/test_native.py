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


PLAIN_TOKENS = ["add(", "subtract(", "divide(", "exp(", "greater(", "table_max(", "table_sum(", ")", "EOF",
                "#0", "#1", "#9", "1", "2.5", "-3", "1,000", "12%", "const_100", "const_m1", "r", "none",
                "", "9007199254740993", "\u00e9", "1e5", "(", "|"]


def test_native_plain_reader_survives_hostile_text_under_sanitizers(native: Path) -> None:
    """Random and mangled programs and tables: no sanitizer report, and the same
    outcomes as the WebAssembly build of the same reader."""
    from finscore.engine.core.binding import CoreError, get_core

    rnd = random.Random(7)
    lines, batches = [], []
    for _ in range(3000):
        programs = []
        for _ in range(rnd.randrange(1, 6)):
            tokens = [rnd.choice(PLAIN_TOKENS) for _ in range(rnd.randrange(0, 14))]
            text = "\x1f".join(tokens).encode("utf-8")
            if rnd.random() < 0.3:  # mangle bytes, separators included
                raw = bytearray(text)
                for _ in range(rnd.randrange(1, 4)):
                    raw.insert(rnd.randrange(len(raw) + 1), rnd.choice([0x1F, 0x00, 0xFF, 0x28, 0x29, 0x23, 0x2C]))
                text = bytes(raw).replace(b"\x1e", b"")
            programs.append(text)
        table = b"\x1e".join(b"\x1f".join(rnd.choice([b"r", b"", b"$ 1,234", b"( 2 )", b"7 ( a )", b"x\xc3\xa9"])
                                           for _ in range(rnd.randrange(1, 4))) for _ in range(rnd.randrange(0, 4)))
        text = b"\x1e".join(programs)
        lines.append(f"read {len(programs)} {text.hex() or '-'} {table.hex() or '-'}")
        batches.append((programs, table))
    native_lines = run_native(native / "driver", "\n".join(lines) + "\n").splitlines()
    assert len(native_lines) == len(lines)
    core = get_core()
    refused = 0
    for (programs, table), line in zip(batches, native_lines):
        try:
            output = core.read_execute_text(b"\x1e".join(programs), len(programs), table,
                                            [0, len(table)] if table else [],
                                            [0 if table else -1] * len(programs), steps=256, table_values=256)
        except CoreError as refusal:  # framing refused as a whole (empty program, bad UTF-8, ...)
            refused += 1
            assert line == str(refusal.status), (programs, table)
            continue
        mine = [(str(output.status(k)), _bits(output.value(k)) if output.status(k) == 1400 else "0" * 16)
                for k in range(len(programs))]
        status, *pairs = line.split()
        assert status == "1400"
        assert mine == list(zip(pairs[0::2], pairs[1::2])), (programs, table)
    assert 0 < refused < len(batches) // 2  # both paths are exercised


def _bits(x: float) -> str:
    return f"{double_to_bits(x):016x}"
