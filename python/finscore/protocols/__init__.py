"""Published peer scoring protocols, reproduced exactly and never executing model text."""

from finscore.protocols.registry import PeerProtocol, ProtocolError, get_protocol, protocol_ids

__all__ = ["PeerProtocol", "ProtocolError", "get_protocol", "protocol_ids"]
