"""Write web/src/benchmarks.json, the playground's copy of the benchmark registry (finscore.registry).

The page lists the benchmarks its file scorer knows from this file, so a benchmark is named once,
in its descriptor. Run after changing a descriptor; `--check` exits 1 when the committed file is
stale (tests/web/test_benchmarks_json.py runs it).

    python tools/registry/make_web_benchmarks.py [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "web" / "src" / "benchmarks.json"


def document() -> str:
    """The file's text, from the shipped descriptors."""
    sys.path.insert(0, str(ROOT / "python"))
    sys.path.insert(0, str(ROOT / "web" / "py"))
    from finscore import registry
    from finscore_playground import BENCHMARKS as FILE_SCORERS

    # `file_scorer`: whether the page's Python side scores this benchmark's files (the menu lists
    # only those; another registered benchmark is named here but scored by its command)
    benchmarks = [{"name": b.name, "title": b.title, "official_scorer": b.official_scorer,
                   "answer_protocols": list(b.answer_protocols), "program_profile": b.program_profile,
                   "file_scorer": b.name in FILE_SCORERS}
                  for b in registry.benchmarks()]
    return json.dumps({"generated_by": "tools/registry/make_web_benchmarks.py (from finscore.registry)",
                       "benchmarks": benchmarks,
                       "default_answer_protocol": registry.all_answer_protocols()[0]},
                      indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if web/src/benchmarks.json is stale")
    args = parser.parse_args(argv)
    text = document()
    if args.check:
        fresh = TARGET.is_file() and TARGET.read_text(encoding="utf-8") == text
        if not fresh:
            print(f"{TARGET.relative_to(ROOT)} is stale: run python {Path(__file__).relative_to(ROOT)}",
                  file=sys.stderr)
        return 0 if fresh else 1
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
