"""The operating-system sandbox an agent's process runs in: bubblewrap (`bwrap`), from Debian.

Why bubblewrap: it is a small, well-kept setuid-free tool (Flatpak's sandbox, packaged by
every distribution) that builds exactly the namespaces asked for and nothing else, takes
its whole configuration as arguments (no policy file to ship), and needs no daemon, no
cgroup delegation and no root. nsjail does more (seccomp policies, cgroups) than the
runner needs and is not in Debian's stable release; Landlock and seccomp alone hide no
process and no network. See docs/contracts-format.md section 5.2.

What the agent's process gets (`command`):

- new mount, PID, IPC, UTS and network namespaces (`--unshare-*`), its own session
  (`--new-session`) and death with the runtime (`--die-with-parent`);
- a new user namespace when the runtime is not root (`--unshare-user`, no further ones:
  `--disable-userns`); under root a user namespace would map the agent to root itself,
  whose process count no rlimit bounds, so the agent instead drops at once to a uid of
  its own that owns no file (`agent_uid`) and keeps no capability;
- a read-only view of only what its interpreter imports: /usr (and the /bin, /lib
  links), the Python prefixes, the runtime's sys.path entries, a few files under /etc
  (certificates, the loader cache); every protected path (the kit with its case files
  and gold contracts, every copy of the kit on sys.path, a case-set folder, the trace
  key, the output folder) that falls inside that view is hidden under an empty tmpfs
  or /dev/null;
- a private tmpfs working folder and /tmp (size-bounded), its own /proc of its PID
  namespace (no /proc of the runtime) and a minimal /dev;
- no network: the inherited wire socket is its only channel; a chat agent reaches its
  endpoint through a Unix socket the runtime owns (finscore.runner.endpoint_proxy).

Its arguments reach bwrap through a pipe (`--args`), so not even the sandbox's pid 1 shows
them in /proc/1/cmdline. Ending the attempt kills the namespace's init, and with it every
process the agent started (`SandboxedProcess.end`).
"""

from __future__ import annotations

import functools
import itertools
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterable, Sequence

from finscore.runner.isolation import KIT_INSIDE_PACKAGE

#: The tool, looked up on PATH.
BWRAP = "bwrap"
#: Seconds the availability probe may take (one sandbox started and stopped).
PROBE_SECONDS = 30.0
#: Where a chat agent's endpoint socket appears inside the sandbox.
ENDPOINT_SOCKET = "/run/finscore/endpoint.sock"
#: Files under /etc an interpreter may read: certificates (a chat agent's HTTPS), the loader cache.
ETC_FILES = ("/etc/ssl", "/etc/ca-certificates", "/etc/pki", "/etc/ld.so.cache", "/etc/localtime")
#: Under root, each sandboxed attempt runs as a uid of its own from this range (no file owns one).
AGENT_UID_BASE = 1_000_000_000
AGENT_UID_SLOTS = 256

_uids = itertools.count()
_uid_lock = threading.Lock()


class SandboxUnavailable(RuntimeError):
    """The machine cannot provide the OS sandbox (no bwrap, or no namespaces for it)."""


def running_as_root() -> bool:
    return os.geteuid() == 0


def agent_uid() -> int | None:
    """The uid a sandboxed agent drops to under root (None otherwise): unique per runtime process
    and attempt slot, so that RLIMIT_NPROC counts this attempt's processes only."""
    if not running_as_root():
        return None
    with _uid_lock:
        slot = next(_uids) % AGENT_UID_SLOTS
    return AGENT_UID_BASE + (os.getpid() % 4_000_000) * AGENT_UID_SLOTS + slot


def _namespace_options() -> list[str]:
    if running_as_root():
        return ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                "--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    return ["--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"]


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _outermost(paths: Iterable[Path]) -> list[Path]:
    """The paths with every one inside another dropped, in a stable order."""
    unique = sorted(set(paths), key=lambda p: (len(p.parts), str(p)))
    kept: list[Path] = []
    for path in unique:
        if not any(_inside(path, other) for other in kept):
            kept.append(path)
    return kept


def interpreter_paths(python_path: Sequence[str], protected: Sequence[str] = ()) -> list[Path]:
    """What the agent's interpreter must read: its prefixes, its executable's home, the sys.path
    entries that exist (a zip file or a folder), outermost only; /usr is bound on its own.

    An entry that holds a protected path other than a kit (the key, the output folder, a case
    set: `python -m` puts the working folder on sys.path) is left out whole, and so is the
    home folder or any folder above it: only the kit, inside the package, is hidden by a mount.
    """
    withheld = [Path(os.path.realpath(path)) for path in protected if not Path(path).match(str(KIT_INSIDE_PACKAGE))]
    withheld.append(Path(os.path.realpath(os.path.expanduser("~"))))
    candidates = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
                  os.path.dirname(os.path.dirname(os.path.realpath(sys.executable))), *python_path]
    found = []
    for entry in candidates:
        if entry and os.path.isabs(entry) and os.path.exists(entry):
            path = Path(os.path.realpath(entry))
            if not any(_inside(secret, path) for secret in withheld) and _agent_may_enter(path):
                found.append(path)
    return [path for path in _outermost(found) if not _inside(path, Path("/usr")) and path != Path("/")]


def _agent_may_enter(path: Path) -> bool:
    """Whether the agent can use a bound folder (or zip file). As root the agent runs under a uid of
    its own, so a folder closed to other users (a checkout made in a `mktemp -d` folder, mode 0700)
    would be bound but unreadable: it is left out whole, and the entries inside it are bound on
    their own (their parents are made 0755 in the sandbox). Not as root, the agent is the user."""
    if not running_as_root():
        return True
    mode = path.stat().st_mode
    return bool(mode & 0o001) if path.is_dir() else bool(mode & 0o004)


