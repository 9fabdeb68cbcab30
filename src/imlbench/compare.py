"""The compare stage, as two jobs per study: the summaries that figures and claims read, and
the scorecard of the claims.

``summaries``: the ranks of every importance estimate (``metrics/ranks.parquet``), their means
over repetitions (``metrics/mean_ranks.parquet``) and the study's summary table
(``metrics/summary.parquet``): what the methods that declare a ``summarise`` condense their
estimate files into (e.g. interval coverage from per-refit values).

``scorecard``: every claim of the study evaluated on the summaries, the truths and the
estimates of the methods the claims name (``scorecard.parquet``; importances come through the
ranks). Editing a claim reruns only this job.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pandas as pd

from imlbench.config import Study
from imlbench.explain.api import METHODS
from imlbench.io import read_many, read_parquet, write_parquet
from imlbench.metrics.claims import Tables, evaluate
from imlbench.metrics.ranks import add_ranks, mean_ranks


def _method(study: Study, path: Path) -> str:
    """The registered method of an estimate file ``estimates/<sc>/<learner>/<method>/<c>``."""
    return study.methods[Path(path).parent.name]["method"]


def run_summaries(study: Study, estimates: list[Path], out_ranks: Path, out_mean_ranks: Path,
                  out_summary: Path, base_seed: int) -> None:
    """Ranks of the importance estimates and the summaries of the summarised methods."""
    importance, summarised = [], defaultdict(list)
    for path in estimates:
        spec = METHODS.get(_method(study, path))
        if spec.kind == "importance":
            importance.append(path)
        if spec.summarise is not None:
            summarised[_method(study, path)].append(path)
    ranked = add_ranks(read_many(importance)) if importance else pd.DataFrame()
    parts = [METHODS.get(m).summarise(paths) for m, paths in summarised.items()]
    summary = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    seed = [base_seed, study.name, "compare"]
    write_parquet(summary, out_summary, config_hash=study.hash(), seed=seed)
    write_parquet(ranked, out_ranks, config_hash=study.hash(), seed=seed)
    write_parquet(mean_ranks(ranked) if len(ranked) else ranked, out_mean_ranks,
                  config_hash=study.hash(), seed=seed)


def run_scorecard(study: Study, estimates: list[Path], truths: list[Path], ranks: Path,
                  summary: Path, out_scorecard: Path, base_seed: int) -> None:
    """Every claim of the study as scorecard rows (claim, published, reproduced, verdict)."""
    truth, by_estimand = {}, {}
    for path in truths:
        t = read_parquet(path)
        by_estimand[(t["scenario"].iloc[0], Path(path).stem)] = t
        if Path(path).stem == "importance":
            truth[t["scenario"].iloc[0]] = t
    tables = Tables(ranked=read_parquet(ranks), truth=truth, other=read_many(estimates),
                    truths=by_estimand, summary=read_parquet(summary))
    card = evaluate(study.claims, tables, set(study.scenarios))
    card.insert(0, "study", study.name)
    write_parquet(card, out_scorecard, config_hash=study.hash(),
                  seed=[base_seed, study.name, "compare"])


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
