"""`finscore protocols compare` on FinanceMath-style questions: each protocol reproduces its peer's
recorded decision, and each disagreement's typed reason is the one the peers' written rules give.

The oracles: the four eval() peers' own decisions recorded in tests/data/vectors/peers/ (their
`pipeline`, and what their `normalize` returned), and, for hand-written cases, the peers' written
rules (FinanceMath's `compare_two_numbers`, FinanceReasoning's 0.2% tolerance and raw `eval()`, the
pipelines' "none" rule, PIXIU's `pred.strip() == gold`)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from finscore.cli import main
from finscore.protocols import disagreement as D
from finscore.protocols.compare import compare
from finscore.protocols.compare_inputs import CompareInputError, Given, financemath_outputs, read_gold
from support.peer_vectors import vector_lines

PEERS = ("financemath", "docmath", "financereasoning", "finmmr")


def _decode(tagged: Any) -> Any:
    if isinstance(tagged, dict) and "float" in tagged:
        return float(tagged["repr"]) if tagged["float"] in ("nan", "inf", "-inf") else float.fromhex(tagged["float"])
    if isinstance(tagged, dict) and "int" in tagged:
        return int(tagged["int"])
    return tagged


def _value(normalized: dict[str, Any]) -> Any:
    """The recorded value the peer's normalize returned, as a Python number (None: not a plain number)."""
    described = normalized.get("value", {})
    if described.get("type") == "float":
        return float.fromhex(described["hex"]) if "hex" in described else float(described["repr"])
    if described.get("type") == "int":
        return int(described["repr"])
    return None


def _financemath_rule(p: float, gt: float) -> str:
    """FinanceMath's compare_two_numbers (utils/evaluation_utils.py), as written: the rule that accepts."""
    if isinstance(p, float) and math.isnan(p):
        return D.NAN_MATCHES_ALL
    if p == gt:  # whichever rule holds, an equal value is no leniency
        return "exact"
    v1, v2 = max(abs(gt), abs(p)), min(abs(gt), abs(p))
    if v1 != 0 and v2 != 0 and int(math.log10(v1 / v2)) == math.log10(v1 / v2):
        return D.SIGN_IGNORED if p == -gt else D.POWER_OF_TEN
    for factor, limit in ((100, 50), (1000, 500), (100000, 50000)):
        if v2 <= v1 / limit and v1 - abs(v1) * 0.0015 <= v2 * factor <= v1 + abs(v1) * 0.0015:
            return D.POWER_OF_TEN
    return D.INSIDE_TOLERANCE


@pytest.fixture(scope="module")
def recorded() -> list[dict[str, dict[str, Any]]]:
    """Answers all four peers' recorded lines hold (same text, same gold), by peer."""
    def key(line: dict[str, Any]) -> str:
        return json.dumps([line["pred"], line["gt"]], sort_keys=True)

    by_peer = {peer: {key(line): line for line in vector_lines(peer)
                      if isinstance(line.get("pred"), str) and "value" in line.get("pipeline", {})
                      and isinstance(_decode(line["gt"]), float)} for peer in PEERS}
    common = sorted(set.intersection(*(set(lines) for lines in by_peer.values())))
    return [{peer: by_peer[peer][k] for peer in PEERS} for k in common]


def _report(answers: list[tuple[str, str, Any]], question: str = "What is it?") -> dict[str, Any]:
    """compare() on (raw completion, extracted answer, gold) triples, one question each."""
    gold = [{"id": f"q{i}", "question": question, "ground_truth": truth} for i, (_, _, truth) in enumerate(answers)]
    completions = {f"q{i}": Given(raw, extracted) for i, (raw, extracted, _) in enumerate(answers)}
    return compare(completions, gold, "financemath")


def _why(report: dict[str, Any], example: str) -> dict[str, tuple[list[str], list[str]]]:
    item = next(d for d in report["disagreements"] if d["id"] == example)
    return {pair["reason"]: (pair["accepted_by"], pair["not_accepted_by"]) for pair in item["why"]}


