"""The two options of every execution: the profile, and the CPython whose sum() to imitate.

One representation each, end to end: a `Profile` (the reader, lowering and the
explanation all take it as it is) and a `SumRule` (chosen here from a version text).
"""

from __future__ import annotations

from enum import Enum

from finscore.engine.core.abi import SumRule


class Profile(str, Enum):
    """How a program is read: as the official evaluator reads it, strictly, or as ConvFinQA's.

    `official` gives the official outcome, quirks included; `strict` refuses every
    quirk with its own status; `convfinqa` is ConvFinQA's own eval_program: FinQA's
    reading, but a one-token program is a number selection (engine/reader/convfinqa.py).
    The value is the name users type and reports show.
    """

    OFFICIAL = "official"
    STRICT = "strict"
    CONVFINQA = "convfinqa"

    def __str__(self) -> str:
        return self.value

    @property
    def reads_officially(self) -> bool:
        """Whether the official evaluator's reading and value semantics hold: quirks tolerated,
        text and integers flowing on (the walker). Every profile but `strict`."""
        return self is not Profile.STRICT


#: The profile names, in the order the command line lists them.
PROFILES: tuple[str, ...] = tuple(profile.value for profile in Profile)

#: The CPython versions whose sum() finscore imitates, checked against those interpreters
#: themselves (tests/core/test_sum.py): 3.11 adds left to right, 3.12 and later compensate.
SUM_RULES: dict[str, SumRule] = {
    "3.11": SumRule.PY311,
    "3.12": SumRule.PY312,
    "3.13": SumRule.PY312,
}
PYTHON_VERSIONS: tuple[str, ...] = tuple(SUM_RULES)


def profile_of(name: str | Profile) -> Profile:
    """The Profile a name stands for; ValueError, with a message for the user, otherwise."""
    try:
        return Profile(name)
    except ValueError:
        raise ValueError(f"profile must be one of {', '.join(PROFILES)}, not {name!r}") from None


def sum_rule_for(python: str) -> SumRule:
    """The summation rule of a CPython version written "3.11", "3.12", ... (a patch number,
    as in "3.12.1", is allowed); ValueError, naming the accepted versions, otherwise."""
    parts = python.split(".") if isinstance(python, str) else []
    version = ".".join(parts[:2])
    if version not in SUM_RULES or not all(part.isdigit() and part.isascii() for part in parts[2:]) or len(parts) > 3:
        raise ValueError(f"python version must be one of {', '.join(PYTHON_VERSIONS)} "
                         f"(the CPython whose sum() to imitate), not {python!r}")
    return SUM_RULES[version]


def check_options(profile: str | Profile, python: str) -> None:
    """ValueError, with a message for the user, unless both options are ones finscore knows."""
    profile_of(profile)
    sum_rule_for(python)
