"""The case set of a run, read once by the scorer's loader so that runner and scorer agree on it.

The runner executes each case's raw `world`; the scorer needs the typed
cases. Both come from one read of the same files.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from finscore.contracts import Case, ContractsError, load_cases
from finscore.contracts.kit import KIT_ALIAS, resolve_cases_path
from finscore.runner.errors import CaseSetError


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
    except ContractsError as error:
        raise CaseSetError(str(error)) from None
    return CaseSet(argument, tuple(cases))
