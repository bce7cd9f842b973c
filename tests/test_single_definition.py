"""Each fact is defined once: a bound, a status code, a record size has one owner.

Issue #29: a value written in two modules drifts apart; a name used for two facts
misleads the reader. This test reads every module of python/finscore with `ast`
(nothing is imported) and fails when

(a) one UPPER_CASE module-level name is assigned a literal number or text in two
    modules (a re-export, `from x import NAME` or `NAME = x.NAME`, is not a
    literal and is the way to share it);
(b) a status code of the ABI (an int in the range of `Status`, or a status name)
    is written outside the generated module;
(c) a core record size is written by hand instead of computed from the generated
    record formats.
"""

from __future__ import annotations

import ast
import operator
import re
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

from finscore.engine.core import _abi_generated
from finscore.engine.core._abi_generated import Status

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "finscore"
GENERATED = PACKAGE / "engine" / "core" / "_abi_generated.py"
CONSTANT_NAME = re.compile(r"_?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")

#: Names that are, by design, one per module: each is that module's own fact and the
#: module is its namespace (values differ; nothing is shared).
ONE_PER_MODULE = {
    "USAGE": "each command module's own argparse usage text",
    "DESCRIPTION": "each command module's own argparse description",
    "EPILOG": "each command module's own argparse epilog",
    "REPORT_FORMAT": "each report module's own format id (finscore-<report>-report/1)",
}

_OPERATORS: dict[type[ast.operator], Callable[[object, object], object]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
    ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
}


class Definition(NamedTuple):
    """One literal assignment of a constant name at module level."""

    module: str
    line: int
    name: str
    value: object


def _literal(node: ast.expr) -> object | None:
    """The value of a literal number or text (or arithmetic on literal numbers), else None."""
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float, str, bytes)):
            return None
        return value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _literal(node.operand)
        return -inner if isinstance(inner, (int, float)) else None
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _literal(node.left), _literal(node.right)
        if isinstance(left, (int, float)) and isinstance(right, (int, float)):
            return _OPERATORS[type(node.op)](left, right)
    return None


def _assignments(tree: ast.Module) -> Iterator[tuple[ast.expr, ast.expr, int]]:
    """(target, value, line) of every module-level assignment, tuples unpacked pairwise."""
    for node in tree.body:
        if isinstance(node, ast.Assign):
            pairs = [(target, node.value) for target in node.targets]
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            pairs = [(node.target, node.value)]
        else:
            continue
        for target, value in pairs:
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
                yield from ((t, v, node.lineno) for t, v in zip(target.elts, value.elts))
            else:
                yield target, value, node.lineno


def _modules() -> list[tuple[str, ast.Module]]:
    return [(str(path.relative_to(PACKAGE)), ast.parse(path.read_text(encoding="utf-8"), str(path)))
            for path in sorted(PACKAGE.rglob("*.py"))]


MODULES = _modules()


def _definitions() -> dict[str, list[Definition]]:
    found: dict[str, list[Definition]] = {}
    for module, tree in MODULES:
        for target, value, line in _assignments(tree):
            if not (isinstance(target, ast.Name) and CONSTANT_NAME.fullmatch(target.id)):
                continue
            literal = _literal(value)
            if literal is not None:
                found.setdefault(target.id, []).append(Definition(module, line, target.id, literal))
    return found


def _duplicates() -> dict[str, list[Definition]]:
    return {name: where for name, where in _definitions().items() if len({d.module for d in where}) > 1}


def _describe(duplicates: dict[str, list[Definition]]) -> str:
    return "\n".join(f"{name}: " + ", ".join(f"{d.module}:{d.line} = {d.value!r}" for d in where)
                     for name, where in sorted(duplicates.items()))


def test_a_constant_name_is_assigned_a_literal_in_one_module() -> None:
    duplicates = {name: where for name, where in _duplicates().items() if name not in ONE_PER_MODULE}
    assert not duplicates, ("one fact per name: import it from its owner (same meaning) or rename what "
                            "it bounds (different meaning):\n" + _describe(duplicates))


def test_the_allowed_names_are_still_one_per_module_with_different_values() -> None:
    """An entry of ONE_PER_MODULE that holds one value twice is a shared fact after all."""
    for name in ONE_PER_MODULE:
        values = [d.value for d in _definitions().get(name, [])]
        assert len(values) == len(set(map(repr, values))), f"{name} holds one value in two modules: share it"


def test_no_status_code_is_written_outside_the_generated_module() -> None:
    low, high = min(Status), max(Status)
    # "ok" is also the plain word of every check result and JSON field; the other labels are only statuses.
    names = {s.name for s in Status if s is not Status.OK} | {s.label for s in Status if s is not Status.OK}
    found = []
    for module, tree in MODULES:
        if PACKAGE / module == GENERATED:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or isinstance(node.value, bool):
                continue
            if isinstance(node.value, int) and low <= node.value <= high or node.value in names:
                found.append(f"{module}:{node.lineno}: {node.value!r}")
    assert not found, "status codes come from engine/core/_abi_generated.py (Status):\n" + "\n".join(found)


def test_record_sizes_are_not_written_by_hand() -> None:
    records = [name[len("FS_"):-len("_FORMAT")] for name in dir(_abi_generated)
               if name.startswith("FS_") and name.endswith("_FORMAT")]
    assert records, "the generated module lost its record formats"
    size_name = re.compile(r"_?(?:FS_)?(?:" + "|".join(records + ["CELL"]) + r")_(?:BYTES|SIZE)")
    found = []
    for module, tree in MODULES:
        if PACKAGE / module == GENERATED:
            continue
        for target, value, line in _assignments(tree):
            if isinstance(target, ast.Name) and size_name.fullmatch(target.id) and _literal(value) is not None:
                found.append(f"{module}:{line}: {target.id} = {ast.unparse(value)}")
    assert not found, "record sizes come from the generated formats (struct.calcsize):\n" + "\n".join(found)
