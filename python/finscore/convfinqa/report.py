"""The result of scoring a ConvFinQA prediction file: FinQA's report of its turns,
and the figures only conversations have.

Every turn is one gold example of the FinQA report (`finscore.finqa.report`), so
the official figures, the honest ones, categories, statuses and per-turn
diagnostics are that report's. Beside it: accuracy by turn index and by
conversation type, and the share of conversations with every turn right. Each
figure keeps its numerator and its denominator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from finscore.finqa.report import Figure, FinqaReport

REPORT_FORMAT = "finscore-convfinqa-report/1"
TURN_ID_FORM = "<conversation id>#t<turn index from 0>"


@dataclass(frozen=True)
class TurnGroup:
    """Turns sharing a turn index or a conversation type.

    `execution` and `program` count turns right (a turn without a usable
    prediction is wrong); their denominators are `gold_turns` (honest) or
    `predicted` (the turns with a scored prediction, as the official figures)."""

    name: str
    gold_turns: int
    predicted: int
    execution: int
    program: int

    def to_json(self) -> dict[str, Any]:
        return {
            "group": self.name,
            "gold_turns": self.gold_turns,
            "predicted_turns": self.predicted,
            "execution_per_gold_turn": Figure(self.execution, self.gold_turns).to_json(),
            "program_per_gold_turn": Figure(self.program, self.gold_turns).to_json(),
            "execution_per_prediction": Figure(self.execution, self.predicted).to_json(),
            "program_per_prediction": Figure(self.program, self.predicted).to_json(),
        }


@dataclass(frozen=True)
class ConversationGroup:
    """Conversations (all, or of one type) with every turn right: a missing turn is not right."""

    name: str
    conversations: int
    every_turn_executed: int
    every_turn_program: int

    def to_json(self) -> dict[str, Any]:
        return {
            "group": self.name,
            "conversations": self.conversations,
            "every_turn_execution_correct": Figure(self.every_turn_executed, self.conversations).to_json(),
            "every_turn_program_correct": Figure(self.every_turn_program, self.conversations).to_json(),
        }


@dataclass(frozen=True)
class ConvFinqaReport:
    turns: FinqaReport  # one gold example per turn, id `<conversation id>#t<turn>`
    by_turn_index: tuple[TurnGroup, ...]
    by_conversation_type: tuple[TurnGroup, ...]
    conversations: tuple[ConversationGroup, ...]  # "all" first, then by type

    def to_json(self) -> dict[str, Any]:
        report = self.turns.to_json()
        report["format"] = REPORT_FORMAT
        report["turn_ids"] = TURN_ID_FORM
        report["by_turn_index"] = [group.to_json() for group in self.by_turn_index]
        report["by_conversation_type"] = [group.to_json() for group in self.by_conversation_type]
        report["conversations"] = [group.to_json() for group in self.conversations]
        return report
