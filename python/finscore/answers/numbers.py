"""Reading the one number of an answer, under a protocol's declared rules.

One left-to-right pass: a regular expression without nested quantifiers finds
each run of digits, commas and points, and a few bounded look-arounds read its
sign, currency, parentheses, exponent, percent and scale word. The pass stops at
the second different number, so the time is linear in the answer's length and
the answer's length is bounded by the protocol.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Iterable, NamedTuple

from finscore.answers.protocol import Protocol
from finscore.answers.reasons import SEVERAL_NUMBERS, UNPARSEABLE

_CHUNK = re.compile(r"[0-9][0-9,.]*")
_EXPONENT = re.compile(r"[eE][+-]?[0-9]+")
_REFUSED = re.compile(r"(?<![A-Za-z])(?:nan|inf|infinity)(?![A-Za-z])|\u221e", re.IGNORECASE)
_YES_NO = re.compile(r"(?<![A-Za-z])(yes|no)(?![A-Za-z])", re.IGNORECASE)
MAX_EXPONENT_DIGITS = 4
LARGEST_ADJUSTED = 308  # 1e309 and beyond are refused, as binary64 cannot hold them
SMALLEST_ADJUSTED = -308
LAST_NUMBER_WINDOW = 4096  # characters searched at a time, from the end, by last_number
_RUN_CHARACTERS = frozenset("0123456789,.")
_RUN = re.compile(r"[0-9,.]*")
SIMPLE_LIMIT = 40  # answers this short with a plain number are read by one regular expression


class Reading(NamedTuple):
    """The number an answer holds, as written: no percent or scale applied yet."""

    value: Decimal  # signed
    percent: bool
    scale: int | None  # the power of ten of the scale word, None without one
    text: str  # the number as found, with its sign, currency, percent and scale
    start: int  # offsets of `text` in the answer
    end: int


class AnswerRefusal(NamedTuple):
    """Why an answer yields no single number: UNPARSEABLE or SEVERAL_NUMBERS, with a detail."""

    reason: str
    detail: str


def words_in_trial_order(words: Iterable[str]) -> list[str]:
    """Longest first, ties in declared order, so that 'million' is tried before 'm' (the core's
    reader, in_core.py, is given its words in this order too)."""
    return sorted(words, key=len, reverse=True)


def _words(words: Iterable[str]) -> str:
    """'w1|w2|...' in the order of trial."""
    return "|".join(re.escape(w) for w in words_in_trial_order(words))


class NumberReader:
    """The reading rules of one protocol, compiled once."""

    def __init__(self, protocol: Protocol) -> None:
        self.max_answer_chars = protocol.max_answer_chars
        self.max_number_chars = protocol.max_number_chars
        self.western = "western" in protocol.grouping
        self.indian = "indian" in protocol.grouping
        self.symbols = words_in_trial_order(protocol.currency_symbols)  # US$ before $
        self.codes = tuple(protocol.currency_codes)
        self.minus = frozenset(protocol.minus_signs)
        self.parentheses = protocol.negative_parentheses
        self.ratio_and_percent = protocol.ratio_and_percent_one
        self.after_equals = protocol.after_last_equals
        self.scale_words = dict(protocol.scale_words)
        # after the digits, in one match: a percent mark, or else a scale word; then a currency code
        # (a no-break space, U+00A0 or U+202F, may stand before a percent mark where a space may)
        self.suffix = re.compile(
            f"(?:[\u00a0\u202f]({_words(protocol.percent_marks)})|"
            f" ?(?:({_words(protocol.percent_marks)})|({_words(self.scale_words)})))(?![A-Za-z])|", re.IGNORECASE)
        self.code_after = re.compile(f" ?({_words(self.codes)})(?![A-Za-z])", re.IGNORECASE)
        self.code_set = frozenset(code.lower() for code in self.codes)
        self.longest_code = max(map(len, self.codes))
        # The common short answer (-$1,234.5 million, 14.46%), read in one match; anything else takes the
        # full pass, which reads these the same way (tests/answers/test_reading.py checks both agree).
        minus = "".join(re.escape(m) for m in protocol.minus_signs if len(m) == 1)
        symbols = "".join(re.escape(c) for c in protocol.currency_symbols if len(c) == 1)
        percent = "|( ?%)" if "%" in protocol.percent_marks else ""
        self.simple = re.compile(f"([{minus}]?)[{symbols}]?([{minus}]?)([0-9][0-9,]*(?:\\.[0-9]+)?)"
                                 f"(?:( ?(?:{_words(self.scale_words)})){percent})?\\.?", re.IGNORECASE) \
            if minus and symbols else None
        self.simple_limit = min(SIMPLE_LIMIT, self.max_number_chars)

    # -- one number -------------------------------------------------------------------------
    def _grouping_ok(self, whole: str) -> bool:
        groups = whole.split(",")
        if len(groups) == 1:
            return True
        tail = groups[1:]
        if self.western and 1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in tail):
            return True
        return (self.indian and 1 <= len(groups[0]) <= 2 and len(groups[-1]) == 3
                and all(len(g) == 2 for g in groups[1:-1]))

    def _code_before(self, text: str, end: int) -> int:
        """Start of a currency code ending at `end` (one space allowed after it), or -1."""
        stop = end - 1 if end > 0 and text[end - 1] == " " else end
        begin = stop
        while begin > 0 and stop - begin <= self.longest_code and text[begin - 1].isalpha():
            begin -= 1
        return begin if begin < stop and text[begin:stop].lower() in self.code_set else -1

    def _symbol_before(self, text: str, at: int) -> int:
        """Start of a currency symbol ending at `at` (one space allowed after it), or -1. A symbol
        that begins with a letter (US$, HK$) is not read after another letter (XUS$ is a word)."""
        stop = at - 1 if at > 0 and text[at - 1] == " " else at
        for symbol in self.symbols:
            begin = stop - len(symbol)
            if begin >= 0 and text.startswith(symbol, begin) and not (
                    symbol[0].isalpha() and begin > 0 and text[begin - 1].isalpha()):
                return begin
        return -1

    def _sign_before(self, text: str, at: int) -> tuple[int, int]:
        """(start of a sign ending at `at`, 1 or -1), or (-1, 1). The sign is not preceded by a
        letter or digit; one space may stand between it and the number (- 5) when the sign is not
        preceded by a space that follows a letter or digit either (8 - 5 and Q4 - 5 are dashes)."""
        for spaced in (False, True):
            where = at - 2 if spaced else at - 1
            if where < 0 or (spaced and text[at - 1] != " "):
                continue
            sign = text[where]
            if sign not in self.minus and sign != "+":
                continue
            if where > 0 and text[where - 1].isalnum():
                continue
            if spaced and where > 1 and text[where - 1] == " " and text[where - 2].isalnum():
                continue
            return where, -1 if sign in self.minus else 1
        return -1, 1

    def _left(self, text: str, start: int) -> tuple[int, int, bool]:
        """(new start, sign, currency seen) reading at most a currency and a sign leftwards."""
        sign, currency, at = 1, False, start
        for _ in range(3):
            before = text[at - 1] if at > 0 else ""
            if not currency and (symbol := self._symbol_before(text, at)) >= 0:
                at, currency = symbol, True
            elif sign == 1 and (signed := self._sign_before(text, at))[0] >= 0:
                at, sign = signed
                if sign == 1:  # a +
                    break
            elif (not currency and (before.isalpha() or (before == " " and at > 1 and text[at - 2].isalpha()))
                  and (code := self._code_before(text, at)) >= 0):
                at, currency = code, True
            else:
                break
        return at, sign, currency

    def _number_at(self, text: str, match: re.Match[str]) -> Reading | AnswerRefusal | None:
        """The number whose digits start at `match`, a refusal, or None when the digits belong to a word."""
        start, end = match.start(), match.end()
        chunk = match.group().rstrip(".,")
        end = start + len(chunk)
        if start > 0 and text[start - 1] == "." and (start < 2 or not text[start - 2].isdigit()):
            start -= 1
            chunk = "." + chunk
        if start > 0 and text[start - 1].isalpha() and self._code_before(text, start) < 0:
            return None  # Q4, FY2019
        if len(chunk) > self.max_number_chars:
            return AnswerRefusal(UNPARSEABLE, f"a number of {len(chunk)} characters (at most {self.max_number_chars} are read)")
        whole, point, fraction = chunk.partition(".")
        if "." in fraction or "," in fraction or not self._grouping_ok(whole):
            return AnswerRefusal(UNPARSEABLE, f"{chunk!r} is not a number under the declared grouping "
                                        f"({', '.join(sorted(g for g in ('western', 'indian') if getattr(self, g)))})")
        digits = whole.replace(",", "") + point + fraction
        exponent = _EXPONENT.match(text, end)
        if exponent is None and not point and text[end:end + 1] == ".":  # 1.e3, 5.E-1: float() reads them
            exponent = _EXPONENT.match(text, end + 1)
            digits += "." if exponent is not None else ""
        if exponent is not None:
            if len(exponent.group().lstrip("eE+-")) > MAX_EXPONENT_DIGITS:
                return AnswerRefusal(UNPARSEABLE, f"the exponent {exponent.group()!r} is longer than {MAX_EXPONENT_DIGITS} digits")
            digits += exponent.group()
            end = exponent.end()
        bare_end = end
        percent, scale = False, None
        suffix = self.suffix.match(text, end)
        if suffix is not None and suffix.end() > end:
            percent, end = suffix.group(3) is None, suffix.end()
            if not percent:
                scale = self.scale_words[suffix.group(3).lower()]
        if (suffix := self.code_after.match(text, end)) is not None:
            end = suffix.end()
        if end == bare_end and end < len(text) and text[end].isalpha():
            return None  # 3rd, 10x
        begin, sign, _ = self._left(text, start)
        if self.parentheses:  # ( 5 ): one space allowed inside each parenthesis
            opened = begin - 1 if text[begin - 1:begin] == "(" else begin - 2 if text[max(begin - 2, 0):begin] == "( " \
                else -1
            closed = end + 1 if text[end:end + 1] == ")" else end + 2 if text[end:end + 2] == " )" else -1
            if opened >= 0 and closed >= 0:
                begin, end, sign = opened, closed, -1
        try:
            value = Decimal(digits)
        except InvalidOperation:  # not reachable with the chunk checks above; refused, never raised
            return AnswerRefusal(UNPARSEABLE, f"{chunk!r} is not a number")
        if value and not SMALLEST_ADJUSTED <= value.adjusted() <= LARGEST_ADJUSTED:
            return AnswerRefusal(UNPARSEABLE, f"{text[begin:end]!r} is outside the binary64 range (refused)")
        return Reading(-value if sign < 0 else value, percent, scale, text[begin:end], begin, end)

    # -- the last number of a text (the lenient last-number format) ------------------------------
    def last_number(self, text: str, tried: int) -> Reading | AnswerRefusal | None:
        """The last number of `text` read as `read` reads one (None: no number), trying at most the
        last `tried` runs of digits; windows of text are searched from the end, so a completion
        costs what its tail does."""
        hi = len(text)
        while hi > 0 and tried > 0:
            lo = max(0, hi - LAST_NUMBER_WINDOW)
            if lo > 0 and text[lo - 1] in _RUN_CHARACTERS:  # a run cut in two is left whole to the next window
                run = _RUN.match(text, lo, hi)  # (it matches the empty run too)
                lo = run.end() if run is not None else lo
                if lo == hi:
                    return AnswerRefusal(UNPARSEABLE, f"a number of more than {LAST_NUMBER_WINDOW} characters")
            for match in reversed(list(_CHUNK.finditer(text, lo, hi))):
                at = match.start()  # the digits of an exponent (1.5e-3's 3) belong to the number before
                exponent_digits = at > 2 and text[at - 1] in "+-" and text[at - 2] in "eE" and (
                    text[at - 3].isdigit() or text[at - 3] == ".")
                found = None if exponent_digits else self._number_at(text, match)
                if found is not None:
                    return found
                tried -= 1
                if tried == 0:
                    break
            hi = lo
        return None

    # -- the whole answer -------------------------------------------------------------------
    def read(self, answer: str, *, full: bool = False) -> Reading | AnswerRefusal:
        """The single number of `answer`, or why there is none (linear in len(answer)).

        `full` skips the one-match reading of short plain answers (for checking that both agree).
        Under `after_last_equals` an answer holding = is a formula and its result: the text after the
        last = is read (offsets stay those of `answer`)."""
        if self.after_equals and "=" in answer and len(answer) <= self.max_answer_chars:
            cut = answer.rfind("=") + 1
            found = self._read(answer[cut:], full=full)
            return found if isinstance(found, AnswerRefusal) else found._replace(start=found.start + cut,
                                                                                  end=found.end + cut)
        return self._read(answer, full=full)

    def _read(self, answer: str, *, full: bool = False) -> Reading | AnswerRefusal:
        """`read` without the formula rule."""
        if not full and self.simple is not None and len(answer) <= self.simple_limit:
            plain = self.simple.fullmatch(answer)
            if plain is not None:
                before, after, digits, word, percent = plain.groups()
                if not (before and after) and ("," not in digits or self._grouping_ok(digits.partition(".")[0])):
                    number, end = Decimal(digits.replace(",", "")), len(answer) - (answer[-1] == ".")
                    return Reading(-number if before or after else number, percent is not None,
                                   None if word is None else self.scale_words[word.lstrip(" ").lower()],
                                   answer[:end], 0, end)
        if len(answer) > self.max_answer_chars:
            return AnswerRefusal(UNPARSEABLE, f"an answer of {len(answer)} characters (at most {self.max_answer_chars} are read)")
        lowered = answer.lower()  # a cheap test first: the pattern is only run when it can match
        refused = _REFUSED.search(answer) if "nan" in lowered or "inf" in lowered or "\u221e" in answer else None
        if refused is not None:
            return AnswerRefusal(UNPARSEABLE, f"{refused.group()!r} is not a finite number (refused)")
        first: Reading | None = None
        consumed = 0  # the end of the last number read: its exponent digits are not another number
        for match in _CHUNK.finditer(answer):
            if match.start() < consumed:
                continue
            found = self._number_at(answer, match)
            if found is None:
                continue
            if isinstance(found, AnswerRefusal):
                return found
            consumed = found.end
            if first is None:
                first = found
            elif (found.value, found.percent, found.scale) != (first.value, first.percent, first.scale):
                if not (self.ratio_and_percent and _ratio_and_percent(first, found)):
                    return AnswerRefusal(SEVERAL_NUMBERS, f"{first.text!r} and {found.text!r}")
                first = first if first.percent else found  # the percentage: it reads right under both conventions
        if first is None:
            return AnswerRefusal(UNPARSEABLE, "no number in the answer")
        return first


def _ratio_and_percent(one: Reading, other: Reading) -> bool:
    """Whether two readings are one value written without and with a percent sign: as a ratio and
    as a percentage (0.144 and 14.4%) or the same digits (57.15 and 57.15%); either first, exactly
    equal as decimals, no scale word on either."""
    if one.percent == other.percent or one.scale is not None or other.scale is not None:
        return False
    ratio, percent = (other, one) if one.percent else (one, other)
    return ratio.value.scaleb(2) == percent.value or ratio.value == percent.value


def read_yes_no(answer: str, limit: int) -> str | AnswerRefusal:
    """'yes' or 'no' when exactly one of those words occurs in the answer."""
    if len(answer) > limit:
        return AnswerRefusal(UNPARSEABLE, f"an answer of {len(answer)} characters (at most {limit} are read)")
    seen: set[str] = {match.group(1).lower() for match in _YES_NO.finditer(answer)}
    if len(seen) == 1:
        return seen.pop()
    return AnswerRefusal(UNPARSEABLE, "both yes and no in the answer" if seen else "neither yes nor no in the answer")
