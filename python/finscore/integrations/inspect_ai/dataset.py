"""The kit's cases as an inspect dataset: one sample per case, its question as `finscore run` asks it.

A sample's id is the case id, its input the system message a chat model gets
from `finscore run` (the session, the tools' ground rules, the final-response
format) and the case's question; its metadata the case id, family and
language. The contract is not in the sample: only the scorer reads it.
"""

from __future__ import annotations

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser

from finscore.contracts import KIT_ALIAS
from finscore.runner import CaseSet, load_case_set, load_fixtures
from finscore.runner.agents.chat import session_message
from finscore.runner.episode import case_view


def case_samples(case_set: CaseSet) -> list[Sample]:
    samples = []
    for case in case_set.cases:
        view = case_view(load_fixtures(case.raw), attempt=0)
        samples.append(
            Sample(
                id=case.case_id,
                input=[ChatMessageSystem(content=session_message(view)), ChatMessageUser(content=view.question)],
                metadata={"case_id": case.case_id, "family": case.family, "language": case.language},
            )
        )
    return samples


def kit_dataset(cases: str = KIT_ALIAS) -> MemoryDataset:
    """The case set `cases` (@kit, a folder of case files or a case-set file) as a dataset."""
    return MemoryDataset(case_samples(load_case_set(cases)), name=f"finscore {cases}")
