"""Finding the final answer in a completion: one declared format per run, no cascade.

Each format returns the answer text and its offsets in the completion, or a
AnswerRefusal (NO_FINAL_ANSWER when the declared marker is absent). Every search is a
single pass over the completion.
"""

from __future__ import annotations

import json
import re
from functools import cached_property
from typing import Any, NamedTuple

from finscore.answers.numbers import AnswerRefusal
from finscore.answers.reasons import NO_FINAL_ANSWER, UNPARSEABLE

#: Matched at 0 only: the greedy (?:.*\n)? runs to the end and steps back to the LAST line that starts
#: with the marker, each step O(1), so finding it is linear and, when it is the last line, nearly free.
_LAST_ANSWER_LINE = re.compile(r"(?:.*\n)?[ \t*_#>]{0,8}(?:final[ \t]{1,4})?answer[ \t*_]{0,4}:",
                               re.IGNORECASE | re.DOTALL)
_LINE_LEAD = re.compile(r"[ \t*_#>]{0,8}")  # what may come before the word Answer on its line (as above)
_BOXED = "\\boxed{"
MAX_BRACE_DEPTH = 8
_LATEX_DROPPED = ("\\textbf", "\\text", "\\mathrm", "\\,", "\\!", "{", "}")  # (the braces last: see boxed_from)
_BRACES = re.compile(r"[{}]")
_EMPHASIS = " \t\r*_"
_EMPHASIS_RUN = re.compile(r"[ \t\r*_]*")  # the same characters
_LONG_TEXT = 4096
NO_ANSWER_LINE = "no line starts with 'Answer:'"


class Located(NamedTuple):
    """The answer text and where it was found in the completion (character offsets)."""

    text: str
    start: int
    end: int
    verbatim: bool = True  # text is completion[start:end] (False after LaTeX or JSON decoding)
    # Where the format's marker is (the 'Answer:' of answer-line, \boxed{, the phrase, the opening
    # tag); None for the formats without one (json, whole, last-number). Shown, never decided on.
    marker: tuple[int, int] | None = None


def _emphasis_run(text: str) -> int:
    """The length of the run of emphasis characters that starts `text`."""
    run = _EMPHASIS_RUN.match(text)
    return 0 if run is None else run.end()


def _emphasis_to(completion: str, start: int, end: int) -> int:
    """Where the run of emphasis characters from `start` ends (at most `end`): one repeat of one
    character class, the regular expression engine's fastest loop."""
    run = _EMPHASIS_RUN.match(completion, start, end)
    return start if run is None else run.end()


def _stripped(completion: str, start: int, end: int, marker: tuple[int, int] | None = None) -> Located:
    """completion[start:end] without the emphasis around it (as str.strip(_EMPHASIS) drops it)."""
    text = completion[start:end]
    if len(text) > _LONG_TEXT:  # str.strip with a set of characters is slow on a megabyte of them
        lead = _emphasis_run(text)
        trail = len(text) if lead == len(text) else _emphasis_run(text[::-1])  # (all emphasis: as strip does)
        return Located(text[lead:len(text) - trail], start + lead, end - trail, True, marker)
    if len(text.strip(_EMPHASIS)) == len(text):  # the common case: nothing to strip
        return Located(text, start, end, True, marker)
    lead = len(text) - len(text.lstrip(_EMPHASIS))
    trail = len(text) - len(text.rstrip(_EMPHASIS))
    return Located(text[lead:len(text) - trail], start + lead, end - trail, True, marker)


def answer_line(completion: str) -> Located | AnswerRefusal:
    """The rest of the last line that starts with 'Answer:'."""
    last = _LAST_ANSWER_LINE.match(completion)
    if last is None:
        return AnswerRefusal(NO_FINAL_ANSWER, NO_ANSWER_LINE)
    end = completion.find("\n", last.end())
    lead = _LINE_LEAD.match(completion, completion.rfind("\n", 0, last.end()) + 1)  # the marks before the word
    marker = (last.end() if lead is None else lead.end(), last.end())
    return _stripped(completion, last.end(), len(completion) if end < 0 else end, marker)


