"""What a reward call scores and by which rules, declared once and stamped on every row; and the
reward sources of benchmarks whose completions are their own predictions.

A reward differs from the evaluator a team reports with only if its rules differ;
so the rules are an explicit, frozen object, and its `stamp` (written into every
scored row) names them: the protocol, its options and the finscore version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, Sequence

from finscore import __version__, registry
from finscore.answers import FORMATS, get_protocol, protocol_names
from finscore.answers.stamp import make_stamp
from finscore.engine import PROFILES, sum_rule_for
from finscore.rewards.decisions import MISSING_PREDICTION, DecidedRows
from finscore.rewards.errors import RewardInputError
from finscore.rewards.gold_json import read_golds
from finscore.rewards.programs import MAX_REWARD_PROGRAM_CHARS

#: The reader profile of each data source whose programs finscore scores (from the benchmark registry).
PROGRAM_PROFILES: dict[str, str] = {
    source: profile for source, profile in registry.program_profiles().items() if profile in PROFILES
}
#: The answer protocol of each data source whose free-text answers finscore scores (from the registry).
ANSWER_PROTOCOLS: dict[str, str] = {
    source: protocol for source, protocol in registry.answer_protocols().items() if protocol in protocol_names()
}
#: The inputs every data source shares; each benchmark with a reward source adds its own name.
GENERAL_INPUTS = ("program", "answer")
#: The input whose rows a published peer's scoring protocol decides (`protocol` names it: finscore.protocols).
PEER_INPUT = "peer"
#: The inputs of the shipped benchmarks (`reward_inputs()` also has those registered later).
INPUTS = GENERAL_INPUTS + (PEER_INPUT,) + registry.prediction_reward_names()
MATCHES = ("execution", "program")
TATQA_SCORES = ("f1", "em")


@dataclass(frozen=True)
class RewardConfig:
    """`input`: what the completion column holds ("program": a FinQA program, as text
    or tokens; "answer": free text, decided by the source's answer protocol).
    Programs: `match` "execution" (the official execution accuracy) or "program" (also
    equivalent to the gold program); `python`: whose sum() the table ops imitate.
    Answers: `format`, where the final answer is (answer-line, boxed, json, whole, phrase, tag,
    or last-number, which is lenient and stamped so).
    "tatqa": the completion is a TAT-QA prediction, JSON `[answer, scale]`, decided by the
    official metric; `tatqa_score` is "f1" (the official F1) or "em" (the exact match).
    "peer": the completion is decided by a published peer's scoring protocol, `protocol` (one of
    finscore.protocols' ids: helm-finqa, pixiu-*, financemath, docmath, financereasoning,
    finmmr), exactly as that peer decides it: 1.0 or 0.0, every row whatever its data source
    (finscore.rewards.peers says what each gold holds).
    Column names say where each field is; `data_source` fills rows without a source.
    `strip_tokens`: special tokens removed from the end of a text completion before it is read
    (OpenRLHF decodes with the EOS token kept: `divide(1, 2)</s>`); none by default, named in
    the stamp when declared."""

    input: str = "program"
    match: str = "execution"
    python: str = "3.11"
    format: str = "answer-line"
    tatqa_score: str = "f1"
    completion_column: str = "completion"
    gold_column: str = "gold"
    data_source_column: str = "data_source"
    data_source: str = "finqa"
    strip_tokens: tuple[str, ...] = ()
    protocol: str = ""

    def __post_init__(self) -> None:
        tokens: Any = self.strip_tokens  # a caller may pass any value: checked here
        if isinstance(tokens, str) or not all(isinstance(token, str) and token for token in tokens):
            raise RewardInputError(f"strip_tokens must be a list of non-empty texts, not {tokens!r}")
        object.__setattr__(self, "strip_tokens", tuple(tokens))  # a list given stays hashable and frozen
        inputs = reward_inputs()
        if self.input not in inputs:
            raise RewardInputError(f"input must be one of {', '.join(inputs)}, not {self.input!r}")
        if self.match not in MATCHES:
            raise RewardInputError(f"match must be one of {', '.join(MATCHES)}, not {self.match!r}")
        if self.tatqa_score not in TATQA_SCORES:
            raise RewardInputError(f"tatqa_score must be one of {', '.join(TATQA_SCORES)}, not {self.tatqa_score!r}")
        if self.format not in FORMATS:
            raise RewardInputError(f"format must be one of {', '.join(FORMATS)}, not {self.format!r}")
        if self.input == PEER_INPUT:
            from finscore.protocols.registry import protocol_ids

            if self.protocol not in protocol_ids():
                raise RewardInputError(f"input peer needs protocol, one of {', '.join(protocol_ids())}, "
                                       f"not {self.protocol!r}")
        elif self.protocol:
            raise RewardInputError(f"protocol {self.protocol!r} is for input peer, not {self.input!r}")
        try:
            sum_rule_for(self.python)
        except ValueError as error:
            raise RewardInputError(str(error)) from None

    def scored_sources(self) -> dict[str, str]:
        """Each data source this input scores, with its rule (a reader profile or a protocol);
        a peer protocol scores every row, written as the source "*"."""
        if self.input == PEER_INPUT:
            return {"*": self.protocol}
        if self.input not in GENERAL_INPUTS:
            return {self.input: prediction_reward(self.input).rule}
        return PROGRAM_PROFILES if self.input == "program" else ANSWER_PROTOCOLS

    def stamp(self, data_source: str) -> str:
        """The protocol stamp of a row from `data_source` (with the stripped tokens, when declared)."""
        stripped = f" strip_tokens={','.join(self.strip_tokens)}" if self.strip_tokens else ""
        if self.input == PEER_INPUT:
            from finscore.rewards.peers import stamp as peer_stamp

            return peer_stamp(self.protocol, self.match) + stripped
        if self.input not in GENERAL_INPUTS:
            return prediction_reward(self.input).stamp(self) + stripped
        if self.input == "answer":
            stamp = make_stamp(get_protocol(ANSWER_PROTOCOLS[data_source]), self.format)
            return (f"{stamp['protocol']} format={self.format}{' lenient' if 'lenient' in stamp else ''} "
                    f"finscore={stamp['finscore']} conformance_sha256={stamp['conformance_sha256']}{stripped}")
        return (f"{data_source}-{self.input}/1 match={self.match} profile={PROGRAM_PROFILES[data_source]} "
                f"python={self.python} max_chars={MAX_REWARD_PROGRAM_CHARS} finscore={__version__}{stripped}")

    def extra_columns(self) -> tuple[tuple[str, str], ...]:
        """The columns this input's reward source writes beside the five, as (name, Arrow type name):
        FinanceBench's `support` and `support_reason`; none for every other input."""
        if self.input in GENERAL_INPUTS or self.input == PEER_INPUT:
            return ()
        columns: tuple[tuple[str, str], ...] = getattr(prediction_reward(self.input), "columns", ())
        return tuple(columns)

    def without_special_tokens(self, completion: Any) -> Any:
        """A text completion with the declared special tokens (and the white space between them)
        removed from its end; unchanged when it ends with none, or is not text."""
        if not self.strip_tokens or not isinstance(completion, str):
            return completion
        text, stripped = completion, False
        while True:
            trimmed = text.rstrip()
            token = next((t for t in self.strip_tokens if trimmed.endswith(t)), None)
            if token is None:
                return trimmed if stripped else text
            text, stripped = trimmed[:-len(token)], True


