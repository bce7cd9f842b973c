"""The documented path of the HTTP reward server (`finscore serve-reward` runs it); the server
itself is `finscore.rewards.adapters.server`."""

from finscore.rewards.adapters.server import MAX_BODY_BYTES, MAX_ROWS, BadRequest, create_app

__all__ = ["MAX_BODY_BYTES", "MAX_ROWS", "BadRequest", "create_app"]
