"""The compare stage: rank importance estimates, evaluate the claims, write the scorecard."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from imlbench.config import Study
from imlbench.io import read_many, read_parquet, write_parquet
from imlbench.metrics.claims import Tables, evaluate
from imlbench.metrics.ranks import add_ranks, mean_ranks
from imlbench.metrics.refit_coverage import summarise

#: method kinds the compare stage reads: ranked importances, model-level truths, tests,
#: per-repetition metrics (data and model fidelity) and per-refit values (summarised into
#: interval coverage, :mod:`imlbench.metrics.refit_coverage`).
COMPARED_KINDS = ("importance", "theory", "test", "metric", "refits")


def run_compare(study: Study, estimates: list[Path], truths: list[Path], out_ranks: Path,
                out_mean_ranks: Path, out_scorecard: Path, out_summary: Path,
                base_seed: int) -> None:
    importance, other, refits = [], [], []
    for path in estimates:
        kind = study.method_kind(Path(path).parent.name)
        if kind in COMPARED_KINDS:
            {"importance": importance, "refits": refits}.get(kind, other).append(path)
    ranked = add_ranks(read_many(importance)) if importance else pd.DataFrame()
    summary = summarise(refits) if refits else pd.DataFrame()
    truth, by_estimand = {}, {}
    for path in truths:
        t = read_parquet(path)
        by_estimand[(t["scenario"].iloc[0], Path(path).stem)] = t
        if Path(path).stem == "importance":
            truth[t["scenario"].iloc[0]] = t
    tables = Tables(ranked=ranked, truth=truth, other=read_many(other), truths=by_estimand,
                    summary=summary)
    seed = [base_seed, study.name, "compare"]
    write_parquet(summary, out_summary, config_hash=study.hash(), seed=seed)
    write_parquet(ranked, out_ranks, config_hash=study.hash(), seed=seed)
    write_parquet(mean_ranks(ranked) if len(ranked) else ranked, out_mean_ranks,
                  config_hash=study.hash(), seed=seed)
    card = evaluate(study.claims, tables, set(study.scenarios))
    card.insert(0, "study", study.name)
    write_parquet(card, out_scorecard, config_hash=study.hash(), seed=seed)


def write_scorecard_summary(cards: list[Path], out_md: Path, out_html: Path) -> None:
    """``SCORECARD.md`` and an HTML copy for the report: one table over all studies."""
    from imlbench.io import atomic_path

    df = read_many(cards)
    counts = df["verdict"].value_counts().to_dict() if len(df) else {}
    head = "# Scorecard\n\n" + ", ".join(f"{v}: {n}" for v, n in counts.items()) + "\n\n"
    cols = ["study", "claim", "figure", "learner", "method", "published", "reproduced",
            "tolerance", "verdict"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, r in df.iterrows():
        cells = [str(r[c]).replace("|", "/").replace("\n", " ") for c in cols]
        lines.append("| " + " | ".join(cells) + " |")
    with atomic_path(out_md) as tmp:
        tmp.write_text(head + "\n".join(lines) + "\n")
    with atomic_path(out_html) as tmp:
        tmp.write_text(
            "<html><head><meta charset='utf-8'><title>Scorecard</title></head><body>"
            f"<h1>Scorecard</h1><p>{head[12:].strip()}</p>"
            + df[cols].to_html(index=False, escape=True) + "</body></html>"
        )
