"""Deciding a batch's common rows in the WebAssembly core (fs_decide_answers), in one call.

The core holds the same reading and comparison rules as locate.py, numbers.py and
compare.py for ASCII completions under the answer-line and whole formats, and decides
a row only when it is certain (one number, or several: several_numbers, of at most 19
significant digits, against a number gold). Every other row comes back undecided (None)
and `decide_batch` decides it in Python by the same rules. The decisions are the same
either way: the conformance rows and a differential test over generated answers check it
(tests/answers/test_in_core.py).
"""

from __future__ import annotations

from decimal import Decimal
from itertools import accumulate, chain
from typing import TYPE_CHECKING, Any, Sequence

from finscore.answers import reasons as R
from finscore.answers.compare import (EQUAL_DETAIL, NEGATED_DETAIL, rounding_detail, scaled_detail, within_detail,
                                      wrong_value_detail)
from finscore.answers.decision import Decision
from finscore.answers.gold import Gold
from finscore.answers.locate import NO_ANSWER_LINE
from finscore.answers.numbers import words_in_trial_order
from finscore.answers.protocol import Protocol, made_once

if TYPE_CHECKING:  # the engine (and wasmtime) are imported only when a batch goes to the core
    from finscore.engine.core.binding import Core

#: The formats the core locates answers in (fs_answer_format codes).
CORE_FORMATS: dict[str, int] = {"answer-line": 0, "whole": 1}
#: Fewer rows than this are decided in Python: loading the core costs a process about 25 ms once.
CORE_MIN_ROWS = 32
#: Text per call into the core; a longer completion is decided in Python (linear there too).
CALL_TEXT_BYTES = 8 * 1024 * 1024
#: Rows per call: their outcomes and value slots (112 bytes a row) stay a few MB of linear memory.
CALL_ROWS = 65_536
_FIELD, _ITEM, _POWER = "\x1e", "\x1f", "\x1d"
INT32_MAX = 2**31 - 1  # the core reads the limits as int32
MAX_SCALE_POWER = 999_999  # and a scale word's power in at most six digits
MAX_WORDS = 64  # percent marks, scale words, currency codes: each list at most this long

_RULES: dict[int, tuple[Protocol, bytes | None]] = {}
#: The tolerance kinds the core holds, by its code for each.
_TOLERANCE_CODES = {"relative": "r", "absolute": "a", "gold_places": "g"}


def _plain(word: str) -> bool:
    return word.isascii() and not any(mark in word for mark in (_FIELD, _ITEM, _POWER))


def _lettered(symbol: str, symbols: tuple[str, ...]) -> bool:
    """Whether the core can leave a currency symbol to Python: one character, or ASCII letters then
    a declared one-character symbol (US$ with $). The core defers every number whose symbol has a
    letter before it, so Python reads those; any other longer symbol the core would not see."""
    return len(symbol) == 1 or (symbol[:-1].isascii() and symbol[:-1].isalpha() and symbol[-1] in symbols)


def _core_decimal(value: Decimal) -> bool:
    """Whether the core reads this decimal exactly: at most 19 significant digits, an exponent
    of at most six digits."""
    digits = value.as_tuple().digits
    exponent = value.as_tuple().exponent
    return (isinstance(exponent, int) and len("".join(map(str, digits)).lstrip("0")) <= 19
            and abs(exponent) < 10**5)


def core_rules(protocol: Protocol) -> bytes | None:
    """The protocol's rules as fs_decide_answers reads them, or None when the core cannot hold
    them exactly, and the protocol is decided in Python throughout: a word (percent mark, scale
    word, currency code) outside ASCII could match ASCII text under Python's case folding (the
    Kelvin sign matches k), which the core does not imitate; a currency symbol of several
    characters other than ASCII letters and one symbol (US$); a limit beyond int32, a scale word's
    power of more than six digits, more than 64 words in a list or a tolerance of more than 19
    digits does not fit."""
    return made_once(_RULES, protocol, _laid_out_rules)


def _laid_out_rules(protocol: Protocol) -> bytes | None:
    tolerance = protocol.tolerance
    words = (*protocol.percent_marks, *protocol.scale_words, *protocol.currency_codes)
    longest_code = max(map(len, protocol.currency_codes))
    fits = (max(protocol.max_answer_chars, protocol.max_number_chars, longest_code) <= INT32_MAX
            and all(abs(power) <= MAX_SCALE_POWER for power in protocol.scale_words.values())
            and max(len(protocol.percent_marks), len(protocol.scale_words), len(protocol.currency_codes)) <= MAX_WORDS
            and (tolerance.value is None or _core_decimal(tolerance.value)))
    if tolerance.kind not in _TOLERANCE_CODES:  # relative_or_half_unit: the host's
        return None
    if protocol.ratio_and_percent_one or protocol.after_last_equals:  # reading rules the core does not hold
        return None
    if not fits or not all(_plain(word) for word in words) or not all(
            _lettered(symbol, protocol.currency_symbols) for symbol in protocol.currency_symbols):
        return None
    flags = "".join(flag for flag, on in (
        ("W", "western" in protocol.grouping), ("I", "indian" in protocol.grouping),
        ("P", protocol.negative_parentheses), ("A", protocol.scale_words_applied),
        ("G", protocol.bare_number_scale == "gold_scale")) if on)
    # A currency symbol or minus sign is compared as one character: only single ASCII ones can
    # occur in the ASCII text the core reads.
    symbols = "".join(s for s in protocol.currency_symbols if len(s) == 1 and _plain(s))
    minus = "".join(m for m in protocol.minus_signs if len(m) == 1 and _plain(m))
    scale_words = protocol.scale_words
    fields = (
        flags, _TOLERANCE_CODES[tolerance.kind],
        "" if tolerance.value is None else str(tolerance.value),
        str(protocol.max_answer_chars), str(protocol.max_number_chars), str(longest_code), symbols, minus,
        _ITEM.join(words_in_trial_order(protocol.percent_marks)),
        _ITEM.join(f"{word}{_POWER}{scale_words[word]}" for word in words_in_trial_order(scale_words)),
        _ITEM.join(words_in_trial_order(protocol.currency_codes)),
    )
    return _FIELD.join(fields).encode("ascii")


