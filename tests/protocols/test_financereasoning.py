"""FinanceReasoning and FinMMR: every recorded decision of the peers' own code, reproduced without running text.

The oracle is tests/data/vectors/peers/{financereasoning,finmmr}.jsonl.gz: `normalize`, `get_acc` and the
one-item `eval_cot` result recorded by running the peers' code (vectors/README.md).
"""

from __future__ import annotations

import time

import pytest

from finscore.protocols import get_protocol
from finscore.protocols.financereasoning import score_cot_records
from finscore.protocols.peer_values import decode

from support.peer_vectors import check_every_recorded_line, check_no_text_is_executed, vector_lines

#: Rows per file, as tests/data/vectors/README.md lists them.
ROWS = {"financereasoning": 10_131, "finmmr": 12_958}
COMMITS = {"financereasoning": "1f9c5b9949e8469c8e01ff2683af7c3e4f7c909f",
           "finmmr": "d8b12ccc8318f1cdbb8d5fa9d917f82c49465a46"}

#: The rules the README's quirk list names: each decides some recorded line.
_RULES_SEEN = {"exact", "within_relative_tolerance", "outside_tolerance", "tuple_first_element", "bool_equality",
               "empty_or_none", "peer_executes_code"}


@pytest.mark.parametrize("peer", sorted(ROWS))
def test_every_recorded_line_matches(peer: str) -> None:
    check_every_recorded_line(peer, ROWS[peer], _RULES_SEEN)


@pytest.mark.parametrize("peer", sorted(ROWS))
def test_no_text_is_ever_executed(peer: str, monkeypatch: pytest.MonkeyPatch) -> None:
    check_no_text_is_executed(peer, ROWS[peer], monkeypatch)




def test_record_names_the_peer_code() -> None:
    for peer, commit in COMMITS.items():
        protocol = get_protocol(peer)
        assert (protocol.commit, protocol.decision_key) == (commit, "acc")


def test_comma_thousands_read_as_a_tuple() -> None:
    """README: `1,234` is the tuple (1, 234) and scores its first element."""
    line = {"kind": "adv", "pred": "1,234", "gt": {"int": "1"}}
    decided = get_protocol("finmmr").decide_line(line)
    assert decided["acc"] == {"value": 1}
    assert decided["reason"] == "tuple_first_element"
    assert decided["normalized"] == {"value": {"type": "tuple", "repr": "(1, 234)"}}


def test_whole_file_figures_are_not_decided_line_by_line() -> None:
    for peer in ROWS:
        protocol = get_protocol(peer)
        decided = {str(protocol.decide_line(line)) for line in vector_lines(peer) if line["kind"] == "file_figure"}
        assert decided == {"{'reason': 'needs_whole_file'}"}


@pytest.mark.parametrize("pred", ["1+" * 500_000 + "1", "(" * 1_000 + "1" + ")" * 1_000, "9**9**9", "1" * 5_000])
def test_bounds_decide_quickly_as_exceeded_bounds(pred: str) -> None:
    for peer in ("financereasoning", "financemath"):
        start = time.perf_counter()
        decided = get_protocol(peer).decide_line({"kind": "edge", "pred": pred, "gt": {"int": "1"}, "gold": "1"})
        assert time.perf_counter() - start < 1.0
        assert decided["reason"] == "exceeded_bounds"
        assert decided["acc"]["undecided"] == "exceeded_bounds"


def test_a_file_s_figure_is_the_peer_s_rounded_mean() -> None:
    """`score_cot_records` on the stored answers as one file: the mean of the peer's recorded one-item results,
    in percent rounded to 2 places (`get_statistics`)."""
    lines = [line for line in vector_lines("finmmr") if line["kind"] == "stored"]
    records = [{"ground_truth": decode(line["gt"], "gt"), "result": {"extracted_answer": line["pred"]}}
               for line in lines]
    recorded = [line["pipeline"]["value"] for line in lines]
    figure = score_cot_records(records)
    assert figure["avg_accuracy"] == round(sum(r["acc"] for r in recorded) / len(recorded) * 100, 2)
    assert figure["avg_execution_rate"] == round(
        sum(r["execution_rate"] for r in recorded) / len(recorded) * 100, 2)
    assert (figure["undecided"], figure["stopped"]) == (0, False)
