"""The arithmetic of the official F1: optimal one-to-one alignment, numpy's mean, numpy's round.

The official `_align_bags` builds a gold x predicted matrix of bag F1 scores,
asks `scipy.optimize.linear_sum_assignment` for the assignment of greatest
total, averages the per-gold-row scores with `np.mean` and rounds with
`round(np.float64, 2)`. To give the same float bits, including among tied
optimal assignments, this module solves the assignment with the same
algorithm scipy uses (the shortest augmenting path method of Crouse, 2016,
IEEE TAES 52(4), on the negated matrix, the wide orientation, columns scanned
from the last), sums as numpy's pairwise summation does and rounds as numpy
does (multiply by 100, round half to even, divide). In the official pipeline
every bag list has one element, so the matrix is 1 x 1; the general case is
kept exact for callers of `drop_f1`.
"""

from __future__ import annotations

import math
from typing import Sequence

_INFINITY = math.inf
#: numpy's pairwise summation adds blocks of at most this many with 8 accumulators.
_PAIRWISE_BLOCK = 128


def optimal_assignment(scores: Sequence[Sequence[float]]) -> list[tuple[int, int]]:
    """(row, column) pairs of a one-to-one assignment of greatest total score, in row order.

    Ties are broken as scipy's linear_sum_assignment(-scores) breaks them.
    """
    rows = len(scores)
    columns = len(scores[0]) if rows else 0
    if rows == 0 or columns == 0:
        return []
    transposed = columns < rows
    if transposed:
        cost = [[-scores[r][c] for r in range(rows)] for c in range(columns)]
        rows, columns = columns, rows
    else:
        cost = [[-value for value in row] for row in scores]
    column_of_row = _shortest_augmenting_paths(cost, rows, columns)
    if not transposed:
        return [(row, column_of_row[row]) for row in range(rows)]
    # cost was transposed: its rows are the caller's columns; report in the caller's row order
    pairs = sorted((column_of_row[c], c) for c in range(rows))
    return pairs


def _shortest_augmenting_paths(cost: list[list[float]], rows: int, columns: int) -> list[int]:
    """Minimum-cost assignment of every row (rows <= columns): the column of each row."""
    row_potential = [0.0] * rows
    column_potential = [0.0] * columns
    column_of_row = [-1] * rows
    row_of_column = [-1] * columns
    for current in range(rows):
        path = [-1] * columns
        shortest = [_INFINITY] * columns
        rows_seen = [False] * rows
        columns_seen = [False] * columns
        remaining = list(range(columns - 1, -1, -1))
        lowest_so_far = 0.0
        row = current
        sink = -1
        while sink == -1:
            rows_seen[row] = True
            best_index, lowest = -1, _INFINITY
            cost_row, u = cost[row], row_potential[row]
            for index, column in enumerate(remaining):
                reduced = lowest_so_far + cost_row[column] - u - column_potential[column]
                if reduced < shortest[column]:
                    path[column] = row
                    shortest[column] = reduced
                if shortest[column] < lowest or (shortest[column] == lowest and row_of_column[column] == -1):
                    lowest = shortest[column]
                    best_index = index
            lowest_so_far = lowest
            if lowest_so_far == _INFINITY:
                raise ValueError("cost matrix is infeasible")
            column = remaining[best_index]
            if row_of_column[column] == -1:
                sink = column
            else:
                row = row_of_column[column]
            columns_seen[column] = True
            remaining[best_index] = remaining[-1]
            remaining.pop()
        row_potential[current] += lowest_so_far
        for other in range(rows):
            if rows_seen[other] and other != current:
                row_potential[other] += lowest_so_far - shortest[column_of_row[other]]
        for column in range(columns):
            if columns_seen[column]:
                column_potential[column] -= lowest_so_far - shortest[column]
        column = sink
        while True:
            row = path[column]
            row_of_column[column] = row
            column, column_of_row[row] = column_of_row[row], column
            if row == current:
                break
    return column_of_row


def pairwise_sum(values: Sequence[float]) -> float:
    """numpy's float64 add.reduce of a contiguous array (pairwise, 8 accumulators per block)."""
    count = len(values)
    if count < 8:
        total = 0.0
        for value in values:
            total += value
        return total
    if count <= _PAIRWISE_BLOCK:
        accumulators = list(values[:8])
        end = count - count % 8
        for start in range(8, end, 8):
            for lane in range(8):
                accumulators[lane] += values[start + lane]
        total = ((accumulators[0] + accumulators[1]) + (accumulators[2] + accumulators[3])) + (
            (accumulators[4] + accumulators[5]) + (accumulators[6] + accumulators[7]))
        for index in range(end, count):
            total += values[index]
        return total
    half = count // 2
    half -= half % 8
    return pairwise_sum(values[:half]) + pairwise_sum(values[half:])


def numpy_mean(values: Sequence[float]) -> float:
    """np.mean of a float64 array; NaN for an empty one, as numpy gives."""
    if not values:
        return math.nan
    return pairwise_sum(values) / len(values)


def numpy_round(value: float, places: int) -> float:
    """round(np.float64(value), places): value * 10**places, round half to even, divided back."""
    if not math.isfinite(value):
        return value
    factor = 10.0 ** places
    scaled = value * factor
    if not math.isfinite(scaled):
        return scaled
    return float(round(scaled)) / factor


def aligned_scores(scores: Sequence[Sequence[float]], predicted_count: int) -> list[float]:
    """The official per-gold-row scores: the assigned score of each gold row, 0.0 elsewhere.

    The list is max(gold, predicted) long, as the official np.zeros is.
    """
    gold_count = len(scores)
    best = [0.0] * max(gold_count, predicted_count)
    if gold_count and predicted_count:
        for row, column in optimal_assignment(scores):
            if scores[row][column] > best[row]:
                best[row] = scores[row][column]
    return best
