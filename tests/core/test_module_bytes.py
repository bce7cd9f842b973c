"""The shipped module is found beside the package, or through importlib.resources."""

from __future__ import annotations

import hashlib
from importlib import resources

import pytest

from finscore.engine.core.hosts import backend
from finscore.engine.core.hosts.backend import WASM_RESOURCE, CoreLoadError, module_bytes


def test_the_file_beside_the_package_is_the_packaged_resource() -> None:
    packaged = resources.files("finscore").joinpath(WASM_RESOURCE).read_bytes()
    assert hashlib.sha256(module_bytes()).digest() == hashlib.sha256(packaged).digest()
    assert module_bytes()[:4] == b"\0asm"


def test_without_a_plain_file_importlib_resources_finds_it(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = module_bytes()
    monkeypatch.setattr(backend.os.path, "isfile", lambda path: False)
    assert module_bytes() == expected


def test_a_missing_module_is_a_clear_load_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backend.os.path, "isfile", lambda path: False)
    monkeypatch.setattr(backend, "WASM_RESOURCE", "no_such_core.wasm")
    with pytest.raises(CoreLoadError, match="no_such_core.wasm is missing"):
        module_bytes()
