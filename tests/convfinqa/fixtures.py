"""A small ConvFinQA conversation file whose every answer is computed by hand."""

from __future__ import annotations

from typing import Any

TABLE = [["", "2019", "2018"], ["revenue", "$ 100", "$ 80"], ["costs", "30", "50"]]


def conversation(conversation_id: str, programs: list[str], answers: list[Any]) -> dict[str, Any]:
    return {"id": conversation_id, "table": TABLE,
            "annotation": {"dialogue_break": ["?"] * len(programs), "turn_program": programs,
                           "exe_ans_list": answers}}


def gold_file() -> list[dict[str, Any]]:
    return [
        conversation("Single_A/2019/page_1.pdf-1", ["100", "80", "subtract(100, 80)"], [100.0, 80.0, 20.0]),
        conversation("Double_B/2019/page_2.pdf", ["divide(30, 50)", "table_max(revenue, none)"], [0.6, 100.0]),
    ]


def prediction(turn: str, *tokens: str) -> dict[str, Any]:
    return {"id": turn, "predicted": [*tokens, "EOF"]}


def good_predictions() -> list[dict[str, Any]]:
    return [
        prediction("Single_A/2019/page_1.pdf-1#t0", "100"),
        prediction("Single_A/2019/page_1.pdf-1#t1", "80"),
        prediction("Single_A/2019/page_1.pdf-1#t2", "subtract(", "100", "80", ")"),
        prediction("Double_B/2019/page_2.pdf#t0", "divide(", "30", "50", ")"),
        prediction("Double_B/2019/page_2.pdf#t1", "table_max(", "revenue", "none", ")"),
    ]
