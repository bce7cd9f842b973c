"""What an agent's process may do: its folder, its environment, its resource limits, a Python guard.

Applied inside the agent's process before the agent is unpickled:

- an empty temporary working folder, removed by the runtime afterwards;
- an environment reduced to the variables the agent is configured with
  (proxy and certificate settings, and for the chat adapter its endpoint,
  model and key variables); TMPDIR points into the folder;
- `resource.setrlimit` on address space, CPU seconds, open files and file size
  (soft = hard, so the agent cannot raise them unless it runs as root);
- a `sys.addaudithook` guard that refuses, at the Python level: opening or
  listing the protected paths (the shipped kit with its gold contracts and
  fixtures, the case set, the trace key, the output folder) and other
  processes' /proc entries; writing anywhere outside the folder; starting
  processes, forking, sending signals, loading native code through ctypes and
  changing resource limits.

The audit hook alone is not a security sandbox (native code, or Python that
reaches the hook's own state, is not bound by it): where the machine allows,
the process runs inside the OS sandbox (finscore.runner.os_sandbox, chosen by
`os_sandbox`), which is what hides the kit, the key, the output folder and the
runtime, and bounds processes (RLIMIT_NPROC, set here only inside it). The
hook stays as a second fence and as the only one where the sandbox is off.
"""

from __future__ import annotations

import math
import os
import resource
import sys
import threading
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Mapping

#: How to reach the network through an HTTP proxy (not used inside the OS sandbox: no network there).
PROXY_VARIABLES = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
)
#: Variables an agent may need whatever it is: how to reach the network and trust its certificates.
NETWORK_VARIABLES = (
    *PROXY_VARIABLES,
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "REQUESTS_CA_BUNDLE",
)
#: Variables an interpreter may need to start and find its libraries; none names a secret.
START_VARIABLES = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "LD_LIBRARY_PATH", "TZ")
#: CPU seconds allowed on top of the deadline, for starting Python and unpickling the agent.
STARTUP_CPU_SECONDS = 60
_BLOCKED_EVENTS = frozenset(
    {
        "subprocess.Popen",
        "os.system",
        "os.exec",
        "os.posix_spawn",
        "os.spawn",
        "os.fork",
        "os.forkpty",
        "pty.spawn",
        "os.kill",
        "os.killpg",
        "signal.pthread_kill",
        "ctypes.dlopen",
        "ctypes.dlsym",
        "ctypes.call_function",
        "ctypes.cdata",
        "ctypes.addressof",
        "ctypes.string_at",
        "ctypes.wstring_at",
        "ctypes.PyObj_FromPtr",
        "resource.setrlimit",
        "resource.prlimit",
        "sys.remote_exec",
    }
)
_READ_EVENTS = frozenset({"os.listdir", "os.scandir", "glob.glob", "os.chdir"})
_WRITE_EVENTS = frozenset(
    {
        "os.remove",
        "os.rename",
        "os.rmdir",
        "os.mkdir",
        "os.chmod",
        "os.chown",
        "os.link",
        "os.symlink",
        "os.truncate",
        "os.utime",
        "os.setxattr",
        "os.removexattr",
        "shutil.copyfile",
        "shutil.copymode",
        "shutil.copystat",
        "shutil.copytree",
        "shutil.move",
        "shutil.rmtree",
        "shutil.chown",
    }
)
OS_SANDBOX_CHOICES = ("required", "auto", "off")
#: The kit's place inside the finscore package: refused (and, in the OS sandbox, hidden) in every copy
#: of the package on the agent's sys.path, not only in the copy the runtime imported.
KIT_INSIDE_PACKAGE = PurePath("finscore") / "contracts" / "kit"
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


@dataclass(frozen=True)
class Isolation:
    """The limits and the protected paths of one agent process."""

    cpu_seconds: int
    memory_bytes: int = 4 << 30
    open_files: int = 256
    file_bytes: int = 64 << 20
    keep_environment: tuple[str, ...] = ()
    protected_paths: tuple[str, ...] = ()
    #: processes (threads included) the agent may have at once; applied inside the OS sandbox only
    processes: int = 64
    #: the OS sandbox: "required" (an attempt fails where it is unavailable), "auto" (used where
    #: available), "off" (never: the process-level isolation alone)
    os_sandbox: str = "auto"

    def __post_init__(self) -> None:
        if self.os_sandbox not in OS_SANDBOX_CHOICES:
            raise ValueError(f"os_sandbox must be one of {', '.join(OS_SANDBOX_CHOICES)}, not {self.os_sandbox!r}")

    @classmethod
    def for_deadline(cls, deadline_seconds: float, **options: Any) -> "Isolation":
        return cls(cpu_seconds=math.ceil(deadline_seconds) + STARTUP_CPU_SECONDS, **options)


