"""The runtime's handle on one attempt's agent process: start, one turn at a time, kill.

Every agent (scripted, a Python callable, the chat adapter) is pickled and
started in a fresh interpreter (`python -I -c BOOT FD`, a socket inherited as FD),
with an environment made from the isolation's variables only and an argv of its
own: nothing of the runtime's command line or environment (the trace key's path,
$XDG_CONFIG_HOME, keys of other services) reaches the agent's process, not even
its /proc/self/environ. multiprocessing's `spawn` would hand it both. The
interpreter gets the runtime's sys.path and the pickled agent over the socket;
from then on only JSON messages cross it (finscore.runner.wire). The runtime waits
for each reply no longer than the attempt's deadline and then kills the
process, so an agent that never returns costs its deadline and nothing else.
Start-up (a new interpreter importing the agent) is not charged to the
deadline; it has its own, generous limit.

Where the machine allows (or where the isolation requires it), that interpreter
starts inside the OS sandbox (finscore.runner.os_sandbox: `bwrap ... -- python -I
-c BOOT FD [UID]`); a chat agent then reaches its endpoint only through the
runtime's proxy (finscore.runner.endpoint_proxy). Ending the attempt kills the
sandbox's init, which kills every process the agent started, before `close`
returns.
"""

from __future__ import annotations

import json
import multiprocessing.connection
import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, Sequence

from finscore.runner import os_sandbox
from finscore.runner.agent import Agent, CaseView, TurnRecord
from finscore.runner.endpoint_proxy import EndpointProxy, reaches_endpoint
from finscore.runner.isolation import PROXY_VARIABLES, Isolation, child_environment
from finscore.runner.limits import Deadline, call_before_deadline
from finscore.runner.wire import (
    MAX_REPLY_BYTES,
    AgentFault,
    Reply,
    WireError,
    decode,
    encode,
    history_data,
    reply_from_data,
    view_data,
)

#: Wall-clock seconds a new agent process may take to start and unpickle its agent.
STARTUP_SECONDS = 300.0

#: Seconds a process that closed its pipe may take to exit on its own before it is killed
#: (never more than its attempt's deadline leaves).
EXIT_GRACE_SECONDS = 5.0
EXIT_POLL_SECONDS = 0.005

#: Starting, signalling, polling and reaping children is serialized: a poll racing a reap in
#: another thread must not read "no such child" as "still running".
_CHILDREN = threading.Lock()

#: The agent's interpreter: read sys.path (JSON) and the start message (pickle) from the inherited
#: socket, then run the agent's side of the pipe. Only the standard library is imported before
#: sys.path is the runtime's.
BOOT = """\
import os, sys
if len(sys.argv) > 2:  # in the OS sandbox under root: a uid of its own, no capability, before anything else
    uid = int(sys.argv[2])
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    import ctypes  # a uid change makes the process undumpable, its own /proc/self root's: made its own again
    if ctypes.CDLL(None, use_errno=True).prctl(4, 1, 0, 0, 0) != 0:  # PR_SET_DUMPABLE
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE) failed")
import json, pickle, runpy, types
from multiprocessing.connection import Connection
connection = Connection(int(sys.argv[1]))
sys.argv[:] = ["finscore-agent"]
boot = json.loads(connection.recv_bytes())
sys.path[:] = boot["path"]
if boot["main"] is not None:  # as spawn does: the runtime's main module, so its agents unpickle
    kind, where = boot["main"]
    main = types.ModuleType("__mp_main__")
    sys.modules["__main__"] = sys.modules["__mp_main__"] = main
    found = runpy.run_module(where, run_name="__mp_main__", alter_sys=True) if kind == "name" else runpy.run_path(
        where, run_name="__mp_main__")
    main.__dict__.update(found)
from finscore.runner.agent_host import host
host(connection, *pickle.loads(connection.recv_bytes()))
"""

#: Seconds the sandbox's processes may take to go once its init is killed.
SANDBOX_END_SECONDS = 10.0


def sandbox_wanted(isolation: Isolation) -> bool:
    """Whether this agent process runs in the OS sandbox; raises SandboxUnavailable when the
    isolation requires a sandbox the machine cannot provide."""
    if isolation.os_sandbox == "off":
        return False
    reason = os_sandbox.unavailable_reason()
    if reason is None:
        return True
    if isolation.os_sandbox == "required":
        raise os_sandbox.SandboxUnavailable(f"the OS sandbox is required but unavailable: {reason}")
    return False


