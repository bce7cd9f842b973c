"""Reading a row's gold: JSON text decoded within a bound, once per distinct text.

Trainers carry the gold as one value per row, often the same text for a whole GRPO
group; every input kind decodes it here, so the bound, the error naming the row and
the memo are written once. A mapping (an Arrow struct, a verl dict) is taken as it is.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Sequence, TypeVar

from finscore.inputs.reading import DuplicateKeyError, object_without_duplicates
from finscore.rewards.errors import RewardInputError

#: A gold JSON text longer than this is refused (a table of FinQA size is a few KiB).
MAX_GOLD_CHARS = 4 * 1024 * 1024

Gold = TypeVar("Gold")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


#: json.loads with an option builds a decoder per call (a third of a small gold's decoding);
#: one shared decoder reads the same. json.loads also refuses a leading byte order mark,
#: which the decoder alone does not: such a text still goes through json.loads. A key given
#: twice is refused, as every reader of finscore refuses it (which value was meant is unknowable).
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, object_pairs_hook=object_without_duplicates)


def decode_gold(value: Any, *, row: int, column: str) -> Any:
    """The decoded gold of one row: JSON text parsed (no NaN or infinities, no key twice), anything else as it is."""
    if not isinstance(value, str):
        return value
    if len(value) > MAX_GOLD_CHARS:
        raise RewardInputError(f"the gold is {len(value):,} characters, over the {MAX_GOLD_CHARS:,} bound",
                               column=column, row=row)
    try:
        if value.startswith("\ufeff"):
            return json.loads(value, parse_constant=_reject_constant, object_pairs_hook=object_without_duplicates)
        return _DECODER.decode(value)
    except DuplicateKeyError as error:
        raise RewardInputError(f"the gold has the key {error.key!r} twice in one JSON object",
                               column=column, row=row) from None
    except ValueError as error:
        raise RewardInputError(f"the gold is not JSON: {error}", column=column, row=row) from None
    except RecursionError:
        raise RewardInputError("the gold is JSON nested too deeply to read", column=column, row=row) from None


def read_golds(golds: Sequence[Any], indexes: Sequence[int], column: str,
               read: Callable[[Any, int], Gold]) -> list[Gold]:
    """`read(decoded gold, row)` for each row of `indexes`, once per distinct JSON text (rows
    sharing a gold share its object, so the engine lays a shared table out once)."""
    seen: dict[str, Gold] = {}
    out: list[Gold] = []
    for index in indexes:
        value = golds[index]
        known = seen.get(value) if isinstance(value, str) else None
        if known is None:
            known = read(decode_gold(value, row=index, column=column), index)
            if isinstance(value, str):
                seen[value] = known
        out.append(known)
    return out
