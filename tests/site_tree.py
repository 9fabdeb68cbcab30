"""A small synthetic project for the site tests: two study files (one a folder of chapters),
their scorecards and figure PNGs written where the workflow puts them, and a run record; and
the HTML helpers the site tests share."""

from __future__ import annotations

import json
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import yaml  # noqa: E402
from figure_inputs import write  # noqa: E402

SCENARIOS = {
    "main": {"dgp": "linear", "reps": 4, "n": 100, "learners": ["lm"], "methods": ["pdp"]},
    "grid": {"dgp": "linear", "reps": 2, "n": 50, "learners": ["lm", "rf"],
             "methods": ["pdp"], "sweep": {"rho": [0.0, 0.5]}},
}
#: the figures of each study, by name: their scenarios
FIGURES = {
    "alpha": {"fig_1": ["main"], "fig_2": ["grid_rho0.5"], "fig_3": []},
    "beta": {"fig_a": ["main"], "fig_b": ["grid"]},
}


def _study_doc(study: str) -> dict:
    return {
        "title": f"The {study} paper",
        "reference": f"Author & Other (2020), {study.title()} <and> & more",
        "description": f"What {study} studies.",
        "deviations": [f"{study}: fewer repetitions", "Learners are stand-ins"],
        "learners": {"lm": {"learner": "lm"}, "rf": {"learner": "rf"}},
        "methods": {"pdp": {"method": "pdp"}},
        "scenarios": SCENARIOS,
        "figures": {fig: {"function": "curve_grid", "scenarios": scenarios,
                          "title": f"Title of {fig}", "caption": f"Caption of {study} {fig}."}
                    for fig, scenarios in FIGURES[study].items()},
    }


def _row(study: str, claim: str, figure: str, verdict: str, **cols: str) -> dict:
    row = {"study": study, "claim": claim, "figure": figure, "source": "paper_number",
           "text": f"{claim} holds <b>&</b> more", "scenario": "main", "learner": "lm",
           "method": "pdp", "published": "0.5", "reproduced": "0.49 [0.4, 0.6]",
           "tolerance": "0.1", "power": "0.05", "detectable": 0.05, "verdict": verdict,
           "reason_class": "", "reason": ""}
    return {**row, **cols}


#: the scorecard rows of each study
CARDS = {
    "alpha": pd.DataFrame([
        _row("alpha", "c-one", "fig_1", "reproduced"),
        _row("alpha", "c-one", "fig_1", "not reproduced", learner="rf",
             reason_class="learner", reason="the forest extrapolates"),
        _row("alpha", "c-one", "fig_1", "not reproduced", method="ice", reason_class="method",
             reason="ICE differs"),
        _row("alpha", "c-two", "fig_2", "inconclusive", source="derived"),
        _row("alpha", "c-three", "table_3", "not reproduced", source="beyond",
             reason_class="finding", reason="the table disagrees"),
        _row("alpha", "c-four", "", "no data", reason="scenario not run"),
    ]),
    "beta": pd.DataFrame([
        _row("beta", "b-one", "fig_a", "reproduced"),
        _row("beta", "b-one", "fig_a", "not reproduced", reason_class="defect",
             reason="a defect"),
        _row("beta", "b-two", "fig_a", "reported", source="paper_statement"),
    ]),
}


def _png(path: Path, label: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(2, 1.5), dpi=50)
    ax.plot([0, 1], [0, 1])
    ax.set_title(label)
    fig.savefig(path)
    plt.close(fig)


def write_tree(root: Path) -> Path:
    """The project at ``root`` (``config/studies``: ``alpha.yaml`` and the folder ``beta/``
    of two chapter files) and its ``results/`` (scorecards, figure PNGs, run.json); returns
    the results folder."""
    studies = root / "config" / "studies"
    studies.mkdir(parents=True)
    (studies / "alpha.yaml").write_text(yaml.safe_dump(_study_doc("alpha"), sort_keys=False))
    beta = _study_doc("beta")
    (studies / "beta").mkdir()
    (studies / "beta" / "01_main.yaml").write_text(yaml.safe_dump(
        {k: v for k, v in beta.items() if k != "figures"}, sort_keys=False))
    (studies / "beta" / "02_figures.yaml").write_text(yaml.safe_dump(
        {"figures": beta["figures"]}, sort_keys=False))
    results = root / "results"
    for study, card in CARDS.items():
        write(card, results / study / "scorecard.parquet")
        for fig in FIGURES[study]:
            _png(results / study / "figures" / f"{fig}.png", f"{study} {fig}")
    (results / "run.json").write_text(json.dumps(
        {"profile": "smoke", "studies": list(CARDS), "finished_utc": "2026-01-02T03:04:05"}))
    return results


class Tags(HTMLParser):
    """Every start tag of a page with its attributes, and the page's text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(path: Path) -> Tags:
    tags = Tags()
    tags.feed(path.read_text(encoding="utf-8"))
    return tags


def ids(page: Tags, tag: str) -> Counter:
    return Counter(a["id"] for t, a in page.tags if t == tag and "id" in a)


def placement(page: Tags) -> dict[str, str | None]:
    """The figure each claim row of a study page sits under (its ``tr`` after the figure's
    ``article`` opens and before the next one), None for the claims that read no figure."""
    current, placed = None, {}
    for t, a in page.tags:
        if t == "article":
            current = a["id"].removeprefix("figure-")
        elif t == "section" and a.get("id") == "claims-without-figure":
            current = None
        elif t == "tr" and "id" in a:
            placed[a["id"]] = current
    return placed