def _box_content(depth: int) -> str:
    """A pattern for the content of a brace opened at `depth`: text and complete groups, nested to
    MAX_BRACE_DEPTH at most (possessive: the grammar is unambiguous, nothing is tried twice)."""
    return _balanced(depth, "{", "}")


def _balanced(depth: int, opening: str, closing: str) -> str:
    """_box_content with the two braces named: with "}", "{" it reads a complete box's content on the
    reversed text."""
    if depth == MAX_BRACE_DEPTH:
        return "[^{}]*+"
    return "(?:[^{}]++|\\" + opening + _balanced(depth + 1, opening, closing) + "\\" + closing + ")*+"


# The one pass of the boxed format. A box's content is read by one pattern per brace level: text
# and groups (one grammar: every character is read once, nothing is tried twice). A group ends at
# its '}' or where the scan stopped inside it: at the end of the text (a box never closed) or just
# after the '\' of the next \boxed{, when a brace opened level MAX_BRACE_DEPTH + 1 (the box is too
# deep; the text up to the next \boxed{ is skipped, as the rule reads it). A scan never rests
# inside a run of text, so that stop is unambiguous: text may not start just after a '\'. Outside
# the boxes, the text up to the next \boxed{ is skipped, so one match reads every box of the
# completion in order (complete, too deep, the never-closed last one); its groups say what the last
# box was (content: its content; close: the '}' of the last complete box; deep: just after the
# brace of the last too-deep box). The close group is an empty one after the '}': a group entered by
# an alternative that then fails keeps its start inside a possessive repeat in CPython 3.11's re
# (it raises "the span of capturing group is wrong"), so no group is entered where what follows can fail.
_TEXT = r"[^{}](?<!\\.)[^{}]*+"
_TO_NEXT_BOX = r"(?:[^\\]++|\\(?!boxed\{))*+(?:\\(?=boxed\{))?"  # to just after the next box's '\'
_STOPPED = r"(?<=\\)|\Z"  # (a scan that returns just after a '\' stopped at the next box)


def _box_scan(depth: int) -> str:
    """A pattern for the content of a brace opened at `depth`, read to its end or to where the
    scan stopped (see above); a brace opened at MAX_BRACE_DEPTH stops it (group `deep`)."""
    if depth == MAX_BRACE_DEPTH:
        return "(?:" + _TEXT + r"|\{(?P<deep>)" + _TO_NEXT_BOX + ")*+"
    return "(?:" + _TEXT + r"|\{" + _box_scan(depth + 1) + r"(?:\}|" + _STOPPED + "))*+"


_BOXES = re.compile(r"\\(?:boxed\{(?P<content>" + _box_scan(1) + r")(?:\}(?P<close>)" + _TO_NEXT_BOX + "|"
                    + _STOPPED + "))++")
_CONTENT = re.compile(_box_content(1))
#: Read on the reversed text: a complete \boxed{...}, its content group 1; the content of one.
_LAST_CLOSED_BOX = re.compile(r"\}(" + _balanced(1, "}", "{") + r")\{dexob\\")
_CONTENT_BACKWARDS = re.compile(_balanced(1, "}", "{"))


#: A longer completion is located by the core's one pass (fs_locate_boxed, core/fs_answer.c): its
#: regular expression costs a pass of the engine's group loop per brace, over 10 ms on a megabyte of
#: braces, the core's counter about 3 ms. Loading the core costs a process about 25 ms once, so a
#: shorter completion stays here, and so does one without '}' (no box closes: one count decides).
#: Both read the same rule (tests/answers/test_boxed_in_core.py).
CORE_BOXED_CHARS = 64 * 1024
_TOO_DEEP = AnswerRefusal(UNPARSEABLE, f"braces nested deeper than {MAX_BRACE_DEPTH} in the last \\boxed{{")
_NO_BOX = AnswerRefusal(NO_FINAL_ANSWER, "no complete \\boxed{...}")


