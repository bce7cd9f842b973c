"""The choice of engine: wasmtime under CPython, the browser's own under Pyodide."""

from __future__ import annotations

import sys

from finscore.engine.core.hosts.backend import WasmBackend, module_bytes


def running_under_pyodide() -> bool:
    return sys.platform == "emscripten"


def load_backend() -> WasmBackend:
    """Instantiate the core in the engine of the current interpreter."""
    if running_under_pyodide():
        from finscore.engine.core.hosts.pyodide_backend import PyodideBackend

        return PyodideBackend.create()
    from finscore.engine.core.hosts.wasmtime_backend import WasmtimeBackend

    return WasmtimeBackend.create(module_bytes())
