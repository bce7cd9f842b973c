"""Write web/src/answers.json, the playground's copy of what its answer view needs before Python.

The page decides a free-text answer with the core (fs_decide_answers, through the JavaScript
binding) as soon as the module is compiled. For that it needs what finscore's Python package
holds: the protocols and formats the answer view offers (finscore_playground.answer_options, the
very lists Python gives), each protocol's rules as the core reads them (answers/in_core.py's
core_rules; null when the core cannot hold them), and the words Python writes in a decision
(answers/compare.py's details, answers/locate.py's refusal). Written here from the package, so
nothing is spelt twice; `--check` exits 1 when the committed file is stale
(tests/web/test_answers_json.py runs it).

    python tools/answers/make_web_answers.py [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated import write_or_check  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "web" / "src" / "answers.json"


def document() -> str:
    """The file's text, from the shipped protocols."""
    sys.path.insert(0, str(ROOT / "python"))
    sys.path.insert(0, str(ROOT / "web" / "py"))
    from finscore.answers import get_protocol
    from finscore.answers.reasons import PASS_REASONS
    from finscore.answers.compare import (EQUAL_DETAIL, NEGATED_DETAIL, rounding_detail, scaled_detail, within_detail,
                                          wrong_value_detail)
    from finscore.answers.gold import SCALES, TATQA_ANSWER_TYPES, Gold
    from finscore.answers.in_core import CORE_FORMATS, core_rules
    from finscore.answers.locate import NO_ANSWER_LINE
    from finscore_playground import _NUMERIC_ANSWER_TYPES, MAX_ANSWER_REQUEST_CHARS, answer_options

    options = json.loads(answer_options())
    protocols = []
    for shown in options["protocols"]:
        protocol = get_protocol(shown["name"])
        rules = core_rules(protocol)
        protocols.append({**shown, "core_rules": None if rules is None else rules.decode("ascii"),
                          "within_detail": within_detail(protocol.tolerance)})
    placeholder = Gold(None, None, "{gold}", False, False, Decimal(0), 0, "")
    k: Any = "{k}"  # the details' own functions, given placeholders the page fills in
    return json.dumps({
        "generated_by": "tools/answers/make_web_answers.py (from finscore.answers and finscore_playground)",
        "formats": options["formats"],
        "core_formats": list(CORE_FORMATS),
        "max_request_chars": MAX_ANSWER_REQUEST_CHARS,
        # what the gold readers accept (answers/gold.py, finscore_playground.answer_gold)
        "tatqa_scales": dict(SCALES), "tatqa_answer_types": list(TATQA_ANSWER_TYPES),
        "numeric_answer_types": list(_NUMERIC_ANSWER_TYPES),
        "pass_reasons": list(PASS_REASONS),
        "protocols": protocols,
        # the words of a decision; {k}, {value} and {gold} are filled in by the page
        "details": {"equal": EQUAL_DETAIL, "negated": NEGATED_DETAIL, "rounding": rounding_detail(k),
                    "scaled": scaled_detail(k), "wrong_value": wrong_value_detail("{value}", placeholder),
                    "no_answer_line": NO_ANSWER_LINE},
    }, indent=2, ensure_ascii=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if web/src/answers.json is stale")
    args = parser.parse_args(argv)
    return write_or_check({TARGET: document().encode("utf-8")}, ROOT, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
