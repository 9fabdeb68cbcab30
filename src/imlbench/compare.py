"""The compare stage, as two jobs per study: the summaries that figures and claims read, and
the scorecard of the claims.

``summaries``: the ranks of every importance estimate (``metrics/ranks.parquet``), their means
over repetitions (``metrics/mean_ranks.parquet``), the study's summary table
(``metrics/summary.parquet``): what the methods that declare a ``summarise`` condense their
estimate files into (e.g. interval coverage from per-refit values), and every estimate that
has a truth against it (``metrics/truth_errors.parquet`` per point over repetitions,
``metrics/truth_error_reps.parquet`` per repetition; :mod:`imlbench.metrics.truth_errors`).

``scorecard``: every claim of the study evaluated on the summaries, the truths and the
estimates of the methods the claims name (``scorecard.parquet``; importances come through the
ranks), each row without data with its reason. Editing a claim reruns only this job.

Over all studies, ``SCORECARD.md`` and ``scorecard.html`` open with the run's profile, studies
and UTC time (:func:`write_scorecard_summary`); the per-study Parquet files hold no time, so
rerunning gives identical values.
"""

from __future__ import annotations

import html
import logging
from collections import defaultdict
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pandas as pd

from imlbench import targets
from imlbench.config import Scenario, Study
from imlbench.explain.api import METHODS
from imlbench.io import atomic_path, read_many, read_parquet, write_parquet
from imlbench.metrics.claims import (
    CONSISTENT,
    INCONCLUSIVE,
    NO_DATA,
    NOT_REPRODUCED,
    NOT_RUN,
    REPORTED,
    REPRODUCED,
    SOURCES,
    Tables,
    as_list,
    evaluate,
    methods_named,
    select_rows,
)
from imlbench.metrics.ranks import add_ranks, mean_ranks
from imlbench.metrics.truth_errors import KINDS as TRUTH_ERROR_KINDS
from imlbench.metrics.truth_errors import (
    REP_COLUMNS,
    instance_estimand,
    long_truths,
    rep_errors,
    summarise_errors,
    why_not_compared,
)
from imlbench.runinfo import write_run
from imlbench.workclock import WorkClock

log = logging.getLogger("imlbench")

#: the columns of SCORECARD.md and scorecard.html
SUMMARY_COLUMNS = ["study", "claim", "figure", "source", "learner", "method", "published",
                   "reproduced", "tolerance", "power", "verdict", "reason_class", "reason"]
#: the verdicts in the order the counts show them
VERDICTS = (REPRODUCED, CONSISTENT, NOT_REPRODUCED, INCONCLUSIVE, REPORTED, NO_DATA, NOT_RUN)
#: the warning that opens the scorecard and the site of a smoke run
SMOKE_BANNER = ("Smoke profile: a check that the workflow runs, on a few repetitions and small "
                "learners. Its verdicts are not evidence about the claims: run the default "
                "profile for that.")
#: the header line that dates the run; :func:`without_date` drops it
DATE_LINE = "Written: "


def _method(study: Study, path: Path) -> str:
    """The registered method of an estimate file ``estimates/<sc>/<learner>/<method>/<c>``."""
    return study.methods[Path(path).parent.name]["method"]


def _read_truths(truths: list[Path]) -> dict[tuple[str, str], pd.DataFrame]:
    """Every truth table by (scenario, estimand), e.g. ("main_rho0.9", "importance")."""
    out = {}
    for path in truths:
        t = read_parquet(path)
        out[(t["scenario"].iloc[0], Path(path).stem)] = t
    return out


def truth_error_reps(study: Study, estimates: list[Path], truths: list[Path]) -> pd.DataFrame:
    """The compared estimates against their truths, per repetition and point
    (:func:`imlbench.metrics.truth_errors.rep_errors`)."""
    long = long_truths(_read_truths(truths))
    by_method = defaultdict(list)
    for path in estimates:
        sc, method = Path(path).parent.parent.parent.name, Path(path).parent.name
        estimand = instance_estimand(study, method)
        if estimand is not None and sc in long:
            by_method[(sc, method, estimand)].append(path)
    parts = [part for (sc, _, estimand), paths in by_method.items()
             if len(part := rep_errors(read_many(paths), long[sc], estimand))]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=REP_COLUMNS)


