"""Why two protocols disagree on one example: one closed vocabulary (`finscore protocols compare`).

Each protocol decides an example with its own reason word (`peer_reasons`, `pixiu.REASONS`,
`helm.EXECUTION_REASONS`, the answer reasons of finscore's answer protocols). Where one protocol
accepts and another does not, `pair_reason(accepting, other)` names the rule that makes the
difference: the first of these that holds, in the order of `REASONS` (docs/protocols.md, "Why
protocols disagree"):

1. the other side decided nothing: `peer_executes_code` (its decision needs the model's text run;
   a peer that runs code whose outcome finscore reproduces with certainty, `math.pow(10, 3)`, is
   decided), `not_decided` (past finscore's declared bounds), `peer_raises` (the peer raises or its
   run stops);
2. a lenient rule accepted: `power_of_ten` (FinanceMath's exact power-of-ten ratio, x100, x1000,
   x100000), `sign_ignored`, `inside_tolerance` (a tolerance, not exact; FinanceMath's 3-decimal
   ceiling), `nan_matches_all`, `unreadable_as_zero` (eval() failed and 0 matched the gold),
   `tuple_first_element` (`1,234` scored by its 1);
3. the two read different forms: `other_answer_form` (one reads a program, the other a number);
4. the other side's reading: `string_formatting` (PIXIU's `str ==` on the same number written
   differently, `0.70` vs `0.7`; any other PIXIU miss is `reads_differently`), `none_in_answer`
   (the peer's pipeline scores an answer containing "none" 0 unread), `answer_not_located` and
   `other_text_read` (finscore's answer protocol on the raw completion finds no single final answer,
   or another value, than the peers' stored extracted answer), `tuple_first_element` (the other read
   a tuple), `percent_sign` (finscore's answer protocol read a `%` the peer deletes without scaling),
   `other_text_read`, and else `reads_differently` (the protocols' cleaning reads the same text to
   different values: units, `us`, commas, `10^k`);
5. `dropped_from_denominator`: no completion, and one protocol's published figure leaves the example
   out (a peer scores the items it is given) while another counts it as a miss (`compare` decides it).

Imports nothing heavy.
"""

from __future__ import annotations

from typing import NamedTuple

from finscore.protocols import peer_reasons as P
from finscore.scoring.reasons import PERCENT_DECLARED

PEER_EXECUTES_CODE = P.PEER_EXECUTES_CODE
PEER_RAISES = P.PEER_RAISES
NOT_DECIDED = "not_decided"
POWER_OF_TEN = "power_of_ten"
SIGN_IGNORED = P.SIGN_IGNORED
INSIDE_TOLERANCE = "inside_tolerance"
NAN_MATCHES_ALL = P.NAN_MATCHES_ALL
UNREADABLE_AS_ZERO = "unreadable_as_zero"
TUPLE_FIRST_ELEMENT = P.TUPLE_FIRST_ELEMENT
STRING_FORMATTING = "string_formatting"
OTHER_ANSWER_FORM = "other_answer_form"
NONE_IN_ANSWER = "none_in_answer"
ANSWER_NOT_LOCATED = "answer_not_located"
OTHER_TEXT_READ = "other_text_read"
PERCENT_SIGN = "percent_sign"
READS_DIFFERENTLY = "reads_differently"
DROPPED_FROM_DENOMINATOR = "dropped_from_denominator"

#: The closed vocabulary, in the order of the rules above.
REASONS: tuple[str, ...] = (
    PEER_EXECUTES_CODE, NOT_DECIDED, PEER_RAISES, POWER_OF_TEN, SIGN_IGNORED, INSIDE_TOLERANCE, NAN_MATCHES_ALL,
    UNREADABLE_AS_ZERO, TUPLE_FIRST_ELEMENT, OTHER_ANSWER_FORM, STRING_FORMATTING, NONE_IN_ANSWER,
    ANSWER_NOT_LOCATED, PERCENT_SIGN, OTHER_TEXT_READ, READS_DIFFERENTLY, DROPPED_FROM_DENOMINATOR)

#: What each reason means, as the reports and docs/protocols.md say it.
MEANINGS: dict[str, str] = {
    PEER_EXECUTES_CODE: "the peer would run the text as code: its decision is not reproducible without running it",
    PEER_RAISES: "the peer raises (or its run stops) instead of deciding",
    NOT_DECIDED: "past finscore's declared bounds: not decided",
    POWER_OF_TEN: "accepted only by a power-of-ten rule (an exact power-of-ten ratio, or x100/x1000/x100000 "
                  "within 0.15%)",
    SIGN_IGNORED: "accepted only because the sign is ignored",
    INSIDE_TOLERANCE: "inside a tolerance (isclose, a relative bound, a 3-decimal ceiling) but not exact",
    NAN_MATCHES_ALL: "NaN, which the peer's comparison accepts for every gold",
    UNREADABLE_AS_ZERO: "the peer's eval() failed, the answer read as 0 matched the gold",
    TUPLE_FIRST_ELEMENT: "a tuple (a comma in the number) scored by its first element",
    STRING_FORMATTING: "failed string equality on formatting: the same number written differently (0.70 vs 0.7)",
    OTHER_ANSWER_FORM: "one protocol reads a program, the other a number: the text is not the other's form",
    NONE_IN_ANSWER: "the peer's pipeline scores an answer containing 'none' as 0 without reading it",
    ANSWER_NOT_LOCATED: "no single final answer located in the raw completion by finscore's answer format",
    OTHER_TEXT_READ: "the peers read the stored extracted answer, finscore the raw completion's marked answer: "
                     "different values",
    PERCENT_SIGN: "finscore's answer protocol read the % (a hundredth, or the label of a percentage gold); the "
                  "peer deletes it without scaling",
    READS_DIFFERENTLY: "the protocols' cleaning reads the same text to different values",
    DROPPED_FROM_DENOMINATOR: "no completion: left out of one protocol's published denominator, a miss in another's",
}


