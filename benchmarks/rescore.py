"""Score a study's claims again, with the current code and study file, on the estimates,
truths and metrics of an existing ``results/`` tree, and compare the scorecard with the one
that tree holds.

A change to claim kinds or to claims that must not move any value (a claim kind rewritten on
the layer's comparison kit, say) is checked without rerunning the workflow:

    uv run python benchmarks/rescore.py /path/to/results book_ale stratpd [--profile smoke]
    uv run python benchmarks/rescore.py /path/to/results book_ale --write new.parquet

For every study it prints the rows whose verdict changed and, separately, the rows whose
value, tolerance, power or reason text changed (claims are matched by id, scenario, learner
and method, in order), then a count. Exits 1 when any row differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from imlbench import compare, studies, targets
from imlbench.config import load_study, study_path
from imlbench.io import read_parquet

ROOT = Path(__file__).resolve().parents[1]
#: the scorecard columns compared as text; ``detectable`` is compared as a number
TEXT_COLUMNS = ("figure", "source", "text", "published", "reproduced", "tolerance", "power",
                "verdict", "reason_class", "reason")
KEYS = ["claim", "scenario", "learner", "method"]


def rescore(results: Path, name: str, profile: str, base_seed: int) -> pd.DataFrame:
    """The study's scorecard from the tables under ``results`` (a tree the workflow wrote)."""
    study = load_study(study_path(ROOT, name), profile)
    studies.load([study.name])
    tree = results.parent

    def at(paths: list[str]) -> list[Path]:
        return [tree / p for p in paths if (tree / p).exists()]

    metrics = {k: tree / p for k, p in targets.metrics_paths(study.name).items()}
    out = Path(f"/tmp/rescore-{study.name}.parquet")
    compare.run_scorecard(study, at(targets.claim_estimates(study)),
                          at(targets.all_truths(study)), metrics, out, base_seed)
    return read_parquet(out)


def _keyed(card: pd.DataFrame) -> pd.DataFrame:
    card = card.copy()
    card["n"] = card.groupby(KEYS).cumcount()
    return card.set_index([*KEYS, "n"])


def differences(old: pd.DataFrame, new: pd.DataFrame) -> tuple[list[str], list[str]]:
    """(verdict changes, other changes) between two scorecards of one study, as lines."""
    a, b = _keyed(old), _keyed(new)
    verdicts, others = [], []
    for key in a.index.difference(b.index):
        verdicts.append(f"  only before: {key}")
    for key in b.index.difference(a.index):
        verdicts.append(f"  only after:  {key}")
    for key in a.index.intersection(b.index):
        ra, rb = a.loc[key], b.loc[key]
        if ra["verdict"] != rb["verdict"]:
            verdicts.append(f"  {key}: {ra['verdict']} -> {rb['verdict']}\n"
                            f"      before: {ra['reproduced']} | {ra['tolerance']}\n"
                            f"      after:  {rb['reproduced']} | {rb['tolerance']}")
        changed = [c for c in TEXT_COLUMNS if c in a and str(ra[c]) != str(rb[c])]
        da, db = float(ra["detectable"]), float(rb["detectable"])
        if not (da == db or (np.isnan(da) and np.isnan(db))):
            changed.append("detectable")
        if changed and ra["verdict"] == rb["verdict"]:
            others.append(f"  {key}: " + "; ".join(
                f"{c}: {ra[c]!r} -> {rb[c]!r}" for c in changed))
    return verdicts, others


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="a results/ tree the workflow wrote")
    parser.add_argument("studies", nargs="+")
    parser.add_argument("--profile", default="default")
    parser.add_argument("--base-seed", type=int, default=2021)
    parser.add_argument("--write", type=Path, help="also write the new scorecard here "
                        "(one study only)")
    args = parser.parse_args(argv)
    failed = False
    for name in args.studies:
        old = read_parquet(args.results / name / "scorecard.parquet")
        new = rescore(args.results, name, args.profile, args.base_seed)
        if args.write:
            new.to_parquet(args.write)
        verdicts, others = differences(old, new)
        print(f"{name}: {len(old)} rows before, {len(new)} after; {len(verdicts)} verdict "
              f"changes, {len(others)} rows with other changes")
        for line in verdicts + others:
            print(line)
        failed |= bool(verdicts or others)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
