"""The results site (imlbench.site): every claim row of every scorecard and every figure of
every study appears exactly once on its study page and every claim row once in the claims
table, links stay relative and inside the site's tree, and the truth page shows its table."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pandas as pd
import pytest
import yaml
from site_tree import CARDS, FIGURES, ids, parse, placement, write_tree

from imlbench.compare import SMOKE_BANNER
from imlbench.config import load_study, study_path
from imlbench.metrics.truth_synthesis import COLUMNS, DECOMPOSED, family_summary
from imlbench.site.build import build_site, site_files, untruthed
from imlbench.site.data import claim_rows, judges

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("project")
    results = write_tree(root)
    build_site(results, root, results / "site")
    return results / "site"


def test_the_site_has_its_pages(site):
    assert sorted(p.name for p in site.iterdir()) == sorted(site_files(list(CARDS)))


@pytest.mark.parametrize("study", list(CARDS))
def test_every_claim_row_is_once_on_its_study_page_and_once_in_the_table(site, study):
    anchors = [r["anchor"] for r in claim_rows(CARDS[study])]
    assert len(set(anchors)) == len(CARDS[study])
    page = ids(parse(site / f"study-{study}.html"), "tr")
    table = ids(parse(site / "claims.html"), "tr")
    assert {a: page[a] for a in anchors} == dict.fromkeys(anchors, 1)
    assert {a: table[a] for a in anchors} == dict.fromkeys(anchors, 1)
    assert sum(page.values()) == len(anchors)  # no row of another study


def test_the_claims_table_holds_every_row_of_every_scorecard(site):
    rows = [a for t, a in parse(site / "claims.html").tags if t == "tr" and "id" in a]
    assert len(rows) == sum(len(c) for c in CARDS.values())
    cards = pd.concat(CARDS.values())
    assert Counter(r["data-verdict"] for r in rows) == Counter(cards["verdict"])
    assert Counter((r["data-study"], r["data-figure"]) for r in rows) == Counter(
        zip(cards["study"], cards["figure"], strict=True))


@pytest.mark.parametrize("study", list(CARDS))
def test_every_figure_is_once_on_its_study_page_beside_its_claims(site, study):
    page = parse(site / f"study-{study}.html")
    figures = ids(page, "article")
    assert figures == Counter(f"figure-{fig}" for fig in FIGURES[study])
    images = Counter(a["src"] for t, a in page.tags if t == "img")
    assert images == Counter(f"../{study}/figures/{fig}.png" for fig in FIGURES[study])
    placed = placement(page)
    expected = {r["anchor"]: r["figure"] if r["figure"] in FIGURES[study] else None
                for r in claim_rows(CARDS[study])}
    assert placed == expected


def test_a_claims_row_links_to_its_place_on_the_study_page(site):
    links = [a["href"] for t, a in parse(site / "claims.html").tags
             if t == "a" and a.get("class") == "claim-link"]
    expected = [f"study-{r['study']}.html#{r['anchor']}"
                for c in CARDS.values() for r in claim_rows(c)]
    assert links == expected


def test_every_link_is_relative_and_finds_its_file(site):
    for page in site.glob("*.html"):
        for tag, attrs in parse(page).tags:
            target = attrs.get("href") or attrs.get("src") if tag in ("a", "img", "link",
                                                                       "script") else None
            if not target:
                continue
            parts = urlsplit(target)
            assert not parts.scheme and not parts.netloc, (page.name, target)
            if parts.path:
                assert (site / unquote(parts.path)).is_file(), (page.name, target)


def test_the_study_page_shows_the_paper_deviations_and_scenario_yaml(site):
    page = site / "study-beta.html"
    text = "".join(parse(page).text)
    assert "Author & Other (2020), Beta <and> & more" in text
    assert "beta: fewer repetitions" in text
    # fig_b names the scenario entry `grid`, whose YAML lists its sweep
    assert "grid:" in text and "rho:" in text
    assert "&lt;b&gt;" in page.read_text()  # claim text is escaped


def test_the_front_page_counts_claims_by_study_source_and_verdict(site):
    page = parse(site / "index.html")
    links = [a["href"] for t, a in page.tags if t == "a" and a["href"].startswith("claims")]
    assert "claims.html?study=alpha&source=paper_number&verdict=not%20reproduced" in links
    text = "".join(page.text)
    assert "smoke" in text and "2026-01-02T03:04:05" in text
    # the run is a smoke run: every page opens with the banner
    for name in ("index.html", "claims.html"):
        assert SMOKE_BANNER in "".join(parse(site / name).text)


def test_the_truth_page_shows_the_table_it_is_given_and_its_summary(tmp_path):
    results = write_tree(tmp_path)
    base = [c for c in COLUMNS if c not in DECOMPOSED]  # rows without the models' own effect
    truth = pd.DataFrame([
        ["PD", "pd", "alpha", "main", "pdp", "pdp", "lm", 0.5, "test", 0.123456, 0.01, 0.02,
         0.03, 1.4, 21, 4],
        ["PD", "pd", "alpha", "grid_rho0.5", "pdp", "pdp", "rf", 0.9, None, 0.2, 0.03, 0.01,
         0.04, 1.0, 21, 2],
    ], columns=base).reindex(columns=COLUMNS)
    build_site(results, tmp_path, tmp_path / "site", truth=truth)
    page = parse(tmp_path / "site" / "truth.html")
    rows = [a for t, a in page.tags if t == "tr" and "data-family" in a]
    assert [r["data-nrmse"] for r in rows] == ["0.1235", "0.2"]
    assert rows[0]["data-dependence"] == "0.5" and rows[1]["data-data"] == ""
    text = "".join(page.text)
    # the summary: both rows are strong (>= 0.5), median nrmse 0.1617, median bias share
    # of 0.01 / 0.03 and 0.03 / 0.04
    summary = family_summary(truth)
    assert summary.loc[0, "strong"] == pytest.approx(0.161728)
    assert summary.loc[0, "bias_share"] == pytest.approx((1 / 3 + 3 / 4) / 2)
    assert "0.1617" in text and "0.5417" in text


def test_methods_without_an_estimand_are_listed_with_their_studies(tmp_path):
    write_tree(tmp_path)
    path = study_path(tmp_path, "alpha")
    doc = yaml.safe_load(path.read_text())
    doc["methods"]["fit"] = {"method": "model_fit"}  # a metric: no estimate
    doc["methods"]["loco_abs"] = {"method": "loco", "params": {"loss": "absolute"}}
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    studies = [load_study(study_path(tmp_path, s), "smoke") for s in CARDS]
    assert untruthed(studies) == {"loco": ["alpha"]}


def test_a_missing_scorecard_is_named(tmp_path):
    results = write_tree(tmp_path)
    (results / "beta" / "scorecard.parquet").unlink()
    with pytest.raises(FileNotFoundError, match="beta/scorecard.parquet"):
        build_site(results, tmp_path, tmp_path / "site")


def test_every_figure_says_which_function_drew_it_in_which_file(site):
    text = (site / "study-alpha.html").read_text()
    drawn = "Drawn by <code>curve_grid in src/imlbench/figures/generic.py</code>"
    assert text.count(drawn) == len(FIGURES["alpha"])
    assert (ROOT / "src/imlbench/figures/generic.py").is_file()


def test_every_claim_says_what_judged_it():
    study = load_study(ROOT / "tests" / "study_files" / "formula_demo.yaml", "smoke")
    judged = judges(study)
    assert set(judged) == {c["id"] for c in study.claims}
    assert judged["rf-ale-closer-than-pd"] == (
        "closer_to_truth in src/imlbench/metrics/truth_errors.py")
    contrast = {"id": "c", "kind": "contrast", "statistic": "curve_value", "test": "paired",
                "than": {"method": "ale"}, "feature": "x1", "at": 0.0,
                "where": study.claims[0]["where"]}
    study.doc["claims"] = [*study.claims, contrast]
    assert judges(study)["c"] == ("contrast/paired of curve_value in "
                                  "src/imlbench/metrics/contrasts.py, "
                                  "src/imlbench/metrics/statistics.py")
    for row in claim_rows(CARDS["alpha"], {"c-one": "kind in file"}):
        assert row["judged"] == ("kind in file" if row["claim"] == "c-one" else "")
