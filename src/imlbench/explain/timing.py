"""Run time of an explanation method against the number of rows.

The method runs on nested random subsets of the training rows (the first n of one random
order, for every n of ``sizes``), one feature (or one group of features explained together,
such as the pair of a 2-D method) at a time, ``times`` times each; each call is measured in
the CPU seconds of the process (``time.process_time``), which other processes on the machine do
not move as they move its wall-clock time (a job that waits for a core is not charged for the
wait; the methods compute on one thread). One untimed call on the smallest subset comes
first, so that one-off costs (imports, caches) are not counted. ``prepare(rows)``, when given,
runs untimed once per size before its timed calls (e.g. refitting the model on those rows, so
that the model grows with n as it would when trained on n rows). The workflow still gives such
scenarios the cores to themselves (``exclusive``): caches and memory bandwidth shared with
another job move CPU times too, though far less.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

#: the columns that hold run-time measurements: the only values that differ between two runs
#: of the same configuration (with the scorecard rows of the claims that read them)
MEASURED_COLUMNS = ("seconds",)
#: ``run(rows, group)`` explains one group of features (column indices) on the given rows
Run = Callable[[np.ndarray, tuple[int, ...]], object]


def time_by_size(run: Run, X: np.ndarray, groups: Sequence[tuple[int, ...]],
                 sizes: Sequence[int], times: int, rng: np.random.Generator,
                 prepare: Callable[[np.ndarray], None] | None = None) -> pd.DataFrame:
    """Seconds per call of ``run`` on the first n rows of a random order of the rows of
    ``X``, per feature group, size and repeat (columns feature: the group's first column,
    features: its size, n, repeat, seconds, and levels: the distinct values of the group's
    first column among the n rows); sizes above the row count are left out."""
    n_rows = len(X)
    order = rng.permutation(n_rows)
    sizes = sorted(n for n in set(sizes) if n <= n_rows)
    if not sizes:
        raise ValueError(f"no timing size is at most the {n_rows} training rows")
    rows = []
    subsets = {n: np.sort(order[:n]) for n in sizes}
    for n in sizes:
        if prepare is not None:
            prepare(subsets[n])
        for group in groups:
            if n == sizes[0]:
                run(subsets[n], group)  # warm-up, not timed
            for repeat in range(times):
                start = time.process_time()
                run(subsets[n], group)
                rows.append({"feature": group[0], "features": len(group), "n": n,
                             "repeat": repeat, "seconds": time.process_time() - start,
                             "levels": len(np.unique(X[subsets[n], group[0]]))})
    return pd.DataFrame(rows)
