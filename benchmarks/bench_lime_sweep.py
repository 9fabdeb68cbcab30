"""Benchmark a LIME kernel-width sweep (41 widths) against one width.

A sweep shares each explained row's samples and predictions across the widths; only the
proximity weights, the feature selection and the weighted ridge fit are redone per width
(``imlbench.explain.lime.lime_fits``). Setting as the book's ch. 13 width sweep: y =
sin(x) + N(0, 0.1^2) on x ~ U(0, 2 pi), a random forest (n_trees trees), and a p = 5 variant
(four noise features) with forward selection of 3 features. Each case explains 10 rows with
5,000 samples; the ratio (41 widths / 1 width; target <= 1.5) is the median of paired runs.

Usage::

    .venv/bin/python benchmarks/bench_lime_sweep.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from bench_explainers import load
from sklearn.ensemble import RandomForestRegressor

from imlbench.explain.lime import lime_fits

WIDTHS = list(np.linspace(0.05, 2.05, 41))


def _seconds(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 trees, 3 runs")
    args = parser.parse_args()
    n_trees, runs = (100, 3) if args.quick else (1000, 5)
    print(f"LIME width sweep, {len(WIDTHS)} widths vs 1, 10 rows x 5,000 samples, "
          f"rf {n_trees} trees; {load()}")
    for p, options in ((1, {}), (5, {"n_features": 3, "selection": "forward"})):
        r = np.random.default_rng(1)
        X = np.column_stack([r.uniform(0, 2 * np.pi, 500), r.normal(size=(500, p - 1))])
        y = np.sin(X[:, 0]) + r.normal(scale=0.1, size=500)
        model = RandomForestRegressor(n_trees, min_samples_leaf=5, random_state=1).fit(X, y)
        rows = X[:10]

        def call(widths, model=model, X=X, rows=rows, options=options):
            return lime_fits(model.predict, X, rows, np.random.default_rng(2),
                             kernel_widths=widths, n_samples=5000, **options)

        pairs = [(_seconds(lambda: call([0.75])), _seconds(lambda: call(WIDTHS)))
                 for _ in range(runs)]
        one = statistics.median(a for a, _ in pairs)
        sweep = statistics.median(b for _, b in pairs)
        ratio = statistics.median(b / a for a, b in pairs)
        print(f"p = {p} {options or ''}: 1 width {one:.3f} s, {len(WIDTHS)} widths "
              f"{sweep:.3f} s, ratio {ratio:.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
