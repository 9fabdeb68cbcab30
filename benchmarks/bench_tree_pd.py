"""Benchmark the tree walk for PD/ICE (``imlbench.explain.tree_pd``) against the predict floor.

On the design of ``bench_explainers.py`` (p = 10 Gaussian, corr(x1, x2) = 0.9,
y = sum(x) + N(0, 0.5^2), 2,000 training rows, explain set n = 1,000 rows) it fits

* ``rf``: 100 fully grown trees (``min_samples_leaf: 1``, no depth limit), scikit-learn;
* ``rf_leaf5``: the ``rf`` learner's own defaults with 100 trees (``min_samples_leaf: 5``),
  as ``bench_explainers.py`` uses it;
* ``gbm``: xgboost, 200 trees of depth 6;

and times, one warm-up discarded, median of 5 runs (ratios: medians of per-run paired ratios):

* ICE of x1 by the walk (``tree_ice``) at G = 50 and G = 200 grid points (equally spaced
  between the 5% and 95% quantiles) against the floor: ONE ``model.predict`` on the n*G
  stacked rows (observation-major, as the brute force stacks them), timed right after;
* the max abs difference of the walk to the brute force ``effects.ice(model.predict, ...)``;
* PD of all 10 features at G = 50 by the walk (``tree_pd``) against the brute force
  ``effects.partial_dependence`` (one stacked predict per feature): the speedup;
* the one-off extraction of the trees (``tree_model``).

Usage::

    .venv/bin/python benchmarks/bench_tree_pd.py [--quick] [--out benchmarks/results_tree_pd.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# numba's pool too; bench_explainers pins the others before numpy is loaded
os.environ["NUMBA_NUM_THREADS"] = "1"

import numpy as np
import sklearn
from bench_explainers import N_TRAIN, P, load, simulate  # its design: corr(x1, x2) = 0.9

from imlbench.explain.effects import ice, partial_dependence
from imlbench.explain.tree_pd import tree_ice, tree_model, tree_pd
from imlbench.learners import fit_quietly, make_learner

GRID_SIZES = (50, 200)
FEATURE = 0  # x1
SEED = 0

LEARNERS: dict[str, tuple[str, dict[str, Any]]] = {
    "rf": ("rf", {"n_estimators": 100, "min_samples_leaf": 1}),
    "rf_leaf5": ("rf", {"n_estimators": 100}),
    "gbm": ("gbm", {"n_estimators": 200, "max_depth": 6}),
}


def grid_of(x: np.ndarray, size: int) -> np.ndarray:
    lo, hi = np.quantile(x, [0.05, 0.95])
    return np.linspace(lo, hi, size)


def stacked(X: np.ndarray, j: int, grid: np.ndarray) -> np.ndarray:
    """The n*G rows the brute force predicts, observation-major."""
    block = np.repeat(X, len(grid), axis=0)
    block[:, j] = np.tile(grid, len(X))
    return block


def paired(first: Callable[[], Any], second: Callable[[], Any],
           runs: int) -> tuple[list[float], list[float]]:
    """Times of ``first`` and right after it ``second``, one warm-up discarded."""
    a, b = [], []
    for run in range(runs + 1):
        t0 = time.perf_counter()
        first()
        t1 = time.perf_counter()
        second()
        t2 = time.perf_counter()
        if run:
            a.append(t1 - t0)
            b.append(t2 - t1)
    return a, b


def ratio(num: list[float], den: list[float]) -> float:
    return statistics.median(x / y for x, y in zip(num, den, strict=True))


def bench_learner(label: str, model: Any, X: np.ndarray, runs: int) -> tuple[list[str], str]:
    """The ICE table rows (one per grid size) and the all-feature PD row of one model."""
    t0 = time.perf_counter()
    ensemble = tree_model(model)
    extraction = time.perf_counter() - t0
    lines = []
    for size in GRID_SIZES:
        grid = grid_of(X[:, FEATURE], size)
        rows = stacked(X, FEATURE, grid)
        diff = np.abs(tree_ice(ensemble, X, FEATURE, grid)
                      - ice(model.predict, X, FEATURE, grid)).max()
        walk, floor = paired(lambda g=grid: tree_ice(ensemble, X, FEATURE, g),
                             lambda r=rows: model.predict(r), runs)
        lines.append(f"| {label} | {len(ensemble.nodes):,} | {size} "
                     f"| {statistics.median(walk):.4f} | {statistics.median(floor):.4f} "
                     f"| {ratio(walk, floor):.3f} | {diff:.1e} |")
        print(lines[-1], flush=True)
    grids = [grid_of(X[:, j], GRID_SIZES[0]) for j in range(P)]
    diff = max(np.abs(tree_pd(ensemble, X, j, g)
                      - partial_dependence(model.predict, X, j, g)).max()
               for j, g in enumerate(grids))
    walk, brute = paired(
        lambda: [tree_pd(ensemble, X, j, g) for j, g in enumerate(grids)],
        lambda: [partial_dependence(model.predict, X, j, g) for j, g in enumerate(grids)],
        runs)
    line = (f"| {label} | {extraction:.3f} | {statistics.median(walk):.4f} "
            f"| {statistics.median(brute):.3f} | {ratio(brute, walk):.0f}x | {diff:.1e} |")
    print(line, flush=True)
    return lines, line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="n = 300 and 3 timed runs")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).with_name("results_tree_pd.md"))
    args = parser.parse_args(argv)
    n, runs = (300, 3) if args.quick else (1000, 5)
    rng = np.random.default_rng(SEED)
    X_train, y_train = simulate(N_TRAIN, rng)
    X, _ = simulate(n, rng)

    import numba
    import xgboost

    header = [
        f"Run {dt.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}"
        f"{' (--quick)' if args.quick else ''}, {os.cpu_count()} cores, threads pinned to 1; "
        f"Python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}, "
        f"scikit-learn {sklearn.__version__}, xgboost {xgboost.__version__}.",
        "",
        f"n_train = {N_TRAIN:,}, explain n = {n:,}, p = {P}; one warm-up discarded, median of "
        f"{runs} runs; ratios are medians of per-run paired ratios. Load average (1/5/15 min) "
        f"at start {load()}.",
    ]
    print("\n".join(header), flush=True)
    ice_rows = ["| learner | nodes | G | walk ICE (s) | floor: one predict of n*G rows (s) "
                "| walk/floor | max abs diff to brute force |",
                "|---|---:|---:|---:|---:|---:|---:|"]
    pd_rows = ["| learner | extraction (s) | walk PD, 10 features (s) | brute PD, 10 features (s) "
               "| speedup | max abs diff |", "|---|---:|---:|---:|---:|---:|"]
    for label, (name, params) in LEARNERS.items():
        model = fit_quietly(make_learner(name, params, SEED, threads=1), X_train, y_train)
        lines, line = bench_learner(label, model, X, runs)
        ice_rows += lines
        pd_rows.append(line)
    text = "\n".join([
        *header, "", f"ICE of x1 (walk vs one predict of the stacked rows), n = {n:,}:", "",
        *ice_rows, "", f"PD of all {P} features, G = {GRID_SIZES[0]} each:", "", *pd_rows,
        "", f"Load average at end {load()}.", ""])
    args.out.write_text(text)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
