"""A peer protocol registered from a fixture: `finscore protocols` decides any registered protocol's lines."""

from __future__ import annotations

from typing import Any, Mapping

from finscore.protocols.registry import PeerProtocol


def decide_line(line: Mapping[str, Any]) -> dict[str, Any]:
    """{"a": int, "b": int, "total": int} -> "right" {"value": a + b == total}; a ValueError for other types."""
    a, b, total = line.get("a"), line.get("b"), line.get("total")
    if not all(type(value) is int for value in (a, b, total)):
        raise ValueError('"a", "b" and "total" must be integers')
    assert isinstance(a, int) and isinstance(b, int)
    return {"right": {"value": a + b == total}, "reason": "sum" if a + b == total else "not_sum"}


PROTOCOLS = (
    PeerProtocol(id="toy-sum", version=3, repository="example/toy", commit="0123456789abcdef0123456789abcdef01234567",
                 path="score.py", tolerance="exact int ==", reading="the integers as given  |  nothing else",
                 decision_key="right", decide_line=decide_line),
)
