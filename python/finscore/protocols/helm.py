"""HELM's `fin_qa` metric (stanford-crfm/helm, FinQAMetric), reproduced: `helm-finqa`.

HELM scores the model's completion as a FinQA program, read with only `str.strip()` and FinQA's
`program_tokenization` (split on ", "; so a comma without a space, a trailing period, back-ticks,
upper case or `table-max` make the program invalid). It adds two figures per instance:

- `program_accuracy`: FinQA's `equal_program(gold tokens, generated tokens)` (sympy), 1.0 or 0.0;
  finscore decides it with FinQA's official program equivalence (the registry's `program_comparer`).
- `execution_accuracy`: FinQA's `eval_program` on the generated tokens and the example's table
  (the result rounded to 5 places), run by finscore's engine under the official profile; then
  0.0 for an invalid program, for a "yes"/"no" gold `1.0 if gold == result else 0`, 0.0 for a
  result that is not a float, else `1.0 if math.isclose(float(gold), result) else 0` (default
  rel_tol=1e-9). The peer's `else 0` is the integer 0, kept as such.

Nothing of the model's text is executed: the engine runs programs in its own core.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from finscore.protocols.fields import LineError, LineExceedsBounds, text
from finscore.protocols.registry import PeerProtocol

#: The execution rules' reason words (the first half of `reason`).
EXECUTION_REASONS: dict[str, str] = {
    "invalid": "eval_program flags the program invalid: 0.0",
    "yes_no_equal": "a yes/no gold equal to the result: 1.0",
    "yes_no_differ": "a yes/no gold different from the result: the integer 0",
    "result_not_float": "a valid program whose result is not a float: 0.0",
    "isclose": "math.isclose(float(gold), result) holds: 1.0",
    "not_isclose": "math.isclose(float(gold), result) fails: the integer 0",
    "gold_not_a_number": "float(gold) raises ValueError: the peer's run stops",
}

_comparer: Any = None


def _program_comparer() -> Any:
    """FinQA's official equal_program, from its descriptor (one comparer shared by every line)."""
    global _comparer
    if _comparer is None:
        from finscore.registry import RegistryError, get_benchmark

        comparer = get_benchmark("finqa").program_comparer
        if comparer is None:
            raise RegistryError("the finqa benchmark declares no program comparer")
        _comparer = comparer.load()()
    return _comparer


def _table(line: Mapping[str, Any]) -> list[Any]:
    if "table" not in line:
        raise LineError('the line has no "table" (give the FinQA file holding its "table_ref" with --tables)')
    table = line["table"]
    if not isinstance(table, list) or not all(isinstance(row, list) for row in table):
        raise LineError('"table" is not a list of rows (lists of cells)')
    return table


def _execution(gold: str, invalid: int, result: Any) -> tuple[dict[str, Any] | None, str]:
    """HELM's _get_execution_accuracy on eval_program's pair: (the figure, or None where it raises; reason)."""
    if invalid:
        return {"execution_accuracy": 0.0}, "invalid"
    if gold == "yes" or gold == "no":
        return ({"execution_accuracy": 1.0}, "yes_no_equal") if gold == result else (
            {"execution_accuracy": 0}, "yes_no_differ")
    if not isinstance(result, float):
        return {"execution_accuracy": 0.0}, "result_not_float"
    try:
        reference = float(gold)
    except ValueError:
        return None, "gold_not_a_number"
    if math.isclose(reference, result):
        return {"execution_accuracy": 1.0}, "isclose"
    return {"execution_accuracy": 0}, "not_isclose"


