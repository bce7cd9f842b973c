"""helm-finqa against HELM's own recorded decisions (tests/data/vectors/peers/helm.jsonl.gz, every line).

The oracle is FinQAMetric.evaluate_generation of stanford-crfm/helm run by the recording generator:
its `metric` (with the integer 0 of the peer's `else 0` kept apart from 0.0) and its `exec`
(eval_program on program_tokenization(generated.strip())).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from finscore.engine.reader.tokens import tokenize_gold_program
from finscore.protocols import decide_line, get_protocol, read_tables
from finscore.protocols.fields import LineError
from finscore.protocols.helm import EXECUTION_REASONS
from finscore.protocols.stream import UnknownTable
from support.peer_vectors import finqa_test_bytes, recorded_commit, vector_lines


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Any]]:
    path = tmp_path_factory.mktemp("finqa") / "finqa_test.json"
    path.write_bytes(finqa_test_bytes())
    return read_tables([str(path)])


@pytest.fixture(scope="module")
def decided(tables: dict[str, list[Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Every vector line and the fields helm-finqa writes onto it (through the Python API)."""
    return [(line, decide_line("helm-finqa", line, tables=tables)) for line in vector_lines("helm")]


@pytest.mark.essential
def test_every_recorded_helm_decision_is_reproduced(decided: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    assert len(decided) == 8096  # the README's count
    mismatches = []
    for number, (line, fields) in enumerate(decided, start=1):
        # json.dumps tells the integer 0 from 0.0, as the recording does
        if json.dumps(fields["metric"]) != json.dumps(line["metric"]):
            mismatches.append((number, line["generated"], fields["metric"], line["metric"]))
    assert mismatches == []


@pytest.mark.essential
def test_the_engine_gives_helms_eval_program_pair_on_every_line(tables: dict[str, list[Any]]) -> None:
    """HELM's tokens and (invalid, result) are the ones finscore's engine gives (the recorded `exec`)."""
    from finscore import execute_batch

    lines = vector_lines("helm")
    tokens = [tokenize_gold_program(line["generated"].strip()) for line in lines]
    batch = execute_batch([(t, tables[line["table_ref"]]) for t, line in zip(tokens, lines)])
    wrong = []
    for k, line in enumerate(lines):
        recorded = line["exec"]["value"]
        result = batch.results[k]
        got = {"tokens": tokens[k], "invalid": batch.invalid[k],
               "result": {"float": result.hex()} if isinstance(result, float) else {"str": str(result)}}
        if recorded["invalid"]:  # an invalid program's result is whatever the peer held when it stopped
            got["result"] = recorded["result"]
        if got != recorded:
            wrong.append((k, line["generated"], got, recorded))
    assert wrong == []


def test_the_shipped_example_predictions_give_the_figures_the_readme_records(
        decided: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    metrics = [fields["metric"]["value"] for line, fields in decided if line["label"] == "example_prediction"]
    assert len(metrics) == 1050
    assert sum(m["execution_accuracy"] for m in metrics) / len(metrics) == 0.7
    assert sum(m["program_accuracy"] for m in metrics) / len(metrics) == 0.6876190476190476


def test_the_int_zero_and_the_float_zero_come_from_the_rules_the_peer_code_has(
        decided: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    """`else 0` (int) for a float result outside isclose and a yes/no mismatch; 0.0 for an invalid program
    and a result that is not a float (fin_qa_metrics.py _get_execution_accuracy)."""
    seen: Counter[tuple[str, str]] = Counter()
    for _, fields in decided:
        execution = fields["reason"].split(";")[0].removeprefix("execution:")
        assert execution in EXECUTION_REASONS
        seen[(execution, type(fields["metric"]["value"]["execution_accuracy"]).__name__)] += 1
    kinds = {(word, kind) for word, kind in seen}
    assert kinds == {("isclose", "float"), ("not_isclose", "int"), ("invalid", "float"), ("yes_no_equal", "float"),
                     ("yes_no_differ", "int"), ("result_not_float", "float")}


def test_a_gold_float_cannot_read_raises_as_the_peer_does() -> None:
    """float("n/a") raises ValueError in CPython; HELM calls it on a non-yes/no gold of a valid float result."""
    with pytest.raises(ValueError):
        float("n/a")
    line = {"generated": "add(1, 2)", "ref_program": "add(1, 2)", "ref_exe": "n/a", "table": []}
    assert decide_line("helm-finqa", line)["metric"] == {"raises": "ValueError"}
    assert decide_line("helm-finqa", line)["reason"] == "execution:gold_not_a_number;program:identical"


def test_a_line_without_its_table_or_with_a_bad_field_is_a_typed_error(tables: dict[str, list[Any]]) -> None:
    line = vector_lines("helm")[0]
    with pytest.raises(LineError, match="table"):
        decide_line("helm-finqa", line)
    with pytest.raises(UnknownTable, match="nowhere"):
        decide_line("helm-finqa", {**line, "table_ref": "nowhere"}, tables=tables)
    with pytest.raises(LineError, match='"generated" is null, not text'):
        decide_line("helm-finqa", {**line, "generated": None}, tables=tables)
    with pytest.raises(LineError, match='no "ref_exe"'):
        decide_line("helm-finqa", {k: v for k, v in line.items() if k != "ref_exe"}, tables=tables)
    with pytest.raises(LineError, match="list of rows"):
        decide_line("helm-finqa", {**line, "table": "a table"})


def test_the_record_names_the_commit_the_vectors_were_recorded_at() -> None:
    record = get_protocol("helm-finqa")
    assert record.commit == recorded_commit("helm.jsonl.gz")
    assert (record.repository, record.path, record.decision_key) == (
        "stanford-crfm/helm", "src/helm/benchmark/metrics/fin_qa_metrics.py", "metric")


def test_tables_files_are_checked(tmp_path: Path) -> None:
    from finscore.protocols.stream import TablesError

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"id": "a", "table": [["x", "1"]]}, {"id": 3}, {"id": "a", "table": []}]))
    with pytest.raises(TablesError) as raised:
        read_tables([str(bad)])
    assert "entry 1" in str(raised.value) and "entry 2: id 'a' was given another table" in str(raised.value)