def run_summaries(study: Study, estimates: list[Path], truths: list[Path],
                  outs: dict[str, Path], base_seed: int) -> None:
    """Ranks of the importance estimates, the summaries of the summarised methods and the
    truth errors; ``outs`` maps each name of :func:`imlbench.targets.metrics_paths` to its
    path."""
    clock = WorkClock()
    with clock:  # reading the estimates is part of summarising them
        importance, summarised = [], defaultdict(list)
        for path in estimates:
            spec = METHODS.get(_method(study, path))
            if spec.kind == "importance":
                importance.append(path)
            if spec.summarise is not None:
                summarised[_method(study, path)].append(path)
        ranked = add_ranks(read_many(importance)) if importance else pd.DataFrame()
        parts = [METHODS.get(m).summarise(paths) for m, paths in summarised.items()]
        reps = truth_error_reps(study, estimates, truths)
        tables = {
            "summary": pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(),
            "ranks": ranked,
            "mean_ranks": mean_ranks(ranked) if len(ranked) else ranked,
            "truth_errors": summarise_errors(reps),
            "truth_error_reps": reps,
        }
    log.info("%s", clock.record("summaries", study.name, "-"))
    seed = [base_seed, study.name, "compare"]
    for name, table in tables.items():
        write_parquet(table, outs[name], config_hash=study.hash(), seed=seed)


def run_scorecard(study: Study, estimates: list[Path], truths: list[Path],
                  metrics: dict[str, Path], out_scorecard: Path, base_seed: int) -> None:
    """Every claim of the study as scorecard rows (claim, published, reproduced, verdict);
    ``metrics`` maps ranks, summary, truth_errors and truth_error_reps to their paths."""
    clock = WorkClock()
    with clock:  # reading the tables is part of evaluating the claims
        by_estimand = _read_truths(truths)
        truth = {sc: t for (sc, name), t in by_estimand.items() if name == "importance"}
        tables = Tables(ranked=read_parquet(metrics["ranks"]), truth=truth,
                        other=read_many(estimates), truths=by_estimand,
                        summary=read_parquet(metrics["summary"]),
                        truth_errors=read_parquet(metrics["truth_errors"]),
                        truth_error_reps=read_parquet(metrics["truth_error_reps"]))
        card = evaluate(study.claims, tables, set(study.scenarios),
                        partial(no_data_reason, study, tables))
    log.info("%s", clock.record("claims", study.name, "-"))
    card.insert(0, "study", study.name)
    write_parquet(card, out_scorecard, config_hash=study.hash(),
                  seed=[base_seed, study.name, "compare"])


def _source(study: Study, tables: Tables, sc: Scenario, learner: str, method: str, kind: str,
            overrides: bool = False) -> tuple[pd.DataFrame, str]:
    """The table claims of ``kind`` read a method's rows from, and the file that holds them
    (``overrides``: the claim names its own ``truth``, so it reads the estimates)."""
    spec = METHODS.get(study.methods[method]["method"])
    metrics = targets.metrics_paths(study.name)
    if kind in TRUTH_ERROR_KINDS and not overrides:
        return tables.truth_errors, metrics["truth_errors"]
    if spec.kind == "importance":
        return tables.ranked, metrics["ranks"]
    if spec.summarise is not None:
        return tables.summary, metrics["summary"]
    files = targets.estimate_path(study.name, sc.name, learner, method, "c*")
    return tables.other, files


def _has_rows(table: pd.DataFrame, scenario: str, learner: str, method: str) -> bool:
    keys = {"scenario", "learner", "method"}
    return keys <= set(table.columns) and not select_rows(table, scenario, learner, method).empty


def no_data_reason(study: Study, tables: Tables, claim: dict, row: dict) -> str:
    """Why a row of ``claim`` has no data, when its kind does not say: the scenario the profile
    does not run (or runs 0 repetitions of), the learner or method the scenario does not run,
    or the file without rows of a method the claim names (its own, then those its parameters
    name). The row's scenario, learner and method are used when they are the study's, else
    those of the claim's ``where`` (a row may be labelled by a table column, say)."""
    where, profile = claim["where"], study.profile
    name = row["scenario"] if row["scenario"] in study.all_scenarios else where["scenario"]
    sc = study.scenarios.get(name)
    if sc is None:
        return f"profile {profile} does not run scenario {name}"
    if not sc.reps:
        return f"scenario {name} runs 0 repetitions in profile {profile}"
    learners = ([row["learner"]] if row["learner"] in study.learners
                else as_list(where["learner"]))
    methods = ([row["method"]] if row["method"] in study.methods else []) + methods_named(claim)
    files = []
    for learner in learners:
        for method in dict.fromkeys(methods):
            if learner not in sc.learners:
                return f"scenario {name} does not fit learner {learner}"
            if method not in study.methods_for(name, learner):
                return f"scenario {name} does not run method {method} for learner {learner}"
            overrides = claim.get("truth") is not None
            if claim["kind"] in TRUTH_ERROR_KINDS and not overrides:
                why = why_not_compared(study, method, name, list(targets.truth_paths(study, sc)))
                if why:
                    return why
            table, path = _source(study, tables, sc, learner, method, claim["kind"], overrides)
            if not _has_rows(table, name, learner, method):
                return f"{path} holds no rows of {name}/{learner}/{method}"
            files.append(path)
    return (f"{', '.join(dict.fromkeys(files))} hold rows of {name}, but not those the claim "
            f"needs ({sc.reps} repetitions in profile {profile})")