def test_every_peer_row_is_its_recorded_decision(recorded: list[dict[str, dict[str, Any]]]) -> None:
    answers = [("", lines["financemath"]["pred"], _decode(lines["financemath"]["gt"])) for lines in recorded]
    report = _report(answers)
    rows = {row["protocol"]: row for row in report["protocols"]}
    for peer in PEERS:
        expected = sum(lines[peer]["pipeline"]["value"]["acc"] for lines in recorded)
        assert (rows[peer]["accepted"], rows[peer]["denominator"]) == (expected, len(recorded)), peer
    disagreeing = {f"q{i}" for i, lines in enumerate(recorded)
                   if len({lines[peer]["pipeline"]["value"]["acc"] for peer in PEERS}) > 1
                   or lines["financemath"]["pipeline"]["value"]["acc"] == 1}  # financemath-answer/1 rejects ""
    assert {d["id"] for d in report["disagreements"]} == disagreeing


def test_each_peer_disagreement_has_the_reason_of_the_written_rules(recorded: list[dict[str, dict[str, Any]]]) -> None:
    answers = [("", lines["financemath"]["pred"], _decode(lines["financemath"]["gt"])) for lines in recorded]
    report = _report(answers)
    checked: dict[str, int] = {}
    for i, lines in enumerate(recorded):
        fm, fr = (lines[peer]["pipeline"]["value"]["acc"] for peer in ("financemath", "financereasoning"))
        if fm == fr:
            continue
        gt = _decode(lines["financemath"]["gt"])
        p_fm, p_fr = _value(lines["financemath"]["normalized"]), _value(lines["financereasoning"]["normalized"])
        fr_type = lines["financereasoning"]["normalized"].get("value", {}).get("type")
        if fm == 1 and p_fm is not None:
            rule = _financemath_rule(p_fm, gt)
            if rule != "exact":
                expected = rule
            elif fr_type == "tuple":
                expected = D.TUPLE_FIRST_ELEMENT
            else:
                continue  # FinanceReasoning read another value: no written rule names it alone
            yes, no = ["financemath", "docmath"], ["financereasoning", "finmmr"]
        elif fr == 1 and p_fr is not None and p_fr == p_fm:
            # the same value read; FinanceMath's 0.15% is narrower than FinanceReasoning's 0.2%
            expected, yes, no = D.INSIDE_TOLERANCE, ["financereasoning", "finmmr"], ["financemath", "docmath"]
        else:
            continue
        why = _why(report, f"q{i}")
        assert expected in why, (lines["financemath"]["pred"], gt, why)
        assert set(yes) <= set(why[expected][0]) and set(no) <= set(why[expected][1])
        checked[expected] = checked.get(expected, 0) + 1
    assert set(checked) >= {D.POWER_OF_TEN, D.INSIDE_TOLERANCE, D.SIGN_IGNORED, D.NAN_MATCHES_ALL}, checked


