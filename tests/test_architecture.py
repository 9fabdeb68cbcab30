"""The package's shape: one folder per study, layers that import downward only, no circles.

Every module of ``imlbench`` is parsed (``ast``, nothing is imported) and every import it
makes, at the top, inside functions or for type checking, becomes an edge of the import
graph. The tests fail if a layer package imports ``imlbench.studies``, a study imports
another study, a layer imports a layer above it, or the graph has a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "imlbench"

#: what each layer package may import besides itself and the base modules, in the order of
#: the design: data -> dgp, learners -> explain -> truth, metrics -> figures
LAYERS: dict[str, set[str]] = {
    "data": set(),
    "dgp": {"data"},
    "learners": set(),
    "explain": {"data", "dgp", "learners"},
    "truth": {"data", "dgp", "learners", "explain"},
    "metrics": {"data", "dgp", "learners", "explain"},
    "figures": {"data", "dgp", "learners", "explain", "truth", "metrics"},
}
#: modules every layer may use: they import no layer themselves
BASE = {"imlbench", "imlbench.registry", "imlbench.seeds", "imlbench.io", "imlbench.params",
        "imlbench.stats", "imlbench.config"}


def _modules() -> dict[str, Path]:
    out = {}
    for path in (SRC / PACKAGE).rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _imports(module: str) -> set[str]:
    """The ``imlbench`` modules ``module`` imports (``from a import b``: ``a.b`` when that is a
    module, else ``a``), relative imports resolved."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                     for a in node.names]
        else:
            continue
        out |= {n for n in names if n == PACKAGE or n.startswith(PACKAGE + ".")}
    return out - {module}


GRAPH = {m: {i for i in _imports(m) if i in MODULES} for m in MODULES}


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def _study(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "studies" else None


def test_the_graph_sees_every_study_and_layer():
    assert {_study(m) for m in MODULES} >= {"extrapolation", "conditional_subgroups",
                                           "pd_pfi_dgp"}
    assert {_layer(m) for m in MODULES} >= set(LAYERS)
    # the parser finds imports: the explain stage imports the method contract
    assert "imlbench.explain.api" in GRAPH["imlbench.stages"]


def test_layers_never_import_a_study():
    bad = sorted(f"{m} -> {i}" for m in MODULES if _layer(m) or m in BASE
                 for i in GRAPH[m] if _study(i) or i == "imlbench.studies")
    assert not bad, "layer modules import a study:\n" + "\n".join(bad)


def test_no_study_imports_another():
    bad = sorted(f"{m} -> {i}" for m in MODULES if _study(m)
                 for i in GRAPH[m] if _study(i) and _study(i) != _study(m))
    assert not bad, "a study imports another study:\n" + "\n".join(bad)


def test_layers_import_downward_only():
    bad = []
    for m in MODULES:
        if (layer := _layer(m)) is None and m not in BASE:
            continue
        allowed = LAYERS.get(layer, set()) | {layer}
        for i in GRAPH[m]:
            if i in BASE or (_layer(i) in allowed):
                continue
            bad.append(f"{m} -> {i}")
    assert not bad, "imports against the layer order:\n" + "\n".join(sorted(bad))


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circles():
    assert not _cycles(GRAPH), f"import circles: {_cycles(GRAPH)}"


@pytest.mark.parametrize("edges, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
])
def test_the_circle_finder_finds_circles(edges, expected):
    assert _cycles(edges) == expected
