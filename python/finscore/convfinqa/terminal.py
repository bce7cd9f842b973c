"""The terminal report of `finscore convfinqa`: FinQA's report of the turns, then
accuracy by turn index, by conversation type, and whole conversations."""

from __future__ import annotations

from finscore.convfinqa.report import TURN_ID_FORM, ConvFinqaReport, TurnGroup
from finscore.finqa.report import Figure
from finscore.finqa.terminal import failing_lines, render_report


def _figure(correct: int, total: int) -> str:
    value = Figure(correct, total).value
    shown = "undefined" if value is None else f"{value:.4f}"
    return f"{shown} ({correct}/{total})"


def _group_line(group: TurnGroup, width: int) -> str:
    return (f"  {group.name:<{width}}  turns {group.gold_turns:>5}, predicted {group.predicted:>5}  "
            f"execution {_figure(group.execution, group.gold_turns)}  "
            f"program {_figure(group.program, group.gold_turns)}")


def render_convfinqa(report: ConvFinqaReport, *, examples: int = 10) -> str:
    """The whole terminal report; `examples` failing turns are listed (0 for none)."""
    lines = [render_report(report.turns, examples=0), "",
             f"Turn ids: {TURN_ID_FORM} (the turn files' <conversation id>_<turn> is accepted too). "
             "The strict profile refuses every number selection (one-token program).",
             "", "By turn index (denominator = gold turns; a missing prediction counts as a failure):"]
    width = max((len(g.name) for g in report.by_turn_index + report.by_conversation_type), default=0)
    lines += [_group_line(group, width) for group in report.by_turn_index]
    lines.append("By conversation type:")
    lines += [_group_line(group, width) for group in report.by_conversation_type]
    lines.append("Conversations with every turn right:")
    for group in report.conversations:
        lines.append(f"  {group.name:<{width}}  execution {_figure(group.every_turn_executed, group.conversations)}"
                     f"  program {_figure(group.every_turn_program, group.conversations)}")
    return "\n".join(lines + failing_lines(report.turns, examples))