class Outcome(NamedTuple):
    """One protocol's decision of one example, as `compare` records it.

    `verdict`: True (full credit), False, or None (the peer raises, the line is not decided, or its
    decision needs the text run); `reason`: the protocol's own word; `kind`: what the protocol reads
    ("program", "string", "number": the eval() peers, "answer": finscore's answer protocols);
    `read`: the text the protocol was given (None for a missing one); `gold`: the gold as the
    protocol compares it (PIXIU's string); `rule`: the comparison rule that decided when `reason` names
    a reading quirk instead (FinanceMath's text that is code, decided with certainty)."""

    verdict: bool | None
    reason: str
    kind: str
    read: str | None
    gold: str | None = None
    rule: str = ""


#: The peers' accepting rules that are leniencies, and the disagreement each is.
_LENIENT: dict[str, str] = {
    P.POWER_OF_TEN_RATIO: POWER_OF_TEN, P.PERCENT_SCALE: POWER_OF_TEN, P.THOUSAND_SCALE: POWER_OF_TEN,
    P.HUNDRED_THOUSAND_SCALE: POWER_OF_TEN, P.SIGN_IGNORED: SIGN_IGNORED,
    P.WITHIN_RELATIVE_TOLERANCE: INSIDE_TOLERANCE, P.THREE_DECIMAL_CEILING: INSIDE_TOLERANCE,
    "within_tolerance": INSIDE_TOLERANCE, P.NAN_MATCHES_ALL: NAN_MATCHES_ALL,
    P.EVAL_FAILED_ZERO: UNREADABLE_AS_ZERO, P.TUPLE_FIRST_ELEMENT: TUPLE_FIRST_ELEMENT,
}
#: finscore's answer-format words for "no single final answer found".
_NOT_LOCATED = frozenset({"no_final_answer", "unparseable", "several_numbers"})
#: Words saying that the peer's decision needs the text run.
_CODE = frozenset({P.PEER_EXECUTES_CODE})


def _number(text: str | None) -> float | None:
    """The text as a plain decimal number (digits, one point, a sign), else None: no other reading."""
    if text is None:
        return None
    stripped = text.strip()
    body = stripped[1:] if stripped[:1] in "+-" else stripped
    if not body or len(body) > 100 or body.count(".") > 1 or not body.replace(".", "").isdigit() \
            or not body.replace(".", "").isascii():
        return None
    return float(stripped)


def _execution_word(outcome: Outcome) -> str:
    """HELM's reason is `execution:<word>;program:<method>`: the execution word decides."""
    if outcome.reason.startswith("execution:"):
        return outcome.reason.split(";", 1)[0].split(":", 1)[1]
    return outcome.reason


def pair_reason(accepting: Outcome, other: Outcome) -> str:
    """Why `accepting` (verdict True) and `other` (verdict False or None) disagree: one of REASONS."""
    if other.verdict is None:
        if other.reason in _CODE:
            return PEER_EXECUTES_CODE
        return NOT_DECIDED if other.reason.startswith(NOT_DECIDED) else PEER_RAISES
    lenient = _LENIENT.get(accepting.reason) or _LENIENT.get(accepting.rule)
    if lenient is not None:
        return lenient
    if accepting.kind == "program" and other.kind == "program":  # both HELM: same reading
        return READS_DIFFERENTLY
    if accepting.kind != other.kind and "program" in (accepting.kind, other.kind):
        return OTHER_ANSWER_FORM
    if other.kind == "string":  # PIXIU: str ==, nothing parsed
        value = _number(other.read)
        if value is not None and value == _number(other.gold):
            return STRING_FORMATTING
        return READS_DIFFERENTLY
    if other.reason == NONE_IN_ANSWER:
        return NONE_IN_ANSWER
    if other.kind == "answer":
        return ANSWER_NOT_LOCATED if other.reason in _NOT_LOCATED else OTHER_TEXT_READ
    if other.reason == P.TUPLE_FIRST_ELEMENT:
        return TUPLE_FIRST_ELEMENT
    if accepting.reason == PERCENT_DECLARED and other.kind == "number":
        return PERCENT_SIGN
    if accepting.kind == "answer" and other.kind == "number" and accepting.read != other.read:
        return OTHER_TEXT_READ
    return READS_DIFFERENTLY
