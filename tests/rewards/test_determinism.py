"""The same rows give the same bytes in any batch size and order.

A reward that depends on how a trainer happens to batch its rollouts is not a
reward; each row is decided alone and compared, byte for byte, with the same row in
batches of every size from 1 to 1,000 and in a shuffled order.
"""

from __future__ import annotations

import gc
import random
import tracemalloc

import pyarrow as pa
import pytest

from finscore.rewards import REWARD_COLUMNS, RewardInputError, arrow_batches, score_arrow
from support.reward_rows import recorded_convfinqa_reward_rows, recorded_reward_rows


def _rows(count: int) -> list[tuple[list[str], str]]:
    rows = recorded_reward_rows()
    picked = random.Random(20261201).sample(range(len(rows)), count)
    return [(rows[i].program, rows[i].gold) for i in picked]


def _scored(rows: list[tuple[list[str], str]]) -> list[tuple[object, ...]]:
    table = score_arrow(pa.table({"completion": [p for p, _ in rows], "gold": [g for _, g in rows]}))
    columns = [table.column(name).to_pylist() for name in REWARD_COLUMNS]
    return list(zip(*columns))


def test_single_rows_equal_batches_of_every_size() -> None:
    rows = _rows(1000)
    alone = [_scored([row])[0] for row in rows]
    assert len({decision[2] for decision in alone}) > 3  # the sample holds several kinds of reasons
    for size in range(1, 1001):
        batched: list[tuple[object, ...]] = []
        for start in range(0, len(rows), size):
            batched.extend(_scored(rows[start:start + size]))
        assert batched == alone, f"batches of {size} differ from single rows"


def test_any_order_gives_each_row_its_decision() -> None:
    rows = _rows(1000)
    alone = [_scored([row])[0] for row in rows]
    order = list(range(len(rows)))
    random.Random(7).shuffle(order)
    shuffled = _scored([rows[i] for i in order])
    assert [shuffled[order.index(i)] for i in range(len(rows))] == alone


def test_a_batch_decided_in_chunks_gives_each_row_its_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """score_arrow decides a big batch a chunk of rows at a time (to keep the Python objects of a
    100,000-row batch from piling up); with chunks of 7 rows, 1,000 rows still get the decisions
    they get alone, and a bad gold past the first chunk is named by its row in the whole batch."""
    rows = _rows(1000)
    alone = [_scored([row])[0] for row in rows]
    monkeypatch.setattr(arrow_batches, "CHUNK_ROWS", 7)
    assert _scored(rows) == alone
    broken = [*rows[:500], (rows[500][0], "{not json"), *rows[501:]]
    with pytest.raises(RewardInputError, match=r"column 'gold', row 500: the gold is not JSON") as raised:
        _scored(broken)
    assert raised.value.row == 500


def test_a_big_batch_holds_one_chunk_of_rows_in_python_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rows of a batch are read into Python a chunk at a time, so the Python memory scoring
    takes does not grow with the batch: sixteen chunks peak at less than twice one chunk (when
    the whole columns were read at once, sixteen chunks' worth of text was alive together)."""
    rows = _rows(1024)
    monkeypatch.setattr(arrow_batches, "CHUNK_ROWS", 64)
    small = pa.table({"completion": [p for p, _ in rows[:64]], "gold": [g for _, g in rows[:64]]})
    big = pa.table({"completion": [p for p, _ in rows], "gold": [g for _, g in rows]})
    score_arrow(big)  # anything loaded once (the core, caches) loaded before measuring

    def peak(table: pa.Table) -> int:
        gc.collect()
        tracemalloc.start()
        try:
            score_arrow(table)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    one_chunk, sixteen_chunks = peak(small), peak(big)
    assert sixteen_chunks < 2 * one_chunk, (one_chunk, sixteen_chunks)


def test_rows_of_several_sources_in_one_batch_get_the_decisions_they_get_alone() -> None:
    """A batch mixing FinQA rows, ConvFinQA rows, rows of sources finscore does not score and rows
    with no source (the configured default, FinQA) gives each row, stamp and detail bytes
    included, what a batch of that row alone gives; the unscored rows get no score and name
    their source."""
    finqa = _rows(300)
    convfinqa = [(r.program, r.gold) for r in random.Random(1202).sample(recorded_convfinqa_reward_rows(), 300)]
    mixed: list[tuple[list[str], str, str | None]] = []
    for k in range(300):
        mixed += [(*finqa[k], "finqa" if k % 2 else None), (*convfinqa[k], "convfinqa")]
        if k % 3 == 0:
            mixed.append((*finqa[k], "gsm8k"))

    def scored(rows: list[tuple[list[str], str, str | None]]) -> list[tuple[object, ...]]:
        table = score_arrow(pa.table({"completion": [p for p, _, _ in rows], "gold": [g for _, g, _ in rows],
                                      "data_source": pa.array([s for _, _, s in rows], pa.string())}))
        return list(zip(*[table.column(name).to_pylist() for name in REWARD_COLUMNS]))

    together = scored(mixed)
    assert together == [scored([row])[0] for row in mixed]
    unscored = [row for row, (_, _, source) in zip(together, mixed) if source == "gsm8k"]
    assert len(unscored) == 100
    assert all(row == (None, None, "not_scored", None, '{"data_source":"gsm8k"}') for row in unscored)
    stamps = {source: {row[3] for row, (_, _, s) in zip(together, mixed) if s == source}
              for source in ("finqa", None, "convfinqa")}
    assert stamps["finqa"] == stamps[None] and len(stamps["finqa"]) == len(stamps["convfinqa"]) == 1
    assert stamps["finqa"] != stamps["convfinqa"]
