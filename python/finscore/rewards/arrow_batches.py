"""The Arrow batch scorer: the single entry for bulk reward work.

A `pyarrow.Table` or `RecordBatch` comes in; the same rows go out with five
columns added: `score` (float64, null where finscore does not score the row's
source), `passed` (bool), `reason` (the typed reason), `protocol` (the stamp) and
`detail` (canonical JSON text); a reward source may add its own after them (FinanceBench:
`support`, float64, and `support_reason`, a second axis beside correctness). The CLI, the trainer adapters and Ray all call
this, so their decisions cannot drift apart.
"""

from __future__ import annotations

from typing import Any, TypeVar

import pyarrow as pa

from finscore.rewards.config import RewardConfig
from finscore.rewards.errors import RewardInputError
from finscore.rewards.rows import decide_columns

REWARD_COLUMNS = ("score", "passed", "reason", "protocol", "detail")
#: Rows decided at a time within one batch: what one chunk's deciding keeps alive until its Arrow
#: columns are made (the free-text decider's records, tracked by the cyclic collector) stays small,
#: and the smaller chunks cost no more (benchmarks/README.md).
CHUNK_ROWS = 1024
REWARD_SCHEMA = pa.schema([("score", pa.float64()), ("passed", pa.bool_()), ("reason", pa.string()),
                           ("protocol", pa.string()), ("detail", pa.string())])
ArrowData = TypeVar("ArrowData", pa.Table, pa.RecordBatch)
#: The Arrow types a reward source's own further columns may have (RewardConfig.extra_columns).
EXTRA_TYPES = {"float64": pa.float64(), "string": pa.string()}


def reward_schema(config: RewardConfig) -> pa.Schema:
    """The columns `score_arrow` adds under `config`: the five, then its reward source's own (FinanceBench's
    `support`, `support_reason`); the five alone for every other source."""
    extra = config.extra_columns()
    if not extra:
        return REWARD_SCHEMA
    return pa.schema([*REWARD_SCHEMA, *((name, EXTRA_TYPES[kind]) for name, kind in extra)])


def _check_columns(data: pa.Table | pa.RecordBatch, config: RewardConfig) -> None:
    for name in (config.completion_column, config.gold_column):
        if name not in data.schema.names:
            raise RewardInputError(f"missing (the batch has {', '.join(data.schema.names) or 'no columns'})",
                                   column=name)


def _column(data: pa.Table | pa.RecordBatch, name: str) -> list[Any] | None:
    """The column's values as Python objects, None if the batch has no such column."""
    if name not in data.schema.names:
        return None
    values: list[Any] = data.column(name).to_pylist()
    return values


def _check_types(data: pa.Table | pa.RecordBatch, config: RewardConfig) -> None:
    completion = data.schema.field(config.completion_column).type
    if not (pa.types.is_string(completion) or pa.types.is_large_string(completion)
            or ((pa.types.is_list(completion) or pa.types.is_large_list(completion))
                and (pa.types.is_string(completion.value_type) or pa.types.is_large_string(completion.value_type)))):
        raise RewardInputError(f"must hold program text or lists of tokens, not {completion}",
                               column=config.completion_column)
    gold = data.schema.field(config.gold_column).type
    if not (pa.types.is_string(gold) or pa.types.is_large_string(gold) or pa.types.is_struct(gold)):
        raise RewardInputError(f"must hold gold JSON text or structs, not {gold}", column=config.gold_column)


def reward_columns(data: pa.Table | pa.RecordBatch, config: RewardConfig) -> pa.RecordBatch:
    """The reward columns of `data`'s rows (`reward_schema(config)`), as one record batch."""
    _check_columns(data, config)
    _check_types(data, config)
    schema = reward_schema(config)
    pieces = [_chunk_columns(data.slice(start, CHUNK_ROWS), start, config)
              for start in range(0, max(data.num_rows, 1), CHUNK_ROWS)]  # an empty batch: one empty chunk
    return pa.RecordBatch.from_arrays([pa.concat_arrays([piece[k] for piece in pieces])
                                       for k in range(len(schema))], schema=schema)


def _chunk_columns(part: pa.Table | pa.RecordBatch, start: int, config: RewardConfig) -> list[pa.Array]:
    """The reward columns of the rows of `part`, rows [start, start + CHUNK_ROWS) of the batch:
    read into Python, decided and turned into Arrow arrays before the next chunk, so that a big
    batch never holds a Python object per row for all its rows at once (neither its text, about
    a kilobyte a row with a FinQA table in the gold, nor a record the cyclic collector would
    pass over: its full passes over such objects cost 40% of a 100,000-row batch when every row
    had its record). A row's decision does not depend on the rows decided with it, so the chunks
    change no byte."""
    completions, golds = _column(part, config.completion_column), _column(part, config.gold_column)
    assert completions is not None and golds is not None, "checked by _check_columns"
    sources = _column(part, config.data_source_column) or [None] * part.num_rows
    try:
        decided, stamps = decide_columns(completions, golds, sources, config)
    except RewardInputError as error:
        raise error.shifted(start) from None
    return [
        pa.array(decided.scores, pa.float64()),
        pa.array(decided.passed, pa.bool_()),
        pa.array(decided.reasons, pa.string()),
        pa.array(stamps, pa.string()),
        pa.array(decided.detail_texts(), pa.string()),
        *(pa.array(decided.extra.get(name, [None] * len(decided)), EXTRA_TYPES[kind])
          for name, kind in config.extra_columns()),
    ]


def score_arrow(data: ArrowData, config: RewardConfig | None = None) -> ArrowData:
    """`data` with the reward columns appended (an existing column of those names is an error)."""
    config = config or RewardConfig()
    output: pa.Schema = reward_schema(config)
    clashing = [name for name in output.names if name in data.schema.names]
    if clashing:
        raise RewardInputError(f"the batch already has the output column(s) {', '.join(clashing)}")
    added: Any = reward_columns(data, config)
    joined = pa.schema([*data.schema, *output])
    if isinstance(data, pa.RecordBatch):
        return pa.RecordBatch.from_arrays([*data.columns, *added.columns], schema=joined)
    return pa.Table.from_arrays([*data.columns, *added.columns], schema=joined)
