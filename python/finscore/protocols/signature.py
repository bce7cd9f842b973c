"""A protocol's signature string: which rule, of which peer's code, decided a figure (as sacreBLEU prints one).

    <id>/<version>|peer:<repository>@<commit, 7 hex>:<path>|tol:<tolerance>|read:<reading>|finscore:<version>

Five fields joined by "|", each (after the first) a name, ":" and a value. The values are the
protocol record's own (`PeerProtocol`), written so that the string is one word: a comma or
semicolon keeps no white space after it, any other run of white space becomes one "-", and a "|"
(which would end the field) becomes "/". So `signature(id).split("|")` gives the five fields back.
"""

from __future__ import annotations

import re

from finscore.protocols.registry import PeerProtocol, get_protocol

#: The names of the fields after the first, in their order.
FIELDS: tuple[str, ...] = ("peer", "tol", "read", "finscore")

_AFTER_PUNCTUATION = re.compile(r"([,;])\s+")
_WHITE_SPACE = re.compile(r"\s+")


def _word(words: str) -> str:
    """Record text as one signature value (see the module docstring)."""
    return _WHITE_SPACE.sub("-", _AFTER_PUNCTUATION.sub(r"\1", words.strip())).replace("|", "/")


def signature_of(protocol: PeerProtocol) -> str:
    """The signature of a protocol record (a fixture's too)."""
    from finscore import __version__

    return "|".join((
        f"{_word(protocol.id)}/{protocol.version}",
        f"peer:{_word(protocol.repository)}@{protocol.commit[:7]}:{_word(protocol.path)}",
        f"tol:{_word(protocol.tolerance)}",
        f"read:{_word(protocol.reading)}",
        f"finscore:{__version__}",
    ))


def signature(protocol_id: str) -> str:
    """The signature of a shipped protocol (a ProtocolError for an unknown id)."""
    return signature_of(get_protocol(protocol_id))
