"""ExecutionBatch: what its cheap accessors say is what the full Execution says."""

from __future__ import annotations

from itertools import islice

import pytest
from support.shared import table_of, vector_rows

from finscore.engine import execute_batch
from finscore.engine.options import Profile

#: a claim rests on these tests: under CI a skip fails the run (tests/conftest.py)
pytestmark = pytest.mark.essential


@pytest.mark.parametrize("profile", list(Profile))
@pytest.mark.parametrize("name", ["mutants", "fuzz"])
def test_failed_step_is_the_executions_on_every_vector_program(name: str, profile: Profile) -> None:
    """The step a reward reports without an Execution equals the Execution's, whose step the
    full reader finds afresh for every program the core's plain reader stopped."""
    # the first 20,000 fuzz rows (of 100,000) keep this to seconds; every fuzz row's stopped
    # step is compared with the full reader's in test_plain_reader.py
    items = [(row["program"], table) for row in islice(vector_rows(name), 20_000)
             for available, table in [table_of(row)] if available]
    steps_only = execute_batch(items, profile=profile)
    explained = execute_batch(items, profile=profile)
    steps = [steps_only.failed_step(k) for k in range(len(items))]
    expected = [execution.failed_step for execution in explained]
    assert steps == expected
    assert sum(step is not None for step in steps) > 0.05 * len(items)  # the comparison has failures in it


def test_failed_step_refuses_an_index_outside_the_batch() -> None:
    batch = execute_batch([(["add(", "1", "2", ")", "EOF"], None)])
    assert batch.failed_step(0) is None
    with pytest.raises(IndexError, match="out of range"):
        batch.failed_step(1)
