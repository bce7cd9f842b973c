"""Every reason word finscore writes, defined once, each with the concept it names.

A word names one concept, and a concept has one word. Benchmarks differ in how they
find a reason, and where the test differs the concept does too, so the name says how:
the three sign misses are `wrong_sign` (a FinQA program's result is within 0.1% of the
negated gold, the closeness of `near_miss` and `percent_scale`), `sign` (TAT-QA's
official exact match once the value is negated) and `sign_flipped` (a free-text answer
within its protocol's tolerance of the negated gold). The words are recorded (answer
conformance files hashed into reward stamps, the C ABI's answer reasons, lm-eval metric
names), so none was renamed; benchmark modules take their words from here and keep
their report descriptions, which are what their users read. Imports nothing.
"""

from __future__ import annotations

# -- the fate of a gold example, shared by every scorer
CORRECT = "correct"
MISSING_PREDICTION = "missing_prediction"
EXCLUDED_PREDICTION = "excluded_prediction"
NOT_SCORED = "not_scored"

# -- answers that pass (answer protocols)
EXACT = "exact"
WITHIN_TOLERANCE = "within_tolerance"
PERCENT_DECLARED = "percent_declared"
PARENTHESIZED_AMOUNT = "parenthesized_amount"
SCALE_UNSTATED = "scale_unstated"

# -- programs that do not run (FinQA)
MALFORMED_PROGRAM = "malformed_program"
BAD_ARGUMENT = "bad_argument"
TABLE_LOOKUP = "table_lookup"
ARITHMETIC_ERROR = "arithmetic_error"
STRICT_REFUSAL = "strict_refusal"
INVALID_OTHER = "invalid_other"
EXCEEDED_BOUNDS = "exceeded_bounds"

# -- answers that cannot be read
NO_ANSWER = "no_answer"
NO_FINAL_ANSWER = "no_final_answer"
UNPARSEABLE = "unparseable"
SEVERAL_NUMBERS = "several_numbers"
EMPTY_PREDICTION = "empty_prediction"
UNREADABLE_PREDICTION = "unreadable_prediction"

# -- wrong answers, by the fix that would have made them right
WRONG_YES_NO = "wrong_yes_no"
WRONG_ANSWER_TYPE = "wrong_answer_type"
NEAR_MISS = "near_miss"
WRONG_SIGN = "wrong_sign"
SIGN = "sign"
SIGN_FLIPPED = "sign_flipped"
PERCENT_SCALE = "percent_scale"
PERCENT_VS_RATIO = "percent_vs_ratio"
SCALE_OFF = "scale_off"
SCALE_MISMATCH = "scale_mismatch"
ROUNDING = "rounding"
WRONG_COUNT = "wrong_count"
MISSING_SPAN_ITEMS = "missing_span_items"
EXTRA_SPAN_ITEMS = "extra_span_items"
PARTIAL_SPAN = "partial_span"
WRONG_NUMBER = "wrong_number"
WRONG_VALUE = "wrong_value"
WRONG_ANSWER = "wrong_answer"

#: Every word with the concept it names (reports word it for their users in their own descriptions).
VOCABULARY: dict[str, str] = {
    CORRECT: "the prediction is right by the benchmark's official decision",
    MISSING_PREDICTION: "the predictions have nothing for this gold example: a failure, counted",
    EXCLUDED_PREDICTION: "every prediction entry for this gold example was excluded: a failure, counted",
    NOT_SCORED: "a row of a data source finscore does not score",
    EXACT: "the answer read equals the gold exactly",
    WITHIN_TOLERANCE: "the answer read is within the protocol's tolerance of the gold",
    PERCENT_DECLARED: "the answer, declared a percentage, is the gold within tolerance",
    PARENTHESIZED_AMOUNT: "an amount written in parentheses (an outflow) whose magnitude is the gold",
    SCALE_UNSTATED: "an amount without a scale word that is the gold written in dollars or thousands",
    MALFORMED_PROGRAM: "a FinQA program whose tokens or steps do not read as op(arg, arg) groups",
    BAD_ARGUMENT: "a FinQA program argument that is not a number or not a valid step reference",
    TABLE_LOOKUP: "a FinQA table step on an unknown row, a non-numeric cell or an empty row",
    ARITHMETIC_ERROR: "a FinQA step that divides by zero, has no real power, or mixes types",
    STRICT_REFUSAL: "a quirk the official FinQA evaluator tolerates, refused by the strict profile",
    INVALID_OTHER: "a FinQA program refused for another reason",
    EXCEEDED_BOUNDS: "past finscore's declared bounds: not an official outcome",
    NO_ANSWER: "a valid FinQA program without steps (answer n/a)",
    NO_FINAL_ANSWER: "a completion without the protocol's final-answer marker",
    UNPARSEABLE: "an answer the protocol cannot read as a value",
    SEVERAL_NUMBERS: "an answer holding more than one number where one is asked",
    EMPTY_PREDICTION: "an empty TAT-QA answer, or one the official script takes as no answer",
    UNREADABLE_PREDICTION: "a TAT-QA answer the official metric raises on",
    WRONG_YES_NO: "yes where the gold is no, or the reverse",
    WRONG_ANSWER_TYPE: "a yes/no answer for a numeric question, or the reverse",
    NEAR_MISS: "a FinQA result within 0.1% (or 1e-5) of the gold, but not equal",
    WRONG_SIGN: "a FinQA result within 0.1% (or 1e-5) of the gold with the opposite sign",
    SIGN: "a TAT-QA answer that is an official exact match once negated",
    SIGN_FLIPPED: "a free-text answer within the protocol's tolerance of the negated gold",
    PERCENT_SCALE: "a FinQA result within 0.1% of the gold times or divided by 100",
    PERCENT_VS_RATIO: "right times or divided by 100: a percentage written as a ratio or the reverse",
    SCALE_OFF: "a free-text answer off from the gold by a power of ten (thousands, millions)",
    SCALE_MISMATCH: "a TAT-QA answer right with the gold's scale, not the one predicted",
    ROUNDING: "equal to the gold at fewer decimal places",
    WRONG_COUNT: "a TAT-QA count question answered with another count",
    MISSING_SPAN_ITEMS: "some of the gold span items, none extra",
    EXTRA_SPAN_ITEMS: "every gold span item, and more",
    PARTIAL_SPAN: "some words right (0 < F1 < 1)",
    WRONG_NUMBER: "a TAT-QA number that is not the gold one",
    WRONG_VALUE: "another value, none of the fixes above makes it right",
    WRONG_ANSWER: "a TAT-QA answer with nothing in common with the gold (F1 = 0)",
}

# -- how a terminal report shows the ids behind a reason
#: Ids (or exclusions) listed inline before the report points to --json for the rest.
LISTED_IDS = 10
