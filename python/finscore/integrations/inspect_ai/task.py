"""finscore's inspect tasks (registered through the entry point): `finscore/kit`, the 24-case kit, and
`finscore/benchmark_answers`, a registered benchmark's questions answered in free text.

The task's options (`-T NAME=VALUE`) are those of `finscore run`: the case set,
the evaluator's key file (default: the same file `finscore run` and
`finscore contracts` use), the attempt's deadline, and the turn and tool-call
limits. inspect's epochs are the attempts. Errored samples are scored
(`score_on_error`): an attempt that failed still counts, as a miss.
"""

from __future__ import annotations

from inspect_ai import Epochs, Task, task
from inspect_ai.solver import generate

from finscore.contracts import KIT_ALIAS
from finscore.integrity import default_key_path
from finscore.runner import Limits

from finscore.integrations.inspect_ai.agent import kit_agent
from finscore.integrations.inspect_ai.answers_scorer import answers
from finscore.integrations.inspect_ai.benchmark_dataset import answer_benchmark, benchmark_dataset
from finscore.integrations.inspect_ai.contracts_scorer import contracts
from finscore.integrations.inspect_ai.dataset import kit_dataset
from finscore.integrations.inspect_ai.metrics import attempts
from finscore.integrations.inspect_ai.offline_model import finscore_mock  # noqa: F401  (registers finscore-mock/)


@task
def kit(
    cases: str = KIT_ALIAS,
    key_file: str | None = None,
    deadline_seconds: float = Limits.deadline_seconds,
    max_turns: int = Limits.max_turns,
    max_tool_calls: int = Limits.max_tool_calls,
) -> Task:
    """The kit's cases, run by the task's model under finscore's runtime, scored on the sealed traces."""
    key = key_file or str(default_key_path())
    agent = kit_agent(cases, key, deadline_seconds, max_turns, max_tool_calls)  # creates the key if needed
    return Task(
        dataset=kit_dataset(cases),
        solver=agent,
        scorer=contracts(cases, key),
        epochs=Epochs(1, attempts()),  # `--epochs K` runs K attempts and keeps this reducer
        score_on_error=True,
    )


@task
def benchmark_answers(benchmark: str, data: str, answer_format: str = "answer-line") -> Task:
    """The questions of `data` (a gold file of the registered `benchmark`), asked with lm-eval's prompt,
    each completion decided under the benchmark's answer protocol, the stderr clustered by its unit."""
    protocol = answer_benchmark(benchmark).answer_protocols[0]
    return Task(
        dataset=benchmark_dataset(benchmark, data),
        solver=generate(),
        scorer=answers(protocol, answer_format),
        score_on_error=True,  # a failed generation is a missing_prediction miss, counted
    )
