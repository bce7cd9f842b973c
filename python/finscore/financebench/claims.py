"""The claim of a FinanceBench answer: the value it states, with what the text says of it.

An answer is free text; its claim is the number it concludes with, read under declared rules
(`financebench-answer/1`, docs in the README's FinanceBench section):

1. the text is cut into sentences (a period, `?` or `!` before white space, or a line break), at most
   `MAX_SENTENCES`; numbers are read by `financebench.numbers.scan` (bounded, no regular expression);
2. a value is a number that is not glued to letters (`FY2018`, `10-K`), not a year or a date's day,
   not a list marker (`1.` or `2)` opening a line), not a footnote, and not an operand (an arithmetic
   operator beside it: "x 100", "/ 3", "$19,815 million - $13,997 million");
3. the conclusion is the last sentence holding a value and a conclusion cue ("therefore", "thus",
   "so", "hence", "in conclusion", "answer", "approximately", "rounded", "=", ...); failing one, the first
   sentence holding a value and a verb of statement ("is", "was", "were", "are", "amounted");
   failing that, the last sentence holding a value;
4. the claim is the last value of the conclusion outside a parenthesised computation ("0.68
   (5,121.3 / 7,491.5)": the operands are not the claim); a conclusion that states two values joined
   by "or" / "to" / "and" as alternatives ("between 0.65 and 0.67") has several numbers, unless they
   are one value written two ways ("0.54 or 54.00%").

An answer with no value refuses with a typed reason: `no_claim` (no number at all, or only years and
names), which the refusal wording ("I cannot", "not provided", "don't have access") sharpens into
`refusal` when it is present. Each claim also carries its period (FY2018, Q3 2022), its entity (the
name before "'s") and its line item (the words before the value in its sentence).
"""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from finscore.financebench.numbers import MAX_SCANNED_CHARS, Number, scan

#: At most this many sentences are read (a longer answer's tail is not).
MAX_SENTENCES = 2_000
#: A line item or entity is at most this many characters.
MAX_LABEL = 120

#: Words that mark a sentence as a conclusion (matched as whole lower-case words or symbols).
CONCLUSION_CUES: tuple[str, ...] = ("therefore", "thus", "so", "hence", "conclusion", "answer", "approximately",
                                    "roughly", "about", "final", "result", "overall", "rounded", "rounding", "=", "≈", "~")
#: Verbs of statement: "X is $5 million".
STATEMENT_VERBS: tuple[str, ...] = ("is", "was", "were", "are", "amounted", "totaled", "totalled", "reported",
                                    "paid", "generated", "had", "came", "equals", "stood")
#: Phrases of an answer that declines to answer (lower case).
REFUSAL_PHRASES: tuple[str, ...] = (
    "i don't have", "i do not have", "i cannot", "i can't", "i'm sorry", "i am sorry", "unable to",
    "not provided", "does not provide", "doesn't provide", "not available", "no information",
    "not possible to", "insufficient", "does not contain", "doesn't contain", "not include",
    "don't have access", "do not have access", "not enough information", "cannot be determined",
    "not mentioned", "not specified", "not given",
)

NO_CLAIM = "no_claim"
REFUSAL = "refusal"

#: Why an answer holds no claim.
NO_CLAIM_REASONS: dict[str, str] = {
    NO_CLAIM: "the answer states no value (no number, or only years, names and list markers)",
    REFUSAL: "the answer declines to answer (its own words) and states no value",
}


class Period(NamedTuple):
    """A fiscal period the text names: the year, and the quarter (1-4) or None for a whole year."""

    year: int
    quarter: int | None

    def label(self) -> str:
        return f"Q{self.quarter} {self.year}" if self.quarter else f"FY{self.year}"


