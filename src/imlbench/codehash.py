"""Fingerprints of the code a job executes, so that editing it reruns the job.

A job's code is the modules that define the registered entries it runs (its DGP, learners,
methods, samplers, truths, summaries, claim kinds or figure function) and every module of
``imlbench`` they import, directly or not, found by reading their source (nothing is
imported). ``from package import module`` reads that module only, not the package's other
modules; ``from package import name`` reads the package's ``__init__``. The fingerprint hashes
each module's syntax tree without docstrings, so editing a comment, a docstring or the layout
of a module changes nothing, while any change to what the code does changes it.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import imlbench

PACKAGE = "imlbench"
_ROOT = Path(imlbench.__file__).resolve().parent


@cache
def source_file(module: str) -> Path | None:
    """The source file of ``imlbench`` module ``module``, or None when there is none (the
    name of a function or class, or a module outside the package)."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    base = _ROOT.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _without_docstrings(tree: ast.Module) -> ast.Module:
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return tree


@cache
def _read(module: str) -> tuple[str, tuple[str, ...]]:
    """The module's normalised syntax tree and the ``imlbench`` modules it imports."""
    tree = ast.parse(source_file(module).read_text())
    imported = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported += [f"{node.module}.{a.name}" if source_file(f"{node.module}.{a.name}")
                         else node.module for a in node.names]
    inside = tuple(sorted({m for m in imported if source_file(m) is not None}))
    return ast.dump(_without_docstrings(tree), include_attributes=False), inside


def closure(modules: Iterable[str], exclude: Iterable[str] = ()) -> list[str]:
    """``modules`` and every ``imlbench`` module they import, directly or not, sorted; the
    modules of ``exclude`` are not followed (code that is imported but that the job does not
    run, e.g. a method's summarising function, which the summaries job runs)."""
    skip = set(exclude) - set(modules)
    todo = [m for m in modules if source_file(m) is not None]
    seen: set[str] = set()
    while todo:
        module = todo.pop()
        if module not in seen and module not in skip:
            seen.add(module)
            todo += _read(module)[1]
    return sorted(seen)


def code_hash(modules: Iterable[str], exclude: Iterable[str] = ()) -> str:
    """A short hash of the code of ``modules`` and of everything they import but ``exclude``
    (see :func:`closure` and the module doc): equal exactly when that code does the same."""
    return _hash(frozenset(modules), frozenset(exclude))


@cache
def _hash(modules: frozenset[str], exclude: frozenset[str]) -> str:
    digest = hashlib.sha256()
    for module in closure(modules, exclude):
        digest.update(f"{module}\n{_read(module)[0]}\n".encode())
    return digest.hexdigest()[:16]