def reward_inputs() -> tuple[str, ...]:
    """Every input a RewardConfig takes: the general ones, then each registered benchmark with a reward source."""
    return GENERAL_INPUTS + (PEER_INPUT,) + registry.prediction_reward_names()


def prediction_reward(input: str) -> PredictionReward:
    """The reward source of a benchmark's own predictions (its registry descriptor names it)."""
    return reward_source(registry.get_benchmark(input))


# Reward sources for completions that are a benchmark's own predictions (`RewardConfig(input=name)`):
# programs and free-text answers are scored by this package itself; a benchmark whose completions are
# predictions in its own format (TAT-QA's `[answer, scale]`, a registered benchmark's answer) names
# its reward source in its registry descriptor. A descriptor with only `decide` gets DecidedPredictionReward.


class PredictionReward(Protocol):
    """What a benchmark's reward source does: its scoring rule's name, its stamp, its golds, its decisions."""

    @property
    def rule(self) -> str:
        """The rule `RewardConfig.scored_sources` reports for the benchmark."""

    def stamp(self, config: RewardConfig) -> str:
        """The protocol stamp written on each scored row."""

    def read_golds(self, golds: Sequence[Any], indexes: Sequence[int], column: str) -> list[Any]:
        """Each row's gold, decoded and checked (RewardInputError naming the row)."""

    def decide(self, completions: Sequence[Any], golds: Sequence[Any], config: RewardConfig) -> DecidedRows:
        """One decision per completion (None when missing)."""

    # A source may also name `columns`, ((name, Arrow type name), ...), that its decisions fill in
    # DecidedRows.extra beside the five (RewardConfig.extra_columns reads it).


def reward_source(descriptor: registry.Benchmark) -> PredictionReward:
    """The reward source of a benchmark: the one its descriptor names, or one made from its `decide`."""
    if descriptor.prediction_reward is not None:
        source: PredictionReward = descriptor.prediction_reward.load()
        return source
    if descriptor.decide is None:
        raise ValueError(f"benchmark {descriptor.name!r} has no reward source and no decide function")
    return DecidedPredictionReward(descriptor)


class DecidedPredictionReward:
    """A reward from a descriptor's `decide(prediction, gold) -> (passed, reason)`: 1.0 if passed, else 0.0."""

    __slots__ = ("_descriptor",)

    def __init__(self, descriptor: registry.Benchmark) -> None:
        self._descriptor = descriptor

    @property
    def rule(self) -> str:
        return f"{self._descriptor.name}-decide"

    def stamp(self, config: RewardConfig) -> str:
        return f"{self._descriptor.name}-prediction/1 finscore={__version__}"

    def read_golds(self, golds: Sequence[Any], indexes: Sequence[int], column: str) -> list[Any]:
        return read_golds(golds, indexes, column, lambda value, row: value)

    def decide(self, completions: Sequence[Any], golds: Sequence[Any], config: RewardConfig) -> DecidedRows:
        assert self._descriptor.decide is not None  # reward_source made this only for a descriptor with one
        decide = self._descriptor.decide.load()
        out = DecidedRows(len(completions))
        for row, (completion, gold) in enumerate(zip(completions, golds)):
            if completion is None:
                out.put(row, 0.0, False, MISSING_PREDICTION, {})
                continue
            passed, reason = decide(completion, gold)
            out.put(row, 1.0 if passed else 0.0, bool(passed), reason, {})
        return out
