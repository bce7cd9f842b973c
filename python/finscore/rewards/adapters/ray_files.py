"""Score a Parquet file on Ray Data: blocks from the file, `map_batches` over reward workers.

Ray is the engine verl already uses; finscore adds nothing of its own to schedule
work. The file is on the driver's disk, so the driver reads it (row group by row
group, cut into blocks by rows so that every worker gets some) and hands the blocks
to Ray; the workers only score, and may hold every CPU. (Reading with Ray's
own read tasks would also need CPUs the reward actors hold, and on a small cluster
the two wait on each other.) On a real cluster, read with `ray.data.read_parquet`
from shared storage and map `RewardMapper` yourself (docs/rewards.md).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Callable

import pyarrow as pa
import pyarrow.parquet as pq

from finscore.rewards.adapters.ray import ERROR_COLUMN, RewardMapper, RewardParallelismWarning, cluster_cpus
from finscore.rewards.arrow_batches import score_arrow
from finscore.rewards.config import RewardConfig
from finscore.rewards.errors import RewardInputError


#: The column of file row numbers the workers receive beside the rows (dropped from the output).
ROW_COLUMN = "__finscore_row__"


def numbered_blocks(parquet: pq.ParquetFile, workers: int, batch_rows: int) -> list[pa.Table]:
    """The file's rows in blocks, each with ROW_COLUMN holding the rows' numbers in the file. A block
    goes to one worker whole, so blocks are cut by rows, not row groups: at most `batch_rows` rows
    and at most a `workers`-th of the file each (one row group of 10,000 rows on 2 workers: 2 blocks)."""
    total = parquet.metadata.num_rows
    size = max(1, min(batch_rows, -(-total // max(1, workers))))
    blocks, start = [], 0
    for index in range(parquet.num_row_groups):
        group = parquet.read_row_group(index)
        for offset in range(0, group.num_rows, size):
            block = group.slice(offset, size)
            numbers = pa.array(range(start, start + block.num_rows), pa.int64())
            blocks.append(block.append_column(ROW_COLUMN, numbers))
            start += block.num_rows
    return blocks


def pool_size(workers: int, rows: int, warn: Callable[[str], None]) -> int:
    """The workers that can run: at most the cluster's CPUs (the driver reads, so the pool may hold
    them all; an actor more than the CPUs would wait for one forever) and the rows; `warn` says so."""
    cpus = cluster_cpus()
    size = max(1, min(workers, cpus, rows))
    if size < workers:
        why = f"the cluster has {cpus} CPUs" if cpus < workers else f"the file has {rows} rows"
        warn(f"{size} of {workers} workers can run: {why}")
    return size


def _raise_input_error(table: pa.Table) -> None:
    """The RewardInputError a worker returned in ERROR_COLUMN of this batch, raised here."""
    errors = table.column(ERROR_COLUMN).drop_null()
    if len(errors):
        error = json.loads(errors[0].as_py())
        raise RewardInputError(error["message"], column=error["column"], row=error["row"])


def _warn(message: str) -> None:
    warnings.warn(message, RewardParallelismWarning, stacklevel=3)


def score_parquet_on_ray(source: Path, output: Path, config: RewardConfig, *, workers: int,
                         address: str | None, batch_rows: int, warn: Callable[[str], None] = _warn) -> int:
    """Rows scored; OUT is one Parquet file with the input rows, in order, and the reward columns.
    `warn` hears when fewer workers than `workers` can run (default: a RewardParallelismWarning)."""
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(address=address, num_cpus=None if address else workers, include_dashboard=False,
                 log_to_driver=False)
    context = ray.data.DataContext.get_current()
    before = context.execution_options.preserve_order
    try:
        context.execution_options.preserve_order = True  # rows out in rows' order
        parquet = pq.ParquetFile(source)
        for own in (ROW_COLUMN, ERROR_COLUMN):
            if own in parquet.schema_arrow.names:
                raise RewardInputError(f"the column name {own} is finscore's own on Ray", column=own)
        blocks = numbered_blocks(parquet, workers, batch_rows)
        tables = [score_arrow(parquet.schema_arrow.empty_table(), config)]  # the output's schema, for an empty file
        if blocks:
            workers = pool_size(workers, parquet.metadata.num_rows, warn)
            dataset = ray.data.from_arrow(blocks)
            scored = dataset.map_batches(RewardMapper, fn_constructor_kwargs={"config": config,
                                                                              "row_column": ROW_COLUMN},
                                         batch_format="pyarrow", batch_size=batch_rows,
                                         compute=ray.data.ActorPoolStrategy(size=workers))
            for batch in scored.iter_batches(batch_format="pyarrow", batch_size=None):
                if isinstance(batch, pa.RecordBatch):
                    batch = pa.Table.from_batches([batch])
                assert isinstance(batch, pa.Table)  # batch_format="pyarrow"
                _raise_input_error(batch)  # the first one met stops the run
                tables.append(batch.drop_columns([ERROR_COLUMN]))
    finally:
        context.execution_options.preserve_order = before
        if started:
            ray.shutdown()
    table = pa.concat_tables(tables)
    pq.write_table(table, output)
    rows: int = table.num_rows
    return rows
