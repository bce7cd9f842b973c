"""JSON Lines from a stream, one bounded line at a time.

A line is read to at most `limit` characters (bytes, from a binary stream); a
longer one is reported as None and the rest of it read in pieces and dropped, so
one huge line (a model that never wrote a newline) cannot exhaust memory, and the
lines after it are still read. Every streaming command reads its input here.
"""

from __future__ import annotations

from typing import IO, AnyStr, Iterator

from finscore.inputs.bounds import MAX_STREAM_LINE

#: The longest line a streaming command reads by default (16 MiB).
MAX_LINE = MAX_STREAM_LINE


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
