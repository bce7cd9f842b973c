"""The closed set of decision reasons: three ways to pass, ten ways to miss.

Kept as plain strings (they appear in JSON reports, JSON Lines and the HTML
chart) with one tuple per side, so a report can list every reason, even those
that never occurred, in a fixed order.
"""

from __future__ import annotations

from finscore.scoring.reasons import (
    EXACT, MISSING_PREDICTION, NO_FINAL_ANSWER, PERCENT_DECLARED, PERCENT_VS_RATIO, ROUNDING, SCALE_OFF,
    SEVERAL_NUMBERS, SIGN_FLIPPED, UNPARSEABLE, WITHIN_TOLERANCE, WRONG_VALUE, WRONG_YES_NO,
)

__all__ = [
    "EXACT", "WITHIN_TOLERANCE", "PERCENT_DECLARED", "NO_FINAL_ANSWER", "UNPARSEABLE", "SEVERAL_NUMBERS",
    "SCALE_OFF", "PERCENT_VS_RATIO", "SIGN_FLIPPED", "ROUNDING", "WRONG_VALUE", "WRONG_YES_NO",
    "MISSING_PREDICTION", "PASS_REASONS", "MISS_REASONS", "ALL_REASONS",
]

PASS_REASONS: tuple[str, ...] = (EXACT, WITHIN_TOLERANCE, PERCENT_DECLARED)
MISS_REASONS: tuple[str, ...] = (
    NO_FINAL_ANSWER, UNPARSEABLE, SEVERAL_NUMBERS, SCALE_OFF, PERCENT_VS_RATIO, SIGN_FLIPPED,
    ROUNDING, WRONG_VALUE, WRONG_YES_NO, MISSING_PREDICTION,
)
ALL_REASONS: tuple[str, ...] = PASS_REASONS + MISS_REASONS
