"""FinQA scoring: the official evaluator's decisions, reproduced exactly and explained.

Each module does one job (program equivalence, file scoring, ...) so that the
official profile can be checked piece by piece against recorded decisions.
"""
