"""Write finscore's Unicode tables from the real CPython interpreters (run by hand).

    python tools/unicode/make_tables.py [--check] [--python 3.N=PATH ...]

For each CPython the `python` option can name (3.11, 3.12, 3.13), asks that very
interpreter (found as the tests find it, or named with --python), which non-ASCII characters its float() and int()
read as a decimal digit (and with which value) and which as whitespace, and which
characters its str.strip() removes. The answers go, as data, into
python/finscore/engine/reader/unicode_data.py, so that finscore reads numbers as the
chosen CPython did whatever interpreter it runs in (a 3.11 CPython and the
playground's Pyodide 3.14 agree). --check compares instead of writing (exit 1 on a
difference); tests/engine/test_codepoints_tables.py does the same where the
interpreters exist.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # the oracles are found as the tests and scripts/test find them

from support.pythons import find_python  # noqa: E402
TARGET = ROOT / "python" / "finscore" / "engine" / "reader" / "unicode_data.py"
MINORS = (11, 12, 13)

#: Run inside each interpreter: its own float() decides every non-ASCII code point.
PROBE = r"""
import json, sys, unicodedata
digits, spaces = [], []
for code in range(128, sys.maxunicode + 1):
    char = chr(code)
    try:
        value = float(char)
    except ValueError:
        try:
            float("1" + char)
        except ValueError:
            continue
        spaces.append(code)
        continue
    digits.append((code, int(value)))
stripped = [code for code in range(sys.maxunicode + 1) if not ("a" + chr(code)).strip() == "a" + chr(code)]
print(json.dumps({"unicode": unicodedata.unidata_version, "python": "%d.%d.%d" % sys.version_info[:3],
                  "digits": digits, "spaces": spaces, "strip": stripped}))
"""


def interpreter(minor: int, given: dict[int, str]) -> str:
    """The CPython 3.<minor> to ask: the one given with --python, else the one tests/support/pythons.py
    finds (this interpreter, the newest under pyenv, or python3.<minor> on PATH)."""
    if minor in given:
        return given[minor]
    found = find_python(minor)
    if found is not None:
        return found
    raise SystemExit(f"CPython 3.{minor} is not installed (under pyenv or as python3.{minor} on PATH); "
                     f"name one with --python 3.{minor}=PATH")


def _python_option(text: str) -> tuple[int, str]:
    version, _, path = text.partition("=")
    major, _, minor = version.partition(".")
    if major != "3" or not minor.isdigit() or int(minor) not in MINORS or not path:
        raise argparse.ArgumentTypeError(f"{text!r} is not 3.N=PATH with N one of {', '.join(map(str, MINORS))}")
    return int(minor), path


def probe(executable: str) -> dict[str, Any]:
    try:
        done = subprocess.run([executable, "-I", "-c", PROBE], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        raise SystemExit(f"cannot ask {executable}: {error}") from None
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def zeros_of(digits: list[tuple[int, int]]) -> list[int]:
    """The digit zeros: each digit's value is its distance from one of them (checked)."""
    zeros = sorted({code - value for code, value in digits})
    listed = {code: value for code, value in digits}
    for zero in zeros:
        for value in range(10):
            if listed.get(zero + value) != value:
                raise SystemExit(f"digits near U+{zero:04X} are not a run of ten")
    if len(zeros) * 10 != len(digits):
        raise SystemExit("some digits are not in a run of ten")
    return zeros


def render(answers: dict[int, dict[str, Any]]) -> str:
    lines = [
        '"""Unicode data of the CPython versions finscore imitates (generated; do not edit).',
        "",
        "Written by tools/unicode/make_tables.py from the interpreters themselves: per CPython",
        "minor version, its Unicode version, the non-ASCII characters its float() and int() read",
        "as decimal digits (as the zeros of runs of ten) and as whitespace, and every character",
        "its str.strip() removes.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import NamedTuple",
        "",
        "",
        "class UnicodeRule(NamedTuple):",
        "    python: str  # the interpreter the data came from",
        "    unicode: str",
        "    digit_zeros: tuple[int, ...]  # non-ASCII code points of digit 0; 1..9 follow each",
        "    number_spaces: tuple[int, ...]  # non-ASCII code points float()/int() read as a space",
        "    strip_spaces: tuple[int, ...]  # every code point str.strip() removes",
        "",
        "",
        "RULES: dict[int, UnicodeRule] = {",
    ]
    for minor, answer in answers.items():
        digits = [(int(c), int(v)) for c, v in answer["digits"]]
        lines.append(f"    {minor}: UnicodeRule(")
        lines.append(f"        python={answer['python']!r},")
        lines.append(f"        unicode={answer['unicode']!r},")
        for name, values in (("digit_zeros", zeros_of(digits)), ("number_spaces", answer["spaces"]),
                             ("strip_spaces", answer["strip"])):
            lines.append(f"        {name}=(")
            items = [f"0x{code:05X}," for code in values]
            for at in range(0, len(items), 10):
                lines.append("            " + " ".join(items[at:at + 10]))
            lines.append("        ),")
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed tables")
    parser.add_argument("--python", type=_python_option, action="append", default=[], metavar="3.N=PATH",
                        help="the interpreter to ask for CPython 3.N (default: the newest under pyenv, "
                             "else python3.N on PATH); repeat for each version")
    options = parser.parse_args()
    given = dict(options.python)
    text = render({minor: probe(interpreter(minor, given)) for minor in MINORS})
    ast.parse(text)
    if options.check:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET} differs from what the interpreters say", file=sys.stderr)
            raise SystemExit(1)
        print("tables are fresh")
        return
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
