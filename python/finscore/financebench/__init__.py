"""FinanceBench (patronus-ai/financebench): claims read from answers, numeric correctness
(`financebench-answer/1`), support of a claim by its evidence passage, the gold audit and the
agreement with the human graders' labels. Deterministic: no model is called.

Modules: `numbers` (the bounded number scan), `claims` (the claim of an answer), `gold` (the gold
file), `correctness` (the numeric decision), `support` (the evidence checks), `audit` (each gold
against its own evidence), `results` (the results files as predictions), `scoring` (both axes per
answer), `report` and `html` (the outputs), `benchmark` (the registry descriptor).
"""
