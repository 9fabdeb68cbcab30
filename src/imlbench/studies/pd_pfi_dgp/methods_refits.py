"""The refit method of the PD/PFI coverage simulation (Molnar et al., "Relating the PDP and
PFI to the data generating process", Sect. 8): per-refit PD and PFI of every strategy, and
the fresh-data runs that define the coverage target. See :mod:`.refit_simulation`; the
coverage and width of the intervals are summarised from these values by
:func:`.summaries.summarise` (the study's ``metrics/summary.parquet``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import FEATURES, ExplainContext, method
from imlbench.explain.grids import GRID_FIELDS, make_grid
from imlbench.params import REQUIRED, choice, integer, items, number, table
from imlbench.studies.pd_pfi_dgp.refit_simulation import (
    REPLACEMENTS,
    STRATEGIES,
    RefitDesign,
    refit_values,
)
from imlbench.studies.pd_pfi_dgp.summaries import summarise

#: the paper's grid for every feature (Sect. 8)
PAPER_GRID = {"kind": "values", "values": [0.1, 0.3, 0.5, 0.7, 0.9]}
#: the strategies whose refits are under test (``truth`` runs are counted by ``truth_fits``)
TESTED = STRATEGIES[:3]


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


@method("pd_pfi_dgp.learner_refits", kind="refits", summarise=summarise, params={
    **FEATURES,
    "grid": table(GRID_FIELDS, PAPER_GRID),
    "strategies": items(choice(REQUIRED, TESTED), list(TESTED), unique=True),
    "max_refits": integer(30, minimum=2),
    "n_permutations": integer(5, minimum=1),
    "truth_fits": integer(0, minimum=0),
    "ideal_test_share": number(0.368, minimum=0, maximum=1),
    "ideal_replacement": choice("permute", REPLACEMENTS),
})
def _learner_refits(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Per-refit PD and PFI of ``max_refits`` refits for each of ``strategies`` (ideal,
    bootstrap, subsampling) and of ``truth_fits`` fresh-data runs (strategy ``truth``) whose
    mean over all repetitions is the coverage target. Each strategy has a random stream of
    its own, so the strategies run do not change each other's values."""
    S = ctx.features(params)
    names = [ctx.feature_names[j] for j in S]
    grid = make_grid(ctx.X[:, S[0]], params["grid"], names[0])
    design = RefitDesign(S, grid, params["n_permutations"], ctx.max_rows)
    counts = {s: params["max_refits"] for s in params["strategies"]}
    counts["truth"] = params["truth_fits"]
    streams = dict(zip(STRATEGIES, rng.spawn(len(STRATEGIES)), strict=True))
    frames = []
    for strategy, refits in counts.items():
        if refits == 0:
            continue
        pd_, pfi = refit_values(
            ctx.fit, ctx.dgp, ctx.X, ctx.y, strategy, refits, design, streams[strategy],
            ideal_test_share=params["ideal_test_share"],
            ideal_replacement=params["ideal_replacement"],
        )
        frames.append(_tidy(strategy, pd_, pfi, names, grid))
    return pd.concat(frames, ignore_index=True)