def _main_module() -> tuple[str, str] | None:
    """How the agent's process finds the runtime's main module (an agent may be defined there), as
    multiprocessing's spawn does: by name for `python -m M`, by path for a script; none for a
    package's __main__, `-c` or an interactive session."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None:
        name = str(spec.name)
        return None if name == "__main__" or name.endswith(".__main__") else ("name", name)
    path = getattr(main, "__file__", None)
    if isinstance(path, str) and path.endswith(".py") and os.path.isfile(path):
        return ("path", os.path.abspath(path))
    return None


class TimedOut:
    """No reply before the deadline."""


TIMED_OUT = TimedOut()


class AgentProcess:
    """One agent process; use as a context manager so it is always killed and its folder removed."""

    def __init__(self, agent: Agent, isolation: Isolation) -> None:
        self.problem: str | None = None
        try:
            payload = pickle.dumps(agent)
        except Exception as error:  # whatever pickling raises, the attempt records why it could not start
            self.problem = (
                f"the agent cannot be sent to its own process ({type(error).__name__}: {error}); "
                "give a module-level function or an instance of a module-level class"
            )
            return
        try:
            self.sandboxed = sandbox_wanted(isolation)
        except os_sandbox.SandboxUnavailable as error:
            self.problem = str(error)
            return
        self._proxy: EndpointProxy | None = None
        self._init_pidfd: int | None = None
        self._info: int | None = None
        if self.sandboxed and reaches_endpoint(agent):
            self._proxy = EndpointProxy(*agent.endpoint_address())  # type: ignore[attr-defined]  # checked above
            try:
                payload = pickle.dumps(agent.through_socket(os_sandbox.ENDPOINT_SOCKET))  # type: ignore[attr-defined]
            except Exception as error:  # as above: the attempt records why it could not start
                self._proxy.close()
                self.problem = f"the agent cannot be sent to its own process ({type(error).__name__}: {error})"
                return
        ours, theirs = socket.socketpair()
        self._connection = multiprocessing.connection.Connection(ours.detach())
        self._folder = tempfile.mkdtemp(prefix="finscore-agent-")
        descriptor = theirs.fileno()
        path = [os.path.abspath(entry) for entry in sys.path]
        main = _main_module()
        command = [sys.executable, "-I", "-c", BOOT, str(descriptor)]
        descriptors: tuple[int, ...] = (descriptor,)
        options_fd = info_write = None
        environment = child_environment(isolation, os.environ)
        try:
            if self.sandboxed:
                extra = [environment.get(name, "") for name in ("SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE")]
                if main is not None and main[0] == "path":
                    extra.append(main[1])
                options = os_sandbox.arguments(
                    python_path=path,
                    protected=isolation.protected_paths,
                    folder=self._folder,
                    folder_bytes=isolation.file_bytes,
                    endpoint_socket=None if self._proxy is None else self._proxy.socket_path,
                    extra_files=[name for name in extra if name],
                )
                options_fd = os_sandbox.args_pipe(options)
                self._info, info_write = os.pipe()
                os.set_blocking(self._info, False)
                uid = os_sandbox.agent_uid()
                command = [os_sandbox.BWRAP, "--args", str(options_fd), "--info-fd", str(info_write), "--",
                           *command, *([] if uid is None else [str(uid)])]
                descriptors = (descriptor, options_fd, info_write)
                if self._proxy is not None:  # through the proxy, never through an HTTP proxy of the environment
                    environment = {k: v for k, v in environment.items() if k not in PROXY_VARIABLES}
            with _CHILDREN:
                self._process = subprocess.Popen(
                    command,
                    env=environment,
                    pass_fds=descriptors,
                    stdin=subprocess.DEVNULL,
                    cwd=self._folder,
                )
        except BaseException:  # nothing started: what was made for it goes, and the error is the caller's
            self._connection.close()
            if self._proxy is not None:
                self._proxy.close()
            if self._info is not None:
                os.close(self._info)
                self._info = None
            shutil.rmtree(self._folder, ignore_errors=True)
            raise
        finally:
            theirs.close()
            for end in (options_fd, info_write):
                if end is not None:
                    os.close(end)
        try:
            boot = {"path": path, "main": main}
            self._connection.send_bytes(json.dumps(boot).encode("utf-8"))
            self._connection.send_bytes(pickle.dumps((payload, self._folder, isolation, self.sandboxed)))
        except OSError as error:  # it died at once; its exit is read as the start fails
            self.problem = f"the agent's process could not be started: {error}"

    def _hold_sandbox_init(self) -> None:
        """Take a pidfd on the sandbox's init (bwrap's --info-fd names it), checked to be the child
        of our bwrap, so that ending the attempt can kill it, and with it the whole namespace."""
        if self._info is None:
            return
        try:
            info = json.loads(os.read(self._info, 4096) or b"{}")
        except (BlockingIOError, ValueError):
            return  # bwrap wrote nothing (it failed to start): the outer process is all there is
        finally:
            os.close(self._info)
            self._info = None
        pid = info.get("child-pid") if isinstance(info, dict) else None
        if not isinstance(pid, int):
            return
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            return  # already gone
        try:
            with open(f"/proc/{pid}/status", encoding="ascii") as status:
                parent = next((line.split()[1] for line in status if line.startswith("PPid:")), "")
        except OSError:
            parent = ""
        if parent == str(self._process.pid):
            self._init_pidfd = pidfd
        else:
            os.close(pidfd)

    def __enter__(self) -> "AgentProcess":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        if self.problem is not None and not hasattr(self, "_process"):
            if getattr(self, "_proxy", None) is not None:
                self._proxy.close()  # type: ignore[union-attr]  # checked on the line above
            return
        if self._init_pidfd is not None:
            # The sandbox's init dies, the kernel kills every process of its PID namespace, and only
            # then does bwrap (our child) see it exit: once _end returns, none of them is left.
            signal.pidfd_send_signal(self._init_pidfd, signal.SIGKILL)
            self._end(grace=SANDBOX_END_SECONDS)
            os.close(self._init_pidfd)
            self._init_pidfd = None
        else:
            if self._info is not None:
                os.close(self._info)
                self._info = None
            self._end(grace=0.0)
        self._connection.close()
        if self._proxy is not None:
            self._proxy.close()
        shutil.rmtree(self._folder, ignore_errors=True)

    def _kill(self) -> None:
        with _CHILDREN:
            if self._process.returncode is None:
                self._process.kill()

    def _end(self, grace: float) -> int:
        """Give the process up to `grace` seconds to exit, kill it if it has not; its exit code.

        Its status is polled, not waited for: a process that closes its descriptors closes
        its sentinel's pipe too and looks ended while it runs on, and a blocking join would
        hold the lock for as long as a killed process takes to go.
        """
        give_up = time.monotonic() + grace
        killed = False
        while True:
            with _CHILDREN:
                code = self._process.poll()
                if code is not None:
                    return code
                if not killed and time.monotonic() >= give_up:
                    self._process.kill()
                    killed = True
            time.sleep(EXIT_POLL_SECONDS)

    def _receive(self, deadline: Deadline) -> dict[str, Any] | TimedOut | AgentFault:
        outcome = call_before_deadline(lambda: self._connection.recv_bytes(MAX_REPLY_BYTES), deadline, "agent-reply")
        if outcome.timed_out:
            self._kill()
            return TIMED_OUT
        if isinstance(outcome.error, EOFError):
            code = self._end(grace=min(EXIT_GRACE_SECONDS, deadline.remaining()))
            return AgentFault("crashed", f"the agent's process ended without answering (exit code {code})")
        if outcome.error is not None or outcome.value is None:
            return AgentFault("crashed", f"the agent's process sent no readable reply: {outcome.error}")
        try:
            return decode(outcome.value)
        except WireError as error:
            return AgentFault("crashed", f"the agent's process broke the message protocol: {error}")

    def start(self) -> AgentFault | None:
        """Wait until the agent is ready; a fault if it could not start."""
        if self.problem is not None and not hasattr(self, "_process"):
            return AgentFault("crashed", self.problem)
        message = self._receive(Deadline(STARTUP_SECONDS))
        self._hold_sandbox_init()
        if isinstance(message, TimedOut):
            return AgentFault("crashed", f"the agent's process did not start within {STARTUP_SECONDS:g} s")
        if isinstance(message, AgentFault):
            return message
        if message["type"] == "ready":
            return None
        return AgentFault("crashed", str(message.get("detail", "the agent's process did not start")))

    def turn(self, view: CaseView, history: Sequence[TurnRecord], deadline: Deadline) -> Reply | TimedOut:
        """Send the view and history; the agent's reply, a fault, or TIMED_OUT (the process is then killed)."""
        if deadline.expired():
            return TIMED_OUT
        try:
            self._connection.send_bytes(encode({"type": "turn", "view": view_data(view), "history": history_data(history)}))
        except OSError:
            code = self._end(grace=min(EXIT_GRACE_SECONDS, deadline.remaining()))
            return AgentFault("crashed", f"the agent's process ended (exit code {code})")
        message = self._receive(deadline)
        if isinstance(message, (TimedOut, AgentFault)):
            return message
        try:
            return reply_from_data(message)
        except WireError as error:
            return AgentFault("crashed", f"the agent's process broke the message protocol: {error}")
