"""The protocol registry: every protocol a run may name, with its conformance file.

A protocol is registered once (the three built-in ones when this module is first
imported, from the JSON definitions shipped in the package) and looked up by its
full name, e.g. `finqa-answer/1`. Registering a different definition under a name
already taken is refused: a name must mean one set of rules.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources
from typing import Callable

from finscore.answers.protocol import Protocol, ProtocolError, protocol_from_json

BUILTIN_FILES: tuple[str, ...] = ("finqa-answer-1", "convfinqa-answer-1", "tatqa-answer-1", "financemath-answer-1",
                                  "financemath-answer-2")


@dataclass(frozen=True)
class Registration:
    protocol: Protocol
    conformance: Callable[[], bytes] | None  # reads the protocol's conformance file (gzip JSON Lines)

    def conformance_sha256(self) -> str | None:
        """SHA-256 of the conformance file as shipped (its compressed bytes), or None without one."""
        return None if self.conformance is None else hashlib.sha256(self.conformance()).hexdigest()


_REGISTRY: dict[str, Registration] = {}


def register_protocol(protocol: Protocol, conformance: Callable[[], bytes] | None = None) -> Protocol:
    """Make `protocol` available by its name; `conformance` returns its conformance file's bytes."""
    known = _REGISTRY.get(protocol.name)
    if known is not None and known.protocol.data != protocol.data:
        raise ProtocolError(f"another definition of {protocol.name} is registered already")
    _REGISTRY[protocol.name] = Registration(protocol, conformance)
    return protocol


def registration(name: str) -> Registration:
    """The registration of a protocol by full name (e.g. finqa-answer/1)."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ProtocolError(f"no protocol named {name!r}; known: {', '.join(protocol_names())}") from None


def get_protocol(name: str | Protocol) -> Protocol:
    """A registered protocol by full name; a Protocol object is returned as it is."""
    return name if isinstance(name, Protocol) else registration(name).protocol


def protocol_names() -> list[str]:
    return sorted(_REGISTRY)


def _packaged(folder: str, file_name: str) -> Callable[[], bytes]:
    def read() -> bytes:
        return resources.files("finscore.answers").joinpath(folder, file_name).read_bytes()
    return read


def _register_builtins() -> None:
    for stem in BUILTIN_FILES:
        text = _packaged("protocols", f"{stem}.json")().decode("utf-8")
        register_protocol(protocol_from_json(text), _packaged("conformance", f"{stem}.jsonl.gz"))


_register_builtins()
