"""Coverage and width of learner-level PD bands and PFI intervals from stored per-refit values
(Molnar et al., "Relating the PDP and PFI to the data generating process", Sect. 7.3-7.4, 8).

For every repetition and every number of refits m = 2..M, the first m refits give the
learner-PD/PFI estimate (their mean, eqs. 7-8), the variance (1/m + c) s^2 (Sect. 7.3) and
the interval mean +- t_{0.975, m-1} sqrt(variance) (Sect. 7.4); c = 0 is the naive variance,
c = 0.368 / 0.632 the Nadeau-Bengio correction (bootstrap and subsampling only). An
interval covers when it holds the coverage target E_F[PD(x)] or E_F[PFI], the mean over
every ``truth`` run of the (scenario, learner) (separate fresh-data fits, never the
refits under test). A repetition's coverage is the share of its (feature, grid point)
intervals that cover, its width the mean full width; the cell's coverage is the mean over
repetitions. Its standard error adds two parts: the spread over repetitions, and the Monte
Carlo error of the target, which every repetition shares: half the change of the coverage when
every target moves by one of its standard errors, up and down (all in the same direction, the
largest effect of a target error of that size; with 320-400 truth runs in the default profile
the target's error moves the coverage of a biased interval by several points).

:func:`summarise` is the ``summarise`` of method ``pd_pfi_dgp.learner_refits``
(:mod:`.methods_refits`): the summaries job writes its table to the study's
``metrics/summary.parquet``, which the coverage claims and figures read.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.explain.learner_level import nadeau_bengio_c
from imlbench.io import read_parquet
from imlbench.stats import t_halfwidth

ALPHA = 0.05
KEY = ["quantity", "feature", "x"]


def _group_files(paths: list[Path]) -> dict[tuple[str, str, str], list[Path]]:
    """Files by (scenario, learner, method), from estimates/{sc}/{learner}/{method}/{chunk}."""
    groups: dict[tuple[str, str, str], list[Path]] = defaultdict(list)
    for p in map(Path, paths):
        groups[(p.parents[2].name, p.parents[1].name, p.parent.name)].append(p)
    return groups


def coverage_target(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """E_F[PD(x)] and E_F[PFI] per (quantity, feature, x): the mean of the ``truth`` runs,
    with its standard error and the number of runs."""
    truth = pd.concat([f[f["strategy"] == "truth"] for f in frames], ignore_index=True)
    if truth.empty:
        raise ValueError("no truth runs (strategy 'truth') for this scenario and learner: set "
                         "the refit method's truth_fits above 0")
    g = truth.groupby(KEY, dropna=False, sort=True)["value"]
    return pd.DataFrame({"truth": g.mean(), "truth_se": g.std(ddof=1) / np.sqrt(g.count()),
                         "truth_fits": g.count()}).reset_index()


def _cube(df: pd.DataFrame, keys: pd.DataFrame) -> np.ndarray:
    """values[rep, refit, k] for the (quantity, feature, x) rows of ``keys``, in their order."""
    k = df.merge(keys[KEY].reset_index(), on=KEY, how="left")["index"].to_numpy()
    reps, rep_idx = np.unique(df["rep"].to_numpy(), return_inverse=True)
    refit = df["refit"].to_numpy()
    out = np.full((len(reps), refit.max() + 1, len(keys)), np.nan)
    out[rep_idx, refit, k] = df["value"].to_numpy()
    return out


def prefix_moments(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and sample variance of the first m refits for m = 2..M; ``values`` has refits on
    axis 1. Both have shape (M - 1, reps, k)."""
    M = values.shape[1]
    m = np.arange(2, M + 1)[:, None, None]
    csum = np.cumsum(values, axis=1)[:, 1:].transpose(1, 0, 2)
    csq = np.cumsum(values**2, axis=1)[:, 1:].transpose(1, 0, 2)
    return csum / m, np.maximum(csq - csum**2 / m, 0.0) / (m - 1)


def interval_halfwidths(var: np.ndarray, c: float) -> np.ndarray:
    """Half widths t_{1 - alpha/2, m-1} sqrt((1/m + c) s_m^2) for the prefix variances of
    :func:`prefix_moments` (axis 0: m = 2..M)."""
    m = np.arange(2, var.shape[0] + 2)[:, None, None]
    return t_halfwidth(var, m, c, ALPHA)


def _accumulate(means: np.ndarray, var: np.ndarray, truth: np.ndarray, truth_se: np.ndarray,
                quantities: np.ndarray, c: float) -> dict[str, dict[str, np.ndarray]]:
    """Per quantity: per-rep covered share, the same against the target moved up and down by
    its standard error, and width, for every m (arrays of shape (M-1, reps))."""
    half = interval_halfwidths(var, c)

    def covered(target: np.ndarray) -> np.ndarray:
        return np.abs(means - target[None, None, :]) <= half

    shares = {"covered": covered(truth), "covered_up": covered(truth + truth_se),
              "covered_down": covered(truth - truth_se)}
    return {q: {**{k: v[:, :, quantities == q].mean(axis=2) for k, v in shares.items()},
                "width": 2 * half[:, :, quantities == q].mean(axis=2)}
            for q in np.unique(quantities)}


def summarise(paths: list[Path]) -> pd.DataFrame:
    """Coverage and width per (scenario, learner, method, strategy, corrected, m, quantity)
    over the repetitions stored in ``paths`` (per-refit estimate files)."""
    rows = []
    for (scenario, learner, method), files in sorted(_group_files(paths).items()):
        frames = [read_parquet(p) for p in sorted(files)]
        target = coverage_target(frames)
        truth = target["truth"].to_numpy()
        truth_se = np.nan_to_num(target["truth_se"].to_numpy(), nan=0.0)
        quantities = target["quantity"].to_numpy()
        labels = {c: frames[0][c].iloc[0] for c in frames[0].columns if c.startswith("p_")}
        sums: dict[tuple, list[np.ndarray]] = defaultdict(list)
        for df in frames:
            for strategy, part in df[df["strategy"] != "truth"].groupby("strategy"):
                means, var = prefix_moments(_cube(part, target))
                cs = [0.0] + ([nadeau_bengio_c(strategy)] if strategy != "ideal" else [])
                for c in cs:
                    for q, res in _accumulate(means, var, truth, truth_se, quantities,
                                               c).items():
                        sums[(strategy, c > 0, q)].append(res)
        for (strategy, corrected, q), parts in sums.items():
            covered, up, down, width = (np.concatenate([p[k] for p in parts], axis=1) for k in
                                        ("covered", "covered_up", "covered_down", "width"))
            R = covered.shape[1]
            for i in range(covered.shape[0]):
                se_reps = covered[i].std(ddof=1) / np.sqrt(R) if R > 1 else np.inf
                se_target = abs(up[i].mean() - down[i].mean()) / 2
                rows.append({
                    "scenario": scenario, "learner": learner, "method": method, **labels,
                    "strategy": strategy, "corrected": bool(corrected), "m": i + 2,
                    "quantity": q, "coverage": covered[i].mean(),
                    "coverage_se": float(np.hypot(se_reps, se_target)),
                    "coverage_se_target": se_target,
                    "width": width[i].mean(), "reps": R,
                    "truth_fits": int(target.loc[target["quantity"] == q, "truth_fits"].min()),
                })
    return pd.DataFrame(rows)
