"""The results site: static pages under ``results/site/`` that open from the file system.

``index.html`` counts the claims by study, source and verdict and names the run; one
``study-<name>.html`` per study shows its paper, deviations and each figure (a relative link
to ``results/<study>/figures/<fig>.png``) beside the claims that read it and the YAML of its
scenarios; ``claims.html`` holds every claim of every study in one table with filters, text
search and sorting (``static/site.js``, plain JavaScript); ``truth.html`` the methods against
their truths across studies (:func:`imlbench.metrics.truth_synthesis.synthesis`), summarised
per estimand family and method (:func:`~imlbench.metrics.truth_synthesis.family_summary`), and
the methods that ran without a truth (:func:`untruthed`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2
import pandas as pd

from imlbench import studies as study_packages
from imlbench.codehash import code_hash
from imlbench.compare import SMOKE_BANNER, counts
from imlbench.config import Study, load_study, study_path
from imlbench.explain.api import METHODS, estimand_of
from imlbench.metrics.truth_synthesis import STRONG, family_summary, synthesis
from imlbench.runinfo import package_versions
from imlbench.seeds import config_hash
from imlbench.site.data import (
    claim_rows,
    judges,
    page_name,
    read_card,
    run_record,
    study_page,
)

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"
#: the columns of the truth page's table of methods against truth that have a filter
TRUTH_FILTERS = ["family", "study", "registered", "learner", "data"]
#: the columns of the claims table that have a filter
FILTERS = ["study", "figure", "source", "verdict", "reason_class", "method", "learner"]
#: the method kinds whose outputs are no estimates of an effect or importance (left out of
#: the truth page's list of methods without a truth)
NOT_ESTIMATES = ("metric", "theory")
#: the entries of a study file the study page shows
SHOWN = ("title", "reference", "description", "deviations", "figures", "scenarios")
#: the files the site job writes besides one page per study
PAGES = ("index.html", "claims.html", "truth.html")


def site_files(studies: list[str]) -> list[str]:
    """The names of the files of the site: its pages and its static assets."""
    return [*PAGES, *(page_name(s) for s in studies),
            *sorted(p.name for p in STATIC.iterdir())]


def fingerprint(studies: list[Study]) -> str:
    """What the site's pages show besides the scorecards and figures: the :data:`SHOWN`
    entries of the study files, the code, the templates and the static assets (an edited
    caption rebuilds the site, an edited claim only through its scorecard)."""
    assets = {p.name: p.read_text() for folder in (TEMPLATES, STATIC)
              for p in sorted(folder.iterdir())}
    shown = [{k: s.doc.get(k) for k in SHOWN} for s in studies]
    return config_hash([shown, assets,
                        code_hash(["imlbench.site.build", "imlbench.site.data"])])


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                             autoescape=jinja2.select_autoescape(["html"]),
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True)
    env.globals["page_name"] = page_name
    return env


def untruthed(studies: list[Study]) -> dict[str, list[str]]:
    """The registered methods that ran in ``studies`` with no estimand (their estimates are
    compared with no truth), each with the studies it ran in; methods of the kinds in
    :data:`NOT_ESTIMATES` (the model's fit, data statistics, closed-form theory) estimate
    nothing a truth could hold and are left out."""
    out: dict[str, list[str]] = {}
    for study in studies:
        for name, spec in study.methods.items():
            method = spec["method"]
            if (METHODS.get(method).kind in NOT_ESTIMATES
                    or estimand_of(method, study.method_params(name)) is not None):
                continue
            out.setdefault(method, [])
            if study.name not in out[method]:
                out[method].append(study.name)
    return dict(sorted(out.items()))


def table_cells(table: pd.DataFrame) -> list[list[str]]:
    """The rows of ``table`` as the truth page shows them (:func:`_cell`)."""
    return [[_cell(v) for v in r] for r in table.itertuples(index=False)]


def _cell(value: object) -> str:
    """A table cell of the truth table: numbers to 4 significant digits, missing as blank."""
    if value is None or (isinstance(value, float) and pd.isna(value)) or value is pd.NA:
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def build_site(results: Path, config_root: Path, out: Path, studies: list[str] | None = None,
               truth: pd.DataFrame | None = None) -> None:
    """Write the site into ``out`` from the scorecards and figures under ``results`` and the
    study files under ``config_root`` (the project root, holding ``config/studies``).

    ``studies``: those of ``results/run.json``, else every folder of ``results`` with a
    scorecard. ``truth``: the table of :func:`~imlbench.metrics.truth_synthesis.synthesis`
    of those studies unless given."""
    results, out = Path(results), Path(out)
    run = run_record(results)
    if studies is None:
        studies = [s for s in run.get("studies", []) if (results / s).is_dir()] or sorted(
            p.parent.name for p in results.glob("*/scorecard.parquet"))
    profile = run.get("profile", "default")
    cards = {s: read_card(results, s) for s in studies}
    study_packages.load(studies, figures=True)
    loaded = [load_study(study_path(Path(config_root), s), profile) for s in studies]
    pages = [study_page(study, cards[study.name], results, out) for study in loaded]
    rows = [r for study in loaded for r in claim_rows(cards[study.name], judges(study))]
    tally = counts(pd.concat(cards.values(), ignore_index=True)) if cards else pd.DataFrame()
    if truth is None:
        truth = synthesis(results, root=Path(config_root), studies=studies)
    summary = family_summary(truth)
    out.mkdir(parents=True, exist_ok=True)
    env = _environment()
    common = {"studies": pages, "profile": profile,
              "smoke_banner": SMOKE_BANNER if profile == "smoke" else ""}
    documents = {
        "index.html": env.get_template("index.html").render(
            page="index.html", run=run, versions=run.get("versions") or package_versions(),
            recorded="versions" in run, tally=tally, n_rows=len(rows),
            n_claims=len({(r["study"], r["claim"]) for r in rows}), **common),
        "claims.html": env.get_template("claims.html").render(
            page="claims.html", rows=rows, filters=FILTERS, **common),
        "truth.html": env.get_template("truth.html").render(
            page="truth.html", columns=list(truth.columns), rows=table_cells(truth),
            filters=TRUTH_FILTERS, summary_columns=list(summary.columns),
            summary=table_cells(summary), strong=STRONG, untruthed=untruthed(loaded),
            **common),
        **{p.page: env.get_template("study.html").render(page=p.page, study=p, **common)
           for p in pages},
    }
    for name, text in documents.items():
        (out / name).write_text(text, encoding="utf-8")
    for asset in STATIC.iterdir():
        shutil.copyfile(asset, out / asset.name)
