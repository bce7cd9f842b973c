"""Deciding free-text answers: `decide` for one, `decide_batch` for many.

The batch function takes plain sequences and returns a list of Decision tuples
(cheap to build, easy to turn into columns), looks the protocol's compiled
reader up once, lets the core decide the common rows, and never raises for a
completion: hostile or malformed text becomes a typed miss.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence, Union

from finscore.answers import reasons as R
from finscore.answers.compare import compare_number
from finscore.answers.decision import Decision as Decision
from finscore.answers.gold import Gold, GoldError, gold_from_mapping
from finscore.answers.in_core import CORE_MIN_ROWS, decide_in_core
from finscore.answers.locate import LOCATORS, Located, PhraseLocator, TagLocator
from finscore.answers.numbers import AnswerRefusal, NumberReader, read_yes_no
from finscore.answers.protocol import FORMATS, Protocol, ProtocolError, made_once
from finscore.answers.registry import get_protocol

Completion = Union[str, bytes, None]
GoldLike = Union[Gold, Mapping[str, Any]]


_READERS: dict[int, tuple[Protocol, NumberReader]] = {}


def reader_for(protocol: Protocol) -> NumberReader:
    """The protocol's compiled number reader (compiled once per protocol object)."""
    return made_once(_READERS, protocol, NumberReader)


_LOCATORS: dict[int, tuple[Protocol, dict[str, Any]]] = {}


def _declared_locators(protocol: Protocol) -> dict[str, Any]:
    reader = reader_for(protocol)
    runs = protocol.last_number_runs

    def last_number(completion: str) -> Located | AnswerRefusal:
        found = reader.last_number(completion, runs)
        if found is None:
            return AnswerRefusal(R.NO_FINAL_ANSWER, f"no number in the text (the last {runs} runs of digits tried)")
        if isinstance(found, AnswerRefusal):
            return found
        return Located(completion[found.start:found.end], found.start, found.end)

    declared: dict[str, Any] = dict(LOCATORS)
    if protocol.phrase_markers:
        declared["phrase"] = PhraseLocator(protocol.phrase_markers, protocol.conclusion_openings, protocol.conclusion_closings,
                                           protocol.conclusion_words, protocol.phrase_window,
                                           protocol.phrase_skip_unreadable,
                                           protocol.phrase_markers_tried)
    if protocol.answer_tags:
        declared["tag"] = TagLocator(protocol.answer_tags)
    if runs:
        declared["last-number"] = last_number
    return declared


def locator_for(protocol: Protocol, format: str) -> Any:
    """The protocol's locator of the answer format (built once per protocol object)."""
    return made_once(_LOCATORS, protocol, _declared_locators)[format]


def as_gold(gold: GoldLike, protocol: Protocol) -> Gold:
    """A Gold as it is, or one read from a mapping by the protocol's gold reader (GoldError if unusable)."""
    return gold if isinstance(gold, Gold) else gold_from_mapping(gold, protocol, reader_for(protocol))


def _miss(reason: str, gold: Gold, detail: str, span: tuple[int, int] | None = None) -> Decision:
    return Decision(False, reason, None, None, None, gold.text, span, detail)


def _judged(text: str, gold: Gold, protocol: Protocol, reader: NumberReader) -> _Judged:
    """The decision on an answer text, its span relative to the text (None: the whole answer).

    A pure function of (text, gold, protocol): `decide_batch` keeps it per distinct pair."""
    if gold.yes_no is not None:
        word = read_yes_no(text, protocol.max_answer_chars)
        if isinstance(word, AnswerRefusal):
            return False, word.reason, None, None, None, word.detail, None
        passed = word == gold.yes_no
        return passed, R.EXACT if passed else R.WRONG_YES_NO, None, word, word, f"reads {word}", None
    reading = reader.read(text)
    if isinstance(reading, AnswerRefusal):
        return False, reading.reason, None, None, None, reading.detail, None
    verdict = compare_number(reading, gold, protocol)
    return (verdict.passed, verdict.reason, verdict.k, format(verdict.value, "f"), reading.text, verdict.detail,
            (reading.start, reading.end))


#: (passed, reason, k, value, read, detail, span of the number within the answer text or None)
_Judged = tuple[bool, str, Union[int, None], Union[str, None], Union[str, None], str, Union[tuple[int, int], None]]


def _placed(judged: _Judged, located: Located, gold: Gold) -> Decision:
    passed, reason, k, value, read, detail, within = judged
    start = located.start
    span = (start + within[0], start + within[1]) if within is not None and located.verbatim else (start, located.end)
    return Decision(passed, reason, k, value, read, gold.text, span, detail)


