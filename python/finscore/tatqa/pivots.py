"""The official pivot tables (answer type x answer source), computed and printed as pandas does.

`tatqa_eval.py` prints three pandas pivot tables of the per-question details:
the count of questions, and the mean EM and mean F1 of each cell, with empty
cells filled with 0. The means here are summed as pandas' grouped mean sums
(Kahan compensated, in gold order) and the tables laid out as pandas 2 and 3
print a frame with two column levels: labels sorted, the value name shown
over the first column only, whole numbers when no cell is empty, and each
float column formatted as pandas' FloatArrayFormatter chooses for it: 6
decimals with the trailing zeros the whole column can spare trimmed, or, when
a value of the column is nonzero and below 1e-6 in magnitude, or above 1e6
with a fixed text longer than 12 characters, 6 decimals in scientific notation
for the whole column, untrimmed.
"""

from __future__ import annotations

from typing import Iterable

#: Cell of the pivot: (answer type, answer source).
Cell = tuple[str, str]

_INDEX_NAME = "answer_type"
_COLUMNS_NAME = "answer_from"


def _compensated_mean(values: list[float]) -> float:
    """The mean as pandas' grouped mean takes it: a Kahan-compensated sum in order, over the count."""
    total = compensation = 0.0
    for value in values:
        adjusted = value - compensation
        new_total = total + adjusted
        compensation = new_total - total - adjusted
        total = new_total
    return total / len(values)


class Pivots:
    """Row labels (answer types) and column labels (sources), sorted; the count, mean EM and mean
    F1 of the cells that hold questions."""

    __slots__ = ("types", "sources", "counts", "em", "f1")

    def __init__(self, types: tuple[str, ...], sources: tuple[str, ...], counts: dict[Cell, int],
                 em: dict[Cell, float], f1: dict[Cell, float]) -> None:
        self.types = types
        self.sources = sources
        self.counts = counts
        self.em = em
        self.f1 = f1

    @property
    def complete(self) -> bool:
        """Every cell holds a question (pandas then keeps the counts as integers)."""
        return len(self.counts) == len(self.types) * len(self.sources)


def pivot(details: Iterable[tuple[str | None, str | None, float, float]]) -> Pivots:
    """Pivots of (answer type, answer source, em, f1) per question, in gold order; a question with a
    None label is left out, as pandas' pivot_table leaves out a missing key."""
    em: dict[Cell, list[float]] = {}
    f1: dict[Cell, list[float]] = {}
    for answer_type, source, exact, score in details:
        if answer_type is None or source is None:
            continue
        cell = (answer_type, source)
        if cell not in em:
            em[cell], f1[cell] = [], []
        em[cell].append(exact)
        f1[cell].append(score)
    return Pivots(
        types=tuple(sorted({cell[0] for cell in em})),
        sources=tuple(sorted({cell[1] for cell in em})),
        counts={cell: len(values) for cell, values in em.items()},
        em={cell: _compensated_mean(values) for cell, values in em.items()},
        f1={cell: _compensated_mean(values) for cell, values in f1.items()},
    )


def _trimmed(texts: list[str]) -> list[str]:
    """pandas' trimming of a float column: drop trailing zeros all values share, keep one decimal."""
    while texts and all(text.endswith("0") for text in texts):
        texts = [text[:-1] for text in texts]
    return [text + "0" if text.endswith(".") else text for text in texts]


#: pandas' display.precision, the digits of every float it prints here.
_DIGITS = 6
#: Below this magnitude (and above 0) a value would print as 0 in fixed notation.
_SMALL = 10 ** (-_DIGITS)
#: Above this magnitude a value is large; with a fixed text over _DIGITS + 6 characters, too long.
_LARGE = 1e6


def _column_texts(values: list[float], whole: bool) -> list[str]:
    """One column's cells as pandas formats them (see the module's docstring for the choice)."""
    if whole:
        return [f"{int(value): d}" for value in values]
    fixed = _trimmed([f"{value: .{_DIGITS}f}" for value in values])
    too_long = max(len(text) for text in fixed) > _DIGITS + 6
    if any(0 < abs(value) < _SMALL for value in values) or (too_long and any(abs(value) > _LARGE
                                                                              for value in values)):
        return [f"{value: .{_DIGITS}e}" for value in values]
    return fixed


def render(pivots: Pivots, value_name: str, cells: dict[Cell, float] | dict[Cell, int]) -> str:
    """One table as pandas prints it; `value_name` is "em" or "f1"; empty cells show 0."""
    whole = pivots.complete and all(isinstance(value, int) for value in cells.values())
    index = ["", _COLUMNS_NAME, _INDEX_NAME, *pivots.types]
    index_width = max(len(label) for label in index)
    columns = []
    for position, source in enumerate(pivots.sources):
        values = [cells.get((answer_type, source), 0) for answer_type in pivots.types]
        texts = _column_texts([float(v) if not whole else v for v in values], whole)
        header = [value_name if position == 0 else "", source, ""]
        width = max(len(text) for text in header + texts)
        columns.append([text.rjust(width) for text in header + texts])
    lines = []
    for row, label in enumerate(index):
        lines.append(" ".join([label.ljust(index_width)] + [column[row] for column in columns]))
    return "\n".join(lines)