@pytest.mark.parametrize(("raw", "extracted", "gold", "reason", "accepted_by", "not_accepted_by"), [
    # FinanceMath's pipeline: an answer containing "none" scores 0 before any reading
    ("So the answer is 5.", "None", 5.0, D.NONE_IN_ANSWER, ["financemath-answer/1"], ["financemath"]),
    # the peers read the extracted answer; the raw text names no answer with the phrase
    ("We get 5 in the end", "5", 5.0, D.ANSWER_NOT_LOCATED, ["financemath"], ["financemath-answer/1"]),
    # the extracted answer and the raw text's marked answer are different numbers
    ("The answer is 6.", "5", 5.0, D.OTHER_TEXT_READ, ["financemath"], ["financemath-answer/1"]),
    # FinanceMath writes `10^3` as math.pow(10, 3), 1000; FinanceReasoning eval()s the raw text first: 10 xor 3 is 9
    ("The answer is 1000.", "10^3", 1000.0, D.READS_DIFFERENTLY, ["financemath"], ["financereasoning"]),
    # FinanceReasoning eval()s the raw text first: `5,000` is the tuple (5, 0), scored by 5
    ("The answer is 5,000.", "5,000", 5000.0, D.TUPLE_FIRST_ELEMENT, ["financemath"], ["financereasoning"]),
    # a % deleted without scaling: 12 against 0.12 is FinanceMath's x100 rule, a hundredth for finscore
    ("The answer is 12%.", "12%", 0.12, D.POWER_OF_TEN, ["financemath"], ["financereasoning"]),
    ("The answer is 12%.", "12%", 0.12, D.PERCENT_SIGN, ["financemath-answer/1"], ["financereasoning"]),
    # FinanceMath ignores the sign
    ("The answer is 5.", "-5", 5.0, D.SIGN_IGNORED, ["financemath"], ["financereasoning"]),
    # 0.18% off: inside FinanceReasoning's 0.2%, outside FinanceMath's 0.15%
    ("The answer is 1001.8.", "1001.8", 1000.0, D.INSIDE_TOLERANCE, ["financereasoning"], ["financemath"]),
    # sys.exit() as an answer stops FinanceMath's run (SystemExit passes get_acc)
    ("The answer is 5.", "sys.exit(0)", 5.0, D.PEER_RAISES, ["financemath-answer/1"], ["financemath"]),
    # FinanceMath: anything eval() cannot evaluate becomes 0, and so matches a gold of 0
    ("The answer is 0.", "x y", 0.0, D.UNREADABLE_AS_ZERO, ["financemath"], ["financereasoning"]),
    ("The answer is 0.", "abc", 0.0, D.UNREADABLE_AS_ZERO, ["financemath"], ["financereasoning"]),  # a NameError
    # an answer past the evaluator's declared bounds (over 1,000 characters before the cleaning)
    ("The answer is 5.", "1+" * 600 + "1", 5.0, D.NOT_DECIDED, ["financemath-answer/1"], ["financemath"]),
    # a call the peers would run: eval() executes the text
    ("The answer is 5.", "__import__('os').getpid()", 5.0, D.PEER_EXECUTES_CODE, ["financemath-answer/1"],
     ["financemath"]),
])
def test_hand_written_disagreements(raw: str, extracted: str, gold: float, reason: str, accepted_by: list[str],
                                    not_accepted_by: list[str]) -> None:
    why = _why(_report([(raw, extracted, gold)]), "q0")
    assert reason in why, why
    assert set(accepted_by) <= set(why[reason][0]) and set(not_accepted_by) <= set(why[reason][1])


def test_code_is_counted_and_marks_the_figure_not_reproducible() -> None:
    report = _report([("The answer is 5.", "__import__('os').getpid()", 5.0), ("The answer is 5.", "5", 5.0)])
    rows = {row["protocol"]: row for row in report["protocols"]}
    assert all(rows[p]["undecided_code"] == 1 and not rows[p]["reproducible"] for p in PEERS)
    assert rows["financemath-answer/1"]["reproducible"] and rows["financemath-answer/1"]["peer_executes_code"] == 0


def test_a_missing_completion_is_dropped_by_the_peers_and_counted_by_finscore() -> None:
    gold = [{"id": "a", "question": "q", "ground_truth": 5.0}, {"id": "b", "question": "q", "ground_truth": 6.0}]
    report = compare({"a": Given("The answer is 5.", "5")}, gold, "financemath")
    rows = {row["protocol"]: row for row in report["protocols"]}
    assert (rows["financemath"]["published_denominator"], rows["financemath"]["published_score"]) == (1, 1.0)
    assert (rows["financemath-answer/1"]["published_denominator"], rows["financemath-answer/1"]["score"]) == (2, 0.5)
    assert _why(report, "b") == {D.DROPPED_FROM_DENOMINATOR: ([], ["financemath-answer/1"])}