class Claim(NamedTuple):
    """The value an answer states: `number` as read, its `unit` ("USD", "percent", "ratio" or "shares"),
    its scale (a power of ten: 6 for "million"), the sentence it concludes, its period, entity and line
    item when the text names them, and `several` when the conclusion states alternatives."""

    number: Number
    unit: str
    scale: int
    sentence: str
    period: Period | None
    entity: str | None
    line_item: str | None
    several: bool
    values: tuple[Number, ...]

    @property
    def value(self) -> Decimal:
        return self.number.value


class NoClaim(NamedTuple):
    """An answer without a claim, and why (`NO_CLAIM_REASONS`)."""

    reason: str
    detail: str


class _Sentence(NamedTuple):
    start: int
    end: int


def sentences(text: str) -> list[_Sentence]:
    """The sentence spans of `text`: cut after `.`, `?` or `!` followed by white space, and at line breaks."""
    spans: list[_Sentence] = []
    start = 0
    length = len(text)
    position = 0
    while position < length and len(spans) < MAX_SENTENCES:
        char = text[position]
        cut = char == "\n" or (char in ".?!" and (position + 1 >= length or text[position + 1] in " \t\r\n"))
        if cut:
            if text[start:position + 1].strip():
                spans.append(_Sentence(start, position + 1))
            start = position + 1
        position += 1
    if start < length and text[start:].strip() and len(spans) < MAX_SENTENCES:
        spans.append(_Sentence(start, length))
    return spans


def _words(text: str) -> list[str]:
    """Lower-case words and the symbols = ≈ ~ of `text`, in order."""
    words: list[str] = []
    current: list[str] = []
    for char in text.lower():
        if char.isalpha() or char == "'":
            current.append(char)
            continue
        if current:
            words.append("".join(current))
            current = []
        if char in "=≈~":
            words.append(char)
    if current:
        words.append("".join(current))
    return words


def _list_marker(text: str, number: Number) -> bool:
    """`1.` or `2)` opening a line (after white space or a bullet), followed by white space."""
    position = number.start - 1
    while position >= 0 and text[position] in " \t-*•":
        position -= 1
    if position >= 0 and text[position] != "\n":
        return False
    after = number.digits_end
    return number.decimals == 0 and not number.dollar and after + 1 < len(text) and text[after] in ".)" \
        and text[after + 1] in " \t"


def is_value(text: str, number: Number) -> bool:
    """Whether a number of `text` is a value an answer can claim (rule 2)."""
    if number.glued or number.year:
        return False
    if _list_marker(text, number):
        return False
    return not (number.digits_start > 0 and text[number.digits_start - 1] in "[^")


#: Operators that make a parenthesised group a computation ("0.68 (5,121.3 / 7,491.5)").
OPERATORS = "/*+×÷"


def is_operand(text: str, number: Number) -> bool:
    """A number an arithmetic operator stands beside ("x 100", "/ 3", "$19,815 million - $13,997 million"):
    an input of a formula, not its result (the result follows "=")."""
    before = number.start
    while before > 0 and text[before - 1] in " \t":
        before -= 1
    if before > 0 and (text[before - 1] in OPERATORS or (text[before - 1] in "xX" and (before < 2 or
                                                                                       text[before - 2] == " "))):
        return True
    if number.negative and not number.parenthesized and before > 0 and (
            text[before - 1].isdigit() or text[before - 1] in ")%"
            or text[max(0, before - 8):before].lower().endswith(("thousand", "million", "billion"))):
        return True  # "million - $13,997": a binary minus read as the number's sign
    after = number.end
    while after < len(text) and text[after] in " \t":
        after += 1
    if after < len(text) and (text[after] in OPERATORS or (text[after] in "xX" and text[after + 1:after + 2] == " ")):
        return True
    return after + 1 < len(text) and text[after] in "-\u2212" and text[after + 1] == " " and after > number.end


