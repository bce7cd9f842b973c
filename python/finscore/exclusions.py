"""Kept importable: the exclusion kinds now live in finscore.scoring.exclusions."""

from finscore.scoring.exclusions import (
    DUPLICATE_ID,
    EXCLUDED,
    EXCLUSION_KINDS,
    MALFORMED_ENTRY,
    MISSING,
    UNKNOWN_ID,
)

__all__ = ["DUPLICATE_ID", "EXCLUDED", "EXCLUSION_KINDS", "MALFORMED_ENTRY", "MISSING", "UNKNOWN_ID"]
