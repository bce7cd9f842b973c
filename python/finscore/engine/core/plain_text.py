"""Handing programs to the core's own reader of plain token programs.

The core reads programs in the plain form (see fs_read_execute_batch in
core/finscore_core.h) from one text: programs separated by 0x1E, tokens by 0x1F,
and tables likewise (rows by 0x1E, cells by 0x1F). This module lays a chunk of
programs out that way, cheaply: one join per program (or, for program text, the
official cut made on the whole chunk's text at once), one encoding per chunk, and
a table only for a program that has a table step. A program whose tokens or
table hold a separator, or whose table is not a list of rows of text, is kept
for the host's full reader instead; so is anything the core defers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import accumulate, chain, repeat
from typing import Any, Sequence

from finscore.engine.bounds import plain_call_bytes

TOKEN_SEPARATOR = "\x1f"
RECORD_SEPARATOR = "\x1e"
SURROGATE_ERRORS = "surrogatepass"  # JSON may hold lone surrogates; they are never plain


@dataclass
class PlainBatch:
    """The core's input for a chunk, and which programs of the chunk it holds."""

    indices: Sequence[int] = field(default_factory=list)  # chunk positions of the programs sent (a range: all)
    texts: list[str] = field(default_factory=list)
    program_tables: list[int] = field(default_factory=list)
    table_bytes: bytes = b""  # every table laid out, one after another
    table_spans: list[int] = field(default_factory=list)  # per table: offset and length in table_bytes
    table_value_cells: int = 0  # the core's table_values size: each program's table's value cells, summed
    token_count: int = 0
    joined: str | None = None  # the texts joined, when already made

    def table(self, which: int) -> bytes:
        """Table `which` as the core reads it."""
        offset, length = self.table_spans[2 * which], self.table_spans[2 * which + 1]
        return self.table_bytes[offset : offset + length]

    def call_bytes(self) -> int:
        """About the linear memory the core's plain reader needs for this batch (text counted
        in characters: the bound leaves room for multi-byte ones)."""
        text_length = len(self.joined) if self.joined is not None else sum(map(len, self.texts)) + len(self.texts)
        return plain_call_bytes(text_length, len(self.table_bytes), len(self.indices),
                                self.token_count // 4 + 1, self.table_value_cells)

    def text(self) -> bytes:
        joined = RECORD_SEPARATOR.join(self.texts) if self.joined is None else self.joined
        return joined.encode("utf-8", SURROGATE_ERRORS)


def table_text(table: Any) -> str | None:
    """A table as the core reads it, or None when it is not a list of rows of text.

    Checked for the whole table at once: rows that are non-empty lists, cells that
    the join accepts (text only), and separator counts that come out exact only when
    no cell holds a separator.
    """
    if (type(table) is not list or not table or not set(map(type, table)) <= {list} or [] in table
            or [""] in table):  # a row of one empty cell would be an empty row, which the core refuses
        return None
    try:
        text = RECORD_SEPARATOR.join(map(TOKEN_SEPARATOR.join, table))
    except TypeError:  # a cell that is not text
        return None
    if (text.count(RECORD_SEPARATOR) != len(table) - 1
            or text.count(TOKEN_SEPARATOR) != sum(map(len, table)) - len(table)):
        return None
    return text


def _programs_with_tables(joined: str) -> list[int]:
    """Which programs of the joined text mention a table op, in order."""
    found: list[int] = []
    program, counted = 0, 0
    at = joined.find("table_")
    while at != -1:
        program += joined.count(RECORD_SEPARATOR, counted, at)
        counted = at
        if not found or found[-1] != program:
            found.append(program)
        at = joined.find("table_", at + 6)
    return found


def lay_out(token_lists: Sequence[Sequence[str]], tables: Sequence[Any]) -> PlainBatch:
    """The plain-reader input for programs (token lists) and their tables; the programs
    that cannot be laid out are left out.

    Raises TypeError if a token is not text (the join refuses it).
    """
    batch = PlainBatch()
    joined = RECORD_SEPARATOR.join(map(TOKEN_SEPARATOR.join, token_lists))
    token_count = sum(map(len, token_lists))
    # A program of n tokens gives n - 1 token separators, and the programs count - 1
    # record separators, exactly when no token holds either and no program is empty;
    # each exception only adds to the counts. So exact totals mean no token anywhere
    # holds a separator and no program is empty (the common case, checked at once).
    if (token_lists and joined.count(RECORD_SEPARATOR) == len(token_lists) - 1
            and joined.count(TOKEN_SEPARATOR) == token_count - len(token_lists) and _no_empty_last_token(joined)):
        batch.indices = range(len(token_lists))
        batch.joined = joined
        batch.token_count = token_count
        with_tables = _programs_with_tables(joined)
    else:
        texts = list(map(TOKEN_SEPARATOR.join, token_lists))
        kept: list[int] = []
        for position, (tokens, text) in enumerate(zip(token_lists, texts)):
            if (text.count(TOKEN_SEPARATOR) == len(tokens) - 1 and RECORD_SEPARATOR not in text
                    and text and text[-1] != TOKEN_SEPARATOR):
                kept.append(position)
                batch.texts.append(text)
                batch.token_count += len(tokens)
        batch.indices = kept
        with_tables = [k for k, text in enumerate(batch.texts) if "table_" in text]
    _attach_tables(batch, tables, with_tables)
    return batch


def _one_separator_a_run(text: str) -> str:
    """`text` with each run of token separators (left where two token boundaries meet; no token
    is empty) made one. Each pass halves every run, so a run of n takes about log2(n) passes,
    and each pass shortens the text (the loop's bound). A regular expression did the same a
    character at a time, at about a twentieth of a program reward's whole cost."""
    pair = TOKEN_SEPARATOR * 2
    while pair in text:
        text = text.replace(pair, TOKEN_SEPARATOR)
    return text


def lay_out_program_texts(programs: list[str], tables: Sequence[Any]) -> PlainBatch | None:
    """What lay_out makes of the programs' official tokens (tokenize_gold_program), laid out
    from the programs' text at once, with no token list made: a ", " separates tokens, a "("
    ends one, a ")" is one of its own, and empty tokens do not exist. None when a program
    holds a separator or cuts into no token at all; then lay_out of the token lists decides.
    (Checked against lay_out of the token lists in tests/engine/test_plain_text.py.)"""
    joined = RECORD_SEPARATOR.join(programs)
    if not programs or TOKEN_SEPARATOR in joined or joined.count(RECORD_SEPARATOR) != len(programs) - 1:
        return None
    cut = joined.replace(", ", TOKEN_SEPARATOR).replace("(", "(" + TOKEN_SEPARATOR)
    cut = _one_separator_a_run(cut.replace(")", TOKEN_SEPARATOR + ")" + TOKEN_SEPARATOR))
    cut = cut.replace(TOKEN_SEPARATOR + RECORD_SEPARATOR, RECORD_SEPARATOR)
    cut = cut.replace(RECORD_SEPARATOR + TOKEN_SEPARATOR, RECORD_SEPARATOR).strip(TOKEN_SEPARATOR)
    if not cut or RECORD_SEPARATOR * 2 in cut or cut.startswith(RECORD_SEPARATOR) or cut.endswith(RECORD_SEPARATOR):
        return None  # a program without tokens
    batch = PlainBatch()
    batch.joined = cut.replace(RECORD_SEPARATOR, TOKEN_SEPARATOR + "EOF" + RECORD_SEPARATOR) + TOKEN_SEPARATOR + "EOF"
    batch.indices = range(len(programs))
    batch.token_count = batch.joined.count(TOKEN_SEPARATOR) + len(programs)
    _attach_tables(batch, tables, _programs_with_tables(batch.joined))
    return batch


def _attach_tables(batch: PlainBatch, tables: Sequence[Any], with_tables: list[int]) -> None:
    """Lay out, once each, the tables of the batch's programs that have a table step."""
    batch.program_tables = [-1] * len(batch.indices)
    needed: list[Any] = []  # distinct tables, in order of first use
    table_index: dict[int, int] = {}
    for k in with_tables:
        table = tables[batch.indices[k]]
        if table is None:
            continue
        which = table_index.get(id(table))
        if which is None:
            which = table_index[id(table)] = len(needed)
            needed.append(table)
        batch.program_tables[k] = which
    if needed:
        laid_out = _tables_at_once(needed)
        if laid_out is None:
            laid_out = _tables_one_by_one(needed)
        index_of_needed, batch.table_bytes, batch.table_spans, value_cells = laid_out
        batch.program_tables = [index_of_needed[which] if which >= 0 else -1 for which in batch.program_tables]
        value_cells.append(0)  # so that index -1 (no table) counts nothing
        batch.table_value_cells = sum(map(value_cells.__getitem__, batch.program_tables))


def _no_empty_last_token(joined: str) -> bool:
    """Whether no program of the joined text ends in an empty token: the core refuses an empty
    program and one ending in 0x1F (a terminator where a separator belongs), so such a
    program goes to the full reader (checked on the joined text at once)."""
    return (joined != "" and not joined.endswith((RECORD_SEPARATOR, TOKEN_SEPARATOR))
            and not joined.startswith(RECORD_SEPARATOR) and RECORD_SEPARATOR * 2 not in joined
            and TOKEN_SEPARATOR + RECORD_SEPARATOR not in joined)


#: (index kept per table or -1, bytes, spans, value cells (0x1F bytes) per kept table)
_LaidOutTables = tuple[list[int], bytes, list[int], list[int]]


def _tables_at_once(tables: list[Any]) -> _LaidOutTables | None:
    """All the tables checked and laid out at once (no Python step per table or row), or
    None when any one of them is odd (then each is laid out, or left out, on its own)."""
    if not set(map(type, tables)) <= {list} or [] in tables:
        return None
    rows = list(chain.from_iterable(tables))
    if not set(map(type, rows)) <= {list} or [] in rows:
        return None
    try:
        texts = list(map(RECORD_SEPARATOR.join, map(map, repeat(TOKEN_SEPARATOR.join), tables)))
    except TypeError:  # a cell that is not text
        return None
    # an empty row shows as two 0x1E in a row, one at an end, or an empty text (one table [[""]])
    text = RECORD_SEPARATOR.join(texts)
    if (text.count(RECORD_SEPARATOR) != len(rows) - 1
            or text.count(TOKEN_SEPARATOR) != sum(map(len, rows)) - len(rows)
            or not text or RECORD_SEPARATOR * 2 in text or text.startswith(RECORD_SEPARATOR)
            or text.endswith(RECORD_SEPARATOR)):
        return None
    value_cells = list(map(str.count, texts, repeat(TOKEN_SEPARATOR)))
    if text.isascii():
        data, lengths = text.encode("ascii"), list(map(len, texts))
    else:
        encoded = [table.encode("utf-8", SURROGATE_ERRORS) for table in texts]
        data, lengths = RECORD_SEPARATOR.encode().join(encoded), list(map(len, encoded))
    # the tables lie one after another with a 0x1E between them, which no span covers
    starts = accumulate((length + 1 for length in lengths), initial=0)
    spans = list(chain.from_iterable(zip(starts, lengths)))
    return list(range(len(tables))), data, spans, value_cells


def _tables_one_by_one(tables: list[Any]) -> _LaidOutTables:
    kept: list[int] = []
    pieces: list[bytes] = []
    spans: list[int] = []
    value_cells: list[int] = []
    offset = 0
    for table in tables:
        laid = table_text(table)
        if laid is None:
            kept.append(-1)
            continue
        kept.append(len(pieces))
        piece = laid.encode("utf-8", SURROGATE_ERRORS)
        spans += (offset, len(piece))
        offset += len(piece)
        pieces.append(piece)
        value_cells.append(laid.count(TOKEN_SEPARATOR))
    return kept, b"".join(pieces), spans, value_cells