def without_date(text: str) -> str:
    """``SCORECARD.md`` or ``scorecard.html`` without the line that dates the run, so that two
    runs with the same results compare equal."""
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.removeprefix("<p>").startswith(DATE_LINE))


def _header(profile: str, studies: list[str], when: datetime) -> list[str]:
    """The lines that open the scorecard: the run's profile, its studies and its UTC time; on
    a smoke run, :data:`SMOKE_BANNER`."""
    return [*([SMOKE_BANNER] if profile == "smoke" else []),
            f"Profile: {profile}. Studies: {', '.join(studies)}.",
            f"{DATE_LINE}{when:%Y-%m-%d %H:%M:%S} UTC."]


def counts(df: pd.DataFrame) -> pd.DataFrame:
    """Rows of a scorecard by study and source (rows, in study order then :data:`SOURCES`
    order) and verdict (columns, :data:`VERDICTS` that occur), with a total row."""
    if df.empty:
        return pd.DataFrame()
    table = pd.crosstab([df["study"], df["source"]], df["verdict"])
    order = [(st, so) for st in dict.fromkeys(df["study"]) for so in SOURCES
             if (st, so) in table.index]
    table = table.reindex(index=order, columns=[v for v in VERDICTS if v in table.columns])
    table.loc[("all", ""), :] = table.sum()
    return table.astype(int)


def _markdown(table: pd.DataFrame, index: list[str]) -> list[str]:
    """``table`` (a MultiIndex named by ``index``) as Markdown table lines."""
    cols = [*index, *table.columns]
    lines = ["| " + " | ".join(cols) + " |",
             "|" + "---|" * len(index) + "---:|" * len(table.columns)]
    for key, r in table.iterrows():
        lines.append("| " + " | ".join([*map(str, key), *map(str, r.tolist())]) + " |")
    return lines


def write_scorecard_summary(cards: list[Path], out_md: Path, out_html: Path, profile: str,
                            out_run: Path, when: datetime | None = None) -> None:
    """``SCORECARD.md`` and an HTML copy for the report: the counts by study, source and
    verdict (:func:`counts`), then one table over all studies (a card is
    ``results/<study>/scorecard.parquet``), under a header with the run's profile, studies and
    UTC time (``when``, default now); and the record of the run (:mod:`imlbench.runinfo`)."""
    when = (datetime.now(UTC) if when is None else when).astimezone(UTC)
    studies = [Path(card).parent.name for card in cards]
    df = read_many(cards)
    tally = counts(df)
    header = _header(profile, studies, when)
    lines = ["| " + " | ".join(SUMMARY_COLUMNS) + " |", "|" + "---|" * len(SUMMARY_COLUMNS)]
    for _, r in df.iterrows():
        # "|" escaped, not replaced: the cell reads as written once the table is rendered
        cells = [str(r[c]).replace("|", "\\|").replace("\n", " ") for c in SUMMARY_COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    with atomic_path(out_md) as tmp:
        tmp.write_text("# Scorecard\n\n" + "\n".join(f"{h}  " for h in header)
                       + "\n\n## Claims by study, source and verdict\n\n"
                       + "\n".join(_markdown(tally, ["study", "source"])) + "\n\n## Claims\n\n"
                       + "\n".join(lines) + "\n")
    table = df.reindex(columns=SUMMARY_COLUMNS).to_html(index=False, escape=True)
    with atomic_path(out_html) as tmp:
        tmp.write_text(
            "<html><head><meta charset='utf-8'><title>Scorecard</title></head><body>\n"
            "<h1>Scorecard</h1>\n" + "".join(f"<p>{html.escape(h)}</p>\n" for h in header)
            + "<h2>Claims by study, source and verdict</h2>\n"
            + tally.reset_index().to_html(index=False, escape=True)
            + f"\n<h2>Claims</h2>\n{table}\n</body></html>\n"
        )
    write_run(out_run, profile, studies, when)
