"""Figures by name: one function per published figure, reading Parquet only.

A figure function ``(inputs, spec, out_png, out_pdf)`` draws one figure of a study from its
:class:`~imlbench.figures.inputs.FigureInputs`; ``spec`` is the figure's entry of the study
file (title, caption, style, and ``methods``: which of the study's methods fill each of the
figure's roles). It is registered with :func:`figure`, which declares what it reads: its
method roles, the truth tables (estimands) and the study tables (``ranks``, ``summary``,
``data``, ``truth_error_reps``). The workflow gives the figure's rule exactly these inputs,
so a figure reruns when, and only when, something it reads or its code changes. Figure
functions live in the ``figures`` package of their study
(``imlbench.studies.<study>.figures.<figN>``, registered as ``<study>.<figN>``); this
package holds what they share: reading inputs, the house style, and the generic figures any
study can name from YAML (:mod:`imlbench.figures.generic`: ``effects``
and ``importance``, estimates against their truths).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from imlbench.registry import Registry

#: the study-level tables a figure may read besides estimates and truths
TABLES = ("ranks", "summary", "data", "truth_error_reps")

Draw = Callable[[Any, dict, Path, Path], None]


@dataclass(frozen=True)
class FigureSpec:
    """A registered figure function and what it reads."""

    draw: Draw
    methods: tuple[str, ...] = ()
    truths: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()


FIGURES: Registry[FigureSpec] = Registry("figure function",
                                          providers=("imlbench.figures.generic",))


def figure(name: str, *, methods: Sequence[str] = (), truths: Sequence[str] = (),
           tables: Sequence[str] = ()) -> Callable[[Draw], Draw]:
    """Register ``draw`` as figure function ``name``; ``methods`` are its roles (the study
    file maps each to one or more of its methods), ``truths`` the estimands and ``tables``
    the study tables it reads."""
    unknown = set(tables) - set(TABLES)
    if unknown:
        raise ValueError(f"figure {name}: unknown table(s) {', '.join(sorted(unknown))}; "
                         f"allowed: {', '.join(TABLES)}")

    def decorator(draw: Draw) -> Draw:
        FIGURES.register(name, module=draw.__module__)(
            FigureSpec(draw, tuple(methods), tuple(truths), tuple(tables)))
        return draw

    return decorator
