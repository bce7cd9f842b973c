"""A batch of 10,000 programs costs one call into the module."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

import pytest

import finscore.engine.api
from finscore.engine.core.binding import Core
from finscore.engine.core.hosts.backend import module_bytes
from finscore.engine.core.hosts.wasmtime_backend import WasmtimeBackend


class CountingBackend:
    """Passes every call through to wasmtime and counts them by name."""

    def __init__(self) -> None:
        self.inner = WasmtimeBackend.create(module_bytes())
        self.calls: Counter[str] = Counter()

    def call(self, name: str, *args: int | float) -> int:
        self.calls[name] += 1
        return self.inner.call(name, *args)

    def read(self, address: int, size: int) -> bytes:
        return self.inner.read(address, size)

    def write(self, address: int, data: bytes) -> None:
        self.inner.write(address, data)

    def read_all(self, regions: Sequence[tuple[int, int]]) -> list[bytes]:
        return self.inner.read_all(regions)

    def write_all(self, writes: Sequence[tuple[int, bytes]]) -> None:
        self.inner.write_all(writes)


def test_ten_thousand_programs_cost_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = CountingBackend()
    core = Core(backend)
    monkeypatch.setattr(finscore.engine.api, "get_core", lambda: core)
    programs = [(f"subtract({k}, 1.2), divide(#0, 34.8), multiply(#1, const_100)", None) for k in range(10_000)]
    outcomes = finscore.engine.api.execute_many(programs)
    # plain programs: the core reads and runs all of them in one call
    assert backend.calls["fs_read_execute_batch_packed"] == 1
    assert backend.calls["fs_execute_batch_packed"] == 0 and backend.calls["fs_execute"] == 0
    assert [o.result for o in outcomes[:3]] == [round((k - 1.2) / 34.8 * 100.0, 5) for k in range(3)]
    finscore.engine.api.execute_many(programs + programs[:1])
    assert backend.calls["fs_read_execute_batch_packed"] == 3  # 10,001 programs: two chunks


def test_programs_the_core_defers_cost_one_more_call(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = CountingBackend()
    core = Core(backend)
    monkeypatch.setattr(finscore.engine.api, "get_core", lambda: core)
    # "1_000" is a number only Python's float() reads: the full reader takes these
    programs = [(["add(", "1_000", str(k), ")", "EOF"], None) for k in range(10_000)]
    outcomes = finscore.engine.api.execute_many(programs)
    assert backend.calls["fs_read_execute_batch_packed"] == 1 and backend.calls["fs_execute_batch_packed"] == 1
    assert [o.result for o in outcomes[:3]] == [1000.0 + k for k in range(3)]
