"""Measured cost of a workflow run, and its extrapolation to another profile.

Every data, fit and explain job writes Snakemake's benchmark record (wall seconds, CPU seconds,
peak memory) under ``results/<study>/benchmarks/<stage>/<scenario>/<chunk>.tsv``. This script
sums the wall seconds per study and scenario (the jobs are single-threaded, so their wall time
bounds their CPU time from above; Snakemake's sampled ``cpu_time`` misses part of short jobs),
divides by the repetitions the run had, and multiplies by the repetitions of the target profile
(the sizes of a scenario are the same in both, or the extrapolation is refused for it):

    uv run python benchmarks/workflow_cost.py --study conditional_subgroups \
        --measured default --target paper
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd
from workflow_breakdown import job_records

from imlbench.config import load_study, study_path


def job_costs(root: Path, study: str) -> pd.DataFrame:
    """The benchmark records of the study's data, fit and explain jobs
    (:func:`workflow_breakdown.job_records`: stage, scenario, chunk, wall ``s``, ``max_rss``)."""
    jobs = job_records(root)
    return jobs[(jobs["study"] == study) & jobs["stage"].isin(["data", "fit", "explain"])]


def extrapolate(root: Path, study: str, measured: str, target: str) -> pd.DataFrame:
    """Job seconds per scenario: measured, per repetition, and scaled to ``target``'s reps."""
    jobs = job_costs(root, study)
    if jobs.empty:
        raise SystemExit(f"no benchmark records under results/{study}/benchmarks")
    path = study_path(root, study)
    have = load_study(path, measured).scenarios
    want = load_study(path, target).scenarios
    out = []
    for sc, part in jobs.groupby("scenario"):
        m, t = have[sc], want.get(sc)
        comparable = t is not None and (m.n, m.n_test, m.test_fraction) == (
            t.n, t.n_test, t.test_fraction)
        per_rep = part["s"].sum() / m.reps
        out.append({"scenario": sc, "jobs": len(part), "job_s": part["s"].sum(),
                    "reps": m.reps, "job_s_per_rep": per_rep,
                    "target_reps": t.reps if t else 0,
                    "target_cpu_h": per_rep * t.reps / 3600 if comparable else float("nan"),
                    "target_jobs": 3 * len(t.chunks) if t else 0,
                    "peak_rss_mb": part["max_rss"].max()})
    return pd.DataFrame(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", default=".")
    parser.add_argument("--study", required=True)
    parser.add_argument("--measured", default="default")
    parser.add_argument("--target", default="paper")
    args = parser.parse_args()
    table = extrapolate(Path(args.root), args.study, args.measured, args.target)
    with pd.option_context("display.width", 200, "display.max_rows", 500):
        print(table.round(2).to_string(index=False))
    print(f"\nmeasured: {table['job_s'].sum() / 60:.1f} job minutes in {table['jobs'].sum()} "
          f"data/fit/explain jobs; {args.target}: {table['target_cpu_h'].sum():.1f} CPU hours in "
          f"about {table['target_jobs'].sum()} data/fit/explain jobs")


if __name__ == "__main__":
    main()
