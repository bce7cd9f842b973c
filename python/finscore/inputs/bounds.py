"""The bounds of what finscore reads, each defined once, under a name saying what it bounds.

A bound only keeps a mistaken or hostile input from exhausting memory; none is a
size any real file comes near. The modules that read use these (some under the
short names they always had, so that nothing importable today goes away).
"""

from __future__ import annotations

#: One exact-format JSON document (a case, a kit).
MAX_DOCUMENT_BYTES = 1 << 20
#: An exact-format predictions JSON Lines file.
MAX_PREDICTIONS_BYTES = 256 << 20
#: One line of an exact-format predictions file; also the longest JSON text the runner reads.
MAX_PREDICTION_LINE_BYTES = 8 << 20
#: A report written by a contracts run.
MAX_REPORT_BYTES = 256 << 20
#: One line of a stream a streaming command reads (16 MiB; bytes, or characters from a text stream).
MAX_STREAM_LINE = 1 << 24
#: A UTF-8 character is at most 4 bytes: the byte bound that matches a character bound.
BYTES_PER_CHAR = 4
#: A FinQA or ConvFinQA file (a split is a few megabytes), a report re-checked by `answers verify`.
MAX_FINQA_FILE_BYTES = 1 << 30
#: A TAT-QA gold split (about 2 MB) or prediction file.
MAX_TATQA_FILE_BYTES = 256 << 20
#: A JSON Lines file of free-text answers for `finscore answers`.
MAX_ANSWER_PREDICTIONS_BYTES = 1 << 30
#: One JSON string, in a typed field of an input file or in a value an agent hands over.
MAX_STRING = 100_000
#: The bits of one integer in a value an agent hands over (beyond it, no JSON number anyone means).
MAX_JSON_INTEGER_BITS = 256
#: The items of one array in a case file (a world's households, a plan's permitted tools, ...).
MAX_CASE_ITEMS = 1000