def _operands(text: str, span: _Sentence) -> list[tuple[int, int]]:
    """The spans of the parenthesised groups of a sentence that hold an operator: their numbers are operands."""
    groups: list[tuple[int, int]] = []
    opened = -1
    for position in range(span.start, span.end):
        char = text[position]
        if char == "(":
            opened = position
        elif char == ")" and opened >= 0:
            if any(c in OPERATORS for c in text[opened:position]) or " - " in text[opened:position]:
                groups.append((opened, position + 1))
            opened = -1
    return groups


def periods(text: str) -> list[Period]:
    """Every period `text` names: FY2018, fiscal (year) 2018, Q3 2022, 2018 (a bare year), in order."""
    found: list[Period] = []
    for number in scan(text):
        if number.decimals or number.negative or number.commas or number.dollar:
            continue
        digits = text[number.digits_start:number.digits_end]
        if len(digits) != 4 or not 1900 <= int(digits) <= 2099:
            continue
        before = text[max(0, number.digits_start - 12):number.digits_start].lower()
        if number.glued and not before.endswith(("fy", "fy'", "fy-")):
            continue
        quarter = None
        for q in "1234":
            if before.rstrip().endswith((f"q{q}", f"q{q} fy", f"q{q}-")):
                quarter = int(q)
        found.append(Period(int(digits), quarter))
    return found


def _entity_after_for(sentence: str) -> str | None:
    """The capitalised words after " for " ("... amount for 3M is", "for Best Buy"), at most four."""
    at = sentence.find(" for ")
    while at >= 0:
        words = []
        for word in sentence[at + 5:at + 5 + MAX_LABEL].split()[:4]:
            clean = word.strip(",.:;()\"'")
            if not clean or not (clean[0].isupper() or clean[0].isdigit()) or clean.startswith(("FY", "Q")) \
                    and clean[-4:].isdigit():
                break
            words.append(clean)
            if clean != word:
                break
        if words and not words[0].isdigit():
            return " ".join(words)
        at = sentence.find(" for ", at + 5)
    return None


def _entity(sentence: str) -> str | None:
    """The capitalised name before the first "'s" of the sentence (e.g. "3M's", "Coca Cola's"), else the one
    after " for " ("the capital expenditure for 3M")."""
    mark = sentence.find("'s ")
    if mark <= 0:
        mark = sentence.find("\u2019s ")
    if mark <= 0:
        return _entity_after_for(sentence)
    start = mark
    words = 0
    while start > 0 and mark - start < MAX_LABEL:
        space = sentence.rfind(" ", max(0, start - MAX_LABEL), start - 1)
        word = sentence[space + 1:start].strip()
        if not word or not (word[0].isupper() or word[0].isdigit()) or words >= 4:
            break
        start = space + 1
        words += 1
        if space < 0:
            break
    name = sentence[start:mark].strip(" ,:;\"'(")
    return name or None


def _line_item(text: str, sentence: _Sentence, number: Number) -> str | None:
    """The words before the value in its sentence, without leading cue words, a possessive's owner, what
    follows " for " (the entity, the period) or years (at most MAX_LABEL)."""
    piece = text[max(sentence.start, number.start - MAX_LABEL):number.start]
    for stop in ("=", ":", ",", "(", "\""):
        cut = piece.rfind(stop)
        if cut >= 0 and piece[cut + 1:].strip():
            piece = piece[cut + 1:]
    possessive = max(piece.rfind("'s "), piece.rfind("\u2019s "))
    if possessive >= 0:
        piece = piece[possessive + 3:]  # "Coca Cola's margin": the item is "margin"
    cut = piece.find(" for ")
    if cut > 0:
        piece = piece[:cut]  # "inventory turnover ratio for Nike for FY2021": entity and period follow
    words = [word for word in piece.split() if not (word[-4:].isdigit() and len(word) <= 8)]  # FY2018, 2018
    while words and words[-1].lower() in ("is", "was", "of", "were", "are", "at", "to", "be", "approximately",
                                          "about", "$", "-", "would", "totaled", "amounted", "equals"):
        words.pop()
    while words and words[0].lower() in ("the", "therefore", "thus", "so", "hence", "and", "a", "its"):
        words.pop(0)
    label = " ".join(words).strip(" .;:-")
    return label or None


