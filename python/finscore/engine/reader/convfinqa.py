"""ConvFinQA's reading of a program: FinQA's, except that a one-token program is a number.

ConvFinQA's authors score with their own `eval_program` (code/utils/general_utils.py
of czyssrs/ConvFinQA), which reads programs as FinQA's evaluator does with one
difference that changes outcomes: after the last token is dropped, a program of a
single token is a *number selection* (a turn such as "what was the price in 2007?"
answered `60.94`). That token is read with ConvFinQA's own `str_to_num`, passed
through `float()` and rounded to 5 places; anything that makes those raise (text
that is not a number, `const_x`, `add(`) makes the program invalid.

Everywhere else ConvFinQA's reading is FinQA's: `process_row` is the same code,
and its `str_to_num` tests `"const_" in text` where FinQA's tests `"const" in
text`. No text is read differently because of that: text holding `const` but
not `const_` reaches `float()` with the letters of `const` in it, which `float()`
never accepts, so both readings refuse it (`tests/convfinqa/test_profile.py`
checks the two functions agree on every literal and cell of the recorded
vectors and on generated text). So the `convfinqa` profile runs every other
program through the official reading and the core unchanged; this module only
recognises and reads number selections.
"""

# No `from __future__ import annotations`: a NamedTuple's annotations given as text each cost a
# compile() when its class is made (Selection is made at start-up).

from typing import Any, NamedTuple, Sequence

from finscore.engine.explanation import Execution, Explainer, StepTrace
from finscore.engine.verdict import Result
from finscore.engine.reader.numbers import number_reading
from finscore.engine.reader.program import Ignored, Literal
from finscore.engine.status import Status


PROFILE = "convfinqa"
#: float() as CPython 3.11 reads text (its Unicode 14.0 digits): the interpreter ConvFinQA's
#: recorded outcomes come from.
float_311 = number_reading("3.11").to_float

#: The op name a number selection is shown with in step traces (not one of the ten ops).
SELECTION_OP = "number_selection"


def convfinqa_number(text: str) -> float | None:
    """ConvFinQA's `str_to_num`, or None where it answers "n/a" or raises.

    Every `,` is removed and Python's float() tried (CPython 3.11's digits);
    failing that, text holding `%` loses every `%` and is divided by 100.0;
    failing that, text holding `const_` loses it (`m1` meaning -1) and must
    then be a float.
    """
    text = text.replace(",", "")
    try:
        return float_311(text)
    except ValueError:
        pass
    if "%" in text:
        try:
            return float_311(text.replace("%", "")) / 100.0
        except ValueError:
            return None
    if "const_" in text:
        text = text.replace("const_", "")
        if text == "m1":
            text = "-1"
        try:
            return float_311(text)
        except ValueError:  # ConvFinQA's str_to_num raises here; eval_program's except makes it invalid
            return None
    return None


class Selection(NamedTuple):
    """A one-token program: its token, the number read from it (None: not a number),
    and the token dropped as the last one (meant to be EOF, never checked)."""

    text: str
    value: float | None
    dropped: str


def read_selection(tokens: Sequence[str]) -> Selection | None:
    """The number selection a token list is under ConvFinQA's reading, or None if it is
    not one (any list whose length after dropping the last token is not exactly 1)."""
    if len(tokens) != 2:
        return None
    return Selection(tokens[0], convfinqa_number(tokens[0]), tokens[1])


def selection_positions(token_lists: Sequence[Sequence[str]]) -> list[int]:
    """Positions of the one-token programs of a batch (token lists of length 2)."""
    return [position for position, tokens in enumerate(token_lists) if len(tokens) == 2]


def _selection_execution(explainer: Explainer, selection: Selection) -> Execution:
    """The Execution of one number selection: the number rounded once to 5 places by the core."""
    if selection.value is None:
        trace = StepTrace(0, SELECTION_OP, (Ignored(selection.text), Ignored(selection.dropped)), None, "none")
        return Execution(invalid=1, result="n/a", status=Status.BAD_NUMBER, failed_step=0,
                         message=f"{selection.text!r} is a one-token program (a number selection) "
                                 "and not a number",
                         profile=str(explainer.profile), python=explainer.python, step_source=lambda: (trace,))
    value = selection.value
    rounded = explainer.core.round_half_even_scaled(value, 1e5)
    trace = StepTrace(0, SELECTION_OP, (Literal(selection.text, value), Ignored(selection.dropped)),
                      value, "float")
    return Execution(invalid=0, result=rounded, status=Status.OK, failed_step=None,
                     message="a number selection", unrounded=value, profile=str(explainer.profile),
                     python=explainer.python, step_source=lambda: (trace,))


def apply_selections(explainer: Explainer, token_lists: Sequence[Sequence[str]], others: dict[int, Any],
                     columns: tuple[list[int], list[Result], list[int]],
                     positions: Sequence[int] | None = None) -> None:
    """Under the convfinqa profile, replace the outcome of every one-token program of a
    chunk (whatever FinQA's reading made of it) by its number selection's.

    `others` and `columns` are the chunk's built Executions by position and its
    (invalid, results, statuses) columns (see `finscore.engine.routing.route_chunk`);
    `positions`, those of the one-token programs when the caller knows them already.
    """
    invalid, results, statuses = columns
    for position in selection_positions(token_lists) if positions is None else positions:
        selection = read_selection(token_lists[position])
        assert selection is not None
        execution = others[position] = _selection_execution(explainer, selection)
        invalid[position], results[position] = execution.invalid, execution.result
        statuses[position] = int(execution.status)
