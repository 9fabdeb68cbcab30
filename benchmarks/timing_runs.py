"""Do the ch. 6 run-time verdicts of book_ale hold from one run of its timing job to the next,
and under a concurrent load? Score the run-time claims on several result trees of that job
(each a ``results`` folder whose ``book_ale`` holds the timing estimates) and compare.

    uv run python benchmarks/timing_runs.py idle=/tmp/t/idle_2021 load=/tmp/t/load_2021 ... \\
        --out benchmarks/results_timing_runs.md

Each tree is labelled (``idle``, ``load``: what ran beside the job); a tree's base seed is the
number its folder name ends with (``_2021``). For every claim the file gives each run's ratio
and verdict, then the spread of the log ratio over the runs against the SE one run gives it
(the claim's own test, :func:`imlbench.metrics.contrasts.log_ratio`: its half-width over t'):
where the spread over runs is about the SE, the runs differ by what the data sets make them
differ, and one run's verdict is as reliable as its SE says; where it is larger, the machine's
state moves the ratio between runs beyond the SE. The verdicts of each run come from the
scorecard the workflow writes (:func:`imlbench.compare.run_scorecard`, on the run-time claims
only). Exits 1 when a claim's verdict differs between an idle and a loaded run of the same
seed.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from imlbench import compare, studies, targets
from imlbench.config import load_study, study_path
from imlbench.io import read_many, read_parquet
from imlbench.metrics.claims import NoData, Tables
from imlbench.metrics.contrasts import STATISTICS, Cell, log_ratio
from imlbench.stats import t_multiplier

REPO = Path(__file__).resolve().parents[1]
STUDY = "book_ale"
PREFIX = "ch6-time-"


def timing_study():
    """book_ale's default profile with its run-time claims only."""
    study = load_study(study_path(REPO, STUDY), "default")
    studies.load([study.name])
    study.doc["claims"] = [c for c in study.doc["claims"] if c["id"].startswith(PREFIX)]
    return study


def _estimates(study, tree: Path) -> list[Path]:
    return [tree / p for p in targets.claim_estimates(study)
            if "/runtime" in p and (tree / p).exists()]


def verdicts(study, tree: Path, seed: int) -> pd.Series:
    """The run-time claims' verdicts on one tree, by claim."""
    out = Path(f"/tmp/timing-runs-{tree.name}.parquet")
    metrics = {k: tree / p for k, p in targets.metrics_paths(study.name).items()}
    compare.run_scorecard(study, _estimates(study, tree), [], metrics, out, seed)
    card = read_parquet(out)
    return card.set_index("claim")["verdict"]


def ratios(study, tree: Path) -> pd.DataFrame:
    """Per claim, the log ratio of one run and its SE, by the claim's own test."""
    t = Tables(ranked=pd.DataFrame(), truth={}, other=read_many(_estimates(study, tree)))
    spec = STATISTICS.get("book_ale.call_seconds")
    rows = []
    for claim in study.claims:
        where = claim["where"]
        a_cell = Cell(where["scenario"], where["learner"], where["method"], {"n": claim["n"]})
        b_cell = a_cell.moved(claim["than"])
        a, b = spec.compute(a_cell, t), spec.compute(b_cell, t)
        if isinstance(a, NoData) or isinstance(b, NoData):
            continue  # not run in this profile (n = 10,000 is the paper profile's)
        judged = log_ratio(a, b, b_cell.where, claim["value"], k=3.0,
                           compare=claim.get("compare", "equal"),
                           margin=claim.get("margin", 0.0),
                           together=a_cell.scenario == b_cell.scenario)
        df = int(re.search(r"(\d+) df", judged.tolerance).group(1))
        rows.append({"claim": claim["id"], "log_ratio": float(judged.check.estimate),
                     "se": float(judged.check.half) / float(t_multiplier(3.0, df))})
    return pd.DataFrame(rows).set_index("claim")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trees", nargs="+", help="label=path of a tree holding results/book_ale")
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results_timing_runs.md")
    args = ap.parse_args(argv)
    study = timing_study()
    runs = []
    for item in args.trees:
        label, path = item.split("=", 1)
        tree = Path(path)
        seed = int(re.search(r"(\d+)$", tree.name).group(1))
        runs.append((f"{label} {seed}", label, seed, ratios(study, tree),
                     verdicts(study, tree, seed)))
    names = [r[0] for r in runs]
    lr = pd.DataFrame({r[0]: r[3]["log_ratio"] for r in runs})
    se = pd.DataFrame({r[0]: r[3]["se"] for r in runs})
    verdict = pd.DataFrame({r[0]: r[4] for r in runs}).loc[lr.index]
    short = {"reproduced": "rep", "consistent": "cons", "not reproduced": "NR",
             "inconclusive": "inc"}
    spread = lr.std(axis=1, ddof=1)
    within = np.sqrt((se ** 2).mean(axis=1))
    lines = [
        "# The ch. 6 run times from run to run",
        "",
        "Written by `benchmarks/timing_runs.py` (its docstring says how): book_ale's run-time "
        f"job (default profile) run {len(runs)} times, " + ", ".join(names) + "; `idle`: "
        "nothing else on the 2 cores, `load`: a workflow run of other studies beside it (two "
        "jobs on the 2 cores).",
        "",
        "Per claim: each run's ratio and verdict; the sd of the log ratio over the runs; the SE "
        "one run gives it (root mean square over the runs); their ratio (about 1: the runs "
        "differ by what their data sets make them differ).",
        "",
        "| claim | " + " | ".join(names) + " | sd over runs | SE of a run | sd / SE |",
        "|---|" + "---:|" * (len(names) + 3),
    ]
    for claim in lr.index:
        cells = [f"{np.exp(lr.at[claim, n]):.3g} {short.get(verdict.at[claim, n], '?')}"
                 for n in names]
        lines.append(f"| {claim.removeprefix(PREFIX)} | " + " | ".join(cells)
                     + f" | {spread[claim]:.3f} | {within[claim]:.3f} | "
                     f"{spread[claim] / within[claim]:.2f} |")
    pooled = float(np.sqrt((spread ** 2).mean()) / np.sqrt((within ** 2).mean()))
    moved = [c for c in lr.index if verdict.loc[c].replace(
        {"consistent": "reproduced"}).nunique() > 1]
    by_seed: dict[int, dict[str, pd.Series]] = {}
    for _, label, seed, _, v in runs:
        by_seed.setdefault(seed, {})[label] = v.loc[lr.index].replace(
            {"consistent": "reproduced"})
    load_moved = sorted({c for pair in by_seed.values() if {"idle", "load"} <= set(pair)
                         for c in lr.index if pair["idle"][c] != pair["load"][c]})
    lines += [
        "",
        f"Pooled over the claims, the sd over runs is {pooled:.2f} times the SE of one run. "
        f"Claims whose verdict is not the same in every run (`reproduced` and `consistent` "
        f"as one): {len(moved)} of {len(lr)}" + (f" ({', '.join(moved)})" if moved else "")
        + ". Between the idle and the loaded run of the same seed: "
        + (", ".join(load_moved) if load_moved else "none") + ".",
        "",
    ]
    args.out.write_text("\n".join(lines))
    print("\n".join(lines))
    return 1 if load_moved else 0


if __name__ == "__main__":
    sys.exit(main())
