"""The one error a reward call raises: input that is not model output is malformed.

Model output never raises (every row gets a typed reason); a missing gold, a
column of the wrong type or an unknown option is the caller's mistake and stops
the call with a message naming the column or row.
"""

from __future__ import annotations


class RewardInputError(ValueError):
    """A column, row or option of a reward call that finscore cannot score as given."""

    def __init__(self, message: str, *, column: str | None = None, row: int | None = None) -> None:
        where = []
        if column is not None:
            where.append(f"column {column!r}")
        if row is not None:
            where.append(f"row {row}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.column = column
        self.row = row
        self.message = message

    def shifted(self, rows: int) -> RewardInputError:
        """The same error for rows decided as a slice that starts `rows` rows into the caller's batch."""
        if self.row is None or rows == 0:
            return self
        return RewardInputError(self.message, column=self.column, row=self.row + rows)