def _gold_text(gold: Gold) -> str | None:
    """The gold as the core reads it, or None for the host: a yes / no gold, or one built by hand
    with other types or a larger scale than the gold readers give (the Python rules then decide,
    or refuse, it)."""
    if type(gold.value) is not Decimal or type(gold.half_unit) is not Decimal or type(gold.scale) is not int:
        return None
    if abs(gold.scale) > MAX_SCALE_POWER:  # the core reads a gold's scale in at most six digits
        return None
    flags = ("p" if gold.points else "") + ("c" if gold.percentage else "")
    return f"{gold.value}{_ITEM}{gold.half_unit}{_ITEM}{flags}{_ITEM}{gold.scale}"


def decide_in_core(completions: Sequence[Any], golds: Sequence[Gold], protocol: Protocol,
                   format: str) -> list[Decision | None] | None:
    """A Decision for each row the core decides, None for the others; None for the whole batch
    when the format or protocol is not one the core holds."""
    code = CORE_FORMATS.get(format)
    rules = core_rules(protocol) if code is not None else None
    if code is None or rules is None:
        return None
    from finscore.engine.core.binding import get_core  # wasmtime: loaded when first used

    core = get_core()
    decided: list[Decision | None] = [None] * len(completions)
    chunk: list[int] = []
    size = 0
    for index, completion in enumerate(completions):
        if type(completion) is not str or not completion.isascii() or len(completion) > CALL_TEXT_BYTES:
            continue
        if size + len(completion) > CALL_TEXT_BYTES or len(chunk) == CALL_ROWS:
            _call(core, rules, code, chunk, completions, golds, protocol, decided)
            chunk, size = [], 0
        chunk.append(index)
        size += len(completion)
    _call(core, rules, code, chunk, completions, golds, protocol, decided)
    return decided


def _call(core: Core, rules: bytes, code: int, chunk: list[int], completions: Sequence[Any],
          golds: Sequence[Gold], protocol: Protocol, decided: list[Decision | None]) -> None:
    """One fs_decide_answers call for the rows of `chunk`; their decisions go into `decided`."""
    if not chunk:
        return
    texts = [completions[i] for i in chunk]
    chosen = [golds[i] for i in chunk]
    gold_index: dict[int, int] = {}  # each distinct gold object laid out once (-1: yes / no)
    gold_texts: list[str] = []
    for gold in chosen:
        if id(gold) not in gold_index:
            shown = _gold_text(gold)
            gold_index[id(gold)] = -1 if shown is None else len(gold_texts)
            if shown is not None:
                gold_texts.append(shown)
    lengths = list(map(len, texts))
    rows = list(chain.from_iterable(zip(accumulate(lengths, initial=0), lengths,
                                        [gold_index[id(gold)] for gold in chosen])))
    gold_lengths = list(map(len, gold_texts))
    gold_spans = list(chain.from_iterable(zip(accumulate(gold_lengths, initial=0), gold_lengths)))
    outcomes, values = core.decide_answers(rules, code, "".join(texts).encode("ascii"), rows,
                                           "".join(gold_texts).encode("ascii"), gold_spans)
    from finscore.engine.core._abi_generated import AnswerSize
    from finscore.engine.core.abi import ANSWER_OUTCOME_STRUCT

    shown_values = values.decode("latin-1")  # one decoding; a slot's unused bytes are never read
    slot_bytes = int(AnswerSize.VALUE_BYTES)
    reasons, passing = R.ALL_REASONS, frozenset(R.PASS_REASONS)
    within = within_detail(protocol.tolerance)
    at = -slot_bytes
    for (row, reason_code, has_k, k, span_start, span_end, read_start, read_end, other_start, other_end,
         value_length, equal), i, text, gold in zip(ANSWER_OUTCOME_STRUCT.iter_unpack(outcomes), chunk, texts, chosen):
        at += slot_bytes
        if row:  # deferred: the host's
            continue
        reason = reasons[reason_code]
        if reason == R.NO_FINAL_ANSWER:
            decided[i] = Decision(False, reason, None, None, None, gold.text, None, NO_ANSWER_LINE)
            continue
        if reason == R.SEVERAL_NUMBERS:
            decided[i] = Decision(False, reason, None, None, None, gold.text, (span_start, span_end),
                                  f"{text[read_start:read_end]!r} and {text[other_start:other_end]!r}")
            continue
        value = shown_values[at:at + value_length]
        if equal:
            detail = EQUAL_DETAIL
        elif reason in passing:
            detail = within
        elif reason == R.SIGN_FLIPPED:
            detail = NEGATED_DETAIL
        elif reason == R.ROUNDING:
            detail = rounding_detail(k)
        elif reason == R.WRONG_VALUE:
            detail = wrong_value_detail(value, gold)
        else:  # scale_off, percent_vs_ratio
            detail = scaled_detail(k)
        decided[i] = Decision(reason in passing, reason, k if has_k else None, value, text[read_start:read_end],
                              gold.text, (read_start, read_end), detail)
