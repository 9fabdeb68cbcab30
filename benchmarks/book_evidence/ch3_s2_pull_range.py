"""The pull lambda of book_pdp's ch3-s2-ind-no-pull recomputed from our own PDP curves of
scenario set2ind (the workflow's estimates), on two ranges of x1: the claim's [-2, 2], and
the part of it where the truth table has values, x1's 5%-95% quantiles (+-1.645), which is
what the scored statistic sees. Per repetition: least squares of the centred PDP on the
centred true PD sin(3 x1) and the centred x1 (the common effect x1 + sin(3 x1) minus the PD);
lambda is the weight of x1. Shows that the SVM's pull (0.15 scored) is in the inner range only.

    uv run python benchmarks/book_evidence/ch3_s2_pull_range.py \
        /work/verdicts/seed_2021/results/book_pdp/estimates/set2ind
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

Q95 = 1.6448536269514722


def pulls(curves: pd.DataFrame, lo: float, hi: float) -> np.ndarray:
    """lambda per repetition over the points with x in [lo, hi]."""
    out = []
    for _, g in curves[curves["x"].between(lo, hi)].groupby("rep"):
        x = g["x"].to_numpy(float)
        own = np.sin(3 * x) - np.sin(3 * x).mean()
        est = g["value"].to_numpy(float) - g["value"].mean()
        u = x - x.mean()
        out.append(np.linalg.lstsq(np.column_stack([own, u]), est, rcond=None)[0][1])
    return np.asarray(out)


def main(folder: str) -> None:
    d = pd.concat(pd.read_parquet(f) for f in sorted(Path(folder).rglob("*.parquet")))
    for learner, c in d[d["feature"] == "x1"].groupby("learner"):
        for lo, hi in ((-2.0, 2.0), (-Q95, Q95)):
            lam = pulls(c, lo, hi)
            print(f"{learner} x1 in [{lo:.3f}, {hi:.3f}]: lambda {lam.mean():.3f} "
                  f"(SE {lam.std(ddof=1) / np.sqrt(len(lam)):.3f}, {len(lam)} reps)")


if __name__ == "__main__":
    main(sys.argv[1])
