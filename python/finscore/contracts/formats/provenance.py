"""What produced a set of predictions: the instrument, a scripted agent, or a model at an endpoint.

A score means something only for a model. Each prediction line may carry a
`producer` object (docs/contracts-format.md section 4), written by whoever
wrote the line (the kit generator, `finscore run`); the scorer keeps it in the
report and the comparison, so re-scoring a file later never turns the
instrument's own records, or a scripted agent's, into a model result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Literal
from urllib.parse import urlsplit, urlunsplit

ProducerKind = Literal["instrument", "scripted_agent", "model"]
PRODUCER_KINDS: tuple[str, ...] = ("instrument", "scripted_agent", "model")
_FIELDS = {"instrument": {"kind", "name"}, "scripted_agent": {"kind", "name"}, "model": {"kind", "endpoint", "model"}}
MAX_FIELD = 500

#: Report kinds, from the least to the most model-like producer.
SELF_CHECK_KIND = "instrument_self_check"
SCRIPTED_KIND = "scripted_run"
MODEL_KIND = "model_evaluation"
UNRECORDED_KIND = "evaluation"


@dataclass(frozen=True)
class Producer:
    kind: ProducerKind
    name: str | None = None
    endpoint: str | None = None
    model: str | None = None

    def as_json(self) -> dict[str, str]:
        fields = {"kind": self.kind, "name": self.name, "endpoint": self.endpoint, "model": self.model}
        return {key: value for key, value in fields.items() if value is not None}

    def describe(self) -> str:
        if self.kind == "instrument":
            return f"the instrument ({self.name})"
        if self.kind == "scripted_agent":
            return f"scripted agent {self.name}"
        return f"model {self.model} at {self.endpoint}"


def instrument(name: str) -> Producer:
    return Producer("instrument", name=name)


def scripted_agent(name: str) -> Producer:
    return Producer("scripted_agent", name=name)


def model(endpoint: str, model_name: str) -> Producer:
    """A model at an endpoint; user name, password, query and fragment of the URL are never kept."""
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    shown = urlunsplit((parts.scheme, host, parts.path, "", "")) if parts.scheme else endpoint.split("?")[0]
    return Producer("model", endpoint=shown[:MAX_FIELD], model=model_name[:MAX_FIELD])


def read_producer(value: Any) -> Producer | str:
    """The producer a line declares, or the reason it cannot be read (never raises)."""
    if not isinstance(value, dict):
        return "producer must be an object"
    kind = value.get("kind")
    if kind not in _FIELDS:
        return f"producer.kind must be one of {', '.join(PRODUCER_KINDS)}"
    if set(value) != _FIELDS[kind]:
        return f"a {kind} producer has exactly the fields {', '.join(sorted(_FIELDS[kind]))}"
    texts = {key: item for key, item in value.items() if key != "kind"}
    if not all(isinstance(item, str) and 0 < len(item) <= MAX_FIELD for item in texts.values()):
        return f"producer fields are non-empty strings of at most {MAX_FIELD} characters"
    return Producer(kind, **texts)


def report_kind(producers: Iterable[Producer]) -> str:
    """The kind of report: the least model-like producer decides (one scripted line makes a scripted run)."""
    kinds = {producer.kind for producer in producers}
    if "instrument" in kinds:
        return SELF_CHECK_KIND
    if "scripted_agent" in kinds:
        return SCRIPTED_KIND
    return MODEL_KIND if kinds else UNRECORDED_KIND