def test_pixiu_fails_string_equality_on_formatting(tmp_path: Path) -> None:
    """PIXIU's `pred.strip() == str(exe_ans)`: `94` is not `94.0` (FinQA's exe_ans 94.0)."""
    from support.peer_vectors import finqa_test_bytes

    lines = [line for line in vector_lines("pixiu") if line.get("gold_label") == "str_exe_ans"
             and line["FinQA"].get("value", {}).get("acc") == 0.0 and line["pred"].strip() != line["gold"]
             and line["pred"].strip().replace(".", "", 1).isdigit() and float(line["pred"]) == float(line["gold"])]
    assert lines
    path = tmp_path / "finqa.json"
    path.write_bytes(finqa_test_bytes())
    gold = {example["id"]: example for example in read_gold(str(path), "finqa")}
    chosen = [line for line in lines if line["id"] in gold][:20]
    report = compare({line["id"]: line["pred"] for line in chosen}, [gold[line["id"]] for line in chosen], "finqa")
    for line in chosen:
        assert _why(report, line["id"])[D.STRING_FORMATTING] == (["finqa-answer/1"], ["pixiu-finqa"])


def test_every_reason_is_documented() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "protocols.md").read_text(encoding="utf-8")
    section = docs.split("### Why protocols disagree", 1)[1]
    assert all(f"| `{reason}` |" in section for reason in D.REASONS)
    assert set(D.MEANINGS) == set(D.REASONS)


def test_a_stored_output_file_and_its_errors() -> None:
    given = financemath_outputs([{"question_id": "v-0", "output": ["The answer is 5."], "extracted_pred_answer": "5"}])
    assert given == {"v-0": Given("The answer is 5.", "5")}
    with pytest.raises(CompareInputError) as raised:
        financemath_outputs([{"question_id": "v-0", "output": ["x"], "extracted_pred_answer": "5"},
                             {"question_id": "v-1", "output": 3}, {"output": "x"},
                             {"question_id": "v-3", "output": "y"}])
    message = str(raised.value)
    for words in ("entry 1 ('v-1'): \"output\"", "entry 2: not an object with a text \"question_id\"",
                  "\"extracted_pred_answer\" is given on some entries but not on v-3"):
        assert words in message, message


def test_the_command_on_a_stored_file_writes_text_json_and_html(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    outputs = [{"question_id": "v-0", "output": ["... The answer is 12%."], "extracted_pred_answer": "12%"},
               {"question_id": "v-1", "output": ["... The answer is 3."], "extracted_pred_answer": "3"}]
    gold = [{"question_id": "v-0", "question": "What is the rate?", "ground_truth": 0.12},
            {"question_id": "v-1", "question": "How many?", "ground_truth": 3}]
    (tmp_path / "out.json").write_text(json.dumps(outputs))
    (tmp_path / "gold.json").write_text(json.dumps(gold))
    args = ["protocols", "compare", str(tmp_path / "out.json"), "--benchmark", "financemath", str(tmp_path / "gold.json")]
    assert main(args + ["--html", str(tmp_path / "page.html"), "--json", str(tmp_path / "report.json")]) == 0
    text = capsys.readouterr().out
    assert "financemath           100.00%         2/2" in text and "financereasoning       50.00%         1/2" in text
    report = json.loads((tmp_path / "report.json").read_text())
    assert [d["id"] for d in report["disagreements"]] == ["v-0"]
    assert "power_of_ten" in (tmp_path / "page.html").read_text()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"question_id": "v-0"}]))
    assert main(["protocols", "compare", str(bad), "--benchmark", "financemath", str(tmp_path / "gold.json")]) == 2
    assert "entry 0 ('v-0')" in capsys.readouterr().err


def test_a_lenient_answer_format_says_so_in_the_signature() -> None:
    gold = [{"id": "a", "question": "q", "ground_truth": 5.0}]
    for answer_format, lenient in (("last-number", True), ("phrase", False)):
        row = compare({"a": Given("We get 5", "5")}, gold, "financemath", answer_format=answer_format)["protocols"][-1]
        assert row["signature"].startswith(f"financemath-answer/1|format:{answer_format}|")
        assert ("|lenient|" in row["signature"]) is lenient
        assert row["accepted"] == (1 if lenient else 0)  # the phrase format finds no marked answer in "We get 5"
