"""Rewards on Ray: a callable class for Ray Data and an actor for a pool of workers.

`ds.map_batches(RewardMapper, fn_constructor_kwargs={"config": config},
batch_format="pyarrow", compute=ray.data.ActorPoolStrategy(size=N))` scores a dataset
on N worker processes;
`RewardWorker` (an actor class made with `reward_worker_class()`) keeps a scorer
alive for a pool of reward requests. Each worker process loads the WebAssembly
module once (wasmtime keeps the compiled code in its cache folder, so later
processes deserialize it instead of compiling) and keeps its own store: a store is
never shared between threads or processes. Spark's `mapInArrow` and Dask's
`map_partitions` take a function of the same shape: `RewardMapper(config)` is one.
"""

from __future__ import annotations

import json
import warnings
from typing import Any, Iterator

import pyarrow as pa

from finscore.engine.core.binding import get_core
from finscore.rewards.arrow_batches import reward_schema, score_arrow
from finscore.rewards.config import RewardConfig
from finscore.rewards.errors import RewardInputError


#: With a row column, the column of each output batch that carries an input error (JSON text:
#: message, column, row) instead of raising it: Ray Data wraps an exception a worker raises in
#: its own and loses the original on its way to the driver.
ERROR_COLUMN = "__finscore_error__"


class RewardMapper:
    """Scores Arrow batches; constructed once per worker (loading the core then).

    `row_column`, when given, names a column of row numbers in the caller's whole input (a batch
    holds consecutive rows), as `score_parquet_on_ray` adds it: it is dropped from the output, an
    input error names its row by that number, and the error comes back in ERROR_COLUMN (null in
    every row of a batch without one; the reward columns null in a batch with one).
    """

    def __init__(self, config: RewardConfig | None = None, row_column: str | None = None) -> None:
        self.config = config or RewardConfig()
        self.row_column = row_column
        get_core()

    def __call__(self, batch: pa.Table) -> pa.Table:
        if self.row_column is None:
            return score_arrow(batch, self.config)
        first = batch.column(self.row_column)[0].as_py() if batch.num_rows else 0
        rows = batch.drop_columns([self.row_column])
        try:
            scored = score_arrow(rows, self.config)
        except RewardInputError as error:
            shifted = error.shifted(first)
            failed = json.dumps({"message": shifted.message, "column": shifted.column, "row": shifted.row})
            schema = reward_schema(self.config)  # the five, and a reward source's own (FinanceBench's support)
            rewards = [pa.nulls(rows.num_rows, field.type) for field in schema]
            return pa.Table.from_arrays([*rows.columns, *rewards, pa.array([failed] * rows.num_rows, pa.string())],
                                        names=[*rows.schema.names, *schema.names, ERROR_COLUMN])
        return scored.append_column(ERROR_COLUMN, pa.nulls(scored.num_rows, pa.string()))

    def batches(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        """Spark's mapInArrow shape: an iterator of record batches in, one out."""
        for batch in batches:
            yield score_arrow(batch, self.config)


class RewardParallelismWarning(UserWarning):
    """Fewer reward workers than asked for can run (the cluster's CPUs, or the rows, are too few)."""


def cluster_cpus() -> int:
    """The CPUs of the Ray cluster this process is connected to."""
    import ray

    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]  # untyped in Ray
    return int(resources.get("CPU", 0))


def reward_pool_size(workers: int | None = None, *, reading_cpus: int = 1) -> int:
    """A size for the reward actor pool that leaves `reading_cpus` of the cluster's CPUs to Ray Data's
    own tasks: an actor holds its CPU for the whole run, and when the pool holds every CPU the task
    that lists or reads the files waits for one forever. `workers` caps it (default: all the room);
    RewardParallelismWarning when fewer than asked, or only one, can run. Needs `ray.init()` first."""
    cpus = cluster_cpus()
    room = max(1, cpus - reading_cpus)
    size = room if workers is None else max(1, min(workers, room))
    if size < (workers if workers is not None else 2):
        warnings.warn(f"{size} reward worker{'s' if size > 1 else ''} of {workers or size} asked for: the "
                      f"cluster has {cpus} CPUs and {reading_cpus} stay free for Ray Data's read tasks",
                      RewardParallelismWarning, stacklevel=2)
    return size


def reward_worker_class() -> Any:
    """The Ray actor class (made on demand so that importing this module needs no Ray)."""
    import ray

    @ray.remote
    class RewardWorker:
        def __init__(self, config: RewardConfig | None = None) -> None:
            self.mapper = RewardMapper(config)

        def score(self, batch: pa.Table) -> pa.Table:
            return self.mapper(batch)

    return RewardWorker
