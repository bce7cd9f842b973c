"""Honest numbers: exact intervals, the family bootstrap, McNemar, pass^k."""

from finscore.contracts.stats.inference import (
    DEFAULT_REPLICATES,
    DEFAULT_SEED,
    MAX_REPLICATES,
    ClusterCounts,
    PairedCounts,
    RateSummary,
    clopper_pearson_interval,
    cluster_bootstrap,
    mcnemar_exact,
    paired_cluster_bootstrap,
    pass_hat_k,
    summarize_rate,
    wilson_interval,
)

__all__ = [
    "DEFAULT_REPLICATES",
    "DEFAULT_SEED",
    "MAX_REPLICATES",
    "ClusterCounts",
    "PairedCounts",
    "RateSummary",
    "clopper_pearson_interval",
    "cluster_bootstrap",
    "mcnemar_exact",
    "paired_cluster_bootstrap",
    "pass_hat_k",
    "summarize_rate",
    "wilson_interval",
]
