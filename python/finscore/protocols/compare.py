"""One set of FinQA completions under every applicable peer protocol at once (`finscore protocols compare`).

A protocol applies to a benchmark when its module's `BENCHMARK_LINES` maps (protocol id,
benchmark) to a builder: (completion or None, gold example) -> the vector line the protocol
decides (HELM: the completion as `generated`, the example's program, `str(exe_ans)` and table;
PIXIU: the completion as `pred`, `str(exe_ans)` as `gold`). Every gold example counts once in
each denominator: a missing completion is decided by no protocol and counted as "missing" (not
accepted). A decision the peer raises on is counted as "raises", a line the protocol cannot decide
(a program past finscore's declared bounds) as "not_decided"; neither is accepted. HELM's score is its
execution_accuracy. An example where the protocols do not all agree is a disagreement, listed with
each protocol's own reason word.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping, Sequence

from finscore.protocols.registry import BUILTIN_PROTOCOLS, PeerProtocol, get_protocol, protocol_ids

#: What a protocol module declares to apply to a benchmark: (completion, gold example) -> a vector line.
LineBuilder = Callable[[Any, Mapping[str, Any]], dict[str, Any]]


def applicable(benchmark: str) -> tuple[list[tuple[PeerProtocol, LineBuilder]], list[str]]:
    """The shipped protocols that declare a line builder for `benchmark`, in registry order, and the
    ids whose module this installation lacks (named in the report, never silently left out)."""
    found = []
    missing = []
    for protocol_id in protocol_ids():
        name = BUILTIN_PROTOCOLS[protocol_id]
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            missing.append(protocol_id)
            continue
        builder = getattr(module, "BENCHMARK_LINES", {}).get((protocol_id, benchmark))
        if builder is not None:
            found.append((get_protocol(protocol_id), builder))
    return found, missing


def accepted(protocol: PeerProtocol, fields: Mapping[str, Any]) -> bool | None:
    """Whether the decision gives full credit: True, False, or None when the peer raises."""
    decision = fields[protocol.decision_key]
    if "raises" in decision:
        return None
    value = decision["value"]
    if isinstance(value, dict):  # HELM's metric: the execution figure is the published one
        value = value["execution_accuracy"]
    return bool(value == 1)


def compare(completions: Mapping[str, Any], gold: Sequence[Mapping[str, Any]], benchmark: str = "finqa",
            protocols: Sequence[tuple[PeerProtocol, LineBuilder]] | None = None) -> dict[str, Any]:
    """Every applicable protocol on every gold example: one row per protocol, then the disagreements.

    `completions` maps a gold id to its completion text (an id absent is a missing completion)."""
    from finscore.protocols.signature import signature_of

    chosen, unavailable = applicable(benchmark) if protocols is None else (list(protocols), [])
    rows: list[dict[str, Any]] = [{"protocol": p.id, "signature": signature_of(p), "accepted": 0, "rejected": 0, "raises": 0,
             "not_decided": 0, "missing": 0, "denominator": len(gold)} for p, _ in chosen]
    disagreements = []
    for example in gold:
        if example["id"] not in completions:
            for row in rows:
                row["missing"] += 1
            continue
        completion = completions[example["id"]]
        outcomes: dict[str, tuple[bool | None, str]] = {}
        for row, (protocol, builder) in zip(rows, chosen):
            try:
                fields = protocol.decide_line(builder(completion, example))
            except ValueError as error:  # a LineError: e.g. a program past finscore's bounds
                row["not_decided"] += 1
                outcomes[protocol.id] = (None, f"not_decided: {error}")
                continue
            verdict = accepted(protocol, fields)
            row["accepted" if verdict else "rejected" if verdict is False else "raises"] += 1
            outcomes[protocol.id] = (verdict, str(fields.get("reason", "")))
        if len({verdict for verdict, _ in outcomes.values()}) > 1:
            disagreements.append({
                "id": example["id"], "completion": completion,
                "accepted_by": [pid for pid, (verdict, _) in outcomes.items() if verdict],
                "reasons": {pid: reason for pid, (_, reason) in outcomes.items()}})
    for row in rows:
        row["score"] = row["accepted"] / row["denominator"] if row["denominator"] else None
    return {"benchmark": benchmark, "examples": len(gold), "completions": sum(1 for e in gold if e["id"] in completions),
            "protocols": rows, "unavailable": unavailable, "disagreements": disagreements}


def render(report: Mapping[str, Any], examples: int = 10) -> str:
    """The text report: the table of protocols, then up to `examples` disagreements."""
    lines = [f"{report['benchmark']}: {report['completions']} completions for {report['examples']} gold examples", ""]
    width = max([len("protocol")] + [len(row["protocol"]) for row in report["protocols"]])
    lines.append(f"{'protocol':<{width}}  {'score':>7}  accepted/denominator  raises  missing")
    for row in report["protocols"]:
        score = "-" if row["score"] is None else f"{100 * row['score']:.2f}%"
        lines.append(f"{row['protocol']:<{width}}  {score:>7}  {row['accepted']:>8}/{row['denominator']:<11}  "
                     f"{row['raises']:>6}  {row['missing']:>7}")
    lines += ["", "signatures:"] + [f"  {row['signature']}" for row in report["protocols"]]
    undecided = [f"{row['protocol']}: {row['not_decided']}" for row in report["protocols"] if row["not_decided"]]
    if undecided:
        lines.append(f"not decided (see the disagreements): {', '.join(undecided)}")
    if report["unavailable"]:
        lines.append(f"not in this installation: {', '.join(report['unavailable'])}")
    shown = report["disagreements"][:examples]
    lines += ["", f"{len(report['disagreements'])} example(s) where the protocols disagree"
              + (f" (first {len(shown)}):" if shown else "")]
    for item in shown:
        reasons = ", ".join(f"{pid}: {reason}" for pid, reason in item["reasons"].items())
        lines.append(f"  {item['id']}  accepted by {', '.join(item['accepted_by']) or 'none'}; {reasons}")
    return "\n".join(lines)


class CompareInputError(ValueError):
    """A predictions or gold file `compare` cannot use, with every bad entry named."""


def read_completions(source: Any) -> dict[str, Any]:
    """{"id", "completion"} JSON lines (a binary stream) -> id -> completion text; a CompareInputError
    names every line that is not such an object (numbered from 1) and every id given twice."""
    from finscore.inputs.lines import json_lines, problem_words

    completions: dict[str, Any] = {}
    problems: list[str] = []
    for line in json_lines(source):
        if line.problem == "blank":
            continue
        if line.problem is not None:
            problems.append(f"line {line.number}: {problem_words(line)}")
            continue
        value = line.value
        if not isinstance(value, dict) or not isinstance(value.get("id"), str) or not isinstance(
                value.get("completion"), str):
            problems.append(f'line {line.number}: not an object with a text "id" and a text "completion"')
        elif value["id"] in completions:
            problems.append(f"line {line.number}: id {value['id']!r} given again")
        else:
            completions[value["id"]] = value["completion"]
    if problems:
        shown = "; ".join(problems[:20]) + (f"; and {len(problems) - 20} more" if len(problems) > 20 else "")
        raise CompareInputError(f"the predictions file: {shown}")
    return completions


def _finqa_problem(example: Any) -> str | None:
    if not isinstance(example, dict) or not isinstance(example.get("id"), str):
        return 'has no text "id"'
    qa = example.get("qa")
    if not isinstance(example.get("table"), list) or not isinstance(qa, dict) or not isinstance(
            qa.get("program"), str) or "exe_ans" not in qa:
        return 'has no list "table" and "qa" with a text "program" and an "exe_ans"'
    return None


def read_finqa_gold(path: str) -> list[Any]:
    """A FinQA gold file's examples, each with its id, table, program and exe_ans (FinqaInputError otherwise)."""
    from finscore.finqa.files import read_json_file
    from finscore.finqa.inputs import unique_entries

    return unique_entries(read_json_file(path, "gold file"), _finqa_problem, "FinQA", "examples")
