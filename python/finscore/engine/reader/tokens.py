"""The official evaluator's reading of program text, step by step.

FinQA's evaluator does not parse programs: it drops the last token, checks the
token positions, joins with ``|`` and splits on ``)``. A prediction is scored by
what that procedure makes of it, so every quirk is kept here, in one place,
shared by execution and by program equivalence.
"""

# No `from __future__ import annotations`: a NamedTuple's annotations given as text each cost a
# compile() when its class is made (StepText is made at start-up).

import re
from typing import NamedTuple, Sequence

#: The ten operations, in the official order (their index is the core's op code).
OPS: tuple[str, ...] = (
    "add",
    "subtract",
    "multiply",
    "divide",
    "exp",
    "greater",
    "table_max",
    "table_min",
    "table_sum",
    "table_average",
)
ARITHMETIC_OPS: frozenset[str] = frozenset(OPS[:6])
TABLE_OPS: frozenset[str] = frozenset(OPS[6:])


#: One token of a piece, as the official character loop cuts it: text ending in "(" (with the "("),
#: or text up to a ")" or the piece's end, or a ")" alone. Linear: the first branch's retreat over a
#: run that has no "(" after it is one step a character, and the second branch then takes the run.
_TOKEN = re.compile(r"[^()]*\(|[^()]+|\)")
#: The same over a whole program whose pieces are separated by _PIECE_END (a character no branch
#: takes, so no token crosses it and findall steps over it).
_PIECE_END = "\x1f"
_TOKEN_IN_PROGRAM = re.compile(r"[^()\x1f]*\(|[^()\x1f]+|\)")


def tokenize_gold_program(program: str) -> list[str]:
    """Tokenize a gold program string exactly as the official evaluator does.

    Split on ``", "``; within each piece a ``(`` ends a token (and stays on it),
    a ``)`` is a token of its own; ``EOF`` is appended. A row name holding
    parentheses therefore tokenizes badly, as it does officially. (The official
    procedure walks character by character; one regular expression cuts the same
    tokens, checked against the evaluator's recorded tokens. It runs once over the
    whole program with each ", " replaced by a character the program does not hold:
    ", " cannot overlap itself, so replace() and split() find the same separators.)
    """
    if _PIECE_END in program:
        findall = _TOKEN.findall
        tokens = [token for piece in program.split(", ") for token in findall(piece)]
    else:
        tokens = _TOKEN_IN_PROGRAM.findall(program.replace(", ", _PIECE_END))
    tokens.append("EOF")
    return tokens


def drop_last_token(tokens: Sequence[str]) -> list[str]:
    """The official evaluator drops the last token unconditionally (meant to be EOF)."""
    return list(tokens[:-1])


def structure_ok(body: Sequence[str]) -> bool:
    """Position check: an op name at every index 4k, a bare ``)`` at every 4k+3."""
    for index, token in enumerate(body):
        if index % 4 == 0 and token.strip("(") not in OPS:
            return False
        if index % 4 == 3 and token != ")":
            return False
    return True


def split_pieces(body: Sequence[str]) -> list[str]:
    """Join with ``|``, split on ``)`` and drop the last piece, as officially done.

    A ``)`` inside an argument token therefore starts a new piece.
    """
    return "|".join(body).split(")")[:-1]


class PieceError(ValueError):
    """A piece the official reading cannot turn into ``op(arg1, arg2)``."""

    def __init__(self, reason: str, piece: str) -> None:
        super().__init__(f"{reason}: {piece!r}")
        self.reason = reason
        self.piece = piece


class StepText(NamedTuple):
    """One piece read as the official evaluator reads it.

    ``text`` is the stripped piece: official program equivalence uses it as the
    symbol of a whole table step. A NamedTuple: cheap to build, compared at C speed.
    """

    text: str
    op: str
    arg1: str
    arg2: str


def parse_piece(piece: str) -> StepText:
    """Read one piece: ``op(`` then ``|``-separated fields; the first two are the args.

    Raises PieceError where the official evaluator fails: a piece with more
    than one ``(``, with none, or with fewer than two fields.
    """
    text = piece.strip()
    parts = text.split("(")
    if len(parts) > 2:
        raise PieceError("more than one '(' in a step", piece)
    if len(parts) < 2:
        raise PieceError("no '(' in a step", piece)
    op = parts[0].strip("|").strip()
    fields = parts[1].strip("|").strip().split("|")
    if len(fields) < 2:
        raise PieceError("fewer than two arguments in a step", piece)
    return StepText(text=text, op=op, arg1=fields[0].strip(), arg2=fields[1].strip())
