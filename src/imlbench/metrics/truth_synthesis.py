"""Every method against its truth across studies, its error split into squared bias and
variance over repetitions (the decomposition of Heiß, Bögel, Bischl & Casalicchio 2026,
arXiv 2603.15057): the synthesis no single paper gives.

:func:`synthesis` reads, for every study under ``results/`` that has them, the summaries
stage's ``metrics/truth_errors.parquet`` (per point over the repetitions) and
``metrics/truth_error_reps.parquet`` (per repetition; both of
:mod:`imlbench.metrics.truth_errors`) and returns one row per (study, scenario, method,
learner, estimand), with the estimand family of the method (:data:`FAMILY`; methods that
declare no estimand, e.g. SHAP, are compared with no truth and have no row). A point is a
feature of an importance, or a (feature, grid point) of a curve, pooled over the repetitions
as :func:`imlbench.metrics.truth_errors.summarise_errors` pools it; curves are compared as
shapes (``anchor: mean``: estimate and truth each minus their mean over the compared points
of their repetition, since ALE and StratPD are defined up to a constant), importances as
they are. At point p with R_p repetitions of error e_rp = estimate - truth:

``bias_p = mean_r e_rp``, ``var_p = mean_r (e_rp - bias_p)^2`` (divisor R_p),
``mse_p = mean_r e_rp^2 = bias_p^2 + var_p``

(the variance of the estimate where the truth is the same in every repetition, as at a
fixed grid), and the row's ``bias2``, ``variance`` and ``mse`` are the means of ``bias_p^2``,
``var_p`` and ``mse_p`` over its ``n_points`` points, so ``bias2 + variance = mse``. In the
units of ``truth_errors.parquet``: ``bias_p`` is its ``bias``, ``mse_p`` its ``rmse``
squared and ``var_p`` its ``se`` squared times (reps - 1) (0 with one repetition).

Where the estimates carry the models' own effect (``model_effect_rows``,
:mod:`imlbench.explain.strategies`), the squared bias and the variance split further, per point
as :func:`imlbench.stats.mse_decomposition` gives them and averaged the same way:
``bias2 = model_bias2 + estimation_bias2 + bias_cross`` (the squares of the model and the
estimation bias and twice their product) and ``variance = model_variance +
estimation_variance + covariance`` (twice the covariance of the model and the estimation
error over the repetitions); NaN for other rows.

``nrmse = sqrt(mse) / truth_range``: ``truth_range`` is the range of the truth values of
the row's points together with 0, max(0, max_p truth_p) - min(0, min_p truth_p) (a
mean-anchored curve spans 0, so this is its range; for importances it is the largest
importance, also with a single feature); ``nrmse`` is NaN when the truth is flat: its
range at most :data:`FLAT` times the largest absolute value of the unanchored truth
(``anchor: none``) at the row's points (a constant PD, an ALE of jumps the closed form cannot
show).

``dependence``: the strength of the dependence between the features of the scenario's
DGP, from the study file (:func:`dependence`); ``data``: the rows the method ran on
(``train``, ``test``, ``fitted``) when instances of its registered method with the same
estimand ran on more than one of them in the same scenario and learner, else null.
``n_reps``: the repetitions of the row in ``truth_error_reps.parquet``. A row of it whose
points are all left out of ``truth_errors.parquet`` (grids of different sizes whose
repetitions cover no common span, e.g. ALE with 2 intervals of which some repetitions keep
one edge within the truth's range) has ``n_points`` 0 and NaN errors.

``python -m imlbench.metrics.truth_synthesis results`` prints the table.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.config import ConfigError, Scenario, Study, load_study, study_path
from imlbench.dgp.base import make_dgp
from imlbench.explain.api import METHODS
from imlbench.io import read_parquet
from imlbench.metrics.truth_errors import KEYS
from imlbench.params import with_defaults

#: the estimand family of every (registered method, estimand) that has a truth
FAMILY: dict[tuple[str, str], str] = {
    ("pdp", "pd"): "PD",
    ("ice", "pd"): "PD",  # the mean of ICE curves of data rows
    ("ice", "ice"): "ICE",
    ("mplot", "conditional"): "M-plot",
    ("ale", "ale"): "ALE",
    ("stratpd", "ale"): "StratPD",
    ("pfi", "pfi_marginal"): "marginal PFI",
    ("conditional_pfi", "pfi_marginal"): "marginal PFI",
    ("conditional_pfi", "pfi_conditional"): "conditional PFI",
    ("cpfi", "pfi_conditional"): "conditional PFI",
    ("loco", "loco"): "LOCO",
}
#: the parts of the MSE decomposition, where the estimates carry the models' own effect
DECOMPOSED = ["model_bias2", "estimation_bias2", "bias_cross", "model_variance",
              "estimation_variance", "covariance"]
#: the columns of :func:`synthesis`
COLUMNS = ["family", "estimand", "study", "scenario", "method", "registered", "learner",
           "dependence", "data", "nrmse", "bias2", "variance", "mse", *DECOMPOSED,
           "truth_range", "n_points", "n_reps"]
#: one row of :func:`synthesis` per these, within a study
ROW = [*KEYS, "estimand"]
#: a truth whose range is at most this share of its largest absolute value (unanchored) is
#: flat: rounding left by the anchoring, not a range to normalise by
FLAT = 1e-9
#: the classes of :func:`dependence_class`, in the order of :func:`family_summary`'s columns
DEPENDENCE = ("independent", "weak", "strong", "other")
#: the dependence strength from which a dependence is ``strong``
STRONG = 0.5
#: the metrics files a study needs to be synthesised
FILES = ("truth_errors", "truth_error_reps")


def family(method: str, estimand: str) -> str:
    """The estimand family of registered method ``method`` estimating ``estimand``
    (:data:`FAMILY`); a ValueError when the table has none."""
    try:
        return FAMILY[(method, estimand)]
    except KeyError:
        known = ", ".join(f"{m}/{e}" for m, e in FAMILY)
        raise ValueError(f"method {method!r} with estimand {estimand!r} has no estimand "
                         f"family; add it to imlbench.metrics.truth_synthesis.FAMILY (known: "
                         f"{known})") from None


def dependence(scenario: Scenario) -> float | None:
    """The dependence strength of the scenario's DGP: the largest absolute correlation
    between two features of a ``formula`` DGP's Gaussian copula (``dependence.correlation``,
    its named constants resolved), else its parameter ``rho`` (a correlation, e.g. the
    copula of Hooker et al.'s DGP), else None (independent features, or a dependence of
    another kind: structural equations, duplicated columns, real data)."""
    params = scenario.params
    if scenario.dgp == "formula" and params.get("dependence"):
        R = make_dgp("formula", params).correlation
        return float(np.abs(R - np.eye(len(R))).max())
    rho = params.get("rho")
    return float(rho) if isinstance(rho, int | float) and not isinstance(rho, bool) else None


def _decomposed(errors: pd.DataFrame) -> pd.DataFrame:
    """Per :data:`ROW`, the decomposition of the module doc over the compared points of
    ``errors`` (``truth_errors.parquet``), with the truth's range and ``nrmse``."""
    points = errors[(errors["anchor"] == "mean") | errors["x"].isna()]
    p = points.assign(
        bias2=points["bias"] ** 2,
        variance=(points["se"] ** 2 * (points["reps"] - 1)).where(points["reps"] > 1, 0.0),
        mse=points["rmse"] ** 2)
    parts = {}
    if "model_bias" in points:  # the MSE decomposition (stats.mse_decomposition), per point
        mb, eb = points["model_bias"], points["estimation_bias"]
        p = p.assign(model_bias2=mb**2, estimation_bias2=eb**2, bias_cross=2 * mb * eb,
                     model_variance=points["model_variance"],
                     estimation_variance=points["estimation_variance"],
                     covariance=points["covariance"])
        parts = {c: (c, "mean") for c in DECOMPOSED}
    out = p.groupby(ROW, as_index=False, sort=False).agg(
        bias2=("bias2", "mean"), variance=("variance", "mean"), mse=("mse", "mean"),
        **parts, top=("truth", "max"), bottom=("truth", "min"), n_points=("truth", "size"))
    out["truth_range"] = out["top"].clip(lower=0) - out["bottom"].clip(upper=0)
    scale = errors.loc[errors["anchor"] == "none", ROW].assign(
        scale=errors["truth"].abs()).groupby(ROW, as_index=False)["scale"].max()
    out = out.merge(scale, on=ROW, how="left", validate="one_to_one")
    flat = out["truth_range"] <= FLAT * out["scale"]
    out["nrmse"] = np.sqrt(out["mse"]) / out["truth_range"].mask(flat)
    return out.drop(columns=["top", "bottom", "scale"])


