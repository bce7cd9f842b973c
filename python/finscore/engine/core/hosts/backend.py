"""The few primitives a WebAssembly engine must offer the core, and where the module's bytes come from.

The back ends import this module; it imports none of them (the choice of engine is in `loading`).
"""

from __future__ import annotations

import os
from typing import Protocol, Sequence

WASM_RESOURCE = "finscore_core.wasm"


class CoreLoadError(RuntimeError):
    """The WebAssembly core could not be found, compiled or instantiated."""


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
