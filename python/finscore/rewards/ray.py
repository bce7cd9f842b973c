"""Rewards on Ray: a callable class for Ray Data and an actor for a pool of workers.

`ds.map_batches(RewardMapper, fn_constructor_kwargs={"config": config},
batch_format="pyarrow", concurrency=N)` scores a dataset on N worker processes;
`RewardWorker` (an actor class made with `reward_worker_class()`) keeps a scorer
alive for a pool of reward requests. Each worker process loads the WebAssembly
module once (wasmtime keeps the compiled code in its cache folder, so later
processes deserialize it instead of compiling) and keeps its own store: a store is
never shared between threads or processes. Spark's `mapInArrow` and Dask's
`map_partitions` take a function of the same shape: `RewardMapper(config)` is one.
"""

from __future__ import annotations

from typing import Any, Iterator

import pyarrow as pa

from finscore.engine.core.binding import get_core
from finscore.rewards.arrow_batches import score_arrow
from finscore.rewards.config import RewardConfig


class RewardMapper:
    """Scores Arrow batches; constructed once per worker (loading the core then)."""

    def __init__(self, config: RewardConfig | None = None) -> None:
        self.config = config or RewardConfig()
        get_core()

    def __call__(self, batch: pa.Table) -> pa.Table:
        return score_arrow(batch, self.config)

    def batches(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        """Spark's mapInArrow shape: an iterator of record batches in, one out."""
        for batch in batches:
            yield score_arrow(batch, self.config)


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
