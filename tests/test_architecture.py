"""The package's shape: one folder per study, layers that import downward only, no circles.

Every module of ``imlbench`` is parsed (``ast``, nothing is imported) and every import it
makes, at the top, inside functions or for type checking, becomes an edge of the import
graph. The tests fail if a layer package imports ``imlbench.studies``, a study imports
another study, a layer imports a layer above it, or the graph has a circle; and if a module
other than :data:`CLAIM_LOOP` loops over the learners and methods of a claim itself (calls
``combos``, or nests loops over a ``where``'s learners and methods) instead of through the one
claim loop, :func:`imlbench.metrics.claims.per_combo`.
"""

from __future__ import annotations

import ast
import re
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
        "imlbench.curves",
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


#: the one module that loops over the (learner, method) pairs of a claim
CLAIM_LOOP = "imlbench.metrics.claims"
#: the keys of a claim's ``where`` whose values a hand loop runs over
WHERE_KEYS = {"learner", "method"}


def _key(node: ast.AST) -> object:
    """The constant key ``node`` subscripts with (``x["where"]``: ``where``), else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.slice.value
    return None


def _where_names(tree: ast.AST) -> set[str]:
    """The names that hold a claim's ``where`` in ``tree``: ``where`` and those assigned
    ``x["where"]`` (also by unpacking, ``w, p = claim["where"], ...``)."""
    names = {"where"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                pairs = (zip(target.elts, node.value.elts, strict=False)
                         if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                         else [(target, node.value)])
                names |= {t.id for t, v in pairs if isinstance(t, ast.Name) and _key(v) == "where"}
    return names


def _where_keys(node: ast.AST, wheres: set[str], held: dict[str, set[str]]) -> set[str]:
    """The keys of :data:`WHERE_KEYS` of a claim's ``where`` that ``node`` reads
    (``claim["where"]["learner"]``, ``w["method"]`` with ``w`` in ``wheres``), also through
    the names of ``held`` (name: the keys read where it is assigned)."""
    keys = {_key(n) for n in ast.walk(node) if _key(n) in WHERE_KEYS
            and (_key(n.value) == "where" or getattr(n.value, "id", None) in wheres)}
    return keys.union(*(held.get(n.id, set()) for n in ast.walk(node) if isinstance(n, ast.Name)))


def _hand_loops(tree: ast.AST) -> list[int]:
    """The lines where ``tree`` loops over a claim's learners and methods by hand: a call of
    ``combos``, a ``for`` over one of ``where["learner"]`` / ``where["method"]`` (of a claim's
    ``where``) with a loop over the other inside it (or in its own iterable), or a
    comprehension over both."""
    wheres = _where_names(tree)
    held = {t.id: _where_keys(node.value, wheres, {}) for node in ast.walk(tree)
            if isinstance(node, ast.Assign) for t in node.targets if isinstance(t, ast.Name)}
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and "combos" in (getattr(node.func, "id", None),
                                                      getattr(node.func, "attr", None)):
            lines.add(node.lineno)
        elif isinstance(node, ast.For | ast.AsyncFor):
            inner = [n.iter for n in ast.walk(node) if isinstance(n, ast.For | ast.AsyncFor
                                                                  | ast.comprehension)]
            keys = set().union(*(_where_keys(n, wheres, held) for n in inner))
            if _where_keys(node.iter, wheres, held) and keys >= WHERE_KEYS:
                lines.add(node.lineno)
        elif isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            keys = set().union(*(_where_keys(g.iter, wheres, held) for g in node.generators))
            if keys >= WHERE_KEYS:
                lines.add(node.lineno)
    return sorted(lines)


def test_only_the_claim_loop_loops_over_learners_and_methods():
    bad = [f"{m}:{line}" for m, path in sorted(MODULES.items()) if m != CLAIM_LOOP
           for line in _hand_loops(ast.parse(path.read_text()))]
    assert not bad, ("loops over a claim's learners and methods outside "
                     f"{CLAIM_LOOP}.per_combo:\n" + "\n".join(bad))
    # the finder sees the loop where it is
    assert _hand_loops(ast.parse(MODULES[CLAIM_LOOP].read_text()))


@pytest.mark.parametrize("source, expected", [
    ("for learner, method in combos(claim['where']):\n    pass", [1]),
    ("rows = [one(c) for c in claims.combos(w)]", [1]),
    ("for lrn in as_list(claim['where']['learner']):\n"
     "    x = 1\n"
     "    for m in as_list(claim['where']['method']):\n"
     "        pass", [1]),
    ("w = claim['where']\nfor m in w['method']:\n    rows += [f(m, lrn) for lrn in w['learner']]",
     [2]),
    ("pairs = [(a, b) for a in where['learner'] for b in as_list(where['method'])]", [1]),
    ("w, p = claim['where'], 1\nfor lrn in w['learner']:\n    for m in as_list(w['method']):\n"
     "        pass", [2]),
    ("methods = as_list(claim['where']['method'])\nfor lrn in as_list(claim['where']['learner']):\n"
     "    for m, v in zip(methods, claim['values']):\n        pass", [2]),
    ("for lrn in as_list(claim['where']['learner']):\n    row(lrn, claim['where']['method'])",
     []),
    ("pairs = {(m, lrn) for m, lrn in zip(est['method'], est['learner'], strict=True)}", []),
    ("rows = per_combo(claim, t, 'ranked', one)", []),
])
def test_the_hand_loop_finder_finds_hand_loops(source, expected):
    assert _hand_loops(ast.parse(source)) == expected


#: the one module that computes the standard errors of differences, ratios and spreads
KIT = "imlbench.metrics.contrasts"
#: what computing such an SE by hand looks like: a root sum of squares, a bootstrap or a
#: jackknife of one's own, the normal-theory SE of an sd
OWN_SE = [
    (re.compile(r"\bhypot\("), "hypot"),
    (re.compile(r"sqrt\([^)\n]*\*\* ?2 ?\+[^)\n]*\*\* ?2"), "root of a sum of squares"),
    (re.compile(r"var\(ddof=1\) ?/ ?len\([^)]*\) ?\+"), "var/n + var/n"),
    (re.compile(r"def \w*(bootstrap|jackknife)\w*\(", re.I), "own resampling SE"),
    (re.compile(r"sqrt\(2 \* \("), "normal-theory SE of an sd"),
]


def _claim_modules() -> list[str]:
    """The modules that define claim kinds or statistics."""
    return sorted(m for m, path in MODULES.items()
                  if re.search(r"@(claim_kind|statistic)\(", path.read_text()))


def test_no_claim_kind_computes_the_se_of_a_difference_ratio_or_spread_itself():
    bad = [f"{m}:{i}: {what}: {line.strip()}"
           for m in _claim_modules() if m != KIT
           for i, line in enumerate(MODULES[m].read_text().splitlines(), 1)
           for pattern, what in OWN_SE if pattern.search(line)]
    assert not bad, f"SEs computed outside {KIT}:\n" + "\n".join(bad)


@pytest.mark.parametrize("line", [
    "se = float(np.hypot(sa, sb))", "se = np.sqrt(se[1:] ** 2 + se[:-1] ** 2)",
    "se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))",
    "def _bootstrap_se(stat, samples):", "def jackknife(values, stat):",
    "return sd / np.sqrt(2 * (len(v) - 1))",
])
def test_the_se_finder_finds_hand_written_standard_errors(line):
    assert any(p.search(line) for p, _ in OWN_SE)


#: the most claim kinds the studies may keep for themselves: a study writes statistics for the
#: layer's ``contrast`` kind, and a kind of its own only for a check no test of the kit is
#: (exact checks, joint checks over several cells, counts, orders)
MAX_STUDY_CLAIM_KINDS = 45


def test_the_studies_keep_few_claim_kinds_of_their_own():
    from imlbench import studies
    from imlbench.metrics.claims import CLAIMS

    studies.load(studies.packages())
    own = [k for k in CLAIMS.names() if CLAIMS.owner(k) is not None]
    assert len(own) <= MAX_STUDY_CLAIM_KINDS, sorted(own)
