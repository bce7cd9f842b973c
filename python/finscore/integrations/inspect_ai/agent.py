"""The kit's agent loop inside inspect: the model asks, finscore's runtime executes, records and seals.

Each turn is one `generate` of the task's model with the case's tools offered.
Calls go to finscore's runtime (`finscore.runner.AttemptRecord`), which applies
the limits of `finscore run` (turns, tool calls, the attempt's deadline) and
records every attempt in the trace. When the attempt ends, however it ends (a
final response, a limit, a model error, an inspect limit or cancellation), its
prediction line is sealed under the evaluator's key and kept, as JSON text, in
the sample's store under `PREDICTION_KEY`: that sealed line is what the
`contracts` scorer scores and what `write_predictions` exports, never the
model's account of its calls. The key stays in this process; the model only
ever sees tool results.
"""

from __future__ import annotations

from pathlib import Path

import anyio
from inspect_ai.model import Model, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolInfo
from inspect_ai.util import LimitExceededError

from finscore.contracts.formats.provenance import Producer
from finscore.contracts.formats.provenance import model as model_producer
from finscore.inputs import dumps_json
from finscore.integrity import load_or_create_key, seal_prediction
from finscore.runner import AttemptRecord, Finish, Limits, TraceSealer, load_case_set, start_attempt
from finscore.runner.limits import Deadline

from finscore.integrations.inspect_ai.tools import offered_tools, recorded_results, requested_turn

#: Where the sealed prediction line of a sample is kept (sample store; JSON text, byte for byte the line).
PREDICTION_KEY = "finscore:prediction"
#: The endpoint a producer names when inspect's model has no base URL of its own.
INSPECT_ENDPOINT = "inspect_ai"
STOPPED = "inspect stopped the sample before a final response (one of its own limits, or a cancellation)"
#: The status of an attempt stopped by one of inspect's limits: its clocks are deadlines, the rest budgets.
LIMIT_STATUS = {"time": "timeout", "working": "timeout"}


def producer_of(model: Model) -> Producer:
    """The model as the prediction lines name it: inspect's model name, at its base URL when it has one."""
    return model_producer(model.api.base_url or INSPECT_ENDPOINT, str(model))


async def _drive(record: AttemptRecord, state: TaskState, model: Model, tools: list[ToolInfo]) -> None:
    """The turn loop of `finscore run`'s episode, with inspect's model as the agent."""
    deadline = Deadline(record.limits.deadline_seconds)
    for number in range(1, record.limits.max_turns + 1):
        with anyio.move_on_after(deadline.remaining()) as waiting:
            try:
                output = await model.generate(state.messages, tools=tools)
            except LimitExceededError:
                raise  # one of inspect's own limits: the solver records it
            except Exception as error:  # the model's failure is this attempt's outcome, recorded as `finscore run` does
                return record.agent_raised(error)
        if waiting.cancelled_caught:
            return record.timed_out(number)
        state.output = output
        state.messages.append(output.message)
        turn = requested_turn(output.message)
        if isinstance(turn, Finish):
            return record.finish(turn)
        record.call_tools(number, turn)
        if record.status is not None:
            return None
        state.messages.extend(recorded_results(record.history[-1]))
    return record.out_of_turns()


@solver
def kit_agent(
    cases: str,
    key_file: str,
    deadline_seconds: float = Limits.deadline_seconds,
    max_turns: int = Limits.max_turns,
    max_tool_calls: int = Limits.max_tool_calls,
) -> Solver:
    """Run each sample's case with the task's model under finscore's runtime; seal the line into the store.

    `cases`: the case set the dataset was made from (@kit, a folder or a case-set file);
    `key_file`: the evaluator's key (created if absent), which every line is sealed with.
    One run id for every sample and epoch of this solver, so the lines a log exports are one run
    (`finscore contracts` fails a line of another run as integrity_other_run).
    """
    limits = Limits(deadline_seconds=deadline_seconds, max_turns=max_turns, max_tool_calls=max_tool_calls)
    case_set = load_case_set(cases)
    by_id = {case.case_id: case for case in case_set.cases}
    sealer = TraceSealer.for_new_run(load_or_create_key(Path(key_file)))

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        case = by_id.get(str(state.sample_id))
        if case is None:
            raise ValueError(f"sample {state.sample_id!r} is not a case of {cases}: the dataset and the agent disagree")
        model = get_model()
        started = start_attempt(case.raw, limits, state.epoch - 1)
        try:
            if isinstance(started, AttemptRecord):
                await _drive(started, state, model, offered_tools(started.view))
        except LimitExceededError as limit:  # recorded, then left to inspect, which notes it and scores the sample
            if isinstance(started, AttemptRecord) and started.status is None:
                started.end(LIMIT_STATUS.get(limit.type, "step_limit"), f"inspect's {limit.type} limit: {limit.message}")
            raise
        finally:  # also on cancellation: the attempt keeps its line, and its place in the denominator
            if isinstance(started, AttemptRecord):
                if started.status is None:
                    started.end("incomplete", STOPPED)
                line = started.prediction()
            else:
                line = started
            line = line | {"producer": producer_of(model).as_json()}  # before the seal, so the seal covers it
            state.store.set(PREDICTION_KEY, dumps_json(seal_prediction(line, sealer.key, sealer.run_id)))
        return state

    return solve