def _path_text(value: Any) -> str | None:
    if isinstance(value, int) or value is None:
        return None
    try:
        return os.fsdecode(os.fspath(value))
    except TypeError:
        return None


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


class _Guard:
    """The audit hook: refuses the events and paths listed in the module docstring."""

    def __init__(self, folder: str, protected: tuple[str, ...]) -> None:
        self.folder = os.path.realpath(folder)
        self.protected = tuple(os.path.realpath(path) for path in protected)
        self.own_proc = (f"/proc/{os.getpid()}", "/proc/self", "/proc/thread-self")
        # Per thread: the events the check itself raises (realpath's) are let through, but only on the
        # thread that is checking; a flag shared by all threads would let another thread's open pass.
        self.checking = threading.local()

    def refuse(self, what: str) -> None:
        raise PermissionError(f"refused in the agent's process: {what}")

    def readable(self, path: str) -> bool:
        if any(_inside(path, root) for root in self.protected):
            return False
        if path.startswith("/proc/"):
            own = any(_inside(path, root) for root in self.own_proc)
            return own and not path.endswith("/environ")
        return True

    def writable(self, path: str) -> bool:
        return _inside(path, self.folder) or path == os.devnull

    def check(self, event: str, value: Any, writing: bool) -> None:
        text = _path_text(value)
        if text is None:
            return
        path = os.path.realpath(text)
        if not self.readable(path):
            self.refuse(f"{event} {text}")
        if writing and not self.writable(path):
            self.refuse(f"{event} {text} (writes are allowed only in the agent's folder)")

    def __call__(self, event: str, args: tuple[Any, ...]) -> None:
        checking = self.checking
        if getattr(checking, "busy", False):
            return
        checking.busy = True
        try:
            self.inspect(event, args)
        finally:
            checking.busy = False

    def inspect(self, event: str, args: tuple[Any, ...]) -> None:
        if event in _BLOCKED_EVENTS:
            self.refuse(event)
        if event == "open":
            path, mode, flags = (tuple(args) + (None, None, 0))[:3]
            writing = any(c in str(mode or "") for c in "wax+") or bool(int(flags or 0) & _WRITE_FLAGS)
            self.check(event, path, writing)
        elif event in _READ_EVENTS and args:
            self.check(event, args[0], False)
        elif event in _WRITE_EVENTS:
            for value in args[:2]:
                self.check(event, value, True)


def _set_limit(kind: int, value: int) -> None:
    soft, hard = resource.getrlimit(kind)
    limit = value if hard == resource.RLIM_INFINITY else min(value, hard)
    resource.setrlimit(kind, (limit, limit))


def child_environment(isolation: Isolation, environment: Mapping[str, str]) -> dict[str, str]:
    """The whole environment the agent's process starts with: the isolation's variables, nothing else.

    Built before the interpreter starts (not cleared inside it), so that its /proc/self/environ
    holds no more than this either.
    """
    names = START_VARIABLES + NETWORK_VARIABLES + isolation.keep_environment
    return {name: environment[name] for name in names if name in environment}


def enter(isolation: Isolation, folder: str, sandboxed: bool = False) -> None:
    """Make this process the agent's: folder, environment, limits, then the guard (last, for good).

    `sandboxed`: inside the OS sandbox, where RLIMIT_NPROC counts the sandbox's processes only
    (its own user namespace, or a uid of its own); outside it would count all of the user's.
    """
    sys.path[:] = [os.path.abspath(entry) for entry in sys.path]
    os.chdir(folder)
    kept = {name: os.environ[name] for name in NETWORK_VARIABLES + isolation.keep_environment if name in os.environ}
    os.environ.clear()
    os.environ.update(kept, TMPDIR=folder, HOME=folder)
    _set_limit(resource.RLIMIT_AS, isolation.memory_bytes)
    _set_limit(resource.RLIMIT_CPU, isolation.cpu_seconds)
    _set_limit(resource.RLIMIT_NOFILE, isolation.open_files)
    _set_limit(resource.RLIMIT_FSIZE, isolation.file_bytes)
    _set_limit(resource.RLIMIT_CORE, 0)
    if sandboxed:
        _set_limit(resource.RLIMIT_NPROC, isolation.processes)
    sys.addaudithook(_Guard(folder, isolation.protected_paths + kit_copies(sys.path)))


def kit_copies(python_path: list[str]) -> tuple[str, ...]:
    """The kit of every finscore package the agent could import: a sys.path entry other than the
    runtime's (a test, a tool or the user may put another checkout first) must not open a way to
    another copy of the gold contracts."""
    return tuple(os.path.join(entry, KIT_INSIDE_PACKAGE) for entry in python_path
                 if os.path.isabs(entry) and os.path.isdir(os.path.join(entry, KIT_INSIDE_PACKAGE)))