def hidden_paths(bound: Sequence[Path], protected: Sequence[str], python_path: Sequence[str]) -> list[Path]:
    """The protected paths (and every copy of the kit on sys.path) that lie inside the bound view."""
    candidates = [Path(os.path.realpath(path)) for path in protected]
    candidates += [Path(os.path.realpath(entry)) / KIT_INSIDE_PACKAGE for entry in python_path if os.path.isabs(entry)]
    return [path for path in _outermost(candidates)
            if path.exists() and any(_inside(path, root) for root in [*bound, Path("/usr")])]


def _parents_to_make(destinations: Sequence[Path], bound: Sequence[Path]) -> list[Path]:
    """Folders to create (mode 0755) before the mounts: bwrap would make them 0700, and the agent
    under its own uid could then not walk to what is bound beneath."""
    wanted: set[Path] = set()
    for destination in destinations:
        for parent in destination.parents:
            if parent != Path("/") and not any(_inside(parent, root) for root in bound):
                wanted.add(parent)
    return sorted(wanted, key=lambda p: (len(p.parts), str(p)))


def arguments(
    *,
    python_path: Sequence[str],
    protected: Sequence[str],
    folder: str,
    folder_bytes: int,
    endpoint_socket: str | None,
    extra_files: Sequence[str] = (),
) -> list[str]:
    """bwrap's options (before the command) for one agent process; see the module docstring."""
    args = _namespace_options() + ["--die-with-parent", "--new-session"]
    bound = interpreter_paths(python_path, protected)
    args += ["--ro-bind", "/usr", "/usr", "--perms", "1777", "--size", str(folder_bytes), "--tmpfs", "/tmp"]
    tops: list[Path] = []
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        top = Path("/") / name
        if top.is_symlink():
            args += ["--symlink", os.readlink(top), str(top)]
        elif top.is_dir():
            args += ["--ro-bind", str(top), str(top)]
            tops.append(top)
    bound = [path for path in bound if not any(_inside(path, top) for top in tops)]
    workdir = Path(folder)
    etc = [name for name in [*ETC_FILES, *extra_files] if name and os.path.isabs(name)]
    destinations = [*bound, workdir, *(Path(name) for name in etc)]
    if endpoint_socket is not None:
        destinations.append(Path(ENDPOINT_SOCKET))
    for parent in _parents_to_make(destinations, [Path("/usr"), *tops, *bound]):
        args += ["--perms", "0755", "--dir", str(parent)]
    for path in bound:
        args += ["--ro-bind", str(path), str(path)]
    for name in etc:
        args += ["--ro-bind-try", name, name]
    for path in hidden_paths([*bound, *tops], protected, python_path):
        args += ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", "/dev/null", str(path)]
    args += ["--proc", "/proc", "--dev", "/dev"]
    args += ["--perms", "0777", "--size", str(folder_bytes), "--tmpfs", str(workdir), "--chdir", str(workdir)]
    if endpoint_socket is not None:
        args += ["--ro-bind", endpoint_socket, ENDPOINT_SOCKET]
    return args


def args_pipe(options: Sequence[str]) -> int:
    """A pipe's read end holding `options` NUL-separated, for `bwrap --args FD` (written whole
    now: the options are far below a pipe's buffer)."""
    data = b"".join(os.fsencode(option) + b"\0" for option in options)
    read_end, write_end = os.pipe()
    try:
        if len(data) > 60_000:
            raise SandboxUnavailable(f"the sandbox's options take {len(data)} bytes, more than a pipe holds at once")
        written = os.write(write_end, data)
        if written != len(data):
            raise SandboxUnavailable("the sandbox's options could not be written whole")
    except BaseException:
        os.close(read_end)
        raise
    finally:
        os.close(write_end)
    return read_end


def _probe() -> str | None:
    """Why the sandbox cannot run here, or None: start the interpreter in one and check it ran."""
    tool = shutil.which(BWRAP)
    if tool is None:
        return f"{BWRAP} (bubblewrap) is not installed"
    folder = Path(os.environ.get("TMPDIR") or "/tmp") / "finscore-sandbox-probe"
    options = arguments(python_path=[], protected=[], folder=str(folder), folder_bytes=1 << 20, endpoint_socket=None)
    uid = agent_uid()
    code = "import os,sys\n" + (f"os.setgroups([]);os.setresgid({uid},{uid},{uid});os.setresuid({uid},{uid},{uid})\n"
                                if uid is not None else "") + "print('sandboxed', os.getpid())"
    descriptor = args_pipe(options)
    try:
        done = subprocess.run([tool, "--args", str(descriptor), "--", sys.executable, "-I", "-S", "-c", code],
                              pass_fds=(descriptor,), capture_output=True, text=True, timeout=PROBE_SECONDS,
                              env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")}, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{BWRAP} could not be started: {error}"
    finally:
        os.close(descriptor)
    # In a new PID namespace the interpreter is pid 2 (bwrap's own init is pid 1).
    if done.returncode != 0 or done.stdout.strip() != "sandboxed 2":
        return f"{BWRAP} cannot build the sandbox here (exit {done.returncode}): {done.stderr.strip()[:300]}"
    return None


@functools.lru_cache(maxsize=1)
def unavailable_reason() -> str | None:
    """Why this machine cannot provide the OS sandbox (None: it can); probed once per process."""
    return _probe()


@functools.lru_cache(maxsize=1)
def version() -> str:
    """bwrap's own version line, for the run's manifest."""
    tool = shutil.which(BWRAP)
    if tool is None:
        return "none"
    done = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=PROBE_SECONDS, check=False)
    return done.stdout.strip() or f"{BWRAP} (version unknown)"
