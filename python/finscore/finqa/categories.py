"""FinQA's failure categories, kept at this path: their one home is finscore.scoring.program_categories."""

from finscore.scoring.program_categories import (
    CORRECT,
    MISSING_PREDICTION,
    EXCLUDED_PREDICTION,
    MALFORMED_PROGRAM,
    BAD_ARGUMENT,
    TABLE_LOOKUP,
    ARITHMETIC_ERROR,
    STRICT_REFUSAL,
    INVALID_OTHER,
    EXCEEDED_BOUNDS,
    NO_ANSWER,
    WRONG_YES_NO,
    WRONG_ANSWER_TYPE,
    NEAR_MISS,
    WRONG_SIGN,
    PERCENT_SCALE,
    WRONG_VALUE,
    CATEGORY_DESCRIPTIONS,
    execution_category,
    refusal_category,
    wrong_answer_category,
)

__all__ = ["CORRECT", "MISSING_PREDICTION", "EXCLUDED_PREDICTION", "MALFORMED_PROGRAM", "BAD_ARGUMENT", "TABLE_LOOKUP", "ARITHMETIC_ERROR", "STRICT_REFUSAL", "INVALID_OTHER", "EXCEEDED_BOUNDS", "NO_ANSWER", "WRONG_YES_NO", "WRONG_ANSWER_TYPE", "NEAR_MISS", "WRONG_SIGN", "PERCENT_SCALE", "WRONG_VALUE", "CATEGORY_DESCRIPTIONS", "execution_category", "refusal_category", "wrong_answer_category"]