def boxed(completion: str) -> Located | AnswerRefusal:
    """The content of the last complete \\boxed{...}, LaTeX dropped as the protocol declares."""
    long = len(completion) > CORE_BOXED_CHARS and "}" in completion  # (without one, one count decides here)
    return boxed_from(completion, boxed_span_in_core(completion) if long else boxed_span(completion))


def boxed_from(completion: str, found: tuple[int, int] | AnswerRefusal) -> Located | AnswerRefusal:
    """The answer of the box whose content is completion[found[0]:found[1]], or the refusal."""
    if isinstance(found, AnswerRefusal):
        return found
    text = completion[found[0]:found[1]]
    if len(text) <= _LONG_TEXT or not text.isascii():
        text = text.replace("\\%", "%").replace("\\$", "$")
        for dropped in _LATEX_DROPPED:
            text = text.replace(dropped, "")
    else:  # the same on a long text: each step that starts with a backslash only if it holds one, and the
        # braces (the last two dropped) in one pass (str.replace of a megabyte of them costs milliseconds)
        if "\\" in text:
            text = text.replace("\\%", "%").replace("\\$", "$")
            for dropped in _LATEX_DROPPED[:-2]:
                text = text.replace(dropped, "")
        text = text.encode("ascii").translate(None, b"{}").decode("ascii")
    return Located(text.strip(), found[0], found[1], verbatim=False, marker=(found[0] - len(_BOXED), found[0]))


def boxed_span_in_core(completion: str) -> tuple[int, int] | AnswerRefusal:
    """boxed_span read by the core (fs_locate_boxed), in one pass with a depth counter."""
    from finscore.engine.core._abi_generated import BoxedOutcome
    from finscore.engine.core.binding import get_core  # wasmtime: loaded when first used

    data = completion.encode("utf-8", "surrogatepass")  # (\boxed{, { and } are one byte a character)
    outcome, start, end = get_core().locate_boxed(data)
    if outcome == BoxedOutcome.TOO_DEEP:
        return _TOO_DEEP
    if outcome != BoxedOutcome.FOUND:
        return _NO_BOX
    if len(data) != len(completion):  # byte offsets to character offsets
        start, end = (len(data[:at].decode("utf-8", "surrogatepass")) for at in (start, end))
    return start, end


def boxed_span(completion: str) -> tuple[int, int] | AnswerRefusal:
    """The content span of the box the boxed format reads, or its refusal (the regular expressions)."""
    found: tuple[int, int] | None = None
    too_deep = False
    at = completion.find(_BOXED)
    if at >= 0 and "}" not in completion:  # no box can close: the first one's scan decides
        at, too_deep = -1, completion.count("{", at + len(_BOXED)) >= MAX_BRACE_DEPTH
    if at >= 0:
        boxes = _BOXES.match(completion, at)  # every box read in one pass (it always matches)
        if boxes is None:
            raise AssertionError(f"the boxed scan did not match at {at}")
        last = boxes.start("content")  # the last box read
        deep, close = boxes.start("deep"), boxes.start("close") - 1  # (both just after their brace; -1, -2: none)
        if deep > last:
            too_deep = True
        elif close >= last:
            found = (last, close)
        else:  # never closed: a complete \boxed{...} inside it is the answer, else the box before it
            too_deep = deep > max(close, 0)  # (the box before it was too deep)
            found = _inner_box(completion, last)
            if found is None and close > deep:  # (the box before it was complete: its content, read backwards)
                content = _CONTENT_BACKWARDS.match(completion[close - 1::-1])  # (it matches the empty text too)
                found = None if content is None else (close - content.end(), close)
    if too_deep:
        return _TOO_DEEP
    if found is None:
        return _NO_BOX
    return found


def _no_box_group(depth: int) -> str:
    """Read on the reversed text: the content of a group opened (by its '}') at `depth` that holds no
    \\boxed{ (no '{' in it is read as the end of 'dexob\\')."""
    if depth == MAX_BRACE_DEPTH:
        return "[^{}]*+"
    return "(?:[^{}]++|\\}" + _no_box_group(depth + 1) + r"\{(?!dexob\\))*+"


