"""A package's public names imported from their modules on first use (PEP 562), written once.

A command imports only the modules it runs, so a package such as `finscore.inputs` or
`finscore.stats` names its API in a table and loads a name's module when the name is first asked for.
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping


def load_name(package: str, owners: Mapping[str, str], name: str, namespace: dict[str, Any]) -> Any:
    """`package.name`, imported from its module in `owners` (absolute, or relative to `package` when it
    starts with "."), and kept in `namespace` (the package's globals) so later lookups skip this."""
    owner = owners.get(name)
    if owner is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(owner, package), name)
    namespace[name] = value
    return value


def listed_names(namespace: Mapping[str, Any], owners: Mapping[str, str]) -> list[str]:
    """The package's `dir()`: what it holds and every name it loads on first use."""
    return sorted({*namespace, *owners})
