"""The few primitives a WebAssembly engine must offer the core, and where the module's bytes come from.

The back ends import this module; it imports none of them (the choice of engine is in `loading`).
"""

from __future__ import annotations

import os
from typing import Protocol, Sequence

WASM_RESOURCE = "finscore_core.wasm"


class CoreLoadError(RuntimeError):
    """The WebAssembly core could not be found, compiled or instantiated."""


#: The address-space limit (`ulimit -v`, KiB) finscore asks for. wasmtime reserves the core's
#: linear memory up front: 4 GiB and a guard region (0x104000000 bytes), almost none of it ever
#: touched, and `ulimit -v` counts it. A whole command needed 4.12-4.17 GiB (4,317,870 to
#: 4,377,379 KiB) when measured by tools/address_space/measure.py (README, "Address space");
#: this leaves room for large files.
ADDRESS_SPACE_KIB = 4_500_000
#: How every such message opens.
LOAD_FAILED = "the WebAssembly core could not be loaded: "
#: What wasmtime's error says when that reservation is refused.
_RESERVATION_REFUSED = ("mmap failed", "Cannot allocate memory", "os error 12")


def _limit_kib() -> int | None:
    """This process's address-space limit in KiB, or None when there is none (or no way to ask)."""
    try:
        import resource
    except ImportError:  # not a POSIX host
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft // 1024


def load_error_message(error: CoreLoadError) -> str:
    """The user's words for a core that could not load: for a refused memory reservation, how much
    address space wasmtime needs and how to give it; else the error itself."""
    text = str(error)
    if text.startswith(LOAD_FAILED):  # already said this way (the backend raises it so)
        return text
    if not any(sign in text for sign in _RESERVATION_REFUSED):
        return f"{LOAD_FAILED}{text}"
    first_line = text.strip().splitlines()[0]
    limit = _limit_kib()
    now = f"this process may use {limit:,} KiB (ulimit -v {limit})" if limit is not None else \
        "this process was refused that much"
    return (f"{LOAD_FAILED}wasmtime could not reserve the core's memory "
            f"({first_line}). wasmtime reserves about 4.1 GiB of address space for it up front (its 4 GiB "
            f"linear memory and a guard region, almost none of it used), and {now}. Give it at least "
            f"{ADDRESS_SPACE_KIB:,} KiB: run `ulimit -v {ADDRESS_SPACE_KIB}` (or `ulimit -v unlimited`) "
            "in the shell before finscore, or raise the memory limit of the job or container that runs it.")


class WasmBackend(Protocol):
    """A live instance of the core module.

    Integer-returning calls only; every double crosses through linear memory.
    """

    def call(self, name: str, *args: int | float) -> int: ...

    def read(self, address: int, size: int) -> bytes: ...

    def write(self, address: int, data: bytes) -> None: ...

    def read_all(self, regions: Sequence[tuple[int, int]]) -> list[bytes]:
        """Several (address, size) regions at once: a batch reads its outputs in one go."""
        ...

    def write_all(self, writes: Sequence[tuple[int, bytes]]) -> None:
        """Several (address, data) writes at once."""
        ...


def module_bytes() -> bytes:
    """The shipped core module, from the installed package.

    Read as a plain file beside the package when it is one (importlib.resources costs a
    command about 5 ms of imports); through importlib.resources otherwise (a zipped install).
    """
    package = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, os.pardir))
    beside = os.path.join(package, WASM_RESOURCE)
    if os.path.isfile(beside):
        with open(beside, "rb") as handle:
            return handle.read()
    from importlib import resources

    try:
        return resources.files("finscore").joinpath(WASM_RESOURCE).read_bytes()
    except (FileNotFoundError, OSError) as error:
        raise CoreLoadError(
            f"the WebAssembly core {WASM_RESOURCE} is missing from the finscore package: {error}"
        ) from error
