"""The core under CPython, in wasmtime: the Python bindings of a mature, spec-tested engine."""

from __future__ import annotations

import atexit
import ctypes
import os
from typing import Any, Callable, Sequence

from finscore.engine.core.hosts.backend import CoreLoadError, load_error_message


CACHE_VARIABLE = "FINSCORE_WASM_CACHE"
#: Set to 0 to call the core only through wasmtime's public Func.__call__ (see `_DirectCalls`).
DIRECT_CALLS_VARIABLE = "FINSCORE_WASMTIME_DIRECT_CALLS"


def _engine_config(wasmtime: Any) -> Any:
    """wasmtime's own compilation cache (in the user's cache folder) saves ~15 ms a start.

    Set FINSCORE_WASM_CACHE=0 to compile afresh each time; a cache that cannot be set
    up is simply not used.
    """
    config = wasmtime.Config()
    if os.environ.get(CACHE_VARIABLE, "1") != "0":
        try:
            config.cache = True
        except wasmtime.WasmtimeError:
            pass  # no usable cache folder: compiling without one gives the same module
    return config


class _DirectCalls:
    """Calls into the core through wasmtime's C entry point `wasmtime_func_call_unchecked`.

    Why: wasmtime-py's Func.__call__ rebuilds the function's type and converts every
    argument in Python on each call: about 18 microseconds a call, and over 150 when
    the interpreter's caches are cold (as after a garbage collection), which is most
    of a small batch's time. Here each export's argument kinds are read once from its
    own type, and a call fills a preallocated array and makes one ctypes call.

    It relies on names wasmtime-py does not document (`wasmtime._ffi`, `Func._func`,
    `Store._context`, `WasmtimeError._from_ptr`, `Trap._from_ptr`); `supported` checks
    for them, and the backend then also checks that both paths agree before using this
    one, so another wasmtime-py falls back to the public call instead of failing.
    """

    _FIELD_OF_KIND = {"i32": "i32", "i64": "i64", "f32": "f32", "f64": "f64"}

    def __init__(self, wasmtime: Any, store: Any, exports: Any) -> None:
        from wasmtime import _ffi

        self._ffi = _ffi
        self._wasmtime = wasmtime
        self._store = store
        self._exports = exports
        self._calls: dict[str, Callable[..., int]] = {}

    @staticmethod
    def supported(wasmtime: Any, store: Any, func: Any) -> bool:
        """Whether this wasmtime-py has the undocumented names the direct path needs
        (`func`: any exported function of the instance)."""
        try:
            from wasmtime import _ffi
        except ImportError:
            return False
        return (hasattr(_ffi, "wasmtime_func_call_unchecked") and hasattr(_ffi, "wasmtime_val_raw_t")
                and hasattr(_ffi, "wasm_trap_t") and callable(getattr(store, "_context", None))
                and hasattr(func, "_func")
                and callable(getattr(wasmtime.WasmtimeError, "_from_ptr", None))
                and callable(getattr(wasmtime.Trap, "_from_ptr", None)))

    def call(self, name: str, *args: int | float) -> int:
        caller = self._calls.get(name)
        if caller is None:
            caller = self._calls[name] = self._make_caller(name)
        return caller(*args)

    def _make_caller(self, name: str) -> Callable[..., int]:
        ffi, store = self._ffi, self._store
        func = self._exports[name]
        kind = func.type(store)
        params = [self._FIELD_OF_KIND.get(str(t)) for t in kind.params]
        results = [self._FIELD_OF_KIND.get(str(t)) for t in kind.results]
        if None in params or len(results) > 1 or None in results:
            raise CoreLoadError(f"the core's export {name} has a type finscore cannot call directly: {kind}")
        fields = [field for field in params if field is not None]
        slots = (ffi.wasmtime_val_raw_t * max(1, len(fields), len(results)))()
        result_field = results[0] if results else None
        func_ref = ctypes.byref(func._func)
        call_unchecked, context, trap_pointer = ffi.wasmtime_func_call_unchecked, store._context, ctypes.POINTER(
            ffi.wasm_trap_t)
        wasmtime = self._wasmtime

        def caller(*args: int | float) -> int:
            if len(args) != len(fields):
                raise TypeError(f"{name} takes {len(fields)} arguments, not {len(args)}")
            for slot, field, value in zip(slots, fields, args):
                setattr(slot, field, value)
            trap = trap_pointer()  # wasmtime sets it, and hands it over, if the call traps
            error = call_unchecked(context(), func_ref, slots, len(slots), ctypes.byref(trap))
            if error:
                raise wasmtime.WasmtimeError._from_ptr(error)
            if trap:
                raise wasmtime.Trap._from_ptr(trap)
            return 0 if result_field is None else int(getattr(slots[0], result_field))

        return caller


