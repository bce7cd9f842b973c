"""One set of completions under every applicable protocol at once (`finscore protocols compare`).

A protocol applies to a benchmark when it has a judge for it:

- FinQA: `helm-finqa` (the completion as HELM's generated program; the example's program,
  `str(exe_ans)` and table; scored by execution_accuracy) and `pixiu-finqa` (the completion as `pred`,
  `str(exe_ans)` as `gold`), from their modules' `BENCHMARK_LINES`; and finscore's own `finqa-answer/1`
  on the completion (answer format `whole` by default);
- ConvFinQA (one gold example a turn): `pixiu-convfinqa` (the completion as `pred`, `str(exe_ans)` of
  the turn as `gold`) and finscore's own `convfinqa-answer/1` (`whole` by default);
- FinanceMath: the four eval() peers `financemath`, `docmath`, `financereasoning`, `finmmr` on the
  answer the peers' LLM extraction stored (each peer's one-item pipeline: an answer containing "none"
  is 0), when the file gives extracted answers; and finscore's own `financemath-answer/1` on the raw
  completion (answer format `phrase` by default).

Every gold example counts once in each honest denominator: a missing completion is decided by no
protocol and counted as "missing" (not accepted). A peer scores the items it is given, so its
published figure is over the completions given (`published_denominator`); finscore's own protocol
counts a missing completion as a miss. A decision the peer raises on is counted as "raises", a line
past finscore's declared bounds as "not_decided"; "peer_executes_code" counts the answers the peer
would run as code, and "undecided_code" those among them whose decision needs the text run (the
row's figure is then not reproducible without running model text, `reproducible` false); no
undecided line is accepted. Every example where the protocols disagree is listed with each protocol's own reason
and a typed reason for each disagreeing pair (`disagreement.REASONS`).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping, NamedTuple, Sequence

from finscore.protocols import disagreement as D
from finscore.protocols.compare_inputs import CompareInputError, Given, read_completion_lines, read_gold
from finscore.protocols.disagreement import Outcome
from finscore.protocols.registry import BUILTIN_PROTOCOLS, PeerProtocol, get_protocol, protocol_ids

__all__ = ["BENCHMARKS", "CompareInputError", "Judge", "accepted", "applicable", "compare", "judges_for",
           "read_completions", "read_finqa_gold", "render"]

#: What a protocol module declares to apply to a benchmark: (completion, gold example) -> a vector line.
LineBuilder = Callable[[Any, Mapping[str, Any]], dict[str, Any]]
#: The benchmarks `compare` reads.
BENCHMARKS: tuple[str, ...] = ("finqa", "convfinqa", "financemath")
#: The eval() peers that apply to FinanceMath-style files (the comparators of their own papers).
EVAL_PEERS: tuple[str, ...] = ("financemath", "docmath", "financereasoning", "finmmr")
#: finscore's own answer protocol for each benchmark, and the answer format it reads by default (FinQA:
#: the whole completion, the form PIXIU expects; FinanceMath: the phrase "the answer is", as its prompts ask).
ANSWER_PROTOCOLS: dict[str, tuple[str, str]] = {"finqa": ("finqa-answer/1", "whole"),
                                                "convfinqa": ("convfinqa-answer/1", "whole"),
                                                "financemath": ("financemath-answer/1", "phrase")}


class Judge(NamedTuple):
    """One protocol as `compare` runs it: its id and signature, what it reads ("program", "string",
    "number" or "answer"), whether its published figure is over the completions given ("given", the
    peers) or every gold example ("gold"), and its decision of (completion, example) pairs."""

    id: str
    signature: str
    kind: str
    published: str
    decide: Callable[[Sequence[tuple[Any, Mapping[str, Any]]]], list[Outcome]]


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


def _kind(protocol_id: str) -> str:
    return "program" if protocol_id.startswith("helm") else "string" if protocol_id.startswith("pixiu") else "number"


def _line_judge(protocol: PeerProtocol, builder: LineBuilder) -> Judge:
    """A protocol deciding one vector line per example (HELM, PIXIU)."""
    from finscore.protocols.signature import signature_of

    kind = _kind(protocol.id)

    def decide(pairs: Sequence[tuple[Any, Mapping[str, Any]]]) -> list[Outcome]:
        outcomes = []
        for completion, example in pairs:
            line = builder(completion, example)
            gold = line.get("gold") if kind == "string" else None
            try:
                fields = protocol.decide_line(line)
            except ValueError as error:  # a LineError: e.g. a program past finscore's bounds
                outcomes.append(Outcome(None, f"{D.NOT_DECIDED}: {error}", kind, completion, gold))
                continue
            outcomes.append(Outcome(accepted(protocol, fields), str(fields.get("reason", "")), kind, completion,
                                    gold if isinstance(gold, str) else None))
        return outcomes

    return Judge(protocol.id, signature_of(protocol), kind, "given", decide)


def _pixiu_line(completion: Any, example: Mapping[str, Any]) -> dict[str, Any]:
    """A ConvFinQA turn and a completion as a PIXIU line, the gold `str(exe_ans)` (the form the vectors
    record; flare-convfinqa's own answer strings are not reachable here)."""
    return {"pred": completion, "gold": str(example["qa"]["exe_ans"])}


def _eval_peer_judge(protocol: PeerProtocol) -> Judge:
    """An eval() peer on the stored extracted answer, decided as its evaluation script's one item."""
    from finscore.protocols import peer_reasons as R
    from finscore.protocols.signature import signature_of

    def decide(pairs: Sequence[tuple[Any, Mapping[str, Any]]]) -> list[Outcome]:
        outcomes = []
        for given, example in pairs:
            answer = given.extracted
            fields = protocol.decide_line({"pred": answer, "gt": example["ground_truth"]})
            pipeline = fields["pipeline"]
            if "undecided" in pipeline:
                word = pipeline["undecided"]
                outcomes.append(Outcome(None, D.NOT_DECIDED if word == R.EXCEEDED_BOUNDS else word, "number", answer))
            elif "raises" in pipeline:
                outcomes.append(Outcome(None, str(fields.get("reason", R.PEER_STOPS_RUN)), "number", answer))
            elif pipeline["value"]["execution_rate"] == 0:  # "none" in the answer (or an empty one): 0 unread
                outcomes.append(Outcome(False, D.NONE_IN_ANSWER if answer else R.EMPTY_OR_NONE, "number", answer))
            else:
                verdict = pipeline["value"]["acc"] == 1
                rule = _code_rule(protocol.id, answer, example["ground_truth"]) if verdict and fields[
                    "reason"] == R.PEER_EXECUTES_CODE else ""
                outcomes.append(Outcome(verdict, str(fields["reason"]), "number", answer, None, rule))
        return outcomes

    return Judge(protocol.id, signature_of(protocol), "number", "given", decide)


def _finqa_gold(example: Mapping[str, Any]) -> Any:
    return example["qa"]


def _financemath_gold(example: Mapping[str, Any]) -> Any:
    return {"ground_truth": example["ground_truth"], "question": example["question"]}


def _code_rule(protocol_id: str, answer: str | None, gt: Any) -> str:
    """The comparison rule that accepted FinanceMath's value of a text that is code (its reason word names
    the code): `compare_two_numbers` on what `normalize` returned; "" for the other peers."""
    if protocol_id not in ("financemath", "docmath") or answer is None or isinstance(gt, bool):
        return ""
    from finscore.protocols.financemath import compare_two_numbers, normalize
    from finscore.protocols.peer_reasons import EVAL_FAILED_ZERO

    normalized = normalize(answer)
    if normalized.eval_failed:  # a name eval() cannot find: the answer read as 0
        return EVAL_FAILED_ZERO
    value = normalized.value
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return ""
    return compare_two_numbers(value, gt)[1]


def _answer_judge(benchmark: str, answer_format: str | None) -> Judge:
    """finscore's own answer protocol of the benchmark on the raw completion, under one declared format."""
    from finscore import __version__
    from finscore.answers import decide_batch, get_protocol as get_answer_protocol
    from finscore.answers.stamp import make_stamp

    name, default_format = ANSWER_PROTOCOLS[benchmark]
    answer_format = answer_format or default_format
    gold_of = _financemath_gold if benchmark == "financemath" else _finqa_gold
    text_of: Callable[[Any], Any] = (lambda given: given.completion) if benchmark == "financemath" else (
        lambda given: given)
    protocol = get_answer_protocol(name)
    if not protocol.declares(answer_format):
        raise CompareInputError(f"{protocol.name} does not declare the answer format {answer_format!r} (it declares "
                                f"{', '.join(protocol.data['formats'])})")
    stamp = make_stamp(protocol, answer_format)
    signature = (f"{protocol.name}|format:{answer_format}" + ("|lenient" if "lenient" in stamp else "")
                 + f"|conformance:sha256:{stamp['conformance_sha256'][:12]}|finscore:{__version__}")

    def decide(pairs: Sequence[tuple[Any, Mapping[str, Any]]]) -> list[Outcome]:
        if not pairs:
            return []
        decisions = decide_batch([text_of(given) for given, _ in pairs], [gold_of(example) for _, example in pairs],
                                 protocol, answer_format)
        return [Outcome(decision.passed, decision.reason, "answer", decision.read) for decision in decisions]

    return Judge(name, signature, "answer", "gold", decide)


def judges_for(benchmark: str, completions: Mapping[str, Any],
               answer_format: str | None = None) -> tuple[list[Judge], list[str], dict[str, str]]:
    """The judges that apply to `benchmark`, the protocol ids this installation lacks, and the
    protocols that do not apply to this file, each with why."""
    if benchmark == "finqa":
        found, missing = applicable(benchmark)
        return [_line_judge(protocol, builder) for protocol, builder in found] + [
            _answer_judge(benchmark, answer_format)], missing, {}
    if benchmark == "convfinqa":
        return [_line_judge(get_protocol("pixiu-convfinqa"), _pixiu_line), _answer_judge(benchmark, answer_format)], [], {}
    if benchmark != "financemath":
        raise CompareInputError(f"no benchmark {benchmark!r} to compare; the benchmarks are {', '.join(BENCHMARKS)}")
    judges: list[Judge] = []
    missing = []
    skipped: dict[str, str] = {}
    extracted = any(given.extracted is not None for given in completions.values())
    for protocol_id in EVAL_PEERS:
        if not extracted:
            skipped[protocol_id] = ("the file gives no extracted answers (the peer scores the answer its LLM "
                                    "extraction took; finscore does not extract with a model)")
            continue
        try:
            judges.append(_eval_peer_judge(get_protocol(protocol_id)))
        except ModuleNotFoundError as error:
            if error.name != BUILTIN_PROTOCOLS[protocol_id]:
                raise
            missing.append(protocol_id)
    judges.append(_answer_judge(benchmark, answer_format))
    return judges, missing, skipped


def _pairs(outcomes: Mapping[str, Outcome]) -> list[dict[str, Any]]:
    """Every typed reason between the protocols that accept and those that do not (protocols with the
    same outcome grouped; the pairs that share a reason merged), in the vocabulary's order."""
    groups: dict[Outcome, list[str]] = {}
    for protocol_id, outcome in outcomes.items():
        groups.setdefault(outcome, []).append(protocol_id)
    accepting = [outcome for outcome in groups if outcome.verdict]
    others = [outcome for outcome in groups if not outcome.verdict]
    merged: dict[str, tuple[list[str], list[str]]] = {}

    def add(reason: str, yes: list[str], no: list[str]) -> None:
        accepted_by, not_accepted_by = merged.setdefault(reason, ([], []))
        accepted_by.extend(p for p in yes if p not in accepted_by)
        not_accepted_by.extend(p for p in no if p not in not_accepted_by)

    if accepting:
        for yes in accepting:
            for no in others:
                add(D.pair_reason(yes, no), groups[yes], groups[no])
    else:  # rejections against decisions that are not there (raises, bounds, code)
        rejecting = [p for outcome in others if outcome.verdict is False for p in groups[outcome]]
        for outcome in others:
            if outcome.verdict is None:
                add(D.pair_reason(Outcome(True, "", outcome.kind, outcome.read), outcome), [], groups[outcome])
        for reason in merged:
            merged[reason][1].extend(p for p in rejecting if p not in merged[reason][1])
    return [{"reason": reason, "accepted_by": merged[reason][0], "not_accepted_by": merged[reason][1]}
            for reason in D.REASONS if reason in merged]


def _judges_of(protocols: Sequence[tuple[PeerProtocol, LineBuilder]] | Sequence[Judge]) -> list[Judge]:
    return [item if isinstance(item, Judge) else _line_judge(*item) for item in protocols]


def compare(completions: Mapping[str, Any], gold: Sequence[Mapping[str, Any]], benchmark: str = "finqa",
            protocols: Sequence[tuple[PeerProtocol, LineBuilder]] | Sequence[Judge] | None = None, *,
            answer_format: str | None = None) -> dict[str, Any]:
    """Every applicable protocol on every gold example: one row per protocol, then the disagreements.

    `completions` maps a gold id to its completion (FinQA: the text; FinanceMath: a `Given`); an id
    absent is a missing completion, an id no gold example has is listed as unknown. `answer_format`:
    the format finscore's own answer protocol reads (None: the benchmark's default, ANSWER_PROTOCOLS)."""
    if protocols is None:
        judges, unavailable, skipped = judges_for(benchmark, completions, answer_format)
    else:
        judges, unavailable, skipped = _judges_of(protocols), [], {}
    present = [example for example in gold if example["id"] in completions]
    pairs = [(completions[example["id"]], example) for example in present]
    decided = {judge.id: judge.decide(pairs) for judge in judges}
    gold_ids = {example["id"] for example in gold}
    rows: list[dict[str, Any]] = []
    for judge in judges:
        counts = {"accepted": 0, "rejected": 0, "raises": 0, "not_decided": 0, "peer_executes_code": 0,
                  "undecided_code": 0}
        for outcome in decided[judge.id]:
            if outcome.reason == D.PEER_EXECUTES_CODE:
                counts["peer_executes_code"] += 1
            if outcome.verdict is not None:
                counts["accepted" if outcome.verdict else "rejected"] += 1
            elif outcome.reason == D.PEER_EXECUTES_CODE:
                counts["undecided_code"] += 1
            elif outcome.reason.startswith(D.NOT_DECIDED):
                counts["not_decided"] += 1
            else:
                counts["raises"] += 1
        published = len(present) if judge.published == "given" else len(gold)
        rows.append({"protocol": judge.id, "signature": judge.signature, "reads": judge.kind, **counts,
                     "missing": len(gold) - len(present), "denominator": len(gold),
                     "score": counts["accepted"] / len(gold) if gold else None,
                     "published_denominator": published,
                     "published_score": counts["accepted"] / published if published else None,
                     "reproducible": counts["undecided_code"] == 0})
    disagreements = []
    dropped = []
    index = {example["id"]: position for position, example in enumerate(present)}
    dropping = [judge.id for judge in judges if judge.published == "given"]
    counting = [judge.id for judge in judges if judge.published == "gold"]
    for example in gold:
        if example["id"] not in index:
            if dropping and counting:
                dropped.append({
                    "id": example["id"], "completion": None, "accepted_by": [],
                    "reasons": {**{p: "dropped" for p in dropping}, **{p: "missing_prediction" for p in counting}},
                    "why": [{"reason": D.DROPPED_FROM_DENOMINATOR, "accepted_by": [], "not_accepted_by": counting}]})
            continue
        outcomes = {judge.id: decided[judge.id][index[example["id"]]] for judge in judges}
        if len({outcome.verdict for outcome in outcomes.values()}) > 1:
            completion = completions[example["id"]]
            disagreements.append({
                "id": example["id"],
                "completion": completion._asdict() if isinstance(completion, Given) else completion,
                "accepted_by": [pid for pid, outcome in outcomes.items() if outcome.verdict],
                "reasons": {pid: outcome.reason for pid, outcome in outcomes.items()},
                "why": _pairs(outcomes)})
    disagreements += dropped  # the examples without a completion last: each one the same reason
    counts_by_reason = {reason: 0 for reason in D.REASONS}
    for item in disagreements:
        for pair in item["why"]:
            counts_by_reason[pair["reason"]] += 1
    return {"benchmark": benchmark, "examples": len(gold), "completions": len(present),
            "unknown_ids": sorted(key for key in completions if key not in gold_ids),
            "without_completion_disagreements": len(dropped), "protocols": rows, "unavailable": unavailable, "not_applicable": skipped,
            "disagreement_reasons": counts_by_reason, "disagreements": disagreements}


def _reasons_text(item: Mapping[str, Any]) -> str:
    return "; ".join(f"{pair['reason']} ({', '.join(pair['accepted_by']) or '-'} vs "
                     f"{', '.join(pair['not_accepted_by'])})" for pair in item["why"])


def render(report: Mapping[str, Any], examples: int = 10) -> str:
    """The text report: the table of protocols, then up to `examples` disagreements."""
    lines = [f"{report['benchmark']}: {report['completions']} completions for {report['examples']} gold examples", ""]
    width = max([len("protocol")] + [len(row["protocol"]) for row in report["protocols"]])
    lines.append(f"{'protocol':<{width}}  {'score':>7}  accepted/denominator  raises  missing")
    for row in report["protocols"]:
        score = "-" if row["score"] is None else f"{100 * row['score']:.2f}%"
        lines.append(f"{row['protocol']:<{width}}  {score:>7}  {row['accepted']:>8}/{row['denominator']:<11}  "
                     f"{row['raises']:>6}  {row['missing']:>7}")
    published = [row for row in report["protocols"] if row["published_denominator"] != row["denominator"]]
    if published:
        lines += ["", "as published (a peer scores the completions it is given): " + ", ".join(
            f"{row['protocol']} {100 * row['published_score']:.2f}% ({row['accepted']}/{row['published_denominator']})"
            for row in published if row["published_score"] is not None)]
    code = [row for row in report["protocols"] if row["peer_executes_code"]]
    lines += ["", "peer_executes_code: " + (", ".join(
        f"{row['protocol']} {row['peer_executes_code']}" + (
            f" ({row['undecided_code']} undecided: its figure is not reproducible without running model text)"
            if row["undecided_code"] else " (each outcome certain without running it)")
        for row in code) if code else "0 (every figure reproduced without running model text)")]
    lines += ["", "signatures:"] + [f"  {row['signature']}" for row in report["protocols"]]
    undecided = [f"{row['protocol']}: {row['not_decided']}" for row in report["protocols"] if row["not_decided"]]
    if undecided:
        lines.append(f"not decided (see the disagreements): {', '.join(undecided)}")
    if report["unavailable"]:
        lines.append(f"not in this installation: {', '.join(report['unavailable'])}")
    grouped: dict[str, list[str]] = {}
    for protocol_id, why in report["not_applicable"].items():
        grouped.setdefault(why, []).append(protocol_id)
    for why, ids in grouped.items():
        lines.append(f"not applicable: {', '.join(ids)}: {why}")
    if report["unknown_ids"]:
        lines.append(f"{len(report['unknown_ids'])} completion(s) for ids no gold example has, not scored: "
                     + ", ".join(report["unknown_ids"][:5]) + (", ..." if len(report["unknown_ids"]) > 5 else ""))
    shown = report["disagreements"][:examples]
    dropped = report["without_completion_disagreements"]
    lines += ["", f"{len(report['disagreements'])} example(s) where the protocols disagree"
              + (f" ({dropped} without a completion, listed last: {D.DROPPED_FROM_DENOMINATOR})" if dropped else "")
              + (f" (first {len(shown)}):" if shown else "")]
    for item in shown:
        reasons = ", ".join(f"{pid}: {reason}" for pid, reason in item["reasons"].items())
        lines.append(f"  {item['id']}  accepted by {', '.join(item['accepted_by']) or 'none'}; {reasons}")
        lines.append(f"    why: {_reasons_text(item)}")
    counted = [f"{reason} {count}" for reason, count in report["disagreement_reasons"].items() if count]
    if counted:
        lines += ["", "disagreements by reason: " + ", ".join(counted)]
    return "\n".join(lines)


def read_completions(source: Any) -> dict[str, Any]:
    """{"id", "completion"} JSON lines (a binary stream) -> id -> completion text; a CompareInputError
    names every line that is not such an object (numbered from 1) and every id given twice."""
    return {key: fields["completion"] for key, fields in read_completion_lines(source).items()}


def read_finqa_gold(path: str) -> list[Any]:
    """A FinQA gold file's examples, each with its id, table, program and exe_ans (FinqaInputError otherwise)."""
    return read_gold(path, "finqa")
