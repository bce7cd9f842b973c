"""The closed set of decision reasons: three ways to pass, ten ways to miss.

Kept as plain strings (they appear in JSON reports, JSON Lines and the HTML
chart) with one tuple per side, so a report can list every reason, even those
that never occurred, in a fixed order.
"""

from __future__ import annotations

EXACT = "exact"
WITHIN_TOLERANCE = "within_tolerance"
PERCENT_DECLARED = "percent_declared"

NO_FINAL_ANSWER = "no_final_answer"
UNPARSEABLE = "unparseable"
SEVERAL_NUMBERS = "several_numbers"
SCALE_OFF = "scale_off"
PERCENT_VS_RATIO = "percent_vs_ratio"
SIGN_FLIPPED = "sign_flipped"
ROUNDING = "rounding"
WRONG_VALUE = "wrong_value"
WRONG_YES_NO = "wrong_yes_no"
MISSING_PREDICTION = "missing_prediction"

PASS_REASONS: tuple[str, ...] = (EXACT, WITHIN_TOLERANCE, PERCENT_DECLARED)
MISS_REASONS: tuple[str, ...] = (
    NO_FINAL_ANSWER, UNPARSEABLE, SEVERAL_NUMBERS, SCALE_OFF, PERCENT_VS_RATIO, SIGN_FLIPPED,
    ROUNDING, WRONG_VALUE, WRONG_YES_NO, MISSING_PREDICTION,
)
ALL_REASONS: tuple[str, ...] = PASS_REASONS + MISS_REASONS
