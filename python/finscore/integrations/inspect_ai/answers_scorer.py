"""Free-text answers scored under a finscore answer protocol, on any inspect dataset that carries the gold.

Where the gold is: `Sample.metadata["gold"]`, the mapping `finscore.answers.decide`
takes: `{"exe_ans", "program"?, "question"?, "answer"?}` for finqa-answer/1 and
convfinqa-answer/1 (exe_ans as in the dataset: a number, or "yes" / "no"),
`{"answer", "scale", "answer_type"?, "question"?}` for tatqa-answer/1,
`{"ground_truth", "question"}` for financemath-answer/1 (FinanceMath's fields).
`Sample.metadata["cluster"]`, when given, names the samples that are not
independent (a ConvFinQA conversation, a TAT-QA table) for the clustered stderr.

The completion is the model's final output, read in one declared format (any of
`finscore.answers.FORMATS`: answer-line, boxed, json, whole, phrase, tag,
last-number). Each Score's metadata holds the run's stamp (`make_stamp`); with the
lenient last-number format the stamp, the metadata ("lenient") and the explanation
say so, as every report made with it must. The denominator policy is
`finscore answers`': a sample with no output at all (its generation failed; run
with `score_on_error`, or `--score-on-error`, so that inspect scores it) is a
missing_prediction miss, an output without the declared marker a
no_final_answer miss. A TAT-QA gold that is not one number is outside the
protocol: like `finscore answers`, the scorer does not score it (no Score) and
says so in the transcript. A gold that is missing or malformed is an error
naming the sample.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.log import transcript
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import TaskState

from finscore.answers import (FORMATS, Decision, Gold, GoldError, OutOfProtocolGold, ProtocolError, as_gold, decide,
                              get_protocol)
from finscore.answers.protocol import Protocol
from finscore.answers.stamp import lenient_label, make_stamp

from finscore.integrations.inspect_ai.metrics import cluster_stderr, reasons

#: The sample-metadata key that holds the gold mapping.
GOLD_KEY = "gold"


class OutOfProtocol(Exception):
    """A gold the protocol does not cover (a TAT-QA answer that is not one number)."""


def sample_gold(metadata: dict[str, Any], protocol: Protocol, sample: object) -> Gold:
    """The sample's gold under the protocol; GoldError naming the sample, or OutOfProtocol."""
    data = metadata.get(GOLD_KEY)
    if not isinstance(data, dict):
        raise GoldError(f"sample {sample!r}: metadata[{GOLD_KEY!r}] holds no gold mapping")
    try:
        return as_gold(data, protocol)
    except OutOfProtocolGold as outside:
        raise OutOfProtocol(str(outside)) from None
    except GoldError as error:  # a malformed gold: the sample's error, never a quiet "not scored"
        raise GoldError(f"sample {sample!r}: {error}") from None


def completion_of(state: TaskState) -> str | None:
    """The model's final text; None when the model gave no output at all."""
    return state.output.completion if state.output.choices else None


def to_score(decision: Decision, protocol: Protocol, answer_format: str,
             stamp: dict[str, Any] | None = None) -> Score:
    """The inspect Score of a decision; `stamp` (made once per scorer) goes into its metadata."""
    label = lenient_label(answer_format)
    lenient = {} if label is None else {"lenient": label}
    return Score(
        value=CORRECT if decision.passed else INCORRECT,
        answer=decision.read,
        explanation=f"{decision.reason}: {decision.detail} (gold {decision.gold}; {protocol.name}, {answer_format}"
                    + (" LENIENT" if label is not None else "") + ")",
        metadata={"reason": decision.reason, "protocol": protocol.name, "format": answer_format,
                  "decision": decision.to_json(), **lenient,
                  "stamp": make_stamp(protocol, answer_format) if stamp is None else stamp},
    )


@scorer(metrics=[accuracy(), cluster_stderr(), reasons()])
def answers(protocol: str = "finqa-answer/1", answer_format: str = "answer-line") -> Scorer:
    """Decide each completion against `metadata["gold"]` under `protocol`, reading `answer_format`
    (answer-line: the last 'Answer:' line; boxed; json; whole; phrase: after the last declared
    marker such as 'the answer is'; tag: the last <answer>...</answer>; last-number, lenient)."""
    chosen = get_protocol(protocol)
    if answer_format not in FORMATS:
        raise ProtocolError(f"no answer format {answer_format!r}; the formats are {', '.join(FORMATS)}")
    if not chosen.declares(answer_format):  # refused when the task is made, not on every sample
        raise ProtocolError(f"{chosen.name} does not declare the answer format {answer_format!r} "
                            f"(it declares {', '.join(chosen.data['formats'])})")
    stamp = make_stamp(chosen, answer_format)  # one per run: it hashes the conformance file

    async def score(state: TaskState, target: Target) -> Score | None:
        try:
            gold = sample_gold(state.metadata, chosen, state.sample_id)
        except OutOfProtocol as outside:
            transcript().info(f"not scored: the gold is outside {chosen.name} ({outside})")
            return None
        return to_score(decide(completion_of(state), gold, chosen, answer_format), chosen, answer_format,
                        dict(stamp))

    return score
