"""Score a Parquet file batch by batch, writing as it goes: memory stays one batch.

The output is written to a temporary file beside OUT and renamed into place only
when every batch is scored, so an interrupted run never leaves half a file.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pyarrow.parquet as pq

from finscore.progress import progress_bar
from finscore.rewards.arrow_batches import score_arrow
from finscore.rewards.config import RewardConfig
from finscore.rewards.errors import RewardInputError


def score_parquet(source: pq.ParquetFile, output: Path, config: RewardConfig, *, batch_rows: int,
                  quiet: bool = True) -> int:
    """Rows scored; OUT holds the input rows with the reward columns."""
    total = source.metadata.num_rows
    bar = progress_bar(sys.stderr, quiet=quiet)
    partial = output.with_name(f".{output.name}.{os.getpid()}.partial")
    writer = None
    done = 0
    try:
        for batch in source.iter_batches(batch_size=batch_rows):
            try:
                scored = score_arrow(batch, config)
            except RewardInputError as error:  # named by its row in the file, not in the batch
                raise error.shifted(done) from None
            if writer is None:
                writer = pq.ParquetWriter(partial, scored.schema)
            writer.write_batch(scored)
            done += batch.num_rows
            if bar is not None:
                bar("score", done, total)
        if writer is None:  # an empty file still gets the output schema
            empty = score_arrow(source.schema_arrow.empty_table(), config)
            writer = pq.ParquetWriter(partial, empty.schema)
        writer.close()
        writer = None
        os.replace(partial, output)
    finally:
        if writer is not None:
            writer.close()
        if partial.exists():
            partial.unlink()
        if bar is not None:
            bar.close()
    return done
