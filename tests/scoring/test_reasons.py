"""One vocabulary: every reason word a benchmark writes is defined in scoring.reasons, once, with its concept.

The words themselves are recorded facts: the answer conformance files (hashed into reward
stamps) and the docs name them, so the words checked here are the ones those files hold.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from finscore.answers import reasons as answers
from finscore.finqa import categories as finqa
from finscore.rewards import decisions as rewards
from finscore.scoring import reasons
from finscore.tatqa import reasons as tatqa

CONFORMANCE = Path(answers.__file__).parent / "conformance"


def _constants(module: object) -> dict[str, str]:
    return {name: value for name, value in vars(module).items() if name.isupper() and isinstance(value, str)}


def test_every_benchmark_word_is_the_vocabulary_word_of_the_same_name() -> None:
    vocabulary = _constants(reasons)
    for module in (finqa, tatqa, answers, rewards):
        for name, value in _constants(module).items():
            assert vocabulary[name] == value, (module, name)
            assert getattr(module, name) is getattr(reasons, name)


def test_one_word_per_name_and_each_word_described() -> None:
    words = list(_constants(reasons).values())
    assert len(words) == len(set(words))
    assert set(reasons.VOCABULARY) == set(words)
    assert set(finqa.CATEGORY_DESCRIPTIONS) | set(tatqa.REASON_DESCRIPTIONS) | set(answers.ALL_REASONS) <= set(words)


def test_recorded_answer_reasons_are_vocabulary_words() -> None:
    recorded: set[str] = set()
    for path in sorted(CONFORMANCE.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            text = lines.read()
        recorded |= {word for word in answers.ALL_REASONS if json.dumps(word) in text}
    assert {"sign_flipped", "missing_prediction"} <= recorded
    assert recorded <= set(reasons.VOCABULARY)


def test_the_three_sign_misses_keep_their_recorded_words() -> None:
    assert (finqa.WRONG_SIGN, tatqa.SIGN, answers.SIGN_FLIPPED) == ("wrong_sign", "sign", "sign_flipped")
