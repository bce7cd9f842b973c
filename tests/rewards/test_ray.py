"""Rewards on a real local Ray cluster equal the single-process scorer, row for row.

The test starts its own cluster (two CPUs, no dashboard) and scores 100,000 rows read
from Parquet through Ray Data's `map_batches`, then through a pool of reward actors.
"""

from __future__ import annotations

from itertools import cycle, islice
from pathlib import Path
from typing import Iterator

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from finscore.rewards import REWARD_COLUMNS, RewardConfig, RewardInputError, score_arrow
from finscore.rewards.ray import reward_worker_class
from finscore.rewards.adapters.ray_files import score_parquet_on_ray
from support.reward_rows import recorded_reward_rows

ray = pytest.importorskip("ray", reason="finscore[ray] is not installed")  # scripts/test installs it
pytestmark = pytest.mark.essential
ROWS = 100_000


@pytest.fixture(scope="module")
def rollouts(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pa.Table]:
    rows = list(islice(cycle(recorded_reward_rows()), ROWS))
    table = pa.table({"completion": [r.program for r in rows], "gold": [r.gold for r in rows],
                      "data_source": ["finqa"] * ROWS})
    path = tmp_path_factory.mktemp("ray") / "rollouts.parquet"
    pq.write_table(table, path, row_group_size=10_000)
    return path, score_arrow(table)


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_data_equals_one_process(rollouts: tuple[Path, pa.Table], cluster: None, tmp_path: Path) -> None:
    source, expected = rollouts
    output = tmp_path / "scored.parquet"
    assert score_parquet_on_ray(source, output, RewardConfig(), workers=2, address=None, batch_rows=8192) == ROWS
    scored = pq.read_table(output)
    for name in ("completion", "gold", *REWARD_COLUMNS):
        assert scored.column(name).to_pylist() == expected.column(name).to_pylist(), name


def test_actor_pool_equals_one_process(rollouts: tuple[Path, pa.Table], cluster: None) -> None:
    source, expected = rollouts
    worker = reward_worker_class()
    workers = [worker.remote(RewardConfig()) for _ in range(2)]
    table = pq.read_table(source)
    slices = [table.slice(start, 25_000) for start in range(0, ROWS, 25_000)]
    futures = [workers[i % 2].score.remote(piece) for i, piece in enumerate(slices)]
    scored = pa.concat_tables(ray.get(futures))
    assert scored.column("detail").to_pylist() == expected.column("detail").to_pylist()
    assert scored.column("score").to_pylist() == expected.column("score").to_pylist()


def test_a_bad_gold_is_named_by_its_row_in_the_file(rollouts: tuple[Path, pa.Table], cluster: None,
                                                    tmp_path: Path) -> None:
    """A worker's input error comes back to the driver as finscore's own, naming the row of the file
    (not of the worker's batch); no output file is left."""
    table = pq.read_table(rollouts[0]).slice(0, 20_000)
    golds = table.column("gold").to_pylist()
    golds[12_345] = "{not json"
    broken = tmp_path / "broken.parquet"
    pq.write_table(table.set_column(table.schema.get_field_index("gold"), "gold", pa.array(golds)), broken,
                   row_group_size=5_000)
    output = tmp_path / "scored.parquet"
    with pytest.raises(RewardInputError, match=r"column 'gold', row 12345: the gold is not JSON") as raised:
        score_parquet_on_ray(broken, output, RewardConfig(), workers=2, address=None, batch_rows=8192)
    assert raised.value.row == 12_345 and not output.exists()


def test_an_empty_file_gives_the_output_columns(rollouts: tuple[Path, pa.Table], cluster: None,
                                               tmp_path: Path) -> None:
    empty = tmp_path / "empty.parquet"
    pq.write_table(pq.read_table(rollouts[0]).slice(0, 0), empty)
    output = tmp_path / "scored.parquet"
    assert score_parquet_on_ray(empty, output, RewardConfig(), workers=2, address=None, batch_rows=8192) == 0
    assert pq.read_table(output).schema.names == ["completion", "gold", "data_source", *REWARD_COLUMNS]

