"""The task YAMLs (package data) and `utils`, the module their `!function` tags name.

lm_eval loads utils.py from this folder by its file path; it only re-exports finscore's
functions, so the task code is the typed code of finscore.integrations.lm_eval.
"""
