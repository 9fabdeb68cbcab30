"""Run time of an explanation method against the number of rows.

The method runs on nested random subsets of the training rows (the first n of one random
order, for every n of ``sizes``), one feature at a time, ``times`` times each; the wall-clock
time of each call is measured with ``time.perf_counter``. One untimed call on the smallest
subset comes first, so that one-off costs (imports, caches) are not counted. The numbers are
only comparable between runs whose job has the cores to itself (the workflow makes such
scenarios exclusive).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

#: the columns that hold wall-clock measurements: the only values that differ between two runs
#: of the same configuration (with the scorecard rows of the claims that read them)
MEASURED_COLUMNS = ("seconds",)
#: ``run(rows, feature)`` explains one feature on the given training rows
Run = Callable[[np.ndarray, int], object]


def time_by_size(run: Run, X: np.ndarray, features: Sequence[int], sizes: Sequence[int],
                 times: int, rng: np.random.Generator) -> pd.DataFrame:
    """Seconds per call of ``run`` on the first n rows of a random order of the rows of
    ``X``, per feature, size and repeat (columns feature, n, repeat, seconds, and levels: the
    feature's distinct values among the n rows); sizes above the row count are left out."""
    n_rows = len(X)
    order = rng.permutation(n_rows)
    sizes = sorted(n for n in set(sizes) if n <= n_rows)
    if not sizes:
        raise ValueError(f"no timing size is at most the {n_rows} training rows")
    rows = []
    for j in features:
        run(np.sort(order[: sizes[0]]), j)  # warm-up, not timed
        for n in sizes:
            subset = np.sort(order[:n])
            for repeat in range(times):
                start = time.perf_counter()
                run(subset, j)
                rows.append({"feature": j, "n": n, "repeat": repeat,
                             "seconds": time.perf_counter() - start,
                             "levels": len(np.unique(X[subset, j]))})
    return pd.DataFrame(rows)
