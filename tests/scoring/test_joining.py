"""The shared join says, for FinQA, TAT-QA and answer files, exactly what each join said at fef6600.

Every expected string below was printed by the three separate joins of commit fef6600 on the same
inputs, before they became one; a changed byte here is a changed user message.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from finscore.answers import predictions as answers
from finscore.finqa import joining as finqa
from finscore.finqa.inputs import FinqaInputError, GoldExample, GoldFile, MalformedEntry, Prediction, PredictionFile
from finscore.tatqa import joining as tatqa
from finscore.tatqa.files import TatqaInputError
from finscore.tatqa.inputs import Entry

FINQA_GOLD = GoldFile(tuple(GoldExample(name, [], "", (), None) for name in "abcdef"))
FINQA_PREDICTIONS = PredictionFile(
    (Prediction("a", ("x",), 0), Prediction("a", ("z",), 1), Prediction("zz", ("x",), 2),
     Prediction("zz", ("x",), 3)),
    (MalformedEntry(4, "a", "bad tokens"), MalformedEntry(5, None, "not an object")),
)


def test_finqa_rejection_names_unknown_repeated_and_malformed_entries() -> None:
    with pytest.raises(finqa.PredictionsRejected) as rejected:
        finqa.join_predictions(FINQA_PREDICTIONS, FINQA_GOLD)
    assert isinstance(rejected.value, FinqaInputError)
    assert str(rejected.value) == (
        "the prediction file cannot be scored as it is:\n"
        "  2 prediction(s) with an id that is not in the gold file: 'zz', 'zz'\n"
        "  1 id(s) predicted more than once: 'a' (entries 0, 1, 4)\n"
        "  2 malformed entries: entry 4 (id 'a'): bad tokens, entry 5: not an object\n"
        "  (--exclude-bad-ids scores the rest and reports these as exclusions)")


def test_finqa_exclusions_and_unscored() -> None:
    joined = finqa.join_predictions(FINQA_PREDICTIONS, FINQA_GOLD, exclude_bad=True)
    assert joined.pairs == ()
    assert joined.excluded_ids == ["a"] and joined.missing_ids == ["b", "c", "d", "e", "f"]
    assert [e.describe() for e in joined.exclusions] == [
        "entry 0 (id 'a'): conflicts with entries 1, 4 (different predictions: none kept)",
        "entry 1 (id 'a'): conflicts with entries 0, 4 (different predictions: none kept)",
        "entry 2 (id 'zz'): the id is not in the gold file",
        "entry 3 (id 'zz'): the id is not in the gold file",
        "entry 4 (id 'a'): bad tokens",
        "entry 5: not an object",
    ]
    assert [e.kind for e in joined.exclusions] == ["duplicate_id"] * 2 + ["unknown_id"] * 2 + ["malformed_entry"] * 2


def test_finqa_identical_copies_keep_the_first_and_pairs_follow_the_file() -> None:
    predictions = PredictionFile((Prediction("b", ("y",), 0), Prediction("a", ("x",), 1), Prediction("a", ("x",), 2)),
                                 ())
    joined = finqa.join_predictions(predictions, FINQA_GOLD, exclude_bad=True)
    assert [(p.gold.id, p.prediction.position) for p in joined.pairs] == [("b", 0), ("a", 1)]
    assert [e.describe() for e in joined.exclusions] == ["entry 2 (id 'a'): repeats entry 1 (identical prediction, "
                                                         "first kept)"]


def _tatqa_entries() -> list[Entry]:
    rows: list[tuple[str, Any, str | None]] = [("a", 1, None), ("a", 2, None), ("a", 1, "bad answer"), ("zz", 1, None),
                                               ("zz", 1, None), ("zz", 1, "p"), ("b", [2], None)]
    return [Entry(uid, value, position, problem) for position, (uid, value, problem) in enumerate(rows)]


TATQA_GOLD: Any = [SimpleNamespace(uid=uid) for uid in "abcd"]


def test_tatqa_rejection_lists_an_unknown_uid_once() -> None:
    with pytest.raises(tatqa.PredictionsRejected) as rejected:
        tatqa.join(_tatqa_entries(), TATQA_GOLD)
    assert isinstance(rejected.value, TatqaInputError)
    assert str(rejected.value) == (
        "the prediction file cannot be scored as it is:\n"
        "  1 uid(s) not in the gold file (the official script ignores them): 'zz'\n"
        "  1 uid(s) given more than once, as duplicate JSON keys (the official json.load keeps the last one "
        "silently): 'a' (entries 0, 1, 2)\n"
        "  2 malformed entries: entry 2 (uid 'a'): bad answer, entry 5 (uid 'zz'): p\n"
        "  (--exclude-bad-ids scores the rest and reports these as exclusions)")


def test_tatqa_exclusions_pairs_in_gold_order() -> None:
    joined = tatqa.join(_tatqa_entries(), TATQA_GOLD, exclude_bad=True)
    assert [(question.uid, entry.position) for question, entry in joined.pairs] == [("b", 6)]
    assert [(question.uid, why) for question, why in joined.unscored] == [
        ("a", "excluded"), ("c", "missing"), ("d", "missing")]
    assert [e.describe() for e in joined.exclusions][:2] == [
        "entry 0 (uid 'a'): conflicts with entries 1, 2 (different values: none kept)",
        "entry 1 (uid 'a'): conflicts with entries 0, 2 (different values: none kept)",
    ]
    assert [e.uid for e in joined.exclusions] == ["a", "a", "a", "zz", "zz", "zz"]
    assert joined.entries == 7


ANSWER_LINES = b"\n".join([
    b'{"id": "a", "answer": 1}', b'{"id": "a", "answer": 1}', b'{"id": "b", "completion": "x"}',
    b'{"id": "b", "completion": "y"}', b'{"id": "b", "answer": "x"}', b'{"id": "zz", "answer": 1}',
    b'{"id": "zz", "answer": 1}', b"[1]", b'{"id": "c"}', b"\xff", b'{"id": "d", "answer": 2}'])


def test_answer_join_words_lines_and_rejects_as_finqa_does() -> None:
    good, bad, _ = answers.read_prediction_lines(ANSWER_LINES)
    with pytest.raises(FinqaInputError) as rejected:
        answers.join_answer_predictions(good, bad, {"a", "b", "c", "d"}, exclude_bad=False)
    assert str(rejected.value) == (
        "the prediction file cannot be scored as it is:\n"
        "  2 prediction(s) with an id that is not in the gold file: 'zz', 'zz'\n"
        "  2 id(s) predicted more than once: 'a' (entries 1, 2), 'b' (entries 3, 4, 5)\n"
        "  3 malformed entries: entry 8: not a JSON object, entry 9 (id 'c'): needs exactly one of \"completion\" "
        "and \"answer\", entry 10: not UTF-8 text (byte 0)\n"
        "  (--exclude-bad-ids scores the rest and reports these as exclusions)")
    kept, exclusions = answers.join_answer_predictions(good, bad, {"a", "b", "c", "d"}, exclude_bad=True)
    assert [(name, entry.position) for name, entry in kept.items()] == [("a", 1), ("d", 11)]
    assert [answers.describe_exclusion(e) for e in exclusions][:2] == [
        {"line": 2, "id": "a", "kind": "duplicate_id", "detail": "repeats line 1 (identical, first kept)"},
        {"line": 3, "id": "b", "kind": "duplicate_id", "detail": "lines 3, 4, 5 differ: none kept"},
    ]
    assert [e.position for e in exclusions] == [2, 3, 4, 5, 6, 7, 8, 9, 10]
