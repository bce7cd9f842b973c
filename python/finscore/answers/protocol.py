"""An answer protocol: the declared rules of one run, read from the package's JSON data.

The JSON file is the source of truth a reviewer reads; this module only turns
its machine-read fields into typed values (and refuses a file that lacks one),
so the rules printed in a report are exactly the rules applied.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from decimal import Decimal, InvalidOperation
from typing import Any, Callable, Mapping, NamedTuple, TypeVar

#: The answer formats a protocol may be run with (one per run, chosen by the user).
FORMATS: tuple[str, ...] = ("answer-line", "boxed", "json", "whole", "phrase", "tag", "last-number")
#: The formats every protocol describes; the others (issue #32's) need their rules in the
#: protocol's `format_rules` as well, and a protocol without them cannot be run with them.
CLASSIC_FORMATS: tuple[str, ...] = ("answer-line", "boxed", "json", "whole")
#: Formats that read an answer the completion never marked: every report and stamp says so.
LENIENT_FORMATS: tuple[str, ...] = ("last-number",)
#: The keys of each format's rules in `format_rules` (each also has its "version").
FORMAT_RULE_KEYS: dict[str, frozenset[str]] = {
    "phrase": frozenset({"version", "markers"}),
    "tag": frozenset({"version", "tags"}),
    "last-number": frozenset({"version", "lenient", "max_runs_tried"}),
}
#: Keys a format's rules may add (phrase rules version 2, issue #32): conclusion sentences as markers,
#: and an empty or placeholder answer skipped for the marker before it. Absent: the rule is not applied.
FORMAT_RULE_OPTIONAL_KEYS: dict[str, frozenset[str]] = {
    "phrase": frozenset({"conclusions", "skip_unreadable", "max_markers_tried", "window"}),
    "tag": frozenset(),
    "last-number": frozenset(),
}

GOLD_READERS: tuple[str, ...] = ("finqa_exe_ans", "convfinqa_exe_ans", "tatqa_answer", "financemath_ground_truth")
TOLERANCE_KINDS: tuple[str, ...] = ("absolute", "relative", "gold_places", "relative_or_half_unit")
GROUPINGS: tuple[str, ...] = ("western", "indian")
BARE_NUMBER_SCALES: tuple[str, ...] = ("as_written", "gold_scale")


#: The one percent convention the comparison implements (compare.compared_value): a protocol must
#: declare it, so that the rule printed in a report is the rule applied.
PERCENT_CONVENTION: dict[str, str] = {"gold_points": "label", "gold_other": "divide_by_100"}

#: Every key a definition may hold, by the object holding it ("" is the top level). A key that
#: nothing reads would be printed in every report as if it were a rule, so it is refused.
KNOWN_KEYS: dict[str, frozenset[str]] = {
    "": frozenset({"id", "version", "title", "gold", "formats", "format_rules", "reading", "comparison"}),
    "gold": frozenset({"reader", "rules", "stored_places", "question_words"}),
    "reading": frozenset({"max_answer_chars", "max_number_chars", "grouping", "currency_symbols", "currency_codes",
                          "minus_signs", "negative_parentheses", "percent_marks", "scale_words",
                          "scale_words_applied", "bare_number_scale", "ratio_and_percent_one", "after_last_equals",
                          "rules"}),
    "comparison": frozenset({"percent", "tolerance", "rules"}),
    "comparison.percent": frozenset(PERCENT_CONVENTION),
    "comparison.tolerance": frozenset({"kind", "value"}),
    "format_rules": frozenset(FORMAT_RULE_KEYS),
}


class QuestionWords(NamedTuple):
    """What a question's own words decide about its gold (the financemath_ground_truth reader)."""

    stored_places: int  # the decimal places the gold is stored with (its half unit when the question names none)
    percent: tuple[str, ...]  # phrases asking for a percentage: the gold is then in percentage points
    # the phrases naming decimal places ("to two decimal places", 2) and the answer's unit ("in millions", 6),
    # each with its value, the longest phrase first (the order they are tried in)
    places: tuple[tuple[str, int], ...]
    scales: tuple[tuple[str, int], ...]
    # words of which every phrase of places (of scales) holds one: a question holding none of them names
    # none of the phrases, and is not searched for each (made once, from the tables: `anchor_words`)
    places_anchors: tuple[str, ...]
    scales_anchors: tuple[str, ...]


