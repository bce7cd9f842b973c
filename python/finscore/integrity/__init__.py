"""Sealed traces: a hash chain over each attempt's trace and an HMAC seal only the evaluator can make.

`seal` builds and checks the chain and the seal (docs/contracts-format.md
section 6); `key` finds, creates and reads the evaluator's key file. The
runner seals every prediction line it writes; the scorer verifies them.
"""

from finscore.integrity.key import DEFAULT_KEY_NAME, TraceKeyError, default_key_path, load_key, load_or_create_key
from finscore.integrity.seal import (
    SEAL_FORMAT,
    SealCheck,
    chain_head,
    check_seal,
    new_run_id,
    seal_prediction,
)

__all__ = [
    "DEFAULT_KEY_NAME",
    "SEAL_FORMAT",
    "SealCheck",
    "TraceKeyError",
    "chain_head",
    "check_seal",
    "default_key_path",
    "load_key",
    "load_or_create_key",
    "new_run_id",
    "seal_prediction",
]
