"""The registry of published peer scoring protocols (HELM, FinBen/PIXIU, FinanceMath, ...).

Each protocol reproduces one peer scorer's decisions exactly, as a declared, versioned rule,
without ever executing model text. A protocol is a `PeerProtocol` record; each peer's module
(`finscore.protocols.<module>`) lists its records in `PROTOCOLS`, and the registry imports a
module only when one of its protocols is asked for, so naming the protocols costs no import.
"""

# No `from __future__ import annotations`: NamedTuple annotations given as text cost a compile().
import importlib
from typing import Any, Callable, Mapping, NamedTuple

#: Each shipped protocol id and the module whose `PROTOCOLS` holds its record.
BUILTIN_PROTOCOLS: dict[str, str] = {
    "helm-finqa": "finscore.protocols.helm",
    "pixiu-finqa": "finscore.protocols.pixiu",
    "pixiu-convfinqa": "finscore.protocols.pixiu",
    "pixiu-tatqa": "finscore.protocols.pixiu",
    "financemath": "finscore.protocols.financemath",
    "docmath": "finscore.protocols.financemath",
    "financereasoning": "finscore.protocols.financereasoning",
    "finmmr": "finscore.protocols.financereasoning",
}


class ProtocolError(ValueError):
    """A protocol id no module registers, or a record that does not describe its id."""


class PeerProtocol(NamedTuple):
    """One peer scorer, reproduced.

    - `id`, `version`: the protocol's name ("financemath") and its version (1, 2, ...).
    - `repository`, `commit`, `path`: where the peer's scoring code lives (the code reproduced).
    - `tolerance`: the comparison, in words ("relative 0.2% inclusive", "math.isclose rel_tol=1e-9").
    - `reading`: how the peer reads the model's text, in words (what it strips, what it evaluates).
    - `decision_key`: the key of a vector line that holds the peer's decision ("acc", "metric", ...).
    - `decide_line`: a vector line as `../shared/vectors/peers/` stores it -> the fields to write back
      onto it: the decision under `decision_key` (`{"value": ...}` or `{"raises": "ExceptionType"}`)
      and `reason` (the rule that decided); never executes the line's text.
    """

    id: str
    version: int
    repository: str
    commit: str
    path: str
    tolerance: str
    reading: str
    decision_key: str
    decide_line: Callable[[Mapping[str, Any]], dict[str, Any]]


def protocol_ids() -> tuple[str, ...]:
    """Every shipped protocol id, in the order reports list them (no module is imported)."""
    return tuple(BUILTIN_PROTOCOLS)


def get_protocol(protocol_id: str) -> PeerProtocol:
    """The record of `protocol_id`, importing its module on first use; a ProtocolError names the known ids."""
    module = BUILTIN_PROTOCOLS.get(protocol_id)
    if module is None:
        raise ProtocolError(f"no peer protocol named {protocol_id!r}; known: {', '.join(BUILTIN_PROTOCOLS)}")
    for record in importlib.import_module(module).PROTOCOLS:
        if record.id == protocol_id:
            if not isinstance(record, PeerProtocol):
                raise ProtocolError(f"{module} describes {protocol_id!r} with a {type(record).__name__}, "
                                    f"not a PeerProtocol")
            return record
    raise ProtocolError(f"{module} lists no protocol {protocol_id!r}")
