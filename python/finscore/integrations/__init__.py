"""finscore inside the evaluation harnesses people already run.

Each subpackage adapts finscore to one framework and imports that framework, so it is only
importable with its extra installed (`finscore[inspect]`, `finscore[lm-eval]`); importing
`finscore` itself never pulls either.
"""
