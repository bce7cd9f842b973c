"""Sealed traces: a hash chain over each attempt's trace and an HMAC seal only the evaluator can make.

`seal` builds and checks the chain and the seal of a line, `run_seal` the sealed
header and footer that bind a run's lines together, `jcs` the one canonical form
both cover, RFC 8785 (docs/contracts-format.md section 5.1); `key` finds, creates
and reads the evaluator's key file. The
runner seals every prediction line it writes; the scorer verifies them.
"""

from finscore.integrity.key import (
    DEFAULT_KEY_NAME,
    TraceKeyError,
    claim_run_id,
    default_key_path,
    load_key,
    load_or_create_key,
)
from finscore.integrity.run_seal import RUN_SEAL_FORMAT, RunCheck, check_run, is_run_seal, run_footer, run_header
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
    "RUN_SEAL_FORMAT",
    "RunCheck",
    "SEAL_FORMAT",
    "SealCheck",
    "TraceKeyError",
    "chain_head",
    "check_run",
    "claim_run_id",
    "check_seal",
    "default_key_path",
    "is_run_seal",
    "load_key",
    "load_or_create_key",
    "new_run_id",
    "run_footer",
    "run_header",
    "seal_prediction",
]