def decide_line(line: Mapping[str, Any]) -> dict[str, Any]:
    """A HELM vector line ("generated", "ref_program", "ref_exe", "table") -> "metric" and "reason".

    "metric" is {"value": {"program_accuracy", "execution_accuracy"}} as FinQAMetric adds them, or
    {"raises": "ValueError"} where float() of the gold fails; "reason" is
    "execution:<word>;program:<method>" (EXECUTION_REASONS; the equivalence method), and
    "divergence" is added where FinQA's equal_program itself would stop with an error on the gold.
    """
    from finscore.engine.api import execute
    from finscore.engine.reader.tokens import tokenize_gold_program
    from finscore.engine.status import Status

    generated = text(line, "generated")
    reference_program = text(line, "ref_program")
    gold = text(line, "ref_exe")
    table = _table(line)
    tokens = tokenize_gold_program(generated.strip())
    try:
        outcome = execute(tokens, table)
    except TypeError as error:
        raise LineError(f'"table": {error}') from None
    if outcome.status == Status.EXCEEDS_BOUNDS:
        raise LineExceedsBounds(_EXCEEDS_BOUNDS)
    return _decided(reference_program, gold, tokens, outcome.invalid, outcome.result)


_EXCEEDS_BOUNDS = ("the program exceeds finscore's declared bounds (status exceeds_bounds): "
                   "HELM's decision is not reproduced")


def decide_lines(lines: Sequence[Mapping[str, Any]]) -> list[dict[str, Any] | LineError]:
    """`decide_line` of many lines, every program executed by one engine batch (no call per line):
    each line's fields, or the LineError that line's decide_line raises, in order."""
    from finscore.engine.api import check_table, execute_batch
    from finscore.engine.reader.tokens import tokenize_gold_program
    from finscore.engine.status import Status

    out: list[dict[str, Any] | LineError] = []
    read: list[tuple[int, str, str, list[str], list[Any]]] = []
    for index, line in enumerate(lines):
        try:
            generated, reference, gold, table = (text(line, "generated"), text(line, "ref_program"),
                                                 text(line, "ref_exe"), _table(line))
            try:
                check_table(table)
            except TypeError as error:
                raise LineError(f'"table": {error}') from None
        except LineError as error:
            out.append(error)
            continue
        out.append({})
        read.append((index, reference, gold, tokenize_gold_program(generated.strip()), table))
    batch = execute_batch([(tokens, table) for _, _, _, tokens, table in read])
    for (index, reference, gold, tokens, _), invalid, result, status in zip(
            read, batch.invalid, batch.results, batch.statuses):
        out[index] = LineError(_EXCEEDS_BOUNDS) if status == Status.EXCEEDS_BOUNDS else _decided(
            reference, gold, tokens, invalid, result)
    return out


def _decided(reference_program: str, gold: str, tokens: list[str], invalid: int, result: Any) -> dict[str, Any]:
    """HELM's two figures for an executed program, and the reason words."""
    from finscore.engine.reader.tokens import tokenize_gold_program

    decision = _program_comparer().equal_program(tokenize_gold_program(reference_program), tokens)
    execution, word = _execution(gold, invalid, result)
    out: dict[str, Any] = {}
    if execution is None:
        out["metric"] = {"raises": "ValueError"}
    else:
        out["metric"] = {"value": {"program_accuracy": 1.0 if decision.equal else 0.0, **execution}}
    out["reason"] = f"execution:{word};program:{decision.method}"
    if decision.divergence is not None:
        out["divergence"] = decision.divergence
    return out


PROTOCOLS = (
    PeerProtocol(
        id="helm-finqa",
        version=1,
        repository="stanford-crfm/helm",
        commit="63754d05db6f874e41a395880fb573890a13e791",
        path="src/helm/benchmark/metrics/fin_qa_metrics.py",
        tolerance="math.isclose rel_tol=1e-9, result round(5); yes/no ==",
        reading="str.strip, FinQA program_tokenization",
        decision_key="metric",
        decide_line=decide_line,
    ),
)


def finqa_line(completion: Any, example: Mapping[str, Any]) -> dict[str, Any]:
    """A FinQA gold example and a completion as the line HELM's scenario makes of them: the reference
    program text, `str(exe_ans)` and the table (`finscore protocols compare`)."""
    qa = example["qa"]
    return {"generated": completion, "ref_program": qa["program"], "ref_exe": str(qa["exe_ans"]),
            "table": example["table"]}


#: The benchmarks this module's protocols apply to, and how a gold example becomes a line.
BENCHMARK_LINES = {("helm-finqa", "finqa"): finqa_line}
