"""The exact core: the WebAssembly module, its ABI records, and the hosts that run it.

`binding.get_core()` gives the one loaded core of the process; `abi` lays out and
reads the records the module exchanges; `plain_text` lays out token programs for the
core's own reader; `hosts` hides whether wasmtime (CPython) or the browser's engine
(Pyodide) runs the module.
"""
