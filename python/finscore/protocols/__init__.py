"""Published peer scoring protocols, reproduced exactly and never executing model text.

The Python API of `finscore protocols`: `decide_line(protocol_id, line)` decides one vector line,
`signature(protocol_id)` names the rule that decided it, `decide_jsonl(protocol_id, source, sink)`
decides a JSON-lines stream as the command does, and `read_tables(paths)` reads the FinQA files
whose tables HELM's lines name by "table_ref". `decide_batch(protocol_id, predictions, golds)`
decides many pairs at once (one call into the core for the eval()-based peers' common answers).
The protocol modules load on first use.
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from finscore.protocols.registry import PeerProtocol, ProtocolError, get_protocol, protocol_ids

if TYPE_CHECKING:
    from finscore.inputs.lines import Source
    from finscore.protocols.batch import BatchDecisions
    from finscore.protocols.stream import StreamSummary

__all__ = ["PeerProtocol", "ProtocolError", "decide_batch", "decide_jsonl", "decide_line", "get_protocol",
           "protocol_ids", "read_tables", "signature"]


def decide_line(protocol_id: str, line: Mapping[str, Any], *,
                tables: Mapping[str, list[Any]] | None = None) -> dict[str, Any]:
    """The fields `protocol_id` writes back onto a vector line (its decision and "reason").

    A line naming its FinQA table by "table_ref" is given that table from `tables` (id -> table,
    see `read_tables`). A line the protocol cannot use raises a ValueError (`fields.LineError`
    for the shipped protocols) naming the field."""
    from finscore.protocols.stream import with_table

    return get_protocol(protocol_id).decide_line(with_table(line, tables))


def decide_batch(protocol_id: str, predictions: Sequence[object], golds: Sequence[object]) -> "BatchDecisions":
    """Each (prediction, gold) pair decided as `protocol_id`'s peer decides it, as columns (`acc`,
    `reason`); see `finscore.protocols.batch`. A ProtocolError names a protocol with no batch form."""
    from finscore.protocols.batch import decide_batch as batch

    return batch(protocol_id, predictions, golds)


def signature(protocol_id: str) -> str:
    """The protocol's signature string (grammar: `finscore.protocols.signature`)."""
    from finscore.protocols.signature import signature as of_id

    return of_id(protocol_id)


def read_tables(paths: Iterable[str]) -> dict[str, list[Any]]:
    """Each example id of the FinQA files at `paths` -> its table (a TablesError or the FinQA
    reader's FinqaInputError names what is wrong)."""
    from finscore.finqa.files import read_json_file
    from finscore.protocols.stream import tables_of

    return tables_of((path, read_json_file(path, "tables file")) for path in paths)


def decide_jsonl(protocol_id: str, source: "Source", sink: IO[str], *,
                 tables: Mapping[str, list[Any]] | None = None) -> "StreamSummary":
    """Decide every line of `source` (a binary or text stream) onto `sink`, one line written for
    each line read, as `finscore protocols decide-jsonl` does."""
    from finscore.protocols.stream import decide_jsonl as stream

    return stream(source, sink, get_protocol(protocol_id), tables)
