"""The official pair (invalid, result) and the status of a program the core ran.

One set of rules, applied two ways: `verdict` for one program, `verdict_columns`
for every program of a core batch at once, at C speed. The core gives a value only
with status ok: a float, or a boolean (1.0/0.0) that answers "yes"/"no".
Officially a program without steps is valid and answers "n/a"; strictly it is not.
"""

from __future__ import annotations

from typing import Union, cast

from finscore.engine.core.abi import BatchOutput, ValueType
from finscore.engine.options import Profile
from finscore.engine.reader.program import ReadFailure
from finscore.engine.status import Status

Result = Union[float, int, str]

_OK, _NO_STEPS = int(Status.OK), int(Status.NO_STEPS)
_FLOAT, _BOOL = int(ValueType.FLOAT), int(ValueType.BOOL)
#: Byte translations from a status's low byte to its invalid flag, by whether the profile reads
#: officially (a program without steps is then valid; see verdict_columns).
_INVALID_FLAG = {
    False: bytes(0 if code == _OK & 0xFF else 1 for code in range(256)),
    True: bytes(0 if code in (_OK & 0xFF, _NO_STEPS & 0xFF) else 1 for code in range(256)),
}


def verdict(status: int, value_type: int, value: float, profile: Profile,
            failure: ReadFailure | None = None) -> tuple[int, Result, int]:
    """(invalid, result, status) of one program the core ran.

    `failure` is where the reading stopped after the steps the core ran, if it did:
    the program is then invalid with the reading's status, whatever the core made of
    the steps before it.
    """
    if failure is not None and (status == _OK or status == _NO_STEPS):
        return 1, "n/a", failure.status
    if status == _NO_STEPS and profile.reads_officially:
        status = _OK
    if status != _OK:
        return 1, "n/a", status
    if value_type == _FLOAT:
        return 0, value, status
    return 0, ("yes" if value else "no") if value_type == _BOOL else "n/a", status


def verdict_columns(output: BatchOutput, statuses: list[int],
                    profile: Profile) -> tuple[list[int], list[Result], list[int]]:
    """The verdicts of every program of a core batch whose reading did not stop early, as
    columns (invalid flags, results, statuses): the flags by translating the statuses' low
    bytes, the results as the values with only the positions that hold no float changed.

    `statuses`: output.statuses(), which the caller has already made.
    """
    if profile.reads_officially and _NO_STEPS in statuses:
        statuses = [_OK if s == _NO_STEPS else s for s in statuses]
    invalid = list(output.status_low_bytes().translate(_INVALID_FLAG[profile.reads_officially]))
    results = cast("list[Result]", output.values())  # floats, but for the few changed below
    kinds = output.value_type_bytes()
    if kinds.count(_FLOAT) != len(kinds):
        for kind, answer in ((0, None), (_BOOL, ("no", "yes"))):
            at = kinds.find(kind)
            while at != -1:
                results[at] = "n/a" if answer is None else answer[results[at] != 0.0]
                at = kinds.find(kind, at + 1)
    return invalid, results, statuses
