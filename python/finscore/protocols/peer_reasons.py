"""The reason words of the eval()-based peer protocols (FinanceMath, DocMath-Eval, FinanceReasoning, FinMMR).

One word names the rule that decided a line; docs/protocols.md describes each. Words finscore
already writes elsewhere are taken from `scoring/reasons.py` (one word, one concept). Imports nothing
heavy.
"""

from __future__ import annotations

from finscore.scoring.reasons import EXACT as EXACT
from finscore.scoring.reasons import EXCEEDED_BOUNDS as EXCEEDED_BOUNDS
from finscore.scoring.reasons import PERCENT_SCALE as PERCENT_SCALE

# -- accepted
SIGN_IGNORED = "sign_ignored"                  # |p| == |gt| with opposite signs (FinanceMath's ratio rule)
POWER_OF_TEN_RATIO = "power_of_ten_ratio"      # |p| / |gt| an exact power of ten other than 1
THOUSAND_SCALE = "thousand_scale"              # x1000 within 0.15%
HUNDRED_THOUSAND_SCALE = "hundred_thousand_scale"  # x100000 within 0.15%
THREE_DECIMAL_CEILING = "three_decimal_ceiling"  # same ceiling at 3 decimals
WITHIN_RELATIVE_TOLERANCE = "within_relative_tolerance"
NAN_MATCHES_ALL = "nan_matches_all"            # NaN passes FinanceMath's max/min comparisons
BOOL_EQUALITY = "bool_equality"                # a bool gold or prediction compared with ==
# -- rejected
OUTSIDE_TOLERANCE = "outside_tolerance"
NON_NUMERIC_VALUE = "non_numeric_value"        # the evaluated answer is a string, list, dict, object
COMPARISON_RAISED = "comparison_raised"        # the peer's comparison raised (inf, (), a str against a float)
NOT_TEXT = "not_text"                          # the answer handed over is not a string
EMPTY_OR_NONE = "empty_or_none"                # FinanceReasoning/FinMMR: no answer or `None` read
# -- reading quirks that decided
EVAL_FAILED_ZERO = "eval_failed_zero"          # FinanceMath: eval() failed, the answer is read as 0
TUPLE_FIRST_ELEMENT = "tuple_first_element"    # FinanceReasoning: `1,234` is (1, 234), scored by 1
PEER_EXECUTES_CODE = "peer_executes_code"      # the peer runs the text as code (names, calls, attributes)
PEER_STOPS_RUN = "peer_stops_run"              # `sys.exit()` as an answer: SystemExit ends the peer's run
PEER_RAISES = "peer_raises"                    # the peer's scorer raises on the line (its run would stop)
# -- not decided line by line
NEEDS_WHOLE_FILE = "needs_whole_file"          # a whole-file figure: replayed from the file, not from one line

REASONS = (EXACT, SIGN_IGNORED, POWER_OF_TEN_RATIO, PERCENT_SCALE, THOUSAND_SCALE, HUNDRED_THOUSAND_SCALE,
           THREE_DECIMAL_CEILING, WITHIN_RELATIVE_TOLERANCE, NAN_MATCHES_ALL, BOOL_EQUALITY,
           OUTSIDE_TOLERANCE, NON_NUMERIC_VALUE, COMPARISON_RAISED, NOT_TEXT, EMPTY_OR_NONE,
           EVAL_FAILED_ZERO, TUPLE_FIRST_ELEMENT, PEER_EXECUTES_CODE, PEER_STOPS_RUN, EXCEEDED_BOUNDS,
           NEEDS_WHOLE_FILE)