class WasmtimeBackend:
    def __init__(self, engine: Any, module: Any, store: Any, exports: Any, direct: _DirectCalls | None) -> None:
        self._engine = engine
        self._module = module
        self._store = store
        self._exports = exports
        self._memory = exports["memory"]
        self._direct = direct
        # Release the native objects while the interpreter is still whole: left to
        # garbage collection at shutdown, wasmtime's finalizers run after its C
        # bindings are gone and print tracebacks.
        atexit.register(self.close)

    def close(self) -> None:
        for handle in (self._store, self._module, self._engine):
            close = getattr(handle, "close", None)
            if close is not None:
                close()

    @classmethod
    def create(cls, wasm: bytes, *, direct_calls: bool | None = None) -> "WasmtimeBackend":
        """`direct_calls`: None decides by FINSCORE_WASMTIME_DIRECT_CALLS (default on, where
        the installed wasmtime-py supports them)."""
        try:
            import wasmtime
        except ImportError as error:  # pragma: no cover - a broken install
            raise CoreLoadError("wasmtime is not installed: pip install wasmtime") from error
        try:
            engine = wasmtime.Engine(_engine_config(wasmtime))
            store = wasmtime.Store(engine)
            module = wasmtime.Module(engine, wasm)
            instance = wasmtime.Instance(store, module, [])
        except wasmtime.WasmtimeError as error:
            # the user's words (for a refused reservation: the address space needed, and how to give
            # it) for every caller, not only the CLI: the Python API, serve-reward and Ray workers too
            raise CoreLoadError(load_error_message(CoreLoadError(f"wasmtime could not load the core: {error}"))) \
                from error
        exports: Any = instance.exports(store)  # a mapping of the module's exports, called by name
        exports["_initialize"](store)
        if direct_calls is None:
            direct_calls = os.environ.get(DIRECT_CALLS_VARIABLE, "1") != "0"
        direct = None
        if direct_calls and _DirectCalls.supported(wasmtime, store, exports["fs_abi_version"]):
            direct = _DirectCalls(wasmtime, store, exports)
            public = int(exports["fs_abi_version"](store))
            if direct.call("fs_abi_version") != public:  # the private names mean something else here
                direct = None
        return cls(engine, module, store, exports, direct)

    @property
    def direct_calls(self) -> bool:
        """Whether calls go through wasmtime's C entry point rather than Func.__call__."""
        return self._direct is not None

    def call(self, name: str, *args: int | float) -> int:
        if self._direct is not None:
            return self._direct.call(name, *args)
        result = self._exports[name](self._store, *args)
        return 0 if result is None else int(result)

    def _memory_span(self) -> tuple[int, int]:
        """(host address, length) of linear memory, through the public wasmtime API; memory
        may move when it grows, so this is asked for at each access (or group of accesses)."""
        return ctypes.addressof(self._memory.data_ptr(self._store).contents), self._memory.data_len(self._store)

    @staticmethod
    def _check(address: int, size: int, length: int) -> None:
        if address < 0 or size < 0 or address + size > length:
            raise IndexError(f"linear memory [{address}, {address + size}) is outside its {length} bytes")

    def read(self, address: int, size: int) -> bytes:
        return self.read_all(((address, size),))[0]

    def write(self, address: int, data: bytes) -> None:
        self.write_all(((address, data),))

    def read_all(self, regions: Sequence[tuple[int, int]]) -> list[bytes]:
        base, length = self._memory_span()
        for address, size in regions:
            self._check(address, size, length)
        return [ctypes.string_at(base + address, size) if size else b"" for address, size in regions]

    def write_all(self, writes: Sequence[tuple[int, bytes]]) -> None:
        base, length = self._memory_span()
        for address, data in writes:
            self._check(address, len(data), length)
        for address, data in writes:
            size = len(data)
            if size:
                source = data if isinstance(data, bytes) else (ctypes.c_char * size).from_buffer(data)
                ctypes.memmove(base + address, source, size)
