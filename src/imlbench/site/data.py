"""What the results site shows of each study: its paper, deviations, figures with their
captions, scenarios and the claims that read them, from the merged study file and
``results/<study>/scorecard.parquet``.

Every scorecard row gets an anchor ``claim-<study>-<claim>-<n>`` (``n`` counts the rows of one
claim in scorecard order), the same on the study page and in the claims table, and says what
judged it (:func:`judges`); every figure says which function drew it, in which file
(:func:`drawn_by`).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from imlbench import targets
from imlbench.config import Study
from imlbench.figures import FIGURES
from imlbench.io import read_parquet
from imlbench.metrics.claims import CLAIMS

#: the scorecard columns a claim row shows, in the order of the tables
CLAIM_COLUMNS = ["study", "claim", "figure", "source", "text", "scenario", "learner", "method",
                 "published", "reproduced", "tolerance", "power", "verdict", "reason_class",
                 "reason"]


@dataclass
class Figure:
    """One figure of a study: its PNG (relative to the site) and the PNG's width and height in
    pixels (None where the file is missing), caption, scenarios (and their YAML) and the claim
    rows that read it."""

    name: str
    title: str
    caption: str
    #: the drawing function and its file (:func:`drawn_by`)
    drawn_by: str
    png: str
    size: tuple[int, int] | None
    scenarios: list[str]
    scenario_yaml: str
    claims: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class StudyPage:
    """One study's page: its paper, deviations, figures and the claims that read no figure of
    the study."""

    name: str
    title: str
    reference: str
    description: str
    deviations: list[str]
    figures: list[Figure]
    unplaced: list[dict[str, Any]]

    @property
    def page(self) -> str:
        return page_name(self.name)


def page_name(study: str) -> str:
    """The file name of a study's page."""
    return f"study-{study}.html"


def claim_rows(card: pd.DataFrame, judged: dict[str, str] | None = None
               ) -> list[dict[str, Any]]:
    """The rows of one study's scorecard as dicts of :data:`CLAIM_COLUMNS` (missing values as
    empty strings), each with its ``anchor``, the ``page`` of its study and what ``judged`` it
    (by claim id, :func:`judges`)."""
    card = card.reindex(columns=CLAIM_COLUMNS).fillna("").astype(str)
    n = card.groupby("claim", sort=False).cumcount()
    rows = card.to_dict("records")
    for row, k in zip(rows, n, strict=True):
        row["anchor"] = f"claim-{row['study']}-{row['claim']}-{k}"
        row["page"] = page_name(row["study"])
        row["judged"] = (judged or {}).get(row["claim"], "")
    return rows


def source_file(module: str) -> str:
    """The file of an imported ``imlbench`` module, as the repository holds it
    (``src/imlbench/figures/generic.py``, ``src/imlbench/studies/<study>/__init__.py``)."""
    src = Path(sys.modules["imlbench"].__file__).parents[1]
    return "src/" + Path(sys.modules[module].__file__).relative_to(src).as_posix()


def judges(study: Study) -> dict[str, str]:
    """Per claim id of ``study``, what judges its rows: the claim kind and the file that
    defines it; for a ``contrast``, its test and statistic too (``contrast/paired of
    curve_value``)."""
    out = {}
    for claim in study.claims:
        kind = claim["kind"]
        spec = CLAIMS.get(kind)
        modules = spec.modules(claim)
        if kind == "contrast":
            test = claim.get("test", spec.params["test"].default)
            what = f"{kind}/{test} of {claim['statistic']}"
        else:
            what = kind
        out[claim["id"]] = f"{what} in {', '.join(dict.fromkeys(map(source_file, modules)))}"
    return out


def drawn_by(function: str) -> str:
    """The registered figure function ``function`` and the file that defines it."""
    return f"{function} in {source_file(FIGURES.get(function).draw.__module__)}"


def figure_png(results: Path, study: str, fig: str) -> Path:
    """The PNG file of a figure under ``results`` (where the figure job writes it)."""
    rel = Path(targets.figure_paths(study, fig)["png"]).relative_to("results")
    return Path(results) / rel


def png_size(path: Path) -> tuple[int, int] | None:
    """The width and height of the PNG at ``path`` (from its header), or None when there is no
    such PNG; the page gives them to the image so that the layout does not move while images
    load (a permalink stays at its claim)."""
    try:
        with open(path, "rb") as f:
            head = f.read(24)
    except FileNotFoundError:
        return None
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def scenario_families(study: Study, names: list[str]) -> list[str]:
    """The scenario entries of the study file behind ``names`` (entry names, or the names of
    their expanded scenarios in any profile), in study-file order."""
    families = {n for n in names if n in study.doc["scenarios"]}
    families |= {study.all_scenarios[n].family for n in names if n in study.all_scenarios}
    return [f for f in study.doc["scenarios"] if f in families]


def scenario_yaml(study: Study, families: list[str]) -> str:
    """The study-file entries of ``families`` as YAML."""
    if not families:
        return ""
    entries = {f: study.doc["scenarios"][f] for f in families}
    return yaml.safe_dump(entries, sort_keys=False, width=100)


def study_page(study: Study, card: pd.DataFrame, results: Path, out: Path) -> StudyPage:
    """The page of ``study``: each figure with its claim rows from ``card`` (its scorecard),
    its PNG linked relative to the site folder ``out``, and the rows whose figure is none of
    the study's figures."""
    rows = claim_rows(card, judges(study))
    figures = []
    for name, spec in study.figures.items():
        families = scenario_families(study, list(spec.get("scenarios", [])))
        png = figure_png(Path(results), study.name, name)
        figures.append(Figure(
            name=name, title=spec.get("title", ""), caption=spec.get("caption", ""),
            drawn_by=drawn_by(spec["function"]),
            png=Path(_relative(png, Path(out))).as_posix(), size=png_size(png),
            scenarios=families,
            scenario_yaml=scenario_yaml(study, families),
            claims=[r for r in rows if r["figure"] == name]))
    unplaced = [r for r in rows if r["figure"] not in study.figures]
    return StudyPage(name=study.name, title=study.title, reference=study.doc.get("reference", ""),
                     description=study.doc.get("description", ""),
                     deviations=list(study.doc.get("deviations", [])), figures=figures,
                     unplaced=unplaced)


def _relative(path: Path, start: Path) -> str:
    return os.path.relpath(Path(path).resolve(), Path(start).resolve())


def read_card(results: Path, study: str) -> pd.DataFrame:
    """The scorecard of ``study`` under ``results``; a missing one names its path."""
    path = Path(results) / study / "scorecard.parquet"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no scorecard of study {study}; run the workflow first")
    return read_parquet(path)


def run_record(results: Path) -> dict[str, Any]:
    """The run recorded in ``results/run.json`` (profile, studies, finished_utc, versions; see
    :func:`imlbench.runinfo.write_run`), or an empty dict when there is none."""
    path = Path(results) / "run.json"
    if not path.is_file():
        return {}
    try:
        record = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON ({exc}); delete it or rerun the workflow") \
            from None
    return record if isinstance(record, dict) else {}
