"""Cost of one repetition of the PD/PFI coverage simulation, per learner and n, and the CPU
time of the study's profiles extrapolated from it.

A repetition refits the learner ``max_refits`` times for each of the three strategies (ideal,
bootstrap, subsampling) and runs ``truth_fits`` fresh-data fits for the coverage target; each
refit's cost is its fit plus one stacked prediction for PD and PFI. This script times a few
refits of every strategy on one core, with the study file's learner settings, and multiplies
by each profile's repetitions:

    uv run python benchmarks/refit_cost.py [--refits 6] [--profile default paper]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.config import load_study
from imlbench.dgp.base import make_dgp
from imlbench.explain.api import METHODS
from imlbench.learners import fit_quietly
from imlbench.params import with_defaults
from imlbench.stages import learner_factory
from imlbench.studies.pd_pfi_dgp.methods_refits import PAPER_GRID
from imlbench.studies.pd_pfi_dgp.refit_simulation import RefitDesign, refit_values

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "config" / "studies" / "pd_pfi_dgp.yaml"


def seconds_per_refit(study, scenario, learner: str, refits: int) -> dict[str, float]:
    """Mean seconds per refit of each strategy (after one warm-up refit)."""
    dgp = make_dgp(scenario.dgp, scenario.params)
    rng = np.random.default_rng(0)
    X = dgp.sample_features(scenario.n, rng)
    y = dgp.f(X) + dgp.noise(len(X), rng)
    build = learner_factory(study, learner, threads=1)
    seeds = iter(range(10**6))

    def fit(Xn, yn):
        return fit_quietly(build(next(seeds)), Xn, yn).predict

    design = RefitDesign(list(range(X.shape[1])), np.asarray(PAPER_GRID["values"]), 5)
    out = {}
    for strategy in ("ideal", "bootstrap", "subsampling", "truth"):
        refit_values(fit, dgp, X, y, strategy, 1, design, rng)
        start = time.perf_counter()
        refit_values(fit, dgp, X, y, strategy, refits, design, rng)
        out[strategy] = (time.perf_counter() - start) / refits
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--refits", type=int, default=6, help="timed refits per strategy")
    parser.add_argument("--profile", nargs="+", default=["default", "paper"])
    args = parser.parse_args()
    rows = []
    base = load_study(STUDY, "paper")
    costs = {}
    for sc in base.scenarios.values():
        if not sc.fit_models:
            for learner in sc.learners:
                costs[(sc.name, learner)] = seconds_per_refit(base, sc, learner, args.refits)
    for profile in args.profile:
        study = load_study(STUDY, profile)
        for sc in study.scenarios.values():
            if sc.fit_models:
                continue
            method = sc.methods[0]
            params = with_defaults(METHODS.get(study.methods[method]["method"]).params,
                                   study.method_params(method))
            refits, truth = params["max_refits"], params["truth_fits"]
            for learner in sc.learners:
                c = costs[(sc.name, learner)]
                per_rep = refits * (c["ideal"] + c["bootstrap"] + c["subsampling"]) \
                    + truth * c["truth"]
                rows.append({"profile": profile, "scenario": sc.name, "learner": learner,
                             "n": sc.n, "ms_per_refit": 1e3 * np.mean(
                                 [c["ideal"], c["bootstrap"], c["subsampling"]]),
                             "s_per_rep": per_rep, "reps": sc.reps,
                             "cpu_hours": per_rep * sc.reps / 3600})
    table = pd.DataFrame(rows)
    pd.set_option("display.width", 200)
    print(table.round(4).to_string(index=False))
    print(table.groupby("profile")["cpu_hours"].sum().round(2).to_string())


if __name__ == "__main__":
    main()
