"""FinanceMath and DocMath-Eval: every recorded decision of the peers' own code, reproduced without running text.

The oracle is tests/data/vectors/peers/{financemath,docmath}.jsonl.gz: `normalize`, `get_acc` and the
one-item `evaluate_cot_pred_file` result recorded by running yale-nlp's code (vectors/README.md).
"""

from __future__ import annotations

import math

import pytest

from finscore.protocols import get_protocol
from finscore.protocols.financemath import compare_two_numbers, score_cot_items
from finscore.protocols.peer_values import PeerValueError, decode

from support.peer_vectors import check_every_recorded_line, check_no_text_is_executed, vector_lines

#: Rows per file, as tests/data/vectors/README.md lists them.
ROWS = {"financemath": 15_334, "docmath": 5_207}
#: Commits named in tests/data/vectors/README.md for the recorded code.
COMMITS = {"financemath": "bdddc58655947475da852e241b96a7dbd1478742",
           "docmath": "a175c0ce159d5661077db4c24ced9b3672c1242b"}

#: The rules the README's quirk list names: each decides some recorded line.
_RULES_SEEN = {"sign_ignored", "power_of_ten_ratio", "percent_scale", "three_decimal_ceiling",
               "eval_failed_zero", "peer_executes_code", "peer_stops_run", "not_text"}


@pytest.mark.parametrize("peer", sorted(ROWS))
def test_every_recorded_line_matches(peer: str) -> None:
    check_every_recorded_line(peer, ROWS[peer], _RULES_SEEN)


@pytest.mark.parametrize("peer", sorted(ROWS))
def test_no_text_is_ever_executed(peer: str, monkeypatch: pytest.MonkeyPatch) -> None:
    check_no_text_is_executed(peer, ROWS[peer], monkeypatch)




def test_nan_matches_every_gold() -> None:
    """The peer's own decisions on `float('nan')` (every gold accepted), through the comparison rule."""
    golds = [decode(line["gt"], "gt") for line in vector_lines("financemath") if line.get("pred") == "float('nan')"]
    assert len(golds) == 7
    for line in vector_lines("financemath"):
        if line.get("pred") == "float('nan')":
            assert line["acc"] == {"value": 1}
    assert {compare_two_numbers(math.nan, gt) for gt in golds} == {(True, "nan_matches_all")}


def test_record_names_the_peer_code() -> None:
    for peer, commit in COMMITS.items():
        protocol = get_protocol(peer)
        assert (protocol.commit, protocol.decision_key) == (commit, "acc")
        assert protocol.path.startswith("utils/evaluation_utils.py")


def test_whole_file_figures_are_not_decided_line_by_line() -> None:
    protocol = get_protocol("financemath")
    figures = [line for line in vector_lines("financemath") if line["kind"] == "file_figure"]
    assert len(figures) == 103
    assert {str(protocol.decide_line(line)) for line in figures} == {"{'reason': 'needs_whole_file'}"}


def test_sys_exit_is_the_peer_stopping() -> None:
    line = {"kind": "code", "pred": "sys.exit(0)", "gold": "1.0", "gt": {"float": "0x1.0p+0", "repr": "1.0"}}
    decided = get_protocol("financemath").decide_line(line)
    assert decided["acc"] == {"raises": "SystemExit"}
    assert decided["reason"] == "peer_stops_run"


def test_unknown_code_is_marked_not_guessed() -> None:
    line = {"kind": "code", "pred": "open('x').read()", "gold": "1.0", "gt": {"float": "0x1.0p+0", "repr": "1.0"}}
    decided = get_protocol("docmath").decide_line(line)
    assert decided["reason"] == "peer_executes_code"
    assert decided["acc"]["undecided"] == "peer_executes_code"
    assert "value" not in decided["acc"]


def test_bad_lines_name_the_field() -> None:
    protocol = get_protocol("financemath")
    with pytest.raises(PeerValueError, match="'gt'"):
        protocol.decide_line({"kind": "adv", "pred": "5"})
    with pytest.raises(PeerValueError, match="gt: not a tagged value"):
        protocol.decide_line({"kind": "adv", "pred": "5", "gt": {"decimal": "5"}})


def test_a_file_s_figure_is_the_peer_s_rounded_mean() -> None:
    """`score_cot_items` on the stored answers as one file: the mean of the peer's recorded one-item results,
    in percent rounded to 2 places (`get_result`)."""
    lines = [line for line in vector_lines("financemath") if line["kind"] == "stored"]
    items = [{"question_id": f"item-{n}", "topic": "all", "extracted_pred_answer": line["pred"]}
             for n, line in enumerate(lines)]
    gold = {f"item-{n}": str(line["gold"]) for n, line in enumerate(lines)}
    recorded = [line["pipeline"]["value"] for line in lines]
    figure = score_cot_items(items, gold)
    expected = round(sum(r["acc"] for r in recorded) / len(recorded) * 100, 2)
    assert figure["accuracy"] == expected
    assert figure["topic_accuracy"] == {"all": expected}
    assert figure["execution_rate"] == round(sum(r["execution_rate"] for r in recorded) / len(recorded) * 100, 2)
    assert (figure["undecided"], figure["stopped"]) == (0, False)


def test_the_pipeline_drops_none_answers_even_when_the_answer_is_code() -> None:
    """evaluation.py: an answer containing "none" scores 0, execution rate 0, before any eval()."""
    line = {"kind": "code", "pred": "open(None)", "gold": "1.0", "gt": {"float": "0x1.0p+0", "repr": "1.0"}}
    decided = get_protocol("financemath").decide_line(line)
    assert decided["acc"]["undecided"] == "peer_executes_code"
    assert decided["pipeline"] == {"value": {"execution_rate": 0, "acc": 0}}
