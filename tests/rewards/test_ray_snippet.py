"""docs/rewards.md's Ray Data snippet, run as written on a local 2-CPU Ray cluster, finishes (issue #35:
with the pool holding both CPUs it waited for a read task forever) and equals one process; and
`finscore rewards --ray --workers 2` on a one-row-group file cuts it so both workers get rows.

The snippet runs in a child Python with a timeout, so a hang fails the test instead of stalling it;
the child starts its own cluster (`ray.init(num_cpus=2)` in place of the snippet's `ray.init()`).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from finscore.rewards import RewardConfig, score_arrow
from finscore.rewards.adapters.ray_files import ROW_COLUMN, numbered_blocks
from support.reward_rows import recorded_reward_rows
from support.reward_server import REPOSITORY, reward_environment

pytest.importorskip("ray", reason="finscore[ray] is not installed")  # scripts/test installs it
ROWS = recorded_reward_rows()[::9][:2000]
SNIPPET_TIMEOUT = 240  # seconds: a hang is ExecutionTimeoutError after 30 minutes; a run here takes about 30 s

CHECK = """
import json, pyarrow as pa
from finscore.rewards import score_arrow
table = pa.concat_tables(pa.Table.from_batches([b]) if isinstance(b, pa.RecordBatch) else b
                         for b in scored.iter_batches(batch_format="pyarrow", batch_size=None))
expected = score_arrow(pa.parquet.read_table(PATH), RewardConfig())
key = lambda t: sorted(zip(*(t.column(n).to_pylist() for n in ("completion", "gold", "reason", "detail"))))
print(json.dumps({"workers": workers, "rows": table.num_rows, "same": key(table) == key(expected)}))
"""


def _documented_snippet() -> str:
    text = (REPOSITORY / "docs" / "rewards.md").read_text(encoding="utf-8")
    section = text[text.index("## Ray, Spark, Dask"):]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None
    return found.group(1)


def _rollouts(path: Path) -> Path:
    table = pa.table({"completion": [r.program for r in ROWS], "gold": [r.gold for r in ROWS],
                      "data_source": ["finqa"] * len(ROWS)})
    pq.write_table(table, path)  # one row group
    assert pq.ParquetFile(path).num_row_groups == 1
    return path


def test_the_documented_snippet_finishes_on_two_cpus(tmp_path: Path) -> None:
    snippet = _documented_snippet()
    assert "ray.init()" in snippet and '"rollouts.parquet"' in snippet
    path = _rollouts(tmp_path / "rollouts.parquet")
    program = ("import pyarrow.parquet\nPATH = " + repr(str(path)) + "\n"
               + snippet.replace("ray.init()", "ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)", 1)
                        .replace('"rollouts.parquet"', "PATH")
               + CHECK)
    finished = subprocess.run([sys.executable, "-W", "always::UserWarning", "-c", program], env=reward_environment(),
                              capture_output=True, text=True, timeout=SNIPPET_TIMEOUT, cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr[-3000:]
    result = json.loads(finished.stdout.strip().splitlines()[-1])
    assert result == {"workers": 1, "rows": len(ROWS), "same": True}
    assert ("RewardParallelismWarning: 1 reward worker of 8 asked for: the cluster has 2 CPUs and 1 stay free "
            "for Ray Data's read tasks") in finished.stderr


def test_one_row_group_is_cut_into_a_block_for_each_worker(tmp_path: Path) -> None:
    parquet = pq.ParquetFile(_rollouts(tmp_path / "rollouts.parquet"))
    blocks = numbered_blocks(parquet, workers=2, batch_rows=8192)
    assert [block.num_rows for block in blocks] == [1000, 1000]
    assert pa.concat_tables(blocks).column(ROW_COLUMN).to_pylist() == list(range(len(ROWS)))
    assert [block.num_rows for block in numbered_blocks(parquet, workers=2, batch_rows=300)] == [300] * 6 + [200]


def test_the_command_warns_when_fewer_workers_can_run(tmp_path: Path) -> None:
    """On its own 2-CPU cluster (the command starts one with --workers CPUs: here 2 of the machine's),
    --workers 2 runs two workers silently; and the rows are those of one process."""
    source, output = _rollouts(tmp_path / "rollouts.parquet"), tmp_path / "scored.parquet"
    finished = subprocess.run([sys.executable, "-m", "finscore", "rewards", str(source), str(output), "--ray",
                               "--workers", "2", "--quiet"], env=reward_environment(), capture_output=True,
                              text=True, timeout=SNIPPET_TIMEOUT)
    assert finished.returncode == 0, finished.stderr[-3000:]
    assert "warning" not in finished.stderr
    expected = score_arrow(pq.read_table(source), RewardConfig())
    assert pq.read_table(output).column("detail").to_pylist() == expected.column("detail").to_pylist()
    few = tmp_path / "one.parquet"
    pq.write_table(pq.read_table(source).slice(0, 1), few)
    finished = subprocess.run([sys.executable, "-m", "finscore", "rewards", str(few), str(output), "--ray",
                               "--workers", "2", "--quiet"], env=reward_environment(), capture_output=True,
                              text=True, timeout=SNIPPET_TIMEOUT)
    assert finished.returncode == 0, finished.stderr[-3000:]
    assert "finscore rewards: warning: 1 of 2 workers can run: the file has 1 rows\n" in finished.stderr