#: Read on the reversed text: text and the groups that hold no box, skipped whole.
_NO_BOX_BACKWARDS = re.compile(r"(?:[^}]++|\}" + _no_box_group(1) + r"\{(?!dexob\\))*+")


def _inner_box(completion: str, start: int) -> tuple[int, int] | None:
    """The content span of the complete \\boxed{...} after `start` that closes last, or None.

    The text from `start` is a never-closed box's, nested MAX_BRACE_DEPTH deep at most (the
    caller's scan says so), so every '}' in it closes a group in it. Read backwards, the box that
    closes last is the first group that is a box: groups without a box in them are skipped whole,
    one that holds one is entered (a level deeper each time, so MAX_BRACE_DEPTH steps at most)."""
    first = completion.find(_BOXED, start)
    if first < 0:
        return None
    if completion.find(_BOXED, first + 1) < 0:  # one box in it: the answer when it closes (read forwards)
        content = _CONTENT.match(completion, first + len(_BOXED))  # (it matches the empty content too)
        if content is not None and completion.startswith("}", content.end()):
            return content.span()
        return None
    backwards = completion[:start - 1:-1]
    at = 0
    for _ in range(MAX_BRACE_DEPTH + 1):
        skipped = _NO_BOX_BACKWARDS.match(backwards, at)
        at = at if skipped is None else skipped.end()
        if at == len(backwards):
            return None
        inner = _LAST_CLOSED_BOX.match(backwards, at)  # (at is a '}' whose group holds a box or is one)
        if inner is not None:
            return len(completion) - inner.end(1), len(completion) - inner.start(1)
        at += 1
    raise AssertionError(f"no box found inside the groups that hold one after {start}")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a finite number (refused)")


def json_object(completion: str) -> Located | AnswerRefusal:
    """The "answer" of the JSON object that is the whole completion (one code fence allowed)."""
    body = completion.strip()
    offset = completion.find(body[:1]) if body else 0
    if body.startswith("```") and body.endswith("```") and len(body) >= 6:
        inner = body[3:-3]
        inner = (inner[4:] if inner[:4].lower() == "json" else inner).strip()
        offset = completion.find(inner[:1]) if inner else offset
        body = inner
    if not body.startswith("{"):
        return AnswerRefusal(NO_FINAL_ANSWER, "the completion is not a JSON object")
    try:
        data = json.loads(body, parse_float=str, parse_int=str, parse_constant=_refuse_constant)
    except RecursionError:
        return AnswerRefusal(UNPARSEABLE, "the JSON object is nested too deeply")
    except ValueError as error:  # JSONDecodeError, and the refused NaN / Infinity
        return AnswerRefusal(UNPARSEABLE, f"not a usable JSON object: {error}")
    if not isinstance(data, dict) or "answer" not in data:
        return AnswerRefusal(NO_FINAL_ANSWER, 'the JSON object has no "answer"')
    answer = data["answer"]
    if isinstance(answer, bool):
        answer = "yes" if answer else "no"
    if not isinstance(answer, str):
        return AnswerRefusal(UNPARSEABLE, f'"answer" is a JSON {type(answer).__name__}, not text or a number')
    return Located(answer.strip(), offset, offset + len(body), verbatim=False)


def whole(completion: str) -> Located | AnswerRefusal:
    return _stripped(completion, 0, len(completion))


LOCATORS = {"answer-line": answer_line, "boxed": boxed, "json": json_object, "whole": whole}


# -- the formats whose rules are data in the protocol: phrase, tag, last-number --------------------------

