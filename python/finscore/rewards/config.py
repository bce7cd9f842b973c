"""What a reward call scores and by which rules, declared once and stamped on every row.

A reward differs from the evaluator a team reports with only if its rules differ;
so the rules are an explicit, frozen object, and its `stamp` (written into every
scored row) names them: the protocol, its options and the finscore version.
"""

from __future__ import annotations

from dataclasses import dataclass

from finscore import __version__
from finscore.answers import FORMATS, get_protocol, protocol_names
from finscore.answers.stamp import make_stamp
from finscore.engine import PROFILES, sum_rule_for
from finscore.rewards.errors import RewardInputError
from finscore.rewards.programs import MAX_REWARD_PROGRAM_CHARS

#: The reader profile of each data source whose programs finscore scores.
PROGRAM_PROFILES: dict[str, str] = {
    source: profile for source, profile in (("finqa", "official"), ("convfinqa", "convfinqa"))
    if profile in PROFILES
}
#: The answer protocol of each data source whose free-text answers finscore scores.
ANSWER_PROTOCOLS: dict[str, str] = {
    source: protocol for source, protocol in (("finqa", "finqa-answer/1"), ("convfinqa", "convfinqa-answer/1"),
                                              ("tatqa", "tatqa-answer/1"))
    if protocol in protocol_names()
}
INPUTS = ("program", "answer", "tatqa")
MATCHES = ("execution", "program")
TATQA_SCORES = ("f1", "em")


@dataclass(frozen=True)
class RewardConfig:
    """`input`: what the completion column holds ("program": a FinQA program, as text
    or tokens; "answer": free text, decided by the source's answer protocol).
    Programs: `match` "execution" (the official execution accuracy) or "program" (also
    equivalent to the gold program); `python`: whose sum() the table ops imitate.
    Answers: `format`, where the final answer is (answer-line, boxed, json, whole).
    "tatqa": the completion is a TAT-QA prediction, JSON `[answer, scale]`, decided by the
    official metric; `tatqa_score` is "f1" (the official F1) or "em" (the exact match).
    Column names say where each field is; `data_source` fills rows without a source."""

    input: str = "program"
    match: str = "execution"
    python: str = "3.11"
    format: str = "answer-line"
    tatqa_score: str = "f1"
    completion_column: str = "completion"
    gold_column: str = "gold"
    data_source_column: str = "data_source"
    data_source: str = "finqa"

    def __post_init__(self) -> None:
        if self.input not in INPUTS:
            raise RewardInputError(f"input must be one of {', '.join(INPUTS)}, not {self.input!r}")
        if self.match not in MATCHES:
            raise RewardInputError(f"match must be one of {', '.join(MATCHES)}, not {self.match!r}")
        if self.tatqa_score not in TATQA_SCORES:
            raise RewardInputError(f"tatqa_score must be one of {', '.join(TATQA_SCORES)}, not {self.tatqa_score!r}")
        if self.format not in FORMATS:
            raise RewardInputError(f"format must be one of {', '.join(FORMATS)}, not {self.format!r}")
        try:
            sum_rule_for(self.python)
        except ValueError as error:
            raise RewardInputError(str(error)) from None

    def scored_sources(self) -> dict[str, str]:
        """Each data source this input scores, with its rule (a reader profile or a protocol)."""
        if self.input == "tatqa":
            return {"tatqa": "tatqa_eval"}
        return PROGRAM_PROFILES if self.input == "program" else ANSWER_PROTOCOLS

    def stamp(self, data_source: str) -> str:
        """The protocol stamp of a row from `data_source`."""
        if self.input == "tatqa":
            return f"tatqa-official/1 score={self.tatqa_score} finscore={__version__}"
        if self.input == "answer":
            stamp = make_stamp(get_protocol(ANSWER_PROTOCOLS[data_source]))
            return (f"{stamp['protocol']} format={self.format} finscore={stamp['finscore']} "
                    f"conformance_sha256={stamp['conformance_sha256']}")
        return (f"{data_source}-{self.input}/1 match={self.match} profile={PROGRAM_PROFILES[data_source]} "
                f"python={self.python} max_chars={MAX_REWARD_PROGRAM_CHARS} finscore={__version__}")
