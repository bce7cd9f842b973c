"""Free-text answers scored under declared, versioned answer protocols, with a typed reason per miss.

- `decide(completion, gold, protocol="finqa-answer/1", format="answer-line") -> Decision`
- `decide_batch(completions, golds, protocol=..., format=...) -> list[Decision]`
- `get_protocol(name)`, `protocol_names()`, `register_protocol(protocol, conformance)`
- `finqa_gold(...)`, `tatqa_gold(...)`: golds built once, for fast batches (`OutOfProtocolGold`, a
  `GoldError`, for a well-formed TAT-QA answer that is not one number)
- `reasons`: the closed set of reasons

A protocol's rules are JSON data in finscore/answers/protocols/ (printed in every
report); its conformance file is in finscore/answers/conformance/.
"""

from finscore.answers import reasons
from finscore.answers.decide import Decision, as_gold, decide, decide_batch
from finscore.answers.gold import Gold, GoldError, OutOfProtocolGold, finqa_gold, tatqa_gold
from finscore.answers.locate import Located
from finscore.answers.protocol import FORMATS, Protocol, ProtocolError, Tolerance, protocol_from_data
from finscore.answers.registry import get_protocol, protocol_names, register_protocol

__all__ = [
    "FORMATS",
    "Decision",
    "Gold",
    "GoldError",
    "Located",
    "OutOfProtocolGold",
    "Protocol",
    "ProtocolError",
    "Tolerance",
    "as_gold",
    "decide",
    "decide_batch",
    "finqa_gold",
    "get_protocol",
    "protocol_from_data",
    "protocol_names",
    "reasons",
    "register_protocol",
    "tatqa_gold",
]
