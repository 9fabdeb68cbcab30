"""Measured cost of a workflow run, and its extrapolation to another profile.

Every `run` job samples, fits and explains a batch of scenario chunks, and logs the CPU
seconds of each piece of that work per scenario (``work`` lines, :mod:`imlbench.workclock`);
its benchmark record holds the job's wall seconds and peak memory. This script gives each
scenario its work plus a share of its job's own cost (the job's seconds outside its work, in
proportion to the scenario's work), divides by the repetitions the run had, and multiplies by
the repetitions of the target profile (the sizes of a scenario are the same in both, or the
extrapolation is refused for it):

    uv run python benchmarks/workflow_cost.py --study conditional_subgroups \
        --measured default --target paper
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd
from workflow_breakdown import job_records, work_records

from imlbench.config import load_study, study_path
from imlbench.targets import batches


def scenario_costs(root: Path, study: str, profile: str) -> pd.DataFrame:
    """Seconds per scenario of the study's run jobs in a run of ``profile``: its work, and its
    share of its job's seconds outside the work; with the job's peak memory."""
    jobs = job_records(root)
    jobs = jobs[(jobs["study"] == study) & (jobs["stage"] == "run")].set_index("job")
    work = work_records(root)
    work = work[(work["study"] == study) & work["stage"].isin(["data", "fit", "explain"])]
    per_item = work.groupby(["item", "chunk"])["cpu_s"].sum()
    rows = []
    for batch in batches(load_study(study_path(root, study), profile)):
        if batch.name not in jobs.index:
            continue
        units = [u for u in batch.units if u in per_item.index]
        inside = sum(per_item[u] for u in units)
        outside = max(jobs.loc[batch.name, "s"] - inside, 0.0)
        for unit in units:
            share = per_item[unit] / inside if inside else 1 / len(units)
            rows.append({"scenario": unit[0], "job": batch.name, "work_s": per_item[unit],
                         "job_s": per_item[unit] + share * outside,
                         "max_rss": jobs.loc[batch.name, "max_rss"]})
    return pd.DataFrame(rows, columns=["scenario", "job", "work_s", "job_s", "max_rss"])


def extrapolate(root: Path, study: str, measured: str, target: str) -> pd.DataFrame:
    """Job seconds per scenario: measured, per repetition, and scaled to ``target``'s reps."""
    costs = scenario_costs(root, study, measured)
    if costs.empty:
        raise SystemExit(f"no run records under results/{study}/benchmarks")
    path = study_path(root, study)
    have = load_study(path, measured).scenarios
    want = load_study(path, target).scenarios
    out = []
    for sc, part in costs.groupby("scenario"):
        m, t = have[sc], want.get(sc)
        comparable = t is not None and (m.n, m.n_test, m.test_fraction) == (
            t.n, t.n_test, t.test_fraction)
        per_rep = part["job_s"].sum() / m.reps
        out.append({"scenario": sc, "chunks": len(part), "job_s": part["job_s"].sum(),
                    "reps": m.reps, "job_s_per_rep": per_rep,
                    "target_reps": t.reps if t else 0,
                    "target_cpu_h": per_rep * t.reps / 3600 if comparable else float("nan"),
                    "target_chunks": len(t.chunks) if t else 0,
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
    print(f"\nmeasured: {table['job_s'].sum() / 60:.1f} job minutes for {table['chunks'].sum()} "
          f"scenario chunks; {args.target}: {table['target_cpu_h'].sum():.1f} CPU hours for "
          f"{table['target_chunks'].sum()} scenario chunks")


if __name__ == "__main__":
    main()
