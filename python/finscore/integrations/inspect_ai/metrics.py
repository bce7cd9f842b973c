"""Metrics beside inspect's accuracy and (clustered) stderr: finscore's headline figures, over inspect's scores.

The kit's samples are not independent: its cases come in families (one
workflow in three languages), so its stderr is inspect's clustered standard
error over `family`, and `family_pass` is finscore's headline rate (a family
passes when every attempt of every one of its cases passes). inspect's epochs
are the attempts: the kit's reducer `attempts` keeps, per case, the share of
attempts that passed and the share that were critical, so `accuracy` is the
share of all attempts that passed and `critical` the share that were critical,
as in `finscore contracts`. For answers, `cluster_stderr`
clusters over the samples' `cluster` metadata when they carry it (a
ConvFinQA conversation, a TAT-QA table), and is the plain stderr when none does.
"""

from __future__ import annotations

from typing import cast

from inspect_ai.scorer import (
    Metric,
    MetricProtocol,
    SampleScore,
    Score,
    ScoreReducer,
    metric,
    score_reducer,
    stderr,
    value_to_float,
)

from finscore.answers import reasons as R

#: The sample-metadata key the kit's clustering and `family_pass` read.
FAMILY_KEY = "family"
#: The sample-metadata key `cluster_stderr` reads: which samples are not independent of each other.
CLUSTER_KEY = "cluster"


def _metadata_value(score: SampleScore, key: str) -> object:
    return (score.sample_metadata or {}).get(key)


_as_float = value_to_float()


def _critical_share(score: Score) -> float:
    """1 or 0 for one attempt (its `critical` flag), the share of critical attempts once reduced."""
    return float((score.metadata or {}).get("critical") or 0)


@score_reducer(name="attempts")
def attempts() -> ScoreReducer:
    """A case's attempts (epochs) as one score: the share that passed, and the share that were critical."""

    def reduce(scores: list[Score]) -> Score:
        passed = sum(_as_float(score.value) for score in scores) / len(scores)
        shares = {"critical": sum(_critical_share(score) for score in scores) / len(scores)}
        if len(scores) == 1:
            return scores[0].model_copy(update={"value": passed, "metadata": (scores[0].metadata or {}) | shares})
        return Score(
            value=passed,
            explanation=f"{sum(_as_float(score.value) == 1.0 for score in scores)} of {len(scores)} attempts passed",
            metadata=shares | {"attempts": [score.metadata for score in scores]},
        )

    return reduce


@metric
def family_pass() -> Metric:
    """The share of families every sample of which passed in every attempt (finscore's headline rate)."""

    def compute(scores: list[SampleScore]) -> float:
        families: dict[object, bool] = {}
        for score in scores:
            family = _metadata_value(score, FAMILY_KEY)
            if family is None:
                raise ValueError(f"sample {score.sample_id} has no {FAMILY_KEY!r} in its metadata")
            families[family] = families.get(family, True) and _as_float(score.score.value) == 1.0
        return sum(families.values()) / len(families) if families else 0.0

    return compute


@metric
def critical() -> Metric:
    """The share of attempts whose trace records an unsafe act (a critical failure)."""

    def compute(scores: list[SampleScore]) -> float:
        return sum(_critical_share(score.score) for score in scores) / len(scores) if scores else 0.0

    return compute


@metric
def cluster_stderr() -> Metric:
    """inspect's stderr, clustered over `cluster` when the samples carry it (every one must, then)."""
    clustered = cast(MetricProtocol, stderr(cluster=CLUSTER_KEY))  # both take SampleScores: not the deprecated form
    plain = cast(MetricProtocol, stderr())

    def compute(scores: list[SampleScore]) -> float:
        chosen = clustered if any(_metadata_value(score, CLUSTER_KEY) is not None for score in scores) else plain
        value = chosen(scores)
        if not isinstance(value, (int, float)):
            raise TypeError(f"inspect's stderr gave a {type(value).__name__}, not a number")
        return float(value)

    return compute


@metric
def reasons() -> Metric:
    """The share of each typed decision reason, every reason listed (those that never occurred at 0)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        counts = dict.fromkeys(R.ALL_REASONS, 0)
        for score in scores:
            reason = (score.score.metadata or {}).get("reason")
            if reason not in counts:
                raise ValueError(f"sample {score.sample_id} has no decision reason in its score's metadata")
            counts[reason] += 1
        return {reason: count / len(scores) if scores else 0.0 for reason, count in counts.items()}

    return compute