def _decide_other(completion: Any, gold: Gold, protocol: Protocol, reader: NumberReader, locate: Any) -> Decision:
    """A completion that is not a str: missing, bytes (decoded as UTF-8) or something else."""
    if completion is None:
        return _miss(R.MISSING_PREDICTION, gold, "no prediction")
    if isinstance(completion, (bytes, bytearray)):
        try:
            completion = bytes(completion).decode("utf-8")
        except UnicodeDecodeError as error:
            return _miss(R.UNPARSEABLE, gold, f"the completion is not UTF-8 text (byte {error.start})")
    if not isinstance(completion, str):
        return _miss(R.UNPARSEABLE, gold, f"the completion is a {type(completion).__name__}, not text")
    return _decide_text(completion, gold, protocol, reader, locate)


def _decide_text(completion: str, gold: Gold, protocol: Protocol, reader: NumberReader, locate: Any) -> Decision:
    located = locate(completion)
    if isinstance(located, AnswerRefusal):
        return _miss(located.reason, gold, located.detail)
    return _placed(_judged(located.text, gold, protocol, reader), located, gold)


def _checked(protocol: str | Protocol, format: str) -> Protocol:
    if format not in FORMATS:
        raise ProtocolError(f"no answer format {format!r}; the formats are {', '.join(FORMATS)}")
    chosen = get_protocol(protocol)
    if not chosen.declares(format):
        raise ProtocolError(f"{chosen.name} does not declare the answer format {format!r} "
                            f"(it declares {', '.join(chosen.data['formats'])})")
    return chosen


def decide(completion: Completion, gold: GoldLike, protocol: str | Protocol = "finqa-answer/1",
           format: str = "answer-line") -> Decision:
    """Decide one completion against one gold under a protocol and one declared answer format."""
    chosen = _checked(protocol, format)
    ready, reader, locate = as_gold(gold, chosen), reader_for(chosen), locator_for(chosen, format)
    if type(completion) is str:
        return _decide_text(completion, ready, chosen, reader, locate)
    return _decide_other(completion, ready, chosen, reader, locate)


def decide_batch(completions: Sequence[Completion], golds: Sequence[GoldLike],
                 protocol: str | Protocol = "finqa-answer/1", format: str = "answer-line") -> list[Decision]:
    """Decide completions[i] against golds[i] for every i; the same typed decisions as `decide`.

    A batch of CORE_MIN_ROWS rows or more hands its common rows to the WebAssembly core in one
    call (in_core.py); the rest are decided here. Golds are Gold objects (built once, e.g. by
    finqa_gold) or mappings; a mapping the protocol cannot read raises GoldError naming its index
    before anything is decided."""
    if len(completions) != len(golds):
        raise ValueError(f"{len(completions)} completions but {len(golds)} golds")
    chosen = _checked(protocol, format)
    reader, locate = reader_for(chosen), locator_for(chosen, format)
    ready = _ready_golds(golds, chosen)
    # A decision is a pure function of (answer text, gold), placed by where the answer was found:
    # each distinct pair is judged once per call (a GRPO group shares its gold object and often its
    # answer). The memo lives for this call only, so it holds at most one entry per row; `ready`
    # keeps every gold alive meanwhile, so its id() names it.
    judged: dict[tuple[str, int], _Judged] = {}
    # The common rows (ASCII, answer-line or whole, one plain number) go to the core in one call;
    # it leaves the others undecided (None) for the loop below, which decides them in Python.
    in_core = decide_in_core(completions, ready, chosen, format) if len(completions) >= CORE_MIN_ROWS else None
    out: list[Decision] = []
    append = out.append
    for index, (completion, gold) in enumerate(zip(completions, ready)):
        found = in_core[index] if in_core is not None else None
        if found is not None:
            append(found)
            continue
        if type(completion) is not str:
            append(_decide_other(completion, gold, chosen, reader, locate))
            continue
        located = locate(completion)
        if isinstance(located, AnswerRefusal):
            append(_miss(located.reason, gold, located.detail))
            continue
        key = (located.text, id(gold))
        verdict = judged.get(key)
        if verdict is None:
            verdict = judged[key] = _judged(located.text, gold, chosen, reader)
        append(_placed(verdict, located, gold))
    return out


def _ready_golds(golds: Sequence[GoldLike], protocol: Protocol) -> list[Gold]:
    """Each gold as a Gold; a mapping given for several rows (one question's gold object for all
    its completions) is read once. `golds` keeps every mapping alive meanwhile, so its id() names it."""
    read: dict[int, Gold] = {}
    ready: list[Gold] = []
    for index, gold in enumerate(golds):
        if type(gold) is Gold:
            ready.append(gold)
            continue
        known = read.get(id(gold))
        if known is None:
            known = read[id(gold)] = _gold_at(index, gold, protocol)
        ready.append(known)
    return ready


def _gold_at(index: int, gold: Any, protocol: Protocol) -> Gold:
    try:
        return as_gold(gold, protocol)
    except GoldError as error:  # the same class: an out-of-protocol gold stays one
        raise type(error)(f"gold {index}: {error}") from None
