"""The results site of the smoke run (the ``smoke_run`` fixture): every claim row of every
study's scorecard is once on its study page, under its figure, and once in the claims table;
every figure of every study is once on its study page, its PNG beside its claims; the front
page names the run's profile and package versions; the truth page shows the cross-study table
of :func:`imlbench.metrics.truth_synthesis.synthesis` row for row."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from site_tree import ids, parse, placement

from imlbench.config import load_study, study_path
from imlbench.io import read_parquet
from imlbench.metrics.truth_synthesis import synthesis
from imlbench.site.build import table_cells
from imlbench.site.data import claim_rows

pytestmark = [pytest.mark.e2e, pytest.mark.workflow]


@pytest.fixture(scope="module")
def run(workdir, smoke_run) -> dict:
    return json.loads((workdir / "results" / "run.json").read_text())


@pytest.fixture(scope="module")
def site(workdir, smoke_run) -> Path:
    return workdir / "results" / "site"


def test_every_claim_row_and_figure_is_once_on_its_study_page_and_in_the_table(
        workdir, site, run):
    table = ids(parse(site / "claims.html"), "tr")
    in_table = 0
    for name in run["studies"]:
        card = read_parquet(workdir / "results" / name / "scorecard.parquet")
        figures = load_study(study_path(workdir, name), "smoke").figures
        rows = claim_rows(card)
        anchors = [r["anchor"] for r in rows]
        assert len(set(anchors)) == len(card), name
        page = parse(site / f"study-{name}.html")
        assert ids(page, "tr") == Counter(anchors), name
        assert {a: table[a] for a in anchors} == dict.fromkeys(anchors, 1), name
        in_table += len(anchors)
        assert placement(page) == {r["anchor"]: r["figure"] if r["figure"] in figures else None
                                   for r in rows}, name
        assert ids(page, "article") == Counter(f"figure-{f}" for f in figures), name
        images = [a["src"] for t, a in page.tags if t == "img"]
        assert images == [f"../{name}/figures/{f}.png" for f in figures], name
        assert all((site / src).is_file() for src in images), name
        text = (site / f"study-{name}.html").read_text()
        # every figure names its function and every claim row what judged it
        assert text.count("Drawn by <code>") == len(figures), name
        judged = text.count('<td class="judged"><code>')
        empty = text.count('<td class="judged"><code></code>')
        assert (judged, empty) == (len(card), 0), name
    assert sum(table.values()) == in_table  # no row besides the scorecards'


def test_the_front_page_names_the_run(site, run):
    text = "".join(parse(site / "index.html").text)
    assert run["profile"] == "smoke" and "smoke" in text
    assert run["finished_utc"] in text
    assert f"numpy {run['versions']['numpy']}" in text
    assert "when the site was built" not in text  # the versions the run recorded


def test_the_truth_page_is_the_synthesis_row_for_row(workdir, site, run):
    expected = synthesis(workdir / "results", root=workdir, studies=run["studies"])
    assert len(expected) > 0
    page = parse(site / "truth.html")
    shown = [[a[f"data-{c}"] for c in expected.columns]
             for t, a in page.tags if t == "tr" and "data-family" in a]
    assert shown == table_cells(expected)
