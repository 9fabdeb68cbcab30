"""The declared shape of a method's estimates, by the method's kind.

A method returns one tidy table per repetition (:mod:`imlbench.explain.api`); the run stage
adds ``rep``, the scenario, learner and method and writes it. Its kind declares the columns
every reader (claims, summaries, figures) may rely on, so that none of them looks for a
column first; :func:`check_frame` checks them where the run stage writes the table. A method
may add columns of its own (an interval, a count), which its readers name.

========== ====================================================================================
kind       required columns
========== ====================================================================================
effect     ``feature`` (text), ``x`` (number), ``value`` (number): a curve per feature, or one
           per explained ``row`` (ICE, ICI) with an integer column ``row``
importance ``feature`` (text), ``value`` (number)
theory     ``feature`` (text), ``value`` (number): a model-level truth of an importance
metric     ``value`` (number) and at least one of ``metric``, ``feature``, ``quantity`` (text
           or number) naming what it measures
refits     ``quantity`` (text), ``value`` (number)
test       ``estimate``, ``se``, ``p_value`` (numbers), ``reject`` (true or false)
surface    ``x``, ``z``, ``value`` (numbers): a surface over two features
local      ``feature`` (text), ``value`` (number), ``row`` (integer): one explanation per
           explained row (SHAP values, LIME weights)
other      none: a free-form table that only its study's code reads
========== ====================================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd
from pandas.api import types

#: what a column's values may be: a checker and how an error names it
_TYPES = {
    "number": (types.is_numeric_dtype, "numbers"),
    "integer": (types.is_integer_dtype, "integers"),
    "text": (lambda s: types.is_string_dtype(s) or types.is_object_dtype(s)
             or isinstance(s.dtype, pd.CategoricalDtype), "text"),
    "flag": (types.is_bool_dtype, "true or false"),
    "label": (lambda s: True, "labels"),
}


@dataclass(frozen=True)
class Frame:
    """The columns a kind's estimates hold (name -> type, :data:`_TYPES`), and the columns of
    which at least one is there (``one_of``)."""

    columns: Mapping[str, str] = field(default_factory=dict)
    one_of: tuple[str, ...] = ()


FRAMES: dict[str, Frame] = {
    "effect": Frame({"feature": "text", "x": "number", "value": "number"}),
    "importance": Frame({"feature": "text", "value": "number"}),
    "theory": Frame({"feature": "text", "value": "number"}),
    "metric": Frame({"value": "number"}, one_of=("metric", "feature", "quantity")),
    "refits": Frame({"quantity": "text", "value": "number"}),
    "test": Frame({"estimate": "number", "se": "number", "p_value": "number",
                   "reject": "flag"}),
    "surface": Frame({"x": "number", "z": "number", "value": "number"}),
    "local": Frame({"feature": "text", "value": "number", "row": "integer"}),
    "other": Frame(),
}
#: optional columns whose type is declared wherever they appear
OPTIONAL = {"row": "integer", "model_value": "number"}


def frame_errors(kind: str, table: pd.DataFrame) -> list[str]:
    """What ``table`` (one method's estimates) lacks of its kind's frame, as sentences (none:
    it has the frame)."""
    frame = FRAMES[kind]
    out = []
    for name, type_ in {**{k: v for k, v in OPTIONAL.items() if k in table},
                        **frame.columns}.items():
        if name not in table:
            out.append(f"no column {name}")
            continue
        ok, label = _TYPES[type_]
        if not ok(table[name]):
            out.append(f"column {name} holds {table[name].dtype}, not {label}")
    if frame.one_of and not set(frame.one_of) & set(table):
        out.append(f"none of the columns {', '.join(frame.one_of)}")
    return out


def describe(kind: str) -> str:
    """The frame of ``kind`` as an error message states it."""
    frame = FRAMES[kind]
    cols = ", ".join(f"{k} ({_TYPES[v][1]})" for k, v in frame.columns.items()) or "none"
    return cols + (f"; one of {', '.join(frame.one_of)}" if frame.one_of else "")


def check_frame(kind: str, table: pd.DataFrame, where: str) -> None:
    """Raise a ValueError naming ``where`` (the method and its cell) unless ``table`` has the
    frame of ``kind``."""
    errors = frame_errors(kind, table)
    if errors:
        raise ValueError(f"{where}: the estimates of a method of kind {kind} need the columns "
                         f"{describe(kind)}; found {'; '.join(errors)} (columns: "
                         f"{', '.join(map(str, table.columns))})")


#: the columns of a frame that place an estimate (a curve's or surface's coordinates, the
#: explained row), not estimate it
COORDINATES = ("x", "z", "row")


def estimate_columns(kind: str, table: pd.DataFrame) -> list[str]:
    """The columns of ``table`` that hold a method's estimates: its kind's number columns but
    the coordinates (for ``other``, a ``value`` column if it has one)."""
    declared = [c for c, t in FRAMES[kind].columns.items()
                if t == "number" and c not in COORDINATES]
    return [c for c in declared or ["value"] if c in table]


def check_estimates(kind: str, table: pd.DataFrame, where: str) -> None:
    """Raise a ValueError naming ``where`` (the method, its parameters and its cell) when
    ``table`` has rows and every value of its estimate columns (:func:`estimate_columns`) is
    NaN: a degenerate method (a zero kernel width, say) must fail its job, not feed a claim."""
    columns = estimate_columns(kind, table)
    if len(table) and columns and table[columns].isna().all().all():
        raise ValueError(f"{where}: every estimate ({', '.join(columns)}) is NaN, in "
                         f"{len(table)} rows; the method degenerates with these parameters")

