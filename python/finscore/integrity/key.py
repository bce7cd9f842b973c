"""The evaluator's trace key: a file outside every output, created once with mode 0600.

Whoever holds the key can seal a trace, so it never goes into predictions,
reports or manifests, and the runner keeps it in its own process (an agent's
process never receives it). The default place is the user's config folder:
$XDG_CONFIG_HOME/finscore/trace.key, else ~/.config/finscore/trace.key.
"""

from __future__ import annotations

import fcntl
import os
import secrets
import stat
from pathlib import Path

from finscore.inputs import FinscoreError

DEFAULT_KEY_NAME = "trace.key"
KEY_BYTES = 32
MAX_KEY_BYTES = 4096


class TraceKeyError(FinscoreError):
    """The trace key cannot be found, created or read, or is not a usable key."""


def default_key_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "finscore" / DEFAULT_KEY_NAME


def load_key(path: Path) -> bytes:
    """The key in `path`; raises TraceKeyError if it is missing, too short or readable by others."""
    try:
        with open(path, "rb") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            data = handle.read(MAX_KEY_BYTES + 1)
    except FileNotFoundError:
        raise TraceKeyError(f"no trace key at {path}") from None
    except OSError as error:
        raise TraceKeyError(f"cannot read the trace key {path}: {error.strerror or error}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise TraceKeyError(f"the trace key {path} is readable by others (mode {stat.S_IMODE(mode):o}); chmod 600 it")
    key = data.strip()
    if len(key) < KEY_BYTES or len(data) > MAX_KEY_BYTES:
        raise TraceKeyError(f"the trace key {path} must hold {KEY_BYTES} to {MAX_KEY_BYTES} bytes")
    return key


def load_or_create_key(path: Path) -> bytes:
    """The key in `path`, created (random, hex, mode 0600, folder 0700) if there is none yet."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return load_key(path)
    except OSError as error:
        raise TraceKeyError(f"cannot create the trace key {path}: {error.strerror or error}") from None
    with os.fdopen(descriptor, "w", encoding="ascii") as handle:
        handle.write(secrets.token_hex(KEY_BYTES) + "\n")
    return load_key(path)


def used_run_ids_path(key_path: Path) -> Path:
    """Where the run ids given by hand (`finscore run --run-id`) under this key are recorded."""
    return key_path.with_name(key_path.name + ".runs")


def claim_run_id(key_path: Path, run_id: str) -> None:
    """Record `run_id` as used under this key; TraceKeyError if it was used before.

    A run id names one run: two runs sealed under one key and one id could otherwise be told
    apart only by their footers. The record (KEY.runs, mode 0600) is read and appended under a lock.
    """
    if not run_id or len(run_id) > 128 or not run_id.isprintable() or "\n" in run_id:
        raise TraceKeyError(f"a run id is 1 to 128 printable characters, not {run_id!r:.80}")
    path = used_run_ids_path(key_path)
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
    except OSError as error:
        raise TraceKeyError(f"cannot open the record of used run ids {path}: {error.strerror or error}") from None
    with os.fdopen(descriptor, "r+", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        if run_id in handle.read().splitlines():
            raise TraceKeyError(
                f"the run id {run_id!r} was already used with the key {key_path} (recorded in {path}): "
                "a run id names one run; give another, or none (the runtime then chooses one)"
            )
        handle.write(run_id + "\n")
