"""finscore inside inspect_ai (`pip install 'finscore[inspect]'`): the kit as a task, and answer scorers.

- `kit` (`inspect eval finscore/kit`): the 24-case kit; the model's tool calls are
  executed, recorded and sealed by finscore's runtime, and the `contracts` scorer
  scores the sealed line; `write_predictions(log, path)` exports the lines for
  `finscore contracts`.
- `benchmark_answers` (`inspect eval finscore/benchmark_answers -T benchmark=finqa -T data=FILE`): a
  registered benchmark's questions (`benchmark_dataset`), clustered by the benchmark's independence unit.
- `answers(protocol, answer_format)`: free-text answers under an answer protocol,
  on any dataset whose samples carry `metadata["gold"]` (and optionally `metadata["cluster"]`).

docs/inspect.md describes the task, the scorers and every metadata field.
"""

try:
    import inspect_ai as _inspect_ai  # noqa: F401  (the framework itself, not this package)
except ImportError as missing:
    raise ImportError("finscore.integrations.inspect_ai needs inspect_ai: pip install 'finscore[inspect]'") from missing

from finscore.integrations.inspect_ai.agent import PREDICTION_KEY, kit_agent
from finscore.integrations.inspect_ai.answers_scorer import GOLD_KEY, answers
from finscore.integrations.inspect_ai.benchmark_dataset import benchmark_dataset, benchmark_samples
from finscore.integrations.inspect_ai.contracts_scorer import contracts
from finscore.integrations.inspect_ai.dataset import case_samples, kit_dataset
from finscore.integrations.inspect_ai.log import sealed_lines, write_predictions
from finscore.integrations.inspect_ai.metrics import (
    CLUSTER_KEY,
    FAMILY_KEY,
    attempts,
    cluster_stderr,
    critical,
    family_pass,
    reasons,
)
from finscore.integrations.inspect_ai.task import benchmark_answers, kit

__all__ = [
    "CLUSTER_KEY",
    "FAMILY_KEY",
    "GOLD_KEY",
    "PREDICTION_KEY",
    "answers",
    "attempts",
    "benchmark_answers",
    "benchmark_dataset",
    "benchmark_samples",
    "case_samples",
    "cluster_stderr",
    "contracts",
    "critical",
    "family_pass",
    "kit",
    "kit_agent",
    "kit_dataset",
    "reasons",
    "sealed_lines",
    "write_predictions",
]
