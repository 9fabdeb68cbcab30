"""Benchmark imlbench's batched explainers against one ``predict`` call and scikit-learn.

For four learners (rf, gbm, svm, knn) fitted on a p = 10 Gaussian design
(x1, x2 correlated 0.9, y = sum(x) + N(0, 0.5^2)), it times on an explain set of
n rows:

* PDP and ICE of x1 on a 50-point grid (``imlbench.explain.effects``) and
  permutation importance, MSE, n_repeats = 5, all 10 features
  (``imlbench.explain.importance``);
* the cost floor: ONE ``model.predict`` call on the rows the method needs
  (n*G for PDP/ICE, n*(p*R + 1) for PFI), timed right after every timed run;
* ``sklearn.inspection.partial_dependence(method="brute")`` with the same grid and
  ``sklearn.inspection.permutation_importance`` on the same model and data.

Ratios are medians over runs of the per-run (paired) ratios. It also asserts that
our PDP/ICE equal sklearn's brute output to 1e-8, counts ``predict`` calls and
rows through a wrapper, and measures the tracemalloc peak of our methods with the
default row cap and with ``max_rows = 10_000``.

Usage::

    .venv/bin/python benchmarks/bench_explainers.py [--quick] [--out benchmarks/results.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import os
import platform
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Pin every native thread pool to one thread before numpy (BLAS, OpenMP) is loaded.
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["MKL_NUM_THREADS"] = "1"
os.environ["BLIS_NUM_THREADS"] = "1"
os.environ["VECLIB_MAXIMUM_THREADS"] = "1"
os.environ["NUMEXPR_NUM_THREADS"] = "1"

import numpy as np
import sklearn
from sklearn.inspection import partial_dependence as sk_partial_dependence
from sklearn.inspection import permutation_importance as sk_permutation_importance

from imlbench.explain.batching import DEFAULT_MAX_ROWS, Predict
from imlbench.explain.effects import ice, partial_dependence
from imlbench.explain.importance import permutation_importance
from imlbench.learners import fit_quietly, make_learner

P = 10
RHO = 0.9
NOISE_SD = 0.5
N_TRAIN = 2000
GRID_SIZE = 50
N_REPEATS = 5
FEATURE = 0  # x1
SMALL_CAP = 10_000
TOLERANCE = 1e-8
SEED = 0

LEARNERS: dict[str, dict[str, Any]] = {
    "rf": {"n_estimators": 100},
    "gbm": {},
    "svm": {},
    "knn": {},
}


def simulate(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """n rows of N(0, Sigma) with corr(x1, x2) = RHO, and y = sum(x) + N(0, NOISE_SD^2)."""
    cov = np.eye(P)
    cov[0, 1] = cov[1, 0] = RHO
    X = rng.multivariate_normal(np.zeros(P), cov, size=n)
    y = X.sum(axis=1) + rng.normal(0.0, NOISE_SD, size=n)
    return X, y


@contextmanager
def counting_predict(model: Any) -> Iterator[list[int]]:
    """Shadow ``model.predict`` by a wrapper recording the row count of every call."""
    calls: list[int] = []
    original = model.predict

    @functools.wraps(original)
    def wrapper(X: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(len(X))
        return original(X, *args, **kwargs)

    model.predict = wrapper
    try:
        yield calls
    finally:
        del model.predict


def counting(predict: Predict) -> tuple[Predict, list[int]]:
    """A wrapper of a bare predict callable and the list of row counts it records."""
    calls: list[int] = []

    @functools.wraps(predict)
    def wrapper(X: np.ndarray) -> np.ndarray:
        calls.append(len(X))
        return predict(X)

    return wrapper, calls


@dataclass
class Task:
    """One explainer on one fitted model: ours, its predict floor and sklearn's counterpart."""

    name: str
    ours: Callable[[Predict, int], Any]  # (predict, max_rows) -> result
    sklearn: Callable[[], Any]
    floor_X: np.ndarray