def anchor_words(phrases: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """Words of which every phrase holds one: each phrase's longest word, less any that holds another
    (a phrase holding the longer word holds the shorter one too)."""
    longest = {max(phrase.split(), key=len) for phrase, _ in phrases}
    return tuple(sorted(word for word in longest if not any(other != word and other in word for other in longest)))


class ProtocolError(ValueError):
    """A protocol definition that cannot be used, or a protocol name that is not registered."""


@dataclass(frozen=True)
class Tolerance:
    """How close a value must be to the gold: never a silent default, always printed."""

    kind: str  # one of TOLERANCE_KINDS
    value: Decimal | None  # the bound for absolute / relative; None for gold_places

    @cached_property
    def text(self) -> str:
        """describe(), made once: it is part of every within_tolerance decision."""
        return self.describe()

    def describe(self) -> str:
        if self.kind == "relative":
            return f"relative: |value - gold| <= {self.value} * |gold|"
        if self.kind == "absolute":
            return f"absolute: |value - gold| <= {self.value}"
        if self.kind == "relative_or_half_unit":
            return (f"relative_or_half_unit: |value - gold| <= the larger of {self.value} * |gold| and the gold's "
                    "half unit (half a unit of the last decimal place the question asks for, or else of the "
                    "places the gold is stored with)")
        return "gold_places: |value - gold| <= half a unit of the last decimal place the gold shows"


@dataclass(frozen=True)
class Protocol:
    """A named, versioned set of rules for reading a free-text answer and comparing it with a gold."""

    id: str
    version: int
    title: str
    gold_reader: str
    tolerance: Tolerance
    grouping: tuple[str, ...]
    currency_symbols: tuple[str, ...]
    currency_codes: tuple[str, ...]
    minus_signs: tuple[str, ...]
    negative_parentheses: bool
    percent_marks: tuple[str, ...]
    scale_words: Mapping[str, int]
    scale_words_applied: bool
    bare_number_scale: str
    max_answer_chars: int
    max_number_chars: int
    data: Mapping[str, Any] = field(repr=False, compare=False)  # the definition as read, for reports
    phrase_markers: tuple[str, ...] = ()  # the phrase format's markers (empty: not declared)
    question_words: QuestionWords | None = None  # financemath_ground_truth: what the question's words decide
    answer_tags: tuple[str, ...] = ()  # the tag format's tag names (empty: not declared)
    last_number_runs: int = 0  # the last-number format's runs of digits tried (0: not declared)
    conclusion_openings: tuple[str, ...] = ()  # conclusion markers: "therefore, the" <words> "is" (empty: none)
    conclusion_closings: tuple[str, ...] = ()
    conclusion_words: int = 0  # the most words between a conclusion's opening and its closing
    phrase_window: int = 0  # the phrase format's markers lie in the completion's last this many characters (0: all)
    phrase_skip_unreadable: bool = False  # an empty or placeholder answer: the marker before it is read
    phrase_markers_tried: int = 1  # marker occurrences tried from the last one back (skip_unreadable)
    ratio_and_percent_one: bool = False  # "0.144 or 14.4%", "57.15 (57.15%)": one number, read as the percentage
    after_last_equals: bool = False  # "£528 / 0.7 = £754.29": the text after the last = is read

    def declares(self, format: str) -> bool:
        """Whether the protocol can be run with the answer format (it describes it)."""
        return format in self.data["formats"]

    @property
    def name(self) -> str:
        """The protocol's full name, e.g. finqa-answer/1."""
        return f"{self.id}/{self.version}"


def _need(data: Mapping[str, Any], path: str, kind: type | tuple[type, ...]) -> Any:
    value: Any = data
    for key in path.split("."):
        if not isinstance(value, Mapping) or key not in value:
            raise ProtocolError(f"the protocol definition has no {path!r}")
        value = value[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ProtocolError(f"the protocol definition's {path!r} is not a {kind}")
    return value


def _texts(data: Mapping[str, Any], path: str) -> tuple[str, ...]:
    values = _need(data, path, list)
    if not all(isinstance(v, str) and v for v in values):
        raise ProtocolError(f"the protocol definition's {path!r} is not a list of texts")
    return tuple(values)


def _one_of(value: str, allowed: tuple[str, ...], path: str) -> str:
    if value not in allowed:
        raise ProtocolError(f"the protocol definition's {path!r} is {value!r}, not one of {', '.join(allowed)}")
    return value


def _tolerance(data: Mapping[str, Any]) -> Tolerance:
    kind = _one_of(_need(data, "comparison.tolerance.kind", str), TOLERANCE_KINDS, "comparison.tolerance.kind")
    if kind == "gold_places":
        if "value" in data["comparison"]["tolerance"]:
            raise ProtocolError("the protocol definition's 'comparison.tolerance.value' means nothing for gold_places")
        return Tolerance(kind, None)
    text = _need(data, "comparison.tolerance.value", str)
    try:
        bound = Decimal(text)
    except InvalidOperation:
        raise ProtocolError(f"the tolerance value {text!r} is not a decimal number") from None
    if not bound.is_finite() or bound < 0:
        raise ProtocolError(f"the tolerance value {text!r} is not a finite number >= 0")
    return Tolerance(kind, bound)


def _only_known_keys(data: Mapping[str, Any]) -> None:
    for path, known in KNOWN_KEYS.items():
        if path == "format_rules" and path not in data:
            continue
        value = _need(data, path, Mapping) if path else data
        unknown = sorted(str(key) for key in value if key not in known)
        if unknown:
            where = f"'{path}'" if path else "top level"
            raise ProtocolError(f"the protocol definition's {where} holds {', '.join(map(repr, unknown))}, which "
                                f"no rule reads (known: {', '.join(sorted(known))})")


def _formats(data: Mapping[str, Any]) -> None:
    """Every classic answer format has its description (printed in reports), a format with rules
    has both, and no other format is described."""
    described = _need(data, "formats", Mapping)
    ruled = data.get("format_rules", {})
    if (not set(CLASSIC_FORMATS) <= set(described) <= set(FORMATS)
            or not all(isinstance(text, str) and text for text in described.values())):
        raise ProtocolError(f"the protocol definition's 'formats' describes each of {', '.join(CLASSIC_FORMATS)} "
                            f"in text, and may describe {', '.join(FORMAT_RULE_KEYS)}; nothing else")
    if not isinstance(ruled, Mapping) or set(ruled) != set(described) - set(CLASSIC_FORMATS):
        raise ProtocolError("the protocol definition's 'format_rules' holds the rules of exactly the formats it "
                            f"describes beyond {', '.join(CLASSIC_FORMATS)}")
    for name, rules in ruled.items():
        if (not isinstance(rules, Mapping) or not FORMAT_RULE_KEYS[name] <= set(rules)
                or not set(rules) <= FORMAT_RULE_KEYS[name] | FORMAT_RULE_OPTIONAL_KEYS[name]):
            optional = sorted(FORMAT_RULE_OPTIONAL_KEYS[name])
            raise ProtocolError(f"the protocol definition's 'format_rules.{name}' holds exactly "
                                f"{', '.join(sorted(FORMAT_RULE_KEYS[name]))}"
                                + (f" (and may hold {', '.join(optional)})" if optional else ""))
        version = rules["version"]
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise ProtocolError(f"the protocol definition's 'format_rules.{name}.version' is not a version (1 or more)")


def _format_rules(data: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """(phrase markers, answer tags, digit runs tried by last-number) as declared; empty or 0 when
    the protocol does not declare that format."""
    ruled = data.get("format_rules", {})
    markers = _texts(data, "format_rules.phrase.markers") if "phrase" in ruled else ()
    if any(not marker.split() or any(c in marker for c in "\n\r") for marker in markers):
        raise ProtocolError("a phrase marker is one or more words on one line")
    tags = _texts(data, "format_rules.tag.tags") if "tag" in ruled else ()
    if any(not all(c.isascii() and (c.isalnum() or c in "_-:") for c in tag) for tag in tags):
        raise ProtocolError("an answer tag name is ASCII letters, digits, _ - or :")
    runs = 0
    if "last-number" in ruled:
        if _need(data, "format_rules.last-number.lenient", bool) is not True:
            raise ProtocolError("the last-number format is declared lenient (\"lenient\": true)")
        runs = _need(data, "format_rules.last-number.max_runs_tried", int)
        if runs < 1:
            raise ProtocolError("the last-number format tries at least one run of digits")
    return markers, tags, runs


class PhraseRules(NamedTuple):
    """The phrase format's optional rules (version 2): none of them applied when absent."""

    openings: tuple[str, ...]  # a conclusion sentence's first words ("therefore, the")
    closings: tuple[str, ...]  # the words that end its noun phrase ("is", "would be")
    conclusion_words: int
    window: int  # markers are looked for in the completion's last `window` characters (0: everywhere)
    skip_unreadable: bool
    markers_tried: int


def _phrase_rules(data: Mapping[str, Any]) -> PhraseRules:
    """The phrase format's conclusion markers and its empty-answer rule, checked."""
    rules = data.get("format_rules", {}).get("phrase", {})
    openings: tuple[str, ...] = ()
    closings: tuple[str, ...] = ()
    words = 0
    window = _need(data, "format_rules.phrase.window", int) if "window" in rules else 0
    if "window" in rules and window < 1:
        raise ProtocolError("the phrase format's window is 1 or more characters")
    if "conclusions" in rules:
        conclusions = _need(data, "format_rules.phrase.conclusions", Mapping)
        if set(conclusions) != {"openings", "closings", "words"}:
            raise ProtocolError("the phrase format's conclusions hold openings, closings and words")
        openings = _texts(data, "format_rules.phrase.conclusions.openings")
        closings = _texts(data, "format_rules.phrase.conclusions.closings")
        if any(not text.split() or any(c in text for c in "\n\r") for text in openings + closings):
            raise ProtocolError("a conclusion's opening or closing is one or more words on one line")
        words = _need(data, "format_rules.phrase.conclusions.words", int)
        if not 1 <= words <= 64:
            raise ProtocolError("the phrase format's conclusions.words is 1 to 64")
    skip = _need(data, "format_rules.phrase.skip_unreadable", bool) if "skip_unreadable" in rules else False
    stepping = skip or bool(openings)  # markers are then tried from the last one back
    tried = _need(data, "format_rules.phrase.max_markers_tried", int) if stepping else 1
    if stepping and not 2 <= tried <= 64:
        raise ProtocolError("the phrase format's max_markers_tried is 2 to 64 (with conclusions or skip_unreadable)")
    if "max_markers_tried" in rules and not stepping:
        raise ProtocolError("the phrase format's max_markers_tried means nothing without conclusions or skip_unreadable")
    return PhraseRules(openings, closings, words, window, skip, tried)


def _percent_convention(data: Mapping[str, Any]) -> None:
    for key, rule in PERCENT_CONVENTION.items():
        _one_of(_need(data, f"comparison.percent.{key}", str), (rule,), f"comparison.percent.{key}")


def _question_words(data: Mapping[str, Any], reader: str) -> QuestionWords | None:
    """The question words of a financemath_ground_truth protocol (which needs them; no other reads them)."""
    gold = data["gold"]
    if reader != "financemath_ground_truth":
        if "stored_places" in gold or "question_words" in gold:
            raise ProtocolError("only the financemath_ground_truth gold reader reads 'stored_places' and "
                                "'question_words'")
        return None
    places = _need(data, "gold.stored_places", int)
    words = _need(data, "gold.question_words", Mapping)
    if set(words) != {"percent", "places", "scales"} or places < 0:
        raise ProtocolError("the protocol's 'gold.question_words' holds percent, places and scales, and "
                            "'gold.stored_places' is 0 or more")
    percent = _texts(data, "gold.question_words.percent")
    maps = []
    for key in ("places", "scales"):
        table = _need(data, f"gold.question_words.{key}", Mapping)
        if not all(isinstance(k, str) and k and isinstance(v, int) and not isinstance(v, bool) and abs(v) <= 24
                   for k, v in table.items()):
            raise ProtocolError(f"the protocol's 'gold.question_words.{key}' maps phrases to small integers")
        lowered = {k.lower(): v for k, v in table.items()}
        maps.append(tuple(sorted(lowered.items(), key=lambda item: len(item[0]), reverse=True)))
    return QuestionWords(places, tuple(p.lower() for p in percent), maps[0], maps[1], anchor_words(maps[0]),
                         anchor_words(maps[1]))


def protocol_from_data(data: Mapping[str, Any]) -> Protocol:
    """Check a decoded protocol definition and return the protocol it declares."""
    _only_known_keys(data)
    _formats(data)
    _percent_convention(data)
    for path in ("gold.rules", "reading.rules", "comparison.rules"):
        _texts(data, path)
    version = _need(data, "version", int)
    if version < 1:
        raise ProtocolError("the protocol version must be 1 or more")
    scale_words = _need(data, "reading.scale_words", Mapping)
    if not all(isinstance(k, str) and k and isinstance(v, int) and not isinstance(v, bool)
               for k, v in scale_words.items()):
        raise ProtocolError("the protocol definition's 'reading.scale_words' maps words to powers of ten")
    grouping = _texts(data, "reading.grouping")
    for name in grouping:
        _one_of(name, GROUPINGS, "reading.grouping")
    percent_marks = _texts(data, "reading.percent_marks")
    both = sorted({mark.lower() for mark in percent_marks} & {word.lower() for word in scale_words})
    if both:  # '5k' would read one way in a short answer and another in a long one
        raise ProtocolError(f"the protocol declares {', '.join(repr(w) for w in both)} both as a percent mark "
                            "and as a scale word")
    markers, tags, runs = _format_rules(data)
    phrase = _phrase_rules(data)
    ratio_and_percent = data["reading"].get("ratio_and_percent_one", False)
    after_equals = data["reading"].get("after_last_equals", False)
    if not isinstance(ratio_and_percent, bool) or not isinstance(after_equals, bool):
        raise ProtocolError("the protocol definition's 'reading.ratio_and_percent_one' and "
                            "'reading.after_last_equals' are booleans")
    gold_reader = _one_of(_need(data, "gold.reader", str), GOLD_READERS, "gold.reader")
    question_words = _question_words(data, gold_reader)
    limits = [_need(data, f"reading.{key}", int) for key in ("max_answer_chars", "max_number_chars")]
    if min(limits) < 1:
        raise ProtocolError("the protocol's reading limits must be 1 or more")
    return Protocol(
        id=_need(data, "id", str),
        version=version,
        title=_need(data, "title", str),
        gold_reader=gold_reader,
        tolerance=_tolerance(data),
        grouping=grouping,
        currency_symbols=_texts(data, "reading.currency_symbols"),
        currency_codes=_texts(data, "reading.currency_codes"),
        minus_signs=_texts(data, "reading.minus_signs"),
        negative_parentheses=_need(data, "reading.negative_parentheses", bool),
        percent_marks=percent_marks,
        scale_words={k.lower(): v for k, v in scale_words.items()},
        scale_words_applied=_need(data, "reading.scale_words_applied", bool),
        bare_number_scale=_one_of(_need(data, "reading.bare_number_scale", str), BARE_NUMBER_SCALES,
                                  "reading.bare_number_scale"),
        max_answer_chars=limits[0],
        max_number_chars=limits[1],
        data=data,
        phrase_markers=markers,
        answer_tags=tags,
        last_number_runs=runs,
        question_words=question_words,
        conclusion_openings=phrase.openings,
        conclusion_closings=phrase.closings,
        conclusion_words=phrase.conclusion_words,
        phrase_window=phrase.window,
        phrase_skip_unreadable=phrase.skip_unreadable,
        phrase_markers_tried=phrase.markers_tried,
        ratio_and_percent_one=ratio_and_percent,
        after_last_equals=after_equals,
    )


def protocol_from_json(text: str) -> Protocol:
    """A protocol from the text of its JSON definition."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ProtocolError(f"the protocol definition is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError("the protocol definition is not a JSON object")
    return protocol_from_data(data)


Made = TypeVar("Made")


def made_once(cache: dict[int, tuple[Protocol, Made]], protocol: Protocol, make: Callable[[Protocol], Made]) -> Made:
    """make(protocol), made once per protocol object and kept in `cache` (a Protocol holds dicts,
    so it is not hashable: the cache is keyed by id and checks the object itself)."""
    known = cache.get(id(protocol))
    if known is None or known[0] is not protocol:
        known = cache[id(protocol)] = (protocol, make(protocol))
    return known[1]