def _unit(number: Number, sentence: str) -> str:
    if number.percent:
        return "percent"
    if number.dollar or number.scale:
        return "USD"
    following = sentence.lower()
    if " shares" in following and "per share" not in following:
        return "shares"
    return "ratio"


def same_quantity(first: Number, second: Number) -> bool:
    """"0.54 or 54.00%", "$4,625 million or $4.625 billion": one value written two ways."""
    if first.percent != second.percent:
        ratio, percent = (first, second) if second.percent else (second, first)
        return _rounds_to(ratio.value.scaleb(2), ratio.decimals - 2, percent.value, percent.decimals)
    return _rounds_to(first.scaled, first.decimals - first.scale, second.scaled, second.decimals - second.scale)


def _rounds_to(first: Decimal, first_decimals: int, second: Decimal, second_decimals: int) -> bool:
    """Whether the more precise of two values rounds (half away from zero) to the less precise one."""
    from decimal import ROUND_HALF_UP

    (fine, _), (coarse, places) = sorted(((first, first_decimals), (second, second_decimals)), key=lambda p: -p[1])
    return fine.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP) == coarse


def _alternatives(text: str, values: list[Number]) -> bool:
    """Two values of a conclusion joined by "or", "to", "and" or "-" as alternatives (a range)."""
    for first, second in zip(values, values[1:]):
        between = text[first.end:second.start].strip().lower()
        if between in ("or", "to", "and", "-", "–") and not same_quantity(first, second):
            before = text[max(0, first.start - 10):first.start].lower()
            if "between" in before or "from" in before or between in ("or", "-", "–"):
                return True
    return False


def read_claim(answer: str) -> Claim | NoClaim:
    """The claim of an answer under financebench-answer/1 (module docstring), or why it has none."""
    text = answer[:MAX_SCANNED_CHARS]
    spans = sentences(text)
    values_of: list[list[Number]] = []
    scanned = [n for n in scan(text) if is_value(text, n) and not is_operand(text, n)]
    index = 0
    for span in spans:
        mine: list[Number] = []
        while index < len(scanned) and scanned[index].digits_start < span.end:
            if scanned[index].digits_start >= span.start:
                mine.append(scanned[index])
            index += 1
        values_of.append(mine)
    every = [n for mine in values_of for n in mine]  # a value past MAX_SENTENCES is not read
    lowered = text.lower()
    if not every:
        refusal = next((phrase for phrase in REFUSAL_PHRASES if phrase in lowered), None)
        if refusal is not None:
            return NoClaim(REFUSAL, f"the answer says {refusal!r} and states no value")
        return NoClaim(NO_CLAIM, "no number other than years, names and list markers")
    chosen = None
    for position in range(len(spans) - 1, -1, -1):
        if values_of[position] and any(cue in CONCLUSION_CUES for cue in _words(text[spans[position].start:
                                                                                   spans[position].end])):
            chosen = position
            break
    if chosen is None:
        for position, span in enumerate(spans):
            if values_of[position] and any(w in STATEMENT_VERBS for w in _words(text[span.start:span.end])):
                chosen = position
                break
    if chosen is None:
        chosen = max(position for position in range(len(spans)) if values_of[position])
    span = spans[chosen]
    values = values_of[chosen]
    sentence = text[span.start:span.end]
    groups = _operands(text, span)
    results = [n for n in values if not any(start <= n.digits_start < end for start, end in groups)]
    claim = (results or values)[-1]
    period_list = periods(sentence) or periods(text)
    return Claim(claim, _unit(claim, text[claim.end:min(span.end, claim.end + 40)]), claim.scale, sentence.strip(),
                 period_list[-1] if period_list else None, _entity(sentence) or _entity(text[:2_000]),
                 _line_item(text, span, claim), _alternatives(text, values), tuple(values))
