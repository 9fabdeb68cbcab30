"""Benchmark the feature-effect methods against one ``predict`` call and the peer packages.

Four learners (rf, gbm, svm, knn) are fitted on a p = 5 Gaussian design (x1, x2
correlated 0.9, y = x1 + x2^2 + x3 x4 + N(0, 0.5^2)); on an explain set of n = 1,000 rows
each method of x1 is timed against

* the floor: ONE ``model.predict`` on as many rows as the method evaluates (PDP/ICE 50 n,
  ALE 2n, ALE2 4n, M-plot n, SHAP rows x 2^p x background, LIME rows x samples);
* the peers computing the same thing on the same model and data: scikit-learn's brute
  ``partial_dependence`` (PDP, ICE), PyALE and effector (ALE; effector also PDP),
  shap's ``ExactExplainer`` with an independent masker (exact interventional SHAP),
  and stratx (StratPD, which uses no model; it is timed after numba's compilation).

alibi (ALE) pins numpy < 2 and pandas < 3 and cannot be installed with this stack; it is
not measured. Ratios are medians over runs of the per-run (paired) ratios. Peak memory is
tracemalloc's (Python/NumPy allocations) with the default row cap and with
``max_rows = 10,000``.

Usage::

    .venv/bin/python benchmarks/bench_effects.py [--quick] [--out benchmarks/results_effects.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from bench_explainers import cpu_model, load, peak_mb  # pins native threads to one

from imlbench.explain.ale import ale_edges, ale_first_order, ale_second_order
from imlbench.explain.batching import DEFAULT_MAX_ROWS
from imlbench.explain.effects import ice, marginal_plot, partial_dependence
from imlbench.explain.lime import lime_coefficients
from imlbench.explain.shapley import shapley_exact
from imlbench.explain.stratpd import stratpd
from imlbench.learners import fit_quietly, make_learner

P = 5
N_TRAIN = 2000
GRID_SIZE = 50
INTERVALS = 20
SHAP_ROWS, SHAP_BACKGROUND = 20, 20
LIME_ROWS, LIME_SAMPLES = 5, 1000
SMALL_CAP = 10_000
SEED = 0
LEARNERS: dict[str, dict[str, Any]] = {"rf": {"n_estimators": 100}, "gbm": {}, "svm": {},
                                       "knn": {}}


def simulate(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    cov = np.eye(P)
    cov[0, 1] = cov[1, 0] = 0.9
    X = rng.multivariate_normal(np.zeros(P), cov, size=n)
    y = X[:, 0] + X[:, 1] ** 2 + X[:, 2] * X[:, 3] + rng.normal(0, 0.5, n)
    return X, y


@dataclass
class Task:
    name: str
    ours: Callable[[int], Any]  # max_rows -> result
    floor_rows: int  # 0: the method calls no model
    peers: dict[str, Callable[[], Any]] = field(default_factory=dict)


@dataclass
class Result:
    task: str
    learner: str
    rows: int
    ours: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    peers: dict[str, list[float]] = field(default_factory=dict)
    peak_default_mb: float = 0.0
    peak_small_mb: float = 0.0


def _ratio(a: list[float], b: list[float]) -> float:
    return statistics.median(x / y for x, y in zip(a, b, strict=True))


class _FrameModel:
    def __init__(self, model: Any) -> None:
        self.model = model

    def predict(self, df: pd.DataFrame) -> np.ndarray:
        return self.model.predict(df.to_numpy())


def make_tasks(model: Any, X: np.ndarray, y: np.ndarray, rng: np.random.Generator) -> list[Task]:
    import effector
    import shap
    from PyALE import ale as pyale
    from sklearn.inspection import partial_dependence as sk_pd

    f = model.predict
    n = len(X)
    grid = np.linspace(*np.quantile(X[:, 0], [0.05, 0.95]), GRID_SIZE)
    edges = ale_edges(X[:, 0], {"kind": "quantile", "size": INTERVALS})
    edges2 = ale_edges(X[:, 1], {"kind": "quantile", "size": INTERVALS})
    df = pd.DataFrame(X, columns=[f"x{j + 1}" for j in range(P)])
    rows, background = X[:SHAP_ROWS], X[n - SHAP_BACKGROUND:]
    masker = shap.maskers.Independent(background, max_samples=SHAP_BACKGROUND)
    fixed = effector.axis_partitioning.Fixed(nof_bins=INTERVALS)

    def effector_ale():
        ale = effector.ALE(X, f, nof_instances="all")
        ale.fit([0], binning_method=fixed, centering=True)
        return ale.eval(feature=0, xs=grid, centering=True)

    def effector_pdp():
        return effector.PDP(X, f, nof_instances="all").eval(feature=0, xs=grid,
                                                             centering=False)

    return [
        Task("PDP", lambda cap: partial_dependence(f, X, 0, grid, max_rows=cap), n * GRID_SIZE,
             {"sklearn": lambda: sk_pd(model, X, [0], custom_values={0: grid},
                                       method="brute", kind="average"),
              "effector": effector_pdp}),
        Task("ICE", lambda cap: ice(f, X, 0, grid, max_rows=cap), n * GRID_SIZE,
             {"sklearn": lambda: sk_pd(model, X, [0], custom_values={0: grid},
                                       method="brute", kind="individual")}),
        Task("ALE", lambda cap: ale_first_order(f, X, 0, edges, max_rows=cap), 2 * n,
             {"PyALE": lambda: pyale(X=df, model=_FrameModel(model), feature=["x1"],
                                     grid_size=INTERVALS, include_CI=False, plot=False),
              "effector": effector_ale}),
        Task("ALE2", lambda cap: ale_second_order(f, X, 0, 1, edges, edges2, max_rows=cap),
             4 * n),
        Task("M-plot", lambda cap: marginal_plot(f, X, 0, edges, max_rows=cap), n),
        Task("SHAP", lambda cap: shapley_exact(f, rows, background, max_rows=cap),
             SHAP_ROWS * 2**P * SHAP_BACKGROUND,
             {"shap": lambda: shap.explainers.ExactExplainer(f, masker)(rows)}),
        Task("LIME", lambda cap: lime_coefficients(f, X, X[:LIME_ROWS], np.random.default_rng(1),
                                                   n_samples=LIME_SAMPLES, max_rows=cap),
             LIME_ROWS * LIME_SAMPLES),
    ]


def stratpd_task(X: np.ndarray, y: np.ndarray) -> Task:
    from stratx.partdep import partial_dependence as sx_pd

    df = pd.DataFrame(X, columns=[f"x{j + 1}" for j in range(P)])
    target = pd.Series(y)
    sx_pd(df, target, "x1", min_samples_leaf=10, parallel_jit=False)  # compile first

    return Task("StratPD", lambda cap: stratpd(X, y, 0, min_samples_leaf=10, gaps="zero",
                                               rng=np.random.default_rng(2)), 0,
                {"stratx": lambda: sx_pd(df, target, "x1", min_samples_leaf=10,
                                         parallel_jit=False)})


def bench(task: Task, learner: str, model: Any | None, X: np.ndarray, runs: int) -> Result:
    floor_X = np.resize(X, (task.floor_rows, X.shape[1])) if task.floor_rows else None
    res = Result(task.name, learner, task.floor_rows, peers={k: [] for k in task.peers})
    res.peak_default_mb = peak_mb(lambda: task.ours(DEFAULT_MAX_ROWS))
    res.peak_small_mb = peak_mb(lambda: task.ours(SMALL_CAP))
    for run in range(runs + 1):
        t0 = time.perf_counter()
        task.ours(DEFAULT_MAX_ROWS)
        t1 = time.perf_counter()
        if floor_X is not None:
            model.predict(floor_X)
        t2 = time.perf_counter()
        peer_times = {}
        for name, peer in task.peers.items():
            t = time.perf_counter()
            peer()
            peer_times[name] = time.perf_counter() - t
        if run == 0:  # warm-up
            continue
        res.ours.append(t1 - t0)
        res.floor.append(t2 - t1)
        for name, t in peer_times.items():
            res.peers[name].append(t)
    return res


def render(results: list[Result], header: list[str]) -> str:
    lines = [*header, "",
             "| method | learner | rows | ours (s) | ours/floor | peer ratios (ours/peer) "
             "| peak MB default cap | peak MB 10k cap |",
             "|---|---|---:|---:|---:|---|---:|---:|"]
    for r in results:
        floor = f"{_ratio(r.ours, r.floor):.2f}" if r.rows else "no model"
        peers = ", ".join(f"{k} {_ratio(r.ours, v):.2f}" for k, v in r.peers.items()) or "—"
        lines.append(f"| {r.task} | {r.learner} | {r.rows:,} | {statistics.median(r.ours):.3f} "
                     f"| {floor} | {peers} | {r.peak_default_mb:.1f} | {r.peak_small_mb:.1f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="n = 300 and 2 timed runs")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).with_name("results_effects.md"))
    args = parser.parse_args(argv)
    n = 300 if args.quick else 1000
    runs = 2 if args.quick else 5
    rng = np.random.default_rng(SEED)
    X_train, y_train = simulate(N_TRAIN, rng)
    X, y = simulate(n, rng)

    import sklearn
    import xgboost

    header = [
        f"Run {dt.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}"
        f"{' (--quick)' if args.quick else ''} on {cpu_model()}, {os.cpu_count()} cores, "
        f"threads pinned to 1; Python {platform.python_version()}, numpy {np.__version__}, "
        f"scikit-learn {sklearn.__version__}, xgboost {xgboost.__version__}.",
        "",
        f"n_train = {N_TRAIN:,}, explain n = {n:,}, p = {P}; PDP/ICE grid {GRID_SIZE}, ALE "
        f"{INTERVALS} quantile intervals (effector: {INTERVALS} equal-width bins), SHAP "
        f"{SHAP_ROWS} rows x {SHAP_BACKGROUND} background rows, LIME {LIME_ROWS} rows x "
        f"{LIME_SAMPLES} samples; one warm-up discarded, median of {runs} runs.",
    ]
    load_start = load()
    print("\n".join(header), flush=True)
    results = []
    for name, params in LEARNERS.items():
        model = fit_quietly(make_learner(name, params, SEED), X_train, y_train)
        for task in make_tasks(model, X, y, rng):
            results.append(bench(task, name, model, X, runs))
            print(render(results[-1:], []).splitlines()[-1], flush=True)
    results.append(bench(stratpd_task(X, y), "—", None, X, runs))
    header += ["", f"Load average (1/5/15 min) at start {load_start}, at end {load()}."]
    report = render(results, header)
    print(report)
    args.out.write_text(report)
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
