"""finscore's FinQA, ConvFinQA, TAT-QA and FinanceMath-style tasks for lm-evaluation-harness (`finscore[lm-eval]`).

The task YAMLs live in the `tasks` folder of this package; lm_eval finds them with
`--include_path "$(python -m finscore.integrations.lm_eval)"`. The data file is the
user's, named per run with `--metadata` (see docs/lm-eval.md). Scoring is finscore's
answer protocols (`finscore.answers`), so the figures equal `finscore answers` on the
same completions. Importing this package does not import lm_eval: the tasks' code only
needs finscore, and `datasets` when a task loads its documents.
"""

from __future__ import annotations

from pathlib import Path

#: The benchmark tasks (the tag `finscore` runs them together).
TASKS = ("finscore_finqa", "finscore_convfinqa", "finscore_tatqa")
#: The FinanceMath-style task (untagged: its data file is always the user's own).
FINANCEMATH_TASK = "finscore_financemath"


def task_directory() -> Path:
    """The folder holding the task YAMLs, for lm_eval's --include_path."""
    return Path(__file__).resolve().parent / "tasks"


__all__ = ["FINANCEMATH_TASK", "TASKS", "task_directory"]
