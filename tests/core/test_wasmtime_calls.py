"""The two ways the wasmtime backend calls the core: wasmtime-py's public Func.__call__,
and the direct path through wasmtime's C entry point (`_DirectCalls`), which is the default
where the installed wasmtime-py supports it. Both must give the recorded official outcomes.
"""

from __future__ import annotations

from importlib.metadata import version

import pytest
import wasmtime
from support.shared import same_outcome, table_of, vector_rows

from finscore.engine.core.binding import Core
from finscore.engine.core.hosts.backend import module_bytes
from finscore.engine.core.hosts.wasmtime_backend import DIRECT_CALLS_VARIABLE, WasmtimeBackend, _DirectCalls
from finscore.engine.results import ExecutionBatch

#: The direct path is the default where wasmtime-py supports it; if an installed wasmtime-py no longer
#: has the names it needs, these tests cannot compare the two paths and CI must say so (essential skip).
pytestmark = pytest.mark.essential


def _core(direct_calls: bool) -> Core:
    return Core(WasmtimeBackend.create(module_bytes(), direct_calls=direct_calls))


def _columns(core: Core, programs: list, tables: list) -> tuple[list, list, list]:
    batch = ExecutionBatch(core, "official", "3.11")
    batch.run(programs, tables)
    return batch.invalid, batch.results, batch.statuses


def test_both_call_paths_give_every_recorded_mutant_outcome() -> None:
    rows = [row for row in vector_rows("mutants") if table_of(row)[0]]
    programs, tables = [row["program"] for row in rows], [table_of(row)[1] for row in rows]
    direct, public = _core(True), _core(False)
    if not direct._backend.direct_calls:  # create() fell back to the public path: nothing to compare
        pytest.skip(f"wasmtime-py {version('wasmtime')} lacks the names the direct path needs; the public one is used")
    assert not public._backend.direct_calls
    for core in (direct, public):
        invalid, results, _ = _columns(core, programs, tables)
        assert [row["id"] for row, flag, result in zip(rows, invalid, results)
                if not same_outcome(row, flag, result)] == []
    assert _columns(direct, programs, tables)[2] == _columns(public, programs, tables)[2]
    assert len(rows) > 10_000


def test_direct_calls_are_used_where_wasmtime_py_has_what_they_need(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = WasmtimeBackend.create(module_bytes())
    if not _DirectCalls.supported(wasmtime, backend._store, backend._exports["fs_abi_version"]):
        pytest.skip(f"wasmtime-py {version('wasmtime')} lacks the names the direct path needs; the public one is used")
    assert backend.direct_calls
    monkeypatch.setenv(DIRECT_CALLS_VARIABLE, "0")
    assert not WasmtimeBackend.create(module_bytes()).direct_calls


_WAT = """
(module
  (memory (export "memory") 1)
  (func (export "mix") (param i32 i64 f64) (result i32)
    local.get 0
    local.get 1
    i32.wrap_i64
    i32.add
    local.get 2
    i32.trunc_f64_s
    i32.add)
  (func (export "nothing"))
  (func (export "boom") (result i32) unreachable))
"""


@pytest.fixture
def direct() -> _DirectCalls:
    engine = wasmtime.Engine()
    store = wasmtime.Store(engine)
    instance = wasmtime.Instance(store, wasmtime.Module(engine, wasmtime.wat2wasm(_WAT)), [])
    exports = instance.exports(store)
    if not _DirectCalls.supported(wasmtime, store, exports["mix"]):
        pytest.skip("this wasmtime-py lacks the names the direct path needs")
    return _DirectCalls(wasmtime, store, exports)


def test_direct_calls_pass_each_argument_kind(direct: _DirectCalls) -> None:
    assert direct.call("mix", 40, 2**40 + 1, -3.9) == 40 + 1 - 3
    assert direct.call("nothing") == 0


def test_a_trap_is_raised_not_lost(direct: _DirectCalls) -> None:
    with pytest.raises(wasmtime.Trap, match="unreachable"):
        direct.call("boom")
    assert direct.call("mix", 1, 1, 1.0) == 3  # and the instance is still usable


def test_a_wrong_argument_count_is_refused_before_the_call(direct: _DirectCalls) -> None:
    with pytest.raises(TypeError, match="mix takes 3 arguments, not 2"):
        direct.call("mix", 1, 2)
