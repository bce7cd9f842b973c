"""The documented path of the HTTP reward server (`finscore serve-reward` runs it); the server
itself is `finscore.rewards.adapters.server`, its connection timeouts
`finscore.rewards.adapters.server_guard` (hand `guarded_protocol(...)` to `uvicorn.run(app, http=...)`)."""

from finscore.rewards.adapters.server import (BODY_TIMEOUT, CONCURRENT_BODIES, HEADER_TIMEOUT, MAX_BODY_BYTES, MAX_ROWS,
                                              BadRequest, create_app)
from finscore.rewards.adapters.server_guard import guarded_protocol

__all__ = ["BODY_TIMEOUT", "CONCURRENT_BODIES", "HEADER_TIMEOUT", "MAX_BODY_BYTES", "MAX_ROWS", "BadRequest",
           "create_app", "guarded_protocol"]
