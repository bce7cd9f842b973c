"""JSON Lines from a stream, one bounded line at a time, every line accounted for.

`bounded_lines` reads a line to at most `limit` characters (bytes, from a binary
stream); a longer one is reported as None and the rest of it read in pieces and
dropped, so one huge line (a model that never wrote a newline) cannot exhaust
memory, and the lines after it are still read.

`json_lines` is what every streaming command (`exec-jsonl`, `answers decide-jsonl`,
`tatqa decide-jsonl`, `finqa equal-jsonl`) reads its input with: one `StreamLine` per
input line, numbered from 1, blank lines included, so that a command can write back
exactly one line for each one it read. The rules are the reading layer's
(`finscore.inputs.reading`): a byte-order mark opening line 1 is dropped, bytes that
are not UTF-8 are reported by position, the JSON is read under the syntax the caller
declares (by default CPython's `json.loads`, a key given twice refused), and what
json.loads raises (a 1,000,000-digit integer, nesting too deep) becomes that line's
problem, never the stream's. Like the reading layer, it reports the bare facts and
each command words them as its users have always read them.
"""

from __future__ import annotations

import json
from typing import IO, Any, AnyStr, Iterator, Literal, Union

from finscore.inputs.bounds import BYTES_PER_CHAR, MAX_STREAM_LINE
from finscore.inputs.reading import BOM, DuplicateKeyError, JsonSyntax, NotUtf8, loads

#: The longest line a streaming command reads by default (16 MiB).
MAX_LINE = MAX_STREAM_LINE

#: How a streaming command reads one line's JSON: as CPython's json.loads, but a key given twice
#: is refused (which of its values was meant is unknowable), as every reader of finscore refuses it.
STREAM_SYNTAX = JsonSyntax(duplicates="refuse")

#: Why a line holds no value: longer than the bound, only white space, not UTF-8, or json.loads refused it.
StreamProblem = Literal["too_long", "blank", "not_utf8", "not_json"]

#: The words for a line that holds nothing but white space.
BLANK_LINE = "an empty line (no JSON value)"

Source = Union[IO[str], IO[bytes]]


def bounded_lines(stream: IO[AnyStr], limit: int = MAX_LINE) -> Iterator[AnyStr | None]:
    """Each line of `stream` with its newline, or None for a line longer than `limit`."""
    while line := stream.readline(limit + 1):
        newline = "\n" if isinstance(line, str) else b"\n"
        if len(line) <= limit or line.endswith(newline):
            yield line
            continue
        while (rest := stream.readline(limit + 1)) and not rest.endswith(newline):
            pass
        yield None


class StreamLine:
    """One input line: its number (from 1, every line counted), its bytes and text as read (newline
    included; line 1 without a byte-order mark), and either its JSON `value` or its `problem`.

    `raw` and `text` are None for a line too long to keep; a line that is not UTF-8 has its
    `text` decoded with surrogate escapes (so that it can still be shown) and `error` a
    NotUtf8 giving the byte; a line json.loads refused has in `error` what it raised (a
    JSONDecodeError, a DuplicateKeyError, the ValueError of an integer past CPython's digit
    limit, a RecursionError). A plain class: the TAT-QA command imports this module."""

    __slots__ = ("number", "raw", "text", "value", "problem", "error")

    def __init__(self, number: int, raw: bytes | None, text: str | None, value: Any,
                 problem: StreamProblem | None, error: BaseException | None) -> None:
        self.number = number
        self.raw = raw
        self.text = text
        self.value = value
        self.problem: StreamProblem | None = problem
        self.error = error


def _bytes_of(piece: str) -> bytes:
    """A text line's bytes: surrogate escapes (a text stream's undecodable bytes) back to the bytes
    they stand for, any other lone surrogate as the bytes UTF-8 refuses."""
    try:
        return piece.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return piece.encode("utf-8", "surrogatepass")


def _line(number: int, raw: bytes, syntax: JsonSyntax, char_limit: int | None) -> StreamLine:
    if number == 1 and raw.startswith(BOM):
        raw = raw[len(BOM):]
    if not raw.strip():
        return StreamLine(number, raw, raw.decode("utf-8", "surrogateescape"), None, "blank", None)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return StreamLine(number, raw, raw.decode("utf-8", "surrogateescape"), None, "not_utf8", NotUtf8(error, 0))
    if char_limit is not None and len(text) - text.endswith("\n") > char_limit:
        return StreamLine(number, None, None, None, "too_long", None)
    try:
        value = loads(text, syntax)
    except (ValueError, RecursionError) as error:
        return StreamLine(number, raw, text, None, "not_json", error)
    return StreamLine(number, raw, text, value, None, None)


def json_lines(stream: Source, limit: int = MAX_LINE, *, chars: bool = False,
               syntax: JsonSyntax = STREAM_SYNTAX) -> Iterator[StreamLine]:
    """One StreamLine for every line of `stream`, in order; nothing in a line stops the stream.

    A text stream with a byte buffer (standard input) is read through the buffer, before
    anything is read from it as text, so that bytes that are not UTF-8 are named rather than
    raised. `limit` bounds a line (its newline not counted) in bytes (in characters
    from a text stream without a buffer, such as a StringIO), or in characters with `chars`
    (then up to BYTES_PER_CHAR times as much is read before the characters are counted).
    """
    buffer = getattr(stream, "buffer", None)
    source: Source = buffer if buffer is not None else stream
    read_limit = limit * BYTES_PER_CHAR if chars else limit
    char_limit = limit if chars else None
    pieces: Iterator[str | bytes | None] = bounded_lines(source, read_limit)  # type: ignore[misc]  # either kind
    for number, piece in enumerate(pieces, start=1):
        if piece is None:
            yield StreamLine(number, None, None, None, "too_long", None)
        elif isinstance(piece, str):
            yield _line(number, _bytes_of(piece), syntax, char_limit)
        else:
            yield _line(number, piece, syntax, char_limit)


def problem_words(line: StreamLine) -> str:
    """The reading layer's own words for a line's problem (a command may keep older words for
    some): what json.loads said, the key given twice, the byte that is not UTF-8."""
    error = line.error
    if line.problem == "blank":
        return BLANK_LINE
    if line.problem == "too_long":
        return "longer than the bound of a line"
    if isinstance(error, NotUtf8):
        return f"not UTF-8 text (byte {error.byte}: {error.reason})"
    if isinstance(error, DuplicateKeyError):
        return f"the JSON object has the key {error.key!r} twice"
    if isinstance(error, RecursionError):
        return "JSON nested too deeply to read"
    if isinstance(error, json.JSONDecodeError):
        return f"not valid JSON: {error}"
    return f"not JSON that can be read: {error}"


def row_stream_problem(line: StreamLine, limit: int) -> str:
    """A line's problem in the words of the row streams (`tatqa decide-jsonl`, `finqa equal-jsonl`):
    their own for an overlong line and for JSON json.loads refuses, the reading layer's for the rest."""
    if line.problem == "too_long":
        return f"longer than {limit} characters"
    if line.problem == "not_json" and not isinstance(line.error, DuplicateKeyError):
        return f"not valid JSON ({line.error})"
    return problem_words(line)  # empty, not UTF-8, a key given twice