@dataclass
class Result:
    """Timings, call counts and memory peaks of one (task, learner)."""

    task: str
    learner: str
    rows: int
    ours: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    sk: list[float] = field(default_factory=list)
    calls_ours: list[int] = field(default_factory=list)
    calls_sk: list[int] = field(default_factory=list)
    calls_small_cap: list[int] = field(default_factory=list)
    peak_default_mb: float = 0.0
    peak_small_mb: float = 0.0
    peak_sk_mb: float = 0.0

    def median_ratio(self, num: list[float], den: list[float]) -> float:
        """Median over runs of the paired ratios num[i] / den[i]."""
        return statistics.median(a / b for a, b in zip(num, den, strict=True))


def stacked_ice_rows(X: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """The n*G rows ICE predicts, observation-major as ``predict_stacked`` builds them."""
    block = np.repeat(X, len(grid), axis=0)
    block[:, FEATURE] = np.tile(grid, len(X))
    return block


def stacked_pfi_rows(X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The n*(p*R + 1) rows PFI predicts: X itself, then one permuted copy per (j, r)."""
    copies = [X]
    for j in range(P):
        for _ in range(N_REPEATS):
            Xp = X.copy()
            Xp[:, j] = rng.permutation(X[:, j])
            copies.append(Xp)
    return np.vstack(copies)


def make_tasks(model: Any, X: np.ndarray, y: np.ndarray, grid: np.ndarray) -> list[Task]:
    """PDP, ICE and PFI of ``model`` on (X, y), each with its floor matrix and sklearn call."""
    custom = {FEATURE: grid}
    ice_rows = stacked_ice_rows(X, grid)
    return [
        Task(
            "PDP",
            lambda pred, cap: partial_dependence(pred, X, FEATURE, grid, max_rows=cap),
            lambda: sk_partial_dependence(
                model, X, [FEATURE], custom_values=custom, method="brute", kind="average"
            ),
            ice_rows,
        ),
        Task(
            "ICE",
            lambda pred, cap: ice(pred, X, FEATURE, grid, max_rows=cap),
            lambda: sk_partial_dependence(
                model, X, [FEATURE], custom_values=custom, method="brute", kind="individual"
            ),
            ice_rows,
        ),
        Task(
            "PFI",
            lambda pred, cap: permutation_importance(
                pred, X, y, features=range(P), n_repeats=N_REPEATS,
                rng=np.random.default_rng(SEED), max_rows=cap,
            ),
            lambda: sk_permutation_importance(
                model, X, y, n_repeats=N_REPEATS, scoring="neg_mean_squared_error",
                n_jobs=1, random_state=SEED,
            ),
            stacked_pfi_rows(X, np.random.default_rng(SEED)),
        ),
    ]


def peak_mb(fn: Callable[[], Any]) -> float:
    """tracemalloc peak (MB) of the Python/NumPy allocations made by ``fn()``."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


@dataclass
class Equality:
    """Max abs differences between our PDP/ICE and sklearn's brute output for one learner."""

    learner: str
    dtype: str  # dtype of model.predict's output
    ice: float  # ours vs sklearn's "individual"
    pdp: float  # ours vs the float64 mean over rows of sklearn's "individual"
    pdp_sk_average: float  # ours vs sklearn's "average" as sklearn computes it


def check_equal(learner: str, model: Any, X: np.ndarray, grid: np.ndarray) -> Equality:
    """Compare our ICE/PDP of x1 with ``sklearn.inspection.partial_dependence(method="brute")``.

    Asserts ICE and PDP agree to 1e-8. sklearn averages the predictions in their own
    dtype, so for a float32 model (xgboost) its ``average`` carries float32 summation
    error (~1e-7); that comparison is asserted to 1e-8 for float64 models and to a
    float32 rounding bound otherwise, and always reported.
    """
    ours_ice = ice(model.predict, X, FEATURE, grid)
    ours_pdp = partial_dependence(model.predict, X, FEATURE, grid)
    bunch = sk_partial_dependence(
        model, X, [FEATURE], custom_values={FEATURE: grid}, method="brute", kind="both"
    )
    sk_ice = np.asarray(bunch["individual"][0])
    sk_avg = np.asarray(bunch["average"][0])
    assert ours_ice.shape == sk_ice.shape and ours_pdp.shape == sk_avg.shape
    eq = Equality(
        learner,
        str(np.asarray(model.predict(X[:2])).dtype),
        float(np.max(np.abs(ours_ice - sk_ice))),
        float(np.max(np.abs(ours_pdp - sk_ice.astype(float).mean(axis=0)))),
        float(np.max(np.abs(ours_pdp - sk_avg))),
    )
    assert eq.ice <= TOLERANCE, f"{learner} ICE: ours differs from sklearn by {eq.ice:.3g}"
    assert eq.pdp <= TOLERANCE, f"{learner} PDP: ours differs from sklearn by {eq.pdp:.3g}"
    avg_tol = TOLERANCE
    if sk_avg.dtype == np.float32:
        avg_tol += 8 * float(np.finfo(np.float32).eps) * float(np.max(np.abs(sk_ice)))
    assert eq.pdp_sk_average <= avg_tol, (
        f"{learner} PDP: ours differs from sklearn's average by {eq.pdp_sk_average:.3g}"
    )
    return eq


def bench_task(task: Task, learner: str, model: Any, runs: int) -> Result:
    """Count calls, measure memory, then time ours / floor / sklearn (one warm-up discarded)."""
    res = Result(task.name, learner, len(task.floor_X))

    predict, res.calls_ours = counting(model.predict)
    task.ours(predict, DEFAULT_MAX_ROWS)
    predict, res.calls_small_cap = counting(model.predict)
    task.ours(predict, SMALL_CAP)
    with counting_predict(model) as calls:
        task.sklearn()
    res.calls_sk = calls

    res.peak_default_mb = peak_mb(lambda: task.ours(model.predict, DEFAULT_MAX_ROWS))
    res.peak_small_mb = peak_mb(lambda: task.ours(model.predict, SMALL_CAP))
    res.peak_sk_mb = peak_mb(task.sklearn)

    for run in range(runs + 1):
        t0 = time.perf_counter()
        task.ours(model.predict, DEFAULT_MAX_ROWS)
        t1 = time.perf_counter()
        model.predict(task.floor_X)
        t2 = time.perf_counter()
        task.sklearn()
        t3 = time.perf_counter()
        if run == 0:  # warm-up
            continue
        res.ours.append(t1 - t0)
        res.floor.append(t2 - t1)
        res.sk.append(t3 - t2)
    return res


def render(results: list[Result], equalities: list[Equality], header: list[str]) -> str:
    """The markdown report: settings, timing table, memory/calls table and equality check."""
    lines = [*header, ""]
    lines += [
        "| task | learner | rows | ours (s) | floor (s) | ours/floor | sklearn (s) "
        "| ours/sklearn | predict calls ours/sklearn |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.task} | {r.learner} | {r.rows:,} | {statistics.median(r.ours):.3f} "
            f"| {statistics.median(r.floor):.3f} | {r.median_ratio(r.ours, r.floor):.2f} "
            f"| {statistics.median(r.sk):.3f} | {r.median_ratio(r.ours, r.sk):.2f} "
            f"| {len(r.calls_ours)} / {len(r.calls_sk)} |"
        )
    lines += [
        "",
        f"Peak traced memory (tracemalloc; Python/NumPy allocations only) and predict calls, "
        f"default cap (max_rows = {DEFAULT_MAX_ROWS:,}) vs max_rows = {SMALL_CAP:,}:",
        "",
        "| task | learner | rows | ours peak MB, default cap | ours peak MB, 10k cap "
        "| calls, 10k cap | rows per call, 10k cap | sklearn peak MB |",
        "|---|---|---:|---:|---:|---:|---|---:|",
    ]
    for r in results:
        sizes = Counter(r.calls_small_cap)
        lines.append(
            f"| {r.task} | {r.learner} | {r.rows:,} | {r.peak_default_mb:.1f} "
            f"| {r.peak_small_mb:.1f} | {len(r.calls_small_cap)} "
            f"| {' + '.join(f'{k}×{s:,}' for s, k in sizes.items())} | {r.peak_sk_mb:.1f} |"
        )
    lines += [
        "",
        "Max abs difference, ours vs sklearn `partial_dependence(method=\"brute\")` "
        f"(asserted <= {TOLERANCE:g}; sklearn averages in the model's output dtype):",
        "",
        "| learner | predict dtype | ICE | PDP vs mean of sklearn ICE | PDP vs sklearn average |",
        "|---|---|---:|---:|---:|",
    ]
    for e in equalities:
        lines.append(
            f"| {e.learner} | {e.dtype} | {e.ice:.1e} | {e.pdp:.1e} | {e.pdp_sk_average:.1e} |"
        )
    return "\n".join(lines) + "\n"


def load() -> str:
    """The 1/5/15-minute load averages (other processes share the cores)."""
    try:
        return "/".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo, or ``platform.processor()``."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the tables and write them to ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="n = 300 and 3 timed runs")
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).with_name("results.md"),
        help="markdown file for the tables (default: benchmarks/results.md)",
    )
    args = parser.parse_args(argv)
    n = 300 if args.quick else 1000
    runs = 3 if args.quick else 5

    rng = np.random.default_rng(SEED)
    X_train, y_train = simulate(N_TRAIN, rng)
    X, y = simulate(n, rng)
    lo, hi = np.quantile(X[:, FEATURE], [0.05, 0.95])
    grid = np.linspace(lo, hi, GRID_SIZE)

    import xgboost

    header = [
        f"Run {dt.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}"
        f"{' (--quick)' if args.quick else ''} on {cpu_model()}, {os.cpu_count()} cores, "
        f"threads pinned to 1; Python {platform.python_version()}, numpy {np.__version__}, "
        f"scikit-learn {sklearn.__version__}, xgboost {xgboost.__version__}.",
        "",
        f"n_train = {N_TRAIN:,}, explain n = {n:,}, p = {P}, grid G = {GRID_SIZE}, "
        f"PFI n_repeats = {N_REPEATS}; one warm-up discarded, median of {runs} runs; "
        "ratios are medians of per-run paired ratios.",
    ]
    load_start = load()
    print("\n".join(header), flush=True)

    results: list[Result] = []
    equalities: list[Equality] = []
    for name, params in LEARNERS.items():
        model = fit_quietly(make_learner(name, params, SEED), X_train, y_train)
        eq = check_equal(name, model, X, grid)
        equalities.append(eq)
        print(
            f"{name:>4} max |ours - sklearn brute|: ICE {eq.ice:.2e}, PDP {eq.pdp:.2e} "
            f"(vs sklearn's {eq.dtype} average: {eq.pdp_sk_average:.2e})",
            flush=True,
        )
        for task in make_tasks(model, X, y, grid):
            res = bench_task(task, name, model, runs)
            results.append(res)
            print(
                f"{name:>4} {task.name}: ours {statistics.median(res.ours):.3f}s, "
                f"floor {statistics.median(res.floor):.3f}s, "
                f"sklearn {statistics.median(res.sk):.3f}s, "
                f"calls {len(res.calls_ours)}/{len(res.calls_sk)}",
                flush=True,
            )

    header.append("")
    header.append(f"Load average (1/5/15 min) at start {load_start}, at end {load()}.")
    report = render(results, equalities, header)
    print()
    print(report)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report)
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
