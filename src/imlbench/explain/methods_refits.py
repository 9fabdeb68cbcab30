"""The refit method of the PD/PFI coverage simulation (Molnar et al., "Relating the PDP and
PFI to the data generating process", Sect. 8): per-refit PD and PFI of every strategy, and
the fresh-data runs that define the coverage target. See :mod:`.refit_simulation`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.grids import make_grid
from imlbench.explain.methods import ExplainContext, method
from imlbench.explain.refit_simulation import STRATEGIES, RefitDesign, refit_values

#: the paper's grid for every feature (Sect. 8)
PAPER_GRID = {"kind": "values", "values": [0.1, 0.3, 0.5, 0.7, 0.9]}


def _tidy(strategy: str, pd_: np.ndarray, pfi: np.ndarray, names: list[str],
          grid: np.ndarray) -> pd.DataFrame:
    refits, p, G = pd_.shape
    pd_part = pd.DataFrame({
        "strategy": strategy, "refit": np.repeat(np.arange(refits), p * G),
        "quantity": "pd", "feature": np.tile(np.repeat(names, G), refits),
        "x": np.tile(grid, refits * p), "value": pd_.ravel(),
    })
    pfi_part = pd.DataFrame({
        "strategy": strategy, "refit": np.repeat(np.arange(refits), p), "quantity": "pfi",
        "feature": np.tile(names, refits), "x": np.nan, "value": pfi.ravel(),
    })
    return pd.concat([pd_part, pfi_part], ignore_index=True)


@method("learner_refits", kind="refits",
        params={"features", "grid", "strategies", "max_refits", "n_permutations", "truth_fits",
                "ideal_test_share", "ideal_replacement"})
def _learner_refits(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Per-refit PD and PFI of ``max_refits`` refits for each of ``strategies`` (ideal,
    bootstrap, subsampling) and of ``truth_fits`` fresh-data runs (strategy ``truth``) whose
    mean over all repetitions is the coverage target. Each strategy has a random stream of
    its own, so the strategies run do not change each other's values."""
    S = ctx.features(params)
    names = [ctx.feature_names[j] for j in S]
    grid = make_grid(ctx.X[:, S[0]], params.get("grid", PAPER_GRID), names[0])
    design = RefitDesign(S, grid, int(params.get("n_permutations", 5)), ctx.max_rows)
    strategies = list(params.get("strategies", ["ideal", "bootstrap", "subsampling"]))
    unknown = set(strategies) - set(STRATEGIES[:3])
    if unknown:
        raise ValueError(f"strategies {sorted(unknown)} are not among "
                         f"{', '.join(STRATEGIES[:3])}")
    counts = {s: int(params.get("max_refits", 30)) for s in strategies}
    counts["truth"] = int(params.get("truth_fits", 0))
    streams = dict(zip(STRATEGIES, rng.spawn(len(STRATEGIES)), strict=True))
    frames = []
    for strategy, refits in counts.items():
        if refits == 0:
            continue
        pd_, pfi = refit_values(
            ctx.fit, ctx.dgp, ctx.X, ctx.y, strategy, refits, design, streams[strategy],
            ideal_test_share=float(params.get("ideal_test_share", 0.368)),
            ideal_replacement=params.get("ideal_replacement", "permute"),
        )
        frames.append(_tidy(strategy, pd_, pfi, names, grid))
    return pd.concat(frames, ignore_index=True)