def _data(study: Study, rows: pd.DataFrame) -> pd.Series:
    """Per row, the ``data`` parameter of its method instance where its registered method
    (column ``registered``) ran with the same estimand on more than one kind of rows in its
    scenario and learner, else None."""
    data = [with_defaults(METHODS.get(r).params, study.method_params(m)).get("data")
            for m, r in zip(rows["method"], rows["registered"], strict=True)]
    data = pd.Series(data, index=rows.index, dtype=object)
    kinds = data.groupby([rows["scenario"], rows["learner"], rows["registered"],
                          rows["estimand"]],
                         dropna=False).transform("nunique")
    return data.where(kinds > 1, None)


def study_synthesis(study: Study, errors: pd.DataFrame, reps: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`synthesis` of one study, from its ``truth_errors`` and
    ``truth_error_reps`` tables."""
    if reps.empty:
        return pd.DataFrame(columns=COLUMNS)
    out = reps.groupby(ROW, as_index=False, sort=False)["rep"].nunique().rename(
        columns={"rep": "n_reps"}).merge(_decomposed(errors), on=ROW, how="left",
                                         validate="one_to_one")
    out["n_points"] = out["n_points"].fillna(0).astype(int)
    out["registered"] = out["method"].map(lambda m: study.methods[m]["method"])
    out["family"] = [family(r, e)
                     for r, e in zip(out["registered"], out["estimand"], strict=True)]
    scenarios = {name: dependence(study.all_scenarios[name]) for name in out["scenario"].unique()}
    out["dependence"] = out["scenario"].map(scenarios).astype(float)
    out["data"] = _data(study, out)
    return out.assign(study=study.name).reindex(columns=COLUMNS)


def synthesis(results: Path, *, root: Path | None = None,
              studies: list[str] | None = None) -> pd.DataFrame:
    """One row per (study, scenario, method, learner, estimand) compared with its truth, for
    every study folder under ``results`` (or those of ``studies``) with
    ``metrics/truth_errors.parquet`` and ``metrics/truth_error_reps.parquet`` (columns
    :data:`COLUMNS`, see the module doc; ``registered``: the method's registered name),
    sorted by family, study, scenario, method and learner. The study files are read from
    ``config/studies`` under ``root`` (default: the parent of ``results``), with the
    scenarios of every profile."""
    results = Path(results)
    root = results.resolve().parent if root is None else Path(root)
    folders = (sorted(p for p in results.iterdir() if p.is_dir()) if studies is None
               else [results / s for s in sorted(studies)])
    parts = []
    for folder in folders:
        files = [folder / "metrics" / f"{name}.parquet" for name in FILES]
        if not all(f.is_file() for f in files):
            continue
        path = study_path(root, folder.name)
        if not path.exists():
            raise ConfigError(f"{folder}: results of study {folder.name!r} without its study "
                              f"file or folder {path}")
        study = load_study(path, "default")
        parts.append(study_synthesis(study, *map(read_parquet, files)))
    parts = [p for p in parts if len(p)]
    if not parts:
        return pd.DataFrame(columns=COLUMNS)
    return pd.concat(parts, ignore_index=True).sort_values(
        ["family", "study", "scenario", "method", "learner"], ignore_index=True)


def dependence_class(dependence: float | None) -> str:
    """The class of a dependence strength (:func:`dependence`) in :data:`DEPENDENCE`:
    ``independent`` (0), ``weak`` (below :data:`STRONG`), ``strong``, or ``other`` (none
    stated: independent features of another kind, structural equations, real data)."""
    if dependence is None or pd.isna(dependence):
        return "other"
    if dependence == 0:
        return "independent"
    return "weak" if dependence < STRONG else "strong"


def family_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per estimand family and registered method, the median ``nrmse`` of the rows of
    :func:`synthesis` in each dependence class (:func:`dependence_class`; columns
    :data:`DEPENDENCE`, NaN where the class has no row with an ``nrmse``), with ``rows`` (the
    rows with an ``nrmse``) and ``bias_share``, the median of ``bias2 / mse`` over them: the
    part of the error that more repetitions would not remove."""
    rated = table[table["nrmse"].notna()].assign(
        dependence_class=[dependence_class(d) for d in table.loc[table["nrmse"].notna(),
                                                                  "dependence"]],
        bias_share=lambda t: t["bias2"] / t["mse"])
    keys = ["family", "registered"]
    if rated.empty:
        return pd.DataFrame(columns=[*keys, *DEPENDENCE, "rows", "bias_share"])
    medians = rated.pivot_table(index=keys, columns="dependence_class", values="nrmse",
                                aggfunc="median").reindex(columns=list(DEPENDENCE))
    totals = rated.groupby(keys).agg(rows=("nrmse", "size"),
                                     bias_share=("bias_share", "median"))
    out = medians.join(totals).reset_index()
    out.columns.name = None
    return out


def main(argv: list[str] | None = None) -> None:
    """Print :func:`synthesis` of the results folder given on the command line."""
    parser = argparse.ArgumentParser(prog="python -m imlbench.metrics.truth_synthesis",
                                     description="Every method against its truth across "
                                                 "studies: squared bias, variance, MSE.")
    parser.add_argument("results", type=Path, help="the results folder, e.g. results")
    parser.add_argument("--root", type=Path, help="project root (holds config/); default: "
                                                  "the parent of the results folder")
    args = parser.parse_args(argv)
    table = synthesis(args.results, root=args.root)
    with pd.option_context("display.max_rows", None, "display.width", 200,
                           "display.float_format", "{:.4g}".format):
        print(table.to_string(index=False))
    print(f"{len(table)} rows")


if __name__ == "__main__":
    main()
