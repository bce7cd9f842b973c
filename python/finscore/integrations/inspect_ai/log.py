"""From an inspect log to `finscore contracts`: the sealed lines the kit's samples kept, as predictions.jsonl.

The lines are the runtime's own, byte for byte (the store holds them as JSON
text), so `finscore contracts CASES predictions.jsonl` verifies their seals
under the same key and gives the report `finscore run` would have written.
A sample that kept no line is absent, and that scorer counts it as not attempted.
"""

from __future__ import annotations

from pathlib import Path

from inspect_ai.log import EvalLog, read_eval_log

from finscore.outputs import write_text_atomically

from finscore.integrations.inspect_ai.agent import PREDICTION_KEY


def sealed_lines(log: EvalLog | str | Path) -> list[str]:
    """Every sealed prediction line of a kit run's log (an EvalLog, or the path of one), in log order."""
    read = log if isinstance(log, EvalLog) else read_eval_log(str(log))
    lines = []
    for sample in read.samples or []:
        line = sample.store.get(PREDICTION_KEY)
        if isinstance(line, str):
            lines.append(line)
    return lines


def write_predictions(log: EvalLog | str | Path, path: str | Path) -> int:
    """Write the log's sealed lines as a predictions file at `path`; the number of lines."""
    lines = sealed_lines(log)
    write_text_atomically(Path(path), "".join(line + "\n" for line in lines))
    return len(lines)
