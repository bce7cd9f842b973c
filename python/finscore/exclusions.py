"""The words every scorer uses for an entry it did not score, and why.

A prediction entry is malformed, names an id the gold lacks, or repeats one; a gold
example without a scored prediction is missing one, or its prediction was excluded.
FinQA, ConvFinQA and TAT-QA reports say these in the same words; they live here, in a
module that imports nothing, so that a scorer which loads no executor pays nothing.
"""

MALFORMED_ENTRY = "malformed_entry"
UNKNOWN_ID = "unknown_id"
DUPLICATE_ID = "duplicate_id"
EXCLUSION_KINDS = (MALFORMED_ENTRY, UNKNOWN_ID, DUPLICATE_ID)

#: Why a gold example has no scored prediction.
MISSING = "missing"
EXCLUDED = "excluded"
