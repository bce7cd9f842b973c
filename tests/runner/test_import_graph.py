"""No import circle among finscore's modules: each module's imports, read with `ast`, form no cycle.

The runner's scripted agents once made one (faulty -> oracle -> scripted -> faulty, through
the registry's loader); runner/agents/ ended it. Every import counts, at module level, in a
function or under TYPE_CHECKING: a circle that only a deferred import keeps working is still
a circle a reader has to untangle. An import names the module it loads (`from a.b import c`
is a.b.c when that is a module, else a.b); the parent packages Python initializes on the way
are not counted, since a package's __init__ importing its own modules is no circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "finscore"


def module_files() -> dict[str, tuple[Path, bool]]:
    """Every finscore module by its dotted name: its file and whether it is a package's __init__."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def imports_of(name: str, path: Path, is_package: bool, modules: set[str]) -> set[str]:
    """The finscore modules that this module's import statements name, wherever they stand."""
    named: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    named.add(f"{source}.{alias.name}")
                elif source in modules:
                    named.add(source)
    return named


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    return {name: imports_of(name, path, is_package, set(files)) for name, (path, is_package) in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module, or a module importing itself
    (Tarjan's algorithm, iterative: no recursion limit to meet)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_circle_and_passes_a_chain() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert cycles({"a": {"a"}}) == [["a"]]


def test_the_graph_reads_every_kind_of_import() -> None:
    graph = import_graph()
    # a module-level `from ... import`, a function-level one, and a TYPE_CHECKING one
    assert "finscore.runner.agents.registry" in graph["finscore.runner.agents.oracle"]
    assert "finscore.runner.agents.oracle" in graph["finscore.runner.agents.shipped"]
    assert "finscore.runner.agents.scripted" in graph["finscore.runner.agents.registry"]


def test_no_import_circle_among_finscore_modules() -> None:
    assert cycles(import_graph()) == []


#: The shared layers that reach a benchmark only through its descriptor (finscore.registry), and
#: the benchmark folders they must not import (issue #29: `answers/` and `rewards/` import nothing
#: from the benchmark folders except through the registry).
SHARED_LAYERS = ("finscore.answers", "finscore.rewards")
BENCHMARK_FOLDERS = ("finscore.finqa", "finscore.convfinqa", "finscore.tatqa")


def _within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def benchmark_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(shared-layer module, benchmark module it imports), for every such import in the graph."""
    return sorted((name, imported) for name, imports in graph.items() if _within(name, SHARED_LAYERS)
                  for imported in imports if _within(imported, BENCHMARK_FOLDERS))


def test_the_layer_check_finds_a_direct_benchmark_import_and_passes_the_registry() -> None:
    graph = {"finscore.answers.x": {"finscore.tatqa.inputs", "finscore.registry", "finscore.scoring.joining"},
             "finscore.rewards.adapters.y": {"finscore.finqa"},
             "finscore.rewardsx": {"finscore.finqa.inputs"},  # another package, only named alike
             "finscore.commands.answers": {"finscore.finqa.inputs"}}
    assert benchmark_imports(graph) == [("finscore.answers.x", "finscore.tatqa.inputs"),
                                        ("finscore.rewards.adapters.y", "finscore.finqa")]


def test_answers_and_rewards_reach_the_benchmarks_only_through_the_registry() -> None:
    graph = import_graph()
    assert any(_within(name, ("finscore.answers",)) for name in graph)  # the layers are read at all
    assert any(_within(name, ("finscore.rewards",)) for name in graph)
    assert benchmark_imports(graph) == []
