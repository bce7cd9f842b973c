"""Where the WebAssembly core runs: one host layer, two back ends.

Under CPython the module runs in wasmtime; under Pyodide (in a browser) it runs
in the browser's own WebAssembly engine. Everything above this layer makes the
same calls either way, and all results are read back through linear memory, so
both give the same bits (a JavaScript call returning a double would turn -0.0
into the integer 0 under Pyodide).
"""

from finscore.engine.core.hosts.backend import CoreLoadError, WasmBackend, module_bytes
from finscore.engine.core.hosts.loading import load_backend

__all__ = ["CoreLoadError", "WasmBackend", "load_backend", "module_bytes"]
