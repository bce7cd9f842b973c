"""Small FinQA gold files and predictions whose every answer is computed by hand."""

from __future__ import annotations

from typing import Any

TABLE = [["", "2019", "2018"], ["revenue", "$ 100", "$ 80"], ["costs", "30", "50"]]


def example(example_id: str, program: str, answer: Any, table: list[list[str]] | None = None) -> dict[str, Any]:
    return {"id": example_id, "table": TABLE if table is None else table,
            "qa": {"question": "?", "program": program, "exe_ans": answer}}


def gold_file() -> list[dict[str, Any]]:
    return [
        example("A", "subtract(100, 80)", 20.0),  # 100 - 80
        example("B", "divide(30, 50)", 0.6),  # 30 / 50
        example("C", "table_max(revenue, none)", 100.0),  # max(100, 80)
    ]


def prediction(example_id: str, *tokens: str) -> dict[str, Any]:
    return {"id": example_id, "predicted": [*tokens, "EOF"]}


def good_predictions() -> list[dict[str, Any]]:
    return [
        prediction("A", "subtract(", "100", "80", ")"),
        prediction("B", "divide(", "30", "50", ")"),
        prediction("C", "table_max(", "revenue", "none", ")"),
    ]
