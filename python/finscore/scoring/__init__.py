"""The scoring layer every benchmark and `finscore answers` share.

One join of predictions to gold (joining), one exclusion record and its kinds
(exclusions), one vocabulary of reasons (reasons) and one canonical-JSON writer
(canonical). Each module imports nothing from the benchmark folders, so a
benchmark takes these from here and none takes them from another benchmark.
"""
