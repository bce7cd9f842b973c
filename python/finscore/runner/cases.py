"""The case set of a run, and the world of each case the runner executes.

The scorer's loader reads the set once (so runner and scorer agree on it);
each attempt then reads its case's world with the world's one case reader,
so a case the runner cannot execute is recorded as an incomplete attempt
instead of stopping the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from finscore.contracts import KIT_ALIAS, Case, load_cases, resolve_cases_path
from finscore.inputs import FinscoreError, InputFormatError
from finscore.runner.errors import CaseFixtureError, CaseSetError
from finscore.world import CaseWorld, read_case_world


@dataclass(frozen=True)
class CaseSet:
    """`label` is what the user named (`@kit` or a path); `cases` typed, `raw` as written."""

    label: str
    cases: tuple[Case, ...]

    @property
    def raw(self) -> tuple[Mapping[str, Any], ...]:
        return tuple(case.raw for case in self.cases)

    def only(self, case_ids: Iterable[str]) -> "CaseSet":
        """The sub-set with these ids; an id the set does not have is an error that names it."""
        wanted = list(dict.fromkeys(case_ids))
        known = {case.case_id for case in self.cases}
        unknown = [case_id for case_id in wanted if case_id not in known]
        if unknown:
            raise CaseSetError(f"the case set {self.label} has no case {', '.join(unknown)}")
        return CaseSet(self.label, tuple(case for case in self.cases if case.case_id in set(wanted)))


def load_case_set(argument: str = KIT_ALIAS) -> CaseSet:
    """`@kit` (the shipped kit), a directory of case files, or a case-set JSON file."""
    try:
        cases = load_cases(resolve_cases_path(argument))
    except FinscoreError as error:
        raise CaseSetError(str(error)) from None
    return CaseSet(argument, tuple(cases))


def load_fixtures(case: Mapping[str, Any]) -> CaseWorld:
    """The world of one raw case; raises CaseFixtureError naming the case and the field."""
    raw_id = case.get("case_id") if isinstance(case, Mapping) else None
    case_id = raw_id if isinstance(raw_id, str) else "<no case_id>"
    try:
        return read_case_world(case)
    except InputFormatError as error:
        raise CaseFixtureError(case_id, error.where, error.problem) from None
