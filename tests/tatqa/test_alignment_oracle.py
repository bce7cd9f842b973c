"""The alignment arithmetic against numpy and scipy themselves (the official code's own libraries).

scipy's linear_sum_assignment picks one of several optimal assignments when
scores tie, and np.mean / round(np.float64, 2) fix the float bits; the
official F1 depends on all three. Here ours is compared with theirs on the
bags of every recorded row and on random matrices full of ties. numpy and
scipy are test dependencies (finscore[test]); a missing one fails, never skips.
"""

from __future__ import annotations

import random

import numpy as np
from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

from finscore.tatqa.alignment import aligned_scores, numpy_mean, numpy_round, optimal_assignment, pairwise_sum
from finscore.tatqa.metric import bag_f1, decide
from finscore.tatqa.normalize import normalize_answer
from support.shared import vector_rows

TIED_VALUES = (0.0, 0.0, 0.25, 1 / 3, 0.4, 0.5, 0.5, 2 / 3, 0.67, 0.8, 1.0, 1.0)


def _official_mean(scores: list[list[float]], predicted: int) -> float:
    """What the official _align_bags then get_metrics compute, with numpy and scipy."""
    matrix = np.array(scores, dtype=float).reshape(len(scores), predicted)
    rows, columns = linear_sum_assignment(-matrix)
    best = np.zeros([max(len(scores), predicted)])
    for row, column in zip(rows, columns):
        best[row] = max(best[row], matrix[row, column])
    mean = np.float64(np.mean(best))
    return float(round(mean, 2))  # numpy's round of the np.float64, as the official code calls it


def _ours(scores: list[list[float]], predicted: int) -> float:
    return numpy_round(numpy_mean(aligned_scores(scores, predicted)), 2)


def test_every_recorded_row_aligns_as_scipy_does() -> None:
    checked = 0
    for row in vector_rows("tatqa"):
        if "file_totals" in row:
            continue
        answer, scale = row["pred"]
        decision = decide(row["gold"], answer, scale)
        for predicted in decision.predicted_strings:
            for gold in decision.gold_strings:
                scores = [[bag_f1(set(normalize_answer(predicted).split()), set(normalize_answer(gold).split()))]]
                assert optimal_assignment(scores) == [(0, 0)]
                assert _ours(scores, 1).hex() == _official_mean(scores, 1).hex()
                checked += 1
    assert checked > 26648


def test_random_tied_matrices_pick_scipys_assignment() -> None:
    rng = random.Random(13)
    for _ in range(3000):
        rows, columns = rng.randint(1, 6), rng.randint(1, 6)
        scores = [[rng.choice(TIED_VALUES) for _ in range(columns)] for _ in range(rows)]
        expected_rows, expected_columns = linear_sum_assignment(-np.array(scores))
        assert optimal_assignment(scores) == list(zip(expected_rows.tolist(), expected_columns.tolist()))
        assert _ours(scores, columns).hex() == _official_mean(scores, columns).hex()


def test_random_real_matrices_pick_scipys_assignment() -> None:
    rng = random.Random(31)
    for _ in range(500):
        rows, columns = rng.randint(1, 12), rng.randint(1, 12)
        scores = [[rng.random() for _ in range(columns)] for _ in range(rows)]
        expected_rows, expected_columns = linear_sum_assignment(-np.array(scores))
        assert optimal_assignment(scores) == list(zip(expected_rows.tolist(), expected_columns.tolist()))


def test_pairwise_sum_and_mean_are_numpys() -> None:
    rng = random.Random(7)
    for length in list(range(0, 40)) + [127, 128, 129, 255, 256, 257, 1000, 1031]:
        values = [rng.choice((1.0, 1e-17, 0.1, 1 / 3, 1e16, -1e16)) * rng.random() for _ in range(length)]
        array = np.array(values, dtype=float)
        assert pairwise_sum(values).hex() == float(np.add.reduce(array)).hex()
        if length:
            assert numpy_mean(values).hex() == float(np.mean(array)).hex()


def test_round_is_numpys_not_pythons() -> None:
    rng = random.Random(5)
    values = [k / 1000 for k in range(0, 1001)] + [rng.random() for _ in range(5000)] + [0.145, 0.285, 1.005]
    for value in values:
        assert numpy_round(value, 2).hex() == float(round(np.float64(value), 2)).hex()
    assert any(numpy_round(v, 2) != round(v, 2) for v in values)  # the two roundings do differ somewhere
