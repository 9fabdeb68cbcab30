"""Figures by name: one function per published figure, reading Parquet only.

A figure function ``(inputs, spec, out_png, out_pdf, **params)`` draws one figure of a study
from its :class:`~imlbench.figures.inputs.FigureInputs`; ``spec`` is the figure's entry of the
study file (title, caption, style, ``methods``: which of the study's methods fill each of the
figure's roles, and ``params``). It is registered with :func:`figure`, which declares what it
reads (its method roles, the truth tables and the study tables ``ranks``, ``summary``,
``data``, ``truth_error_reps``) and its typed parameters (:mod:`imlbench.params`), which the
validator checks before any job runs and the figure receives with every default filled, as
keyword arguments. The workflow gives the figure's rule exactly these inputs, so a figure
reruns when, and only when, something it reads, its entry or its code changes.

A study's figure functions are the modules of its ``figures`` package, found by
:func:`imlbench.studies.load` (registered as ``<study>.<name>``); one function with
parameters serves every figure that differs only in them. This package holds what they
share: reading inputs, the house style, the curve and importance drawers, and the generic
figures any study can name from YAML alone (:mod:`imlbench.figures.generic`, and
:mod:`imlbench.figures.dag` for a causal graph, :mod:`imlbench.figures.curve_grid` for
every repetition's curve in a grid of panels, :mod:`imlbench.figures.importance` for
importances as dots with spread lines and :mod:`imlbench.figures.table` for tables).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from imlbench.params import Param, with_defaults
from imlbench.registry import Registry

#: the study-level tables a figure may read besides estimates and truths
TABLES = ("ranks", "summary", "data", "truth_error_reps")

Draw = Callable[..., None]


def _always(_params: Mapping[str, Any]) -> bool:
    """A figure that declares truths draws one whatever its entry's parameters."""
    return True


@dataclass(frozen=True)
class FigureSpec:
    """A registered figure function and what it reads."""

    draw: Draw
    methods: tuple[str, ...] = ()
    truths: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    params: Mapping[str, Param] = field(default_factory=dict)
    #: whether an entry with these (defaults filled) parameters draws a truth; an entry that
    #: draws none needs no scenario with the declared truths (real data)
    needs_truth: Callable[[Mapping[str, Any]], bool] = _always

    def __call__(self, inputs: Any, spec: Mapping[str, Any], out_png: Path,
                 out_pdf: Path) -> None:
        """Draw the figure of study-file entry ``spec``, its parameters completed by their
        defaults."""
        self.draw(inputs, spec, out_png, out_pdf,
                  **with_defaults(self.params, spec.get("params", {})))


FIGURES: Registry[FigureSpec] = Registry(
    "figure function", providers=("imlbench.figures.generic", "imlbench.figures.dag",
                                  "imlbench.figures.curve_grid", "imlbench.figures.surface",
                                  "imlbench.figures.matrix", "imlbench.figures.importance",
                                  "imlbench.figures.table", "imlbench.figures.error_bars"))


def figure(name: str, *, methods: Sequence[str] = (), truths: Sequence[str] = (),
           tables: Sequence[str] = (), params: Mapping[str, Param] | None = None,
           needs_truth: Callable[[Mapping[str, Any]], bool] = _always
           ) -> Callable[[Draw], Draw]:
    """Register ``draw`` as figure function ``name``; ``methods`` are its roles (the study
    file maps each to one or more of its methods), ``truths`` the estimands and ``tables``
    the study tables it reads, ``params`` its parameters (keyword arguments of ``draw``);
    ``needs_truth`` says from an entry's parameters whether it draws a truth at all (default:
    always, when ``truths`` are declared)."""
    unknown = set(tables) - set(TABLES)
    if unknown:
        raise ValueError(f"figure {name}: unknown table(s) {', '.join(sorted(unknown))}; "
                         f"allowed: {', '.join(TABLES)}")

    def decorator(draw: Draw) -> Draw:
        FIGURES.register(name, module=draw.__module__)(
            FigureSpec(draw, tuple(methods), tuple(truths), tuple(tables), dict(params or {}),
                       needs_truth))
        return draw

    return decorator
