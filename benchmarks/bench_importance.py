"""Benchmark conditional PFI: sampler fitting and drawing, and PFI time over the predict floor.

On the conditional-subgroups simulation (nonlinear scenario, p = 10; sampler fitted on 2,000
rows, importance on 1,000 rows), for every sampler it times

* fitting the sampler for x1 (reported separately: it does not touch the model);
* drawing 5 replacements of x1 for the 1,000 rows;
* the conditional PFI of x1 with 5 repeats on a random forest (100 trees), divided by the floor:
  ONE ``predict`` on the 6,000 rows it evaluates (the rows and 5 copies with x1 replaced by
  the sampler; identical copies would predict faster than the real rows).

Medians of 5 runs after one warm-up.

Usage::

    .venv/bin/python benchmarks/bench_importance.py [--out benchmarks/results_importance.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import time
from pathlib import Path

import numpy as np
from bench_explainers import cpu_model, load  # pins native threads to one

from imlbench.explain.importance import replacement_importance
from imlbench.explain.samplers import fit_sampler
from imlbench.learners import fit_quietly, make_learner
from imlbench.studies.conditional_subgroups.dgp_simulation import ConditionalSubgroupsSimulation

SAMPLERS = {
    "permutation": {},
    "subgroups (cart)": {"tree": "cart"},
    "subgroups (distribution)": {"tree": "distribution"},
    "gaussian": {},
    "knockoff": {},
    "impute_rf": {"n_estimators": 100},
    "exact": {},
}
REPEATS = 5
RUNS = 5


def _median_time(fn, runs: int = RUNS) -> float:
    fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).with_name("results_importance.md"))
    args = parser.parse_args(argv)
    d = ConditionalSubgroupsSimulation("nonlinear")
    rng = np.random.default_rng(0)
    train = d.sample(2000, rng)
    test = d.sample(1000, rng)
    Xtr, ytr = train[d.feature_names].to_numpy(), train["y"].to_numpy()
    X, y = test[d.feature_names].to_numpy(), test["y"].to_numpy()
    model = fit_quietly(make_learner("rf", {"n_estimators": 100}, 0), Xtr, ytr)
    lines = [
        f"Run {dt.datetime.now().astimezone():%Y-%m-%d %H:%M %Z} on {cpu_model()}, "
        f"{os.cpu_count()} cores, threads pinned to 1; Python {platform.python_version()}.",
        "",
        "| sampler | fit (s) | draw 5 x 1,000 (s) | cPFI x1, 5 repeats (s) | cPFI / floor |",
        "|---|---:|---:|---:|---:|",
    ]
    load_start = load()
    for label, params in SAMPLERS.items():
        name = label.split(" ")[0]

        def fit(name=name, params=params):
            return fit_sampler(name, Xtr, 0, np.random.default_rng(1), params,
                               exact=d.sample_conditional)

        fit_s = _median_time(fit)
        fs = fit()
        draw_s = _median_time(lambda fs=fs: [fs.draw(X, rng) for _ in range(REPEATS)])

        def cpfi(fs=fs):
            return replacement_importance(model.predict, X, y,
                                          lambda X_, j, r, fs=fs: fs.draw(X_, r),
                                          features=[0], n_repeats=REPEATS, rng=rng)

        # the floor predicts the rows PFI predicts: X and 5 copies with x1 replaced
        copies = [X]
        for _ in range(REPEATS):
            Xr = X.copy()
            Xr[:, 0] = fs.draw(X, rng)
            copies.append(Xr)
        floor_X = np.vstack(copies)
        ratios = []
        for _ in range(RUNS):
            t0 = time.perf_counter()
            cpfi()
            t1 = time.perf_counter()
            model.predict(floor_X)
            t2 = time.perf_counter()
            ratios.append((t1 - t0) / (t2 - t1))
        lines.append(f"| {label} | {fit_s:.3f} | {draw_s:.3f} | {_median_time(cpfi):.3f} "
                     f"| {statistics.median(ratios):.2f} |")
        print(lines[-1], flush=True)
    lines += ["", f"Load average (1/5/15 min) at start {load_start}, at end {load()}."]
    report = "\n".join(lines) + "\n"
    print(report)
    args.out.write_text(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
