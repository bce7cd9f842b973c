"""The one type of an entry a scorer did not score, and the words for why.

A prediction entry is malformed, names an id the gold lacks, or repeats one; a gold
example without a scored prediction is missing one, or its prediction was excluded.
FinQA, ConvFinQA, TAT-QA and answer reports say these in the same words. This module
imports nothing of finscore, so that a scorer which loads no executor pays nothing.
"""

# No `from __future__ import annotations`: Exclusion's annotations given as text would each cost a
# compile() when the class is made, at the start of every scoring command.
from typing import NamedTuple

MALFORMED_ENTRY = "malformed_entry"
UNKNOWN_ID = "unknown_id"
DUPLICATE_ID = "duplicate_id"
EXCLUSION_KINDS = (MALFORMED_ENTRY, UNKNOWN_ID, DUPLICATE_ID)

#: Why a gold example has no scored prediction.
MISSING = "missing"
EXCLUDED = "excluded"


class Exclusion(NamedTuple):
    """A prediction entry that is not scored, and why (`kind`: one of EXCLUSION_KINDS).

    `word` is what the benchmark calls its key ("id", TAT-QA's "uid"), for `describe`."""

    position: int  # index of the entry in the prediction file (a line number for JSON Lines)
    id: str | None
    kind: str
    detail: str
    word: str = "id"

    @property
    def uid(self) -> str | None:
        """The key under TAT-QA's name for it."""
        return self.id

    def describe(self) -> str:
        who = f"entry {self.position}" + (f" ({self.word} {self.id!r})" if self.id is not None else "")
        return f"{who}: {self.detail}"
