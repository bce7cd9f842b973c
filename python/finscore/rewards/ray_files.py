"""Score a Parquet file on Ray Data: blocks from the file, `map_batches` over reward workers.

Ray is the engine verl already uses; finscore adds nothing of its own to schedule
work. The file is on the driver's disk, so the driver reads it (row group by row
group) and hands the blocks to Ray; the workers only score. (Reading with Ray's
own read tasks would also need CPUs the reward actors hold, and on a small cluster
the two wait on each other.) On a real cluster, read with `ray.data.read_parquet`
from shared storage and map `RewardMapper` yourself (docs/rewards.md).
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from finscore.rewards.config import RewardConfig
from finscore.rewards.ray import RewardMapper


def score_parquet_on_ray(source: Path, output: Path, config: RewardConfig, *, workers: int,
                         address: str | None, batch_rows: int) -> int:
    """Rows scored; OUT is one Parquet file with the input rows, in order, and the reward columns."""
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(address=address, num_cpus=None if address else workers, include_dashboard=False,
                 log_to_driver=False)
    try:
        ray.data.DataContext.get_current().execution_options.preserve_order = True  # rows out in rows' order
        parquet = pq.ParquetFile(source)
        blocks = [parquet.read_row_group(i) for i in range(parquet.num_row_groups)]
        dataset = ray.data.from_arrow(blocks) if blocks else ray.data.from_arrow(parquet.schema_arrow.empty_table())
        scored = dataset.map_batches(RewardMapper, fn_constructor_kwargs={"config": config},
                                     batch_format="pyarrow", batch_size=batch_rows, concurrency=workers)
        tables = [pa.Table.from_batches([b]) if isinstance(b, pa.RecordBatch) else b
                  for b in scored.iter_batches(batch_format="pyarrow", batch_size=None)]
    finally:
        if started:
            ray.shutdown()
    table = pa.concat_tables(tables) if tables else pa.table({})
    pq.write_table(table, output)
    rows: int = table.num_rows
    return rows