_SENTENCE_END = re.compile(r"[.!?](?![A-Za-z0-9])")
_AFTER_MARKER = re.compile(r"[ \t*_]{0,8}(?::[ \t*_]{0,8})?")
_NEXT_LINE = re.compile(r"(?:[ \t\r*_]*\n){1,3}[ \t*_]*")  # at most two empty lines between
_LATEX_PAIRS = (("\\%", "%"), ("\\$", "$"), ("\\(", ""), ("\\)", ""), ("\\[", ""), ("\\]", ""),
                ("\\,", " "), ("\\;", " "), ("\\:", " "), ("\\ ", " "))
_LATEX_WORDS = ("\\boxed", "\\textbf", "\\text", "\\mathrm", "\\,", "\\!", "{", "}")
NO_PHRASE = "no declared answer phrase"


def _sentence_end(completion: str, start: int, end: int) -> int:
    """Where the sentence from `start` ends (the first . ! or ? not followed by a letter or digit),
    or `end`. The first of those marks is found by str.find (a text without one costs nearly
    nothing), the pattern is run from there."""
    first = min((at for mark in ".!?" if (at := completion.find(mark, start, end)) >= 0), default=-1)
    if first < 0:
        return end
    sentence = _SENTENCE_END.search(completion, first, end)
    return end if sentence is None else sentence.start()


def _folded(completion: str) -> str:
    """The completion in lower case with every character kept in place (U+0130 is the one character
    whose lower case is two)."""
    return (completion if "\u0130" not in completion else completion.replace("\u0130", "i")).lower()


def _delatexed(completion: str, start: int, end: int, marker: tuple[int, int] | None = None) -> Located:
    """The answer span, its LaTeX read as text when it holds any (as the boxed format declares)."""
    located = _stripped(completion, start, end, marker)
    if "\\" not in located.text and "{" not in located.text:
        return located
    text = located.text
    for latex, plain in _LATEX_PAIRS:
        text = text.replace(latex, plain)
    for dropped in _LATEX_WORDS:
        text = text.replace(dropped, "")
    return Located(text.strip(_EMPHASIS), located.start, located.end, False, marker)


_SEPARATOR = "[ \t*_]{1,8}"  # between the words of a marker
_SLOT_WORD_CHARACTERS = 40  # the longest word between a conclusion's opening and its closing
_WORD_CHARACTER = re.compile(r"\w")
#: An answer with something to read: a digit, or the word yes or no (a yes / no gold's answer).
_READABLE = re.compile(r"[0-9]|(?<![A-Za-z])(?:yes|no)(?![A-Za-z])", re.IGNORECASE)
_LAST_YES_NO = re.compile(r"(?<![a-z])(?:sey|on)(?![a-z])")  # yes or no, in the reversed lower-cased text


def _reversed_words(words: str) -> str:
    """A pattern for `words` (lower case) in the reversed, lower-cased completion."""
    return _SEPARATOR.join(re.escape(word[::-1]) for word in reversed(words.lower().split()))


def _bounded(phrases: tuple[str, ...], before: str, after: str) -> str:
    """The phrases, reversed, each neither preceded (in the completion: followed) by a character of
    the class `before` nor followed (preceded) by one of `after`. Each alternative starts with its
    literal first character, the test of its neighbour just after it, so the search skips every
    position that cannot start one (a look-behind first would make it try them all)."""
    alternatives = []
    for phrase in sorted(phrases, key=len, reverse=True):
        pattern = _reversed_words(phrase)
        first = re.escape(phrase.lower().split()[-1][::-1])  # the phrase's last word, reversed
        alternatives.append(f"{first}(?<!{before}{first}){pattern[len(first):]}(?!{after})")
    return "|".join(alternatives)


#: A longer ASCII completion has its last marker found by the core's one backward pass
#: (fs_locate_phrase, core/fs_answer.c) when the locator tries one occurrence, has no conclusions and no
#: window shorter than the completion (financemath-answer/1): the regular expression makes an attempt
#: per occurrence of a marker's last word, 12 to 20 ms on a megabyte of "is ". Loading the core costs a
#: process about 25 ms once, so a shorter completion stays here. Both read the same rule
#: (tests/answers/test_phrase_in_core.py).
CORE_PHRASE_CHARS = 64 * 1024
_CORE_PHRASE_MOST_CHARS = 1 << 28  # (a longer one stays here: the core's lengths are int32, its calls bounded)
_CORE_SEPARATORS = frozenset(" \t*_")


