"""The packages whose names load on first use (finscore.lazy_names) behave as plain modules do."""

from __future__ import annotations

import importlib
import types

import pytest

LAZY_PACKAGES = ("finscore.inputs", "finscore.financebench", "finscore.stats", "finscore.tatqa")


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_an_unknown_name_raises_as_cpython_s_own_modules_do(package: str) -> None:
    plain = types.ModuleType(package)  # CPython's own message for a module without the name
    with pytest.raises(AttributeError) as expected:
        getattr(plain, "no_such_name")
    with pytest.raises(AttributeError) as raised:
        getattr(importlib.import_module(package), "no_such_name")
    assert str(raised.value) == str(expected.value)


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_every_public_name_loads_from_its_module_and_is_kept(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        assert vars(module)[name] is value  # later lookups find it without __getattr__
