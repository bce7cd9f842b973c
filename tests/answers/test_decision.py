"""Decision.canonical_json writes what the standard library's encoder writes, byte for byte.

The oracle is CPython's `json.dumps(decision.to_json(), sort_keys=True, separators=(",", ":"),
ensure_ascii=False)`, on every decision of the conformance files, on generated answers (through
the core and through Python), on hostile completions (quotes, backslashes, control characters,
non-ASCII and lone surrogates in what is read and shown) and on decisions built by hand with
other types, which must fall back to the encoder itself.
"""

from __future__ import annotations

import json
import random

import pytest

from finscore.answers import decide, decide_batch, get_protocol
from finscore.answers.decision import Decision
from tests.answers.test_conformance import STEMS, rows
from tests.answers.test_hostile import GOLD, HOSTILE
from tests.answers.test_in_core import completion_text, generated_gold

FORMATS = ("answer-line", "whole", "boxed", "json")


def _oracle(decision: Decision) -> str:
    return json.dumps(decision.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _mismatches(decisions: list[Decision]) -> list[tuple[Decision, str]]:
    return [(d, d.canonical_json()) for d in decisions if d.canonical_json() != _oracle(d)]


@pytest.mark.parametrize("name", sorted(STEMS))
def test_every_conformance_decision(name: str) -> None:
    protocol = get_protocol(name)
    decisions = [decide(row["completion"], row["gold"], protocol, row["format"]) for row in rows(STEMS[name])]
    assert len({d.reason for d in decisions}) >= 10  # the rows reach (nearly) every reason
    assert _mismatches(decisions) == []


@pytest.mark.parametrize("name", sorted(STEMS))
def test_generated_answers_decided_in_the_core_and_in_python(name: str) -> None:
    protocol = get_protocol(name)
    rng = random.Random(f"canonical/{name}")
    golds = [generated_gold(rng, protocol) for _ in range(100)]
    for answer_format in ("answer-line", "whole"):
        chosen = [golds[rng.randrange(len(golds))] for _ in range(2000)]
        completions = [completion_text(rng, gold.value, answer_format) for gold in chosen]
        assert _mismatches(decide_batch(completions, chosen, protocol, answer_format)) == []


@pytest.mark.parametrize("answer_format", FORMATS)
def test_hostile_and_unusual_text(answer_format: str) -> None:
    texts = [text for name, text in sorted(HOSTILE.items()) if len(text) < 100_000]
    texts += ['Answer: "94" \\ 94', "Answer: 94\x00\x1f\x7f", "Answer: ९४", "Answer: 94 \u2028\u2029",
              'Answer: \\boxed{"94"}', "{\"answer\": \"9\\u00344\"}", "Answer: \ud800\udc00 94", "Answer: 𝟗𝟒"]
    decisions = [decide(text, GOLD, "finqa-answer/1", answer_format) for text in texts]
    assert _mismatches(decisions) == []


@pytest.mark.parametrize("decision", [
    Decision(True, "exact", None, "94", "94", "94", (8, 10), "equal to the gold"),
    Decision(False, "scale_off", -3, "0.094", "94", "94", (0, 2), "a factor of 10^-3"),
    Decision(False, "no_final_answer", None, None, None, "94", None, "no line starts with 'Answer:'"),
    Decision(False, "rounding", True, "94", "94", "94", (0, 2), "bool k"),
    Decision(1, "exact", None, "94", "94", "94", (0, 2), "int passed"),  # type: ignore[arg-type]
    Decision(False, "wrong_value", 2**70, "94", "94", "94", [3, 4], "list span"),  # type: ignore[arg-type]
    Decision(False, "wrong_value", None, "94", "94", "94", (), "empty span"),  # type: ignore[arg-type]
    Decision(False, "wrong_value", None, 94, "94", "94", (0, 2), "int value"),  # type: ignore[arg-type]
])
def test_decisions_built_by_hand(decision: Decision) -> None:
    assert decision.canonical_json() == _oracle(decision)
