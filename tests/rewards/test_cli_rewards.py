"""`finscore rewards IN.parquet OUT.parquet` (locally): the file's rows, in order, with the reward
columns; the official decision of every recorded row; bad input named, nothing half written.

The oracle is the recorded official outcome of each row (support.reward_rows), as in test_oracle.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from finscore.rewards import REWARD_COLUMNS
from support.cli import run_command
from support.reward_rows import recorded_reward_rows

pytestmark = pytest.mark.essential
ROWS = recorded_reward_rows()[::20]


def _rollouts(path: Path, golds: list[str] | None = None) -> Path:
    table = pa.table({"completion": [r.program for r in ROWS],
                      "gold": golds if golds is not None else [r.gold for r in ROWS]})
    pq.write_table(table, path, row_group_size=97)  # row groups that are not the scorer's batches
    return path


def test_every_row_comes_back_in_order_with_the_official_decision(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    source, output = _rollouts(tmp_path / "in.parquet"), tmp_path / "out.parquet"
    status, _, err = run_command("rewards", capsys, str(source), str(output), "--quiet", "--batch-rows", "250")
    assert status == 0 and f"{len(ROWS):,} rows scored into {output}" in err
    scored = pq.read_table(output)
    assert scored.schema.names == ["completion", "gold", *REWARD_COLUMNS]
    assert scored.column("completion").to_pylist() == [r.program for r in ROWS]
    assert scored.column("passed").to_pylist() == [r.official_pass for r in ROWS]
    assert scored.column("score").to_pylist() == [1.0 if r.official_pass else 0.0 for r in ROWS]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.parquet", "out.parquet"]  # no partial left


def test_a_bad_gold_in_a_later_batch_is_named_by_its_row_in_the_file(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    golds = [r.gold for r in ROWS]
    golds[700] = "{not json"
    source, output = _rollouts(tmp_path / "in.parquet", golds), tmp_path / "out.parquet"
    status, _, err = run_command("rewards", capsys, str(source), str(output), "--quiet", "--batch-rows", "250")
    assert status == 2
    assert err.startswith("finscore rewards: column 'gold', row 700: the gold is not JSON")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.parquet"]  # nothing half written


@pytest.mark.parametrize("content, words", [
    (b"hello", "is not a Parquet file"),
    (None, "No such file"),
])
def test_an_input_that_is_not_a_parquet_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      content: bytes | None, words: str) -> None:
    source = tmp_path / "in.parquet"
    if content is not None:
        source.write_bytes(content)
    status, _, err = run_command("rewards", capsys, str(source), str(tmp_path / "out.parquet"), "--quiet")
    assert status == 2 and err.startswith("finscore rewards: ") and words in err


def test_an_empty_file_gives_the_output_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, output = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"completion": pa.array([], pa.string()), "gold": pa.array([], pa.string())}), source)
    status, _, _ = run_command("rewards", capsys, str(source), str(output), "--quiet")
    assert status == 0
    assert pq.read_table(output).schema.names == ["completion", "gold", *REWARD_COLUMNS]


def test_the_help_names_the_sources_each_input_scores() -> None:
    """The --data-source help is written out (see commands/rewards.py); it must name the config's sources."""
    from finscore.commands.rewards import ANSWER_SOURCES, PROGRAM_SOURCES
    from finscore.rewards.config import ANSWER_PROTOCOLS, PROGRAM_PROFILES

    assert (PROGRAM_SOURCES, ANSWER_SOURCES) == (tuple(PROGRAM_PROFILES), tuple(ANSWER_PROTOCOLS))