def _core_markers(markers: tuple[str, ...]) -> bytes | None:
    """The markers as fs_locate_phrase takes them (docs/abi.md): in the order the patterns try them
    (longest first), each its lower-cased words with one space between, one newline between two; None
    when the core cannot read them (a word holding a separator, or beyond the core's bounds)."""
    from finscore.engine.core._abi_generated import PhraseLimit  # (no module loaded: constants)

    words = [marker.lower().split() for marker in sorted(markers, key=len, reverse=True)]
    if not words or len(words) > PhraseLimit.MARKERS or any(not w or len(w) > PhraseLimit.WORDS for w in words):
        return None
    if any(_CORE_SEPARATORS.intersection(word) for marker in words for word in marker):
        return None
    text = "\n".join(" ".join(marker) for marker in words).encode("utf-8", "surrogatepass")
    if len(text) > PhraseLimit.BYTES or any(65 <= byte <= 90 for byte in text):  # (lower case: no A-Z)
        return None
    return text


class _Candidate(NamedTuple):
    """A marker occurrence: where it starts and ends in the completion, where the search for the
    one before it goes on (in the reversed completion), and whether it is a conclusion's opening."""

    start: int
    end: int
    resume: int
    opening: bool


class PhraseLocator:
    """The answer after the LAST declared marker phrase, to the end of its sentence or line.

    The markers are searched in the reversed, lower-cased completion: the first match there is the
    last one here, found in one pass. Rules version 2 adds conclusions (an opening such as
    'therefore, the', then words, then a closing such as 'is') and `skip_unreadable`: the occurrences are
    then taken from the last one back, at most `tried` of them, until one yields an answer."""

    def __init__(self, markers: tuple[str, ...], openings: tuple[str, ...] = (), closings: tuple[str, ...] = (),
                 most_words: int = 0, window: int = 0, skip_unreadable: bool = False, tried: int = 1) -> None:
        plain = "|".join(_reversed_words(m) for m in sorted(markers, key=len, reverse=True))
        self.loose = re.compile(plain)  # each match's neighbours are then tested with isalpha
        # ASCII text (lower-cased: [a-z] is exactly what isalpha calls a letter there): the test in the pattern
        self.strict = re.compile(_bounded(markers, "[a-z]", "[a-z]"))
        self.openings = re.compile(_bounded(openings, "\\w", "\\w")) if openings else None
        any_closing = "|".join(re.escape(c.lower()).replace("\\ ", _SEPARATOR)
                               for c in sorted(closings, key=len, reverse=True))
        self.closings = re.compile(f"(?<!\\w)(?:{any_closing})(?!\\w)") if openings else None
        self.most_words = most_words
        self.window = window
        self.skip_unreadable = skip_unreadable
        self.tried = tried if (skip_unreadable or openings) else 1
        self._markers = tuple(markers)
        self._one_marker_decides = not openings and self.tried == 1  # (the rule fs_locate_phrase reads)

    @cached_property
    def core_markers(self) -> bytes | None:
        """The markers as fs_locate_phrase takes them, or None when the core cannot read this
        locator's rule (conclusions, more than one occurrence tried, markers it does not take)."""
        return _core_markers(self._markers) if self._one_marker_decides else None

    def _plain(self, completion: str, folded: str, at: int, ascii: bool) -> _Candidate | None:
        """The last marker phrase not joined to a letter that ends before len(completion) - at (and
        lies in the last `window` characters, when the protocol declares a window).

        The plain pattern finds it; each match is tested with isalpha. In ASCII text, once a match
        is refused, the pattern holding that test (a look-behind: slower on text that repeats a
        marker's last word, faster on text that repeats a refused marker) takes over."""
        size = len(completion)
        window = self.window or size
        found = self.loose.search(folded, at, window)
        while found is not None:
            start, end = size - found.end(), size - found.start()
            # (where the strict pattern took a shorter marker, the plain one's longer match there was refused)
            first = found if found.re is self.loose else self.loose.match(folded, found.start(), window)
            if first is not None and first.end() == found.end() and not (
                    start > 0 and completion[start - 1].isalpha()) and not (end < size and completion[end].isalpha()):
                return _Candidate(start, end, found.end(), False)
            found = (self.strict if ascii else self.loose).search(folded, found.start() + 1, window)
        return None

    def _opening(self, folded: str, at: int) -> _Candidate | None:
        """The last conclusion opening (not joined to a word character) before len(folded) - at that
        starts in the last `window` characters (the reversed search stops there: a bound on a
        megabyte of text that repeats an opening's last word)."""
        if self.openings is None:
            return None
        size = len(folded)
        window = self.window or size
        found = self.openings.search(folded, at, window)
        while found is not None and found.end() == window < size and _WORD_CHARACTER.match(folded, window):
            found = self.openings.search(folded, found.start() + 1, window)  # joined to a word outside
        return None if found is None else _Candidate(size - found.end(), size - found.start(), found.end(), True)

    def plain_span(self, completion: str) -> tuple[int, int] | None:
        """Where the last marker phrase not joined to a letter is (the regular expressions), or None."""
        folded = _folded(completion)[::-1]
        found = self._plain(completion, folded, 0, completion.isascii())
        return None if found is None else (found.start, found.end)

    def plain_span_in_core(self, completion: str) -> tuple[int, int] | None:
        """plain_span read by the core (fs_locate_phrase), in one backward pass: an ASCII completion,
        a locator whose markers the core takes (core_markers), no window shorter than the completion."""
        from finscore.engine.core._abi_generated import PhraseOutcome
        from finscore.engine.core.binding import get_core  # wasmtime: loaded when first used

        if self.core_markers is None or not completion.isascii() or (0 < self.window < len(completion)):
            raise ValueError("the core reads an ASCII completion with markers it takes and no shorter window")
        outcome, start, end = get_core().locate_phrase(completion.encode("ascii"), self.core_markers)
        return (start, end) if outcome == PhraseOutcome.FOUND else None  # (ASCII: bytes are characters)

    def __call__(self, completion: str) -> Located | AnswerRefusal:
        if (self.core_markers is not None and CORE_PHRASE_CHARS < len(completion) <= _CORE_PHRASE_MOST_CHARS
                and not 0 < self.window < len(completion) and completion.isascii()):
            # one occurrence tried, no conclusions (core_markers says so): the last marker decides
            span = self.plain_span_in_core(completion)
            last = None if span is None else _Candidate(span[0], span[1], -1, False)
            return self._answer(completion, "", "", True, last, None)  # (the folds are read for no other turn)
        lowered = _folded(completion)
        folded = lowered[::-1]
        ascii = completion.isascii()
        return self._answer(completion, lowered, folded, ascii, self._plain(completion, folded, 0, ascii),
                            self._opening(folded, 0))

    def _answer(self, completion: str, lowered: str, folded: str, ascii: bool, plain: _Candidate | None,
                opening: _Candidate | None) -> Located | AnswerRefusal:
        """The answer after the last marker occurrence (`plain`: the last marker phrase, `opening`: the
        last conclusion opening), or after an earlier one, at most `tried` of them (the occurrences
        before them are looked for only when another turn reads one)."""
        located: Located | None = None
        empty = 0
        # where the search for the occurrence before the one just taken goes on: searched only when
        # that occurrence is needed (most completions are decided by their last marker)
        plain_from = opening_from = -1
        for _ in range(self.tried):
            if plain_from >= 0:
                plain, plain_from = self._plain(completion, folded, plain_from, ascii), -1
            if opening_from >= 0:
                opening, opening_from = self._opening(folded, opening_from), -1
            if plain is None and opening is None:
                break
            if opening is None or (plain is not None and plain.start >= opening.start):
                assert plain is not None
                marker_start, marker_end = plain.start, plain.end
                plain_from = plain.resume
            else:
                marker_start, closed = opening.start, self._closing_end(lowered, folded, opening.end)
                opening_from = opening.resume
                if closed < 0:  # an opening without its closing is no marker
                    continue
                marker_end = closed
            located = self._answer_after(completion, marker_start, marker_end)
            if not self.skip_unreadable or _READABLE.search(located.text) is not None:
                return located
            empty += 1
        if located is None:
            return AnswerRefusal(NO_FINAL_ANSWER, NO_PHRASE)
        return AnswerRefusal(UNPARSEABLE, f"nothing readable after the last {empty} answer marker(s) "
                                          f"(the last {self.tried} marker occurrences are tried)")

    def _closing_end(self, lowered: str, folded: str, start: int) -> int:
        """Where the closing of the conclusion whose opening ends at `start` ends, or -1: the LAST
        closing of the opening's sentence (and line) that has a digit or the word yes or no after
        it in that sentence, or nothing but emphasis and a colon after it on its line (the answer
        is then on the next line), with at most `most_words` words, and no : or ;, between the
        opening and it."""
        assert self.closings is not None
        line_end = lowered.find("\n", start)
        line_end = len(lowered) if line_end < 0 else line_end
        end = _sentence_end(lowered, start, line_end)
        slot_end = min((at for mark in ":;" if (at := lowered.find(mark, start, end)) >= 0), default=end)
        last_digit = max(lowered.rfind(digit, start, end) for digit in "0123456789")  # -1: none
        size = len(lowered)
        word = _LAST_YES_NO.search(folded, size - end, size - start)  # in the reversed text: the last one
        last_readable = max(last_digit, -1 if word is None else size - word.end())
        found = -1
        for closing in self.closings.finditer(lowered, start, slot_end + 1):
            if len(lowered[start:closing.start()].split()) > self.most_words:
                break
            rest = _AFTER_MARKER.match(lowered, closing.end())
            after = closing.end() if rest is None else rest.end()
            if last_readable >= closing.end() or (
                    end == line_end and _emphasis_to(lowered, after, line_end) == line_end):
                found = closing.end()
        return found

    @staticmethod
    def _answer_after(completion: str, start: int, end: int) -> Located:
        """The answer after the marker completion[start:end]: to the end of its sentence or line."""
        size = len(completion)
        begin = _AFTER_MARKER.match(completion, end)
        answer_start = begin.end() if begin is not None else end
        line_end = completion.find("\n", answer_start)
        line_end = size if line_end < 0 else line_end
        if _emphasis_to(completion, answer_start, line_end) == line_end:  # "the answer is:" ends its line
            following = _NEXT_LINE.match(completion, line_end)
            if following is not None and following.end() < size:
                answer_start = following.end()
                line_end = completion.find("\n", answer_start)
                line_end = size if line_end < 0 else line_end
        return _delatexed(completion, answer_start, _sentence_end(completion, answer_start, line_end), (start, end))


class TagLocator:
    """The content of the LAST complete <tag>...</tag> of the declared tag names (any case)."""

    def __init__(self, tags: tuple[str, ...]) -> None:
        self.tags = tuple((f"<{tag.lower()}>", f"</{tag.lower()}>") for tag in tags)

    def __call__(self, completion: str) -> Located | AnswerRefusal:
        folded = _folded(completion)
        best: tuple[int, int] | None = None
        marker = (0, 0)
        for opening, closing in self.tags:
            close = folded.rfind(closing)
            open_at = folded.rfind(opening, 0, close) if close >= 0 else -1
            if open_at >= 0 and (best is None or close > best[1]):
                best, marker = (open_at + len(opening), close), (open_at, open_at + len(opening))
        if best is None:
            return AnswerRefusal(NO_FINAL_ANSWER, "no complete " + " or ".join(f"{o}...{c}" for o, c in self.tags))
        return _stripped(completion, best[0], best[1], marker)
