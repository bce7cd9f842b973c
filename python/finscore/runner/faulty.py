"""The old path of the faulty scripted agents; they live in `finscore.runner.agents.faulty`."""

from finscore.runner.agents.faulty import (
    HANG_SECONDS,
    CrashingAgent,
    ForgedTraceAgent,
    HangingAgent,
    MalformedOutputAgent,
    OutOfScopeAgent,
    StaleSnapshotAgent,
    TooManyStepsAgent,
    WriteInReadOnlyAgent,
    WrongUnitAgent,
)

__all__ = ["HANG_SECONDS", "CrashingAgent", "ForgedTraceAgent", "HangingAgent", "MalformedOutputAgent",
           "OutOfScopeAgent", "StaleSnapshotAgent", "TooManyStepsAgent", "WriteInReadOnlyAgent", "WrongUnitAgent"]
