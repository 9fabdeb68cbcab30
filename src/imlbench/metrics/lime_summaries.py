"""Summaries of repeated LIME explanations: coefficient bands and inclusion frequencies.

Every explained point is explained R times on fresh samples (the ``lime`` method's
``repeats``; with several repetitions of data and model, column ``rep``, those explanations
pool). Two summaries of these explanations per group of the caller's ``by`` columns:

- :func:`coefficient_bands`: per feature the mean coefficient over the explanations and a
  band that holds 95% of them: ``how="normal"``, mean +- 1.96 sd (the code of book ch. 13,
  Sect. 13.3, Fig. 13.9), or ``how="quantile"``, the empirical 2.5% and 97.5% quantiles (book
  ch. 14, Figs. 14.12-14.18). The band describes the spread of single explanations, not the
  uncertainty of the mean: that is ``se`` = sd / sqrt(n).
- :func:`inclusion_frequency`: per feature the share of explanations whose selection (the
  ``selected`` column of ``surrogate_fit: true``) kept it, the book's pseudo stability paths
  along the kernel width (ch. 13, Sect. 13.4, Fig. 13.13), with its binomial standard error.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

#: the band kinds of :func:`coefficient_bands`
BAND_KINDS = ("normal", "quantile")
#: the columns :func:`coefficient_bands` returns besides the ``by`` columns and ``feature``
BAND_COLUMNS = ["mean", "sd", "se", "lo", "hi", "n"]
#: the columns :func:`inclusion_frequency` returns besides the ``by`` columns and ``feature``
INCLUSION_COLUMNS = ["share", "se", "n"]
#: the normal quantile of a central 95% band
Z95 = 1.959963984540054


def _check(rows: pd.DataFrame, by: Sequence[str], needs: Sequence[str]) -> list[str]:
    by = list(by)
    missing = [c for c in [*by, "feature", *needs] if c not in rows]
    if missing:
        raise ValueError(f"LIME rows without the column(s) {', '.join(missing)}; the lime "
                         f"method's rows have feature and value (selected with "
                         f"'surrogate_fit: true'), the grouping columns come from 'by'")
    return [*by, "feature"]


def coefficient_bands(rows: pd.DataFrame, by: Sequence[str], how: str = "normal", *,
                      column: str = "value") -> pd.DataFrame:
    """Per group of ``by`` and ``feature``: the mean of ``column`` (the coefficient; e.g.
    ``intercept`` for the surrogate's intercept) over the explanations in the group, its sd
    (ddof 1), the standard error of the mean ``se``, the 95% band ``lo``/``hi`` of single
    explanations (``how``: ``normal`` = mean -+ 1.96 sd, ``quantile`` = empirical 2.5% and
    97.5% quantiles, numpy's linear interpolation) and the number ``n`` of explanations.
    Failed explanations (NaN) are left out. A group with one explanation has NaN sd and band."""
    if how not in BAND_KINDS:
        raise ValueError(f"band {how!r} is not one of {', '.join(BAND_KINDS)}")
    keys = _check(rows, by, [column])
    kept = rows[[*keys, column]].dropna(subset=[column])
    g = kept.groupby(keys, sort=True)[column]
    out = g.agg(mean="mean", sd="std", n="size")
    out["se"] = out["sd"] / np.sqrt(out["n"])
    if how == "normal":
        out["lo"] = out["mean"] - Z95 * out["sd"]
        out["hi"] = out["mean"] + Z95 * out["sd"]
    else:
        out["lo"] = g.quantile(0.025)
        out["hi"] = g.quantile(0.975)
        out.loc[out["n"] < 2, ["lo", "hi"]] = np.nan
    return out.reset_index()[[*keys, *BAND_COLUMNS]]


def inclusion_frequency(rows: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Per group of ``by`` and ``feature``: the share of explanations whose feature selection
    kept the feature (``share``; lime's ``selected`` column), its binomial standard error
    ``se`` = sqrt(share (1 - share) / n) and the number ``n`` of explanations. With ``by``
    holding ``kernel_width`` these are the book's pseudo stability paths (ch. 13, Fig. 13.13)."""
    keys = _check(rows, by, ["selected"])
    kept = rows[keys].assign(selected=rows["selected"].astype(float))
    out = kept.groupby(keys, sort=True)["selected"].agg(share="mean", n="size")
    out["se"] = np.sqrt(out["share"] * (1 - out["share"]) / out["n"])
    return out.reset_index()[[*keys, *INCLUSION_COLUMNS]]
