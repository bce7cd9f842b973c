"""Every reason word the FinanceBench report writes, with its description (the registry's `reasons`)."""

from __future__ import annotations

from finscore.financebench.audit import AUDIT_OUTCOMES
from finscore.financebench.claims import NO_CLAIM_REASONS
from finscore.financebench.correctness import CORRECT_REASONS, MISS_REASONS
from finscore.financebench.reward import NO_EVIDENCE
from finscore.financebench.support import SUPPORT_REASONS
from finscore.scoring.reasons import MISSING_PREDICTION, NOT_SCORED, VOCABULARY

REASON_DESCRIPTIONS: dict[str, str] = {
    **CORRECT_REASONS, **MISS_REASONS, **NO_CLAIM_REASONS, **SUPPORT_REASONS, **AUDIT_OUTCOMES,
    MISSING_PREDICTION: VOCABULARY[MISSING_PREDICTION],
    NO_EVIDENCE: "the reward row's gold record holds no evidence page: support is not checked",
    NOT_SCORED: "a free-text gold (domain-relevant, novel-generated): out of reach of a deterministic check",
}
