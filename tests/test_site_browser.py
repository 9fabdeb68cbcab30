"""The smoke run's results site in a real headless browser (Debian's chromium driven by
Playwright; nothing is downloaded): the front page opens from the file system; its link to
the claims table, filtered to one study and ``not reproduced``, shows the scorecard's count;
a claim's permalink opens its study page at the claim, under its figure, whose image loads;
a column sorts; screenshots go to the test's temporary folder. Skipped where Playwright or
/usr/bin/chromium is missing (``.ci/run`` installs both)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from imlbench.io import read_parquet
from imlbench.site.data import claim_rows

sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.workflow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no {CHROMIUM} (apt-get install chromium)"),
]


@pytest.fixture
def page():
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser.new_page(viewport={"width": 1400, "height": 900})
        finally:
            browser.close()


def _study_with_misses(results: Path) -> tuple[str, object]:
    """The study of the run with the most ``not reproduced`` rows, and its scorecard."""
    studies = json.loads((results / "run.json").read_text())["studies"]
    cards = {s: read_parquet(results / s / "scorecard.parquet") for s in studies}
    name = max(studies, key=lambda s: int((cards[s]["verdict"] == "not reproduced").sum()))
    return name, cards[name]


def test_filter_claims_and_follow_a_permalink_to_its_figure(page, workdir, smoke_run, tmp_path):
    results = workdir / "results"
    site = results / "site"
    study, card = _study_with_misses(results)
    expected = int((card["verdict"] == "not reproduced").sum())
    assert expected > 0, "no claim of the smoke run misses"

    page.goto((site / "index.html").as_uri())
    page.screenshot(path=str(tmp_path / "index.png"))
    with page.expect_navigation(wait_until="load"):
        page.click("nav >> text=All claims")
    assert page.url.endswith("claims.html")
    page.select_option("select[data-filter=study]", study)
    page.select_option("select[data-filter=verdict]", "not reproduced")
    assert page.inner_text("[data-shown]") == str(expected)
    assert page.locator("table.claims tbody tr:visible").count() == expected
    page.screenshot(path=str(tmp_path / "claims.png"))

    # sorting keeps the filter
    page.click("table.claims th:has-text('learner')")
    assert page.locator("table.claims tbody tr:visible").count() == expected

    row = next(r for r in claim_rows(card) if r["verdict"] == "not reproduced"
               and r["figure"])
    page.goto((site / "claims.html").as_uri() + f"#{row['anchor']}")
    with page.expect_navigation(wait_until="load"):
        page.click(f"tr#{row['anchor']} a.claim-link")
    assert page.url.endswith(f"study-{study}.html#{row['anchor']}")
    claim = page.locator(f"tr#{row['anchor']}")
    assert claim.is_visible()
    figure = page.locator(f"article:has(tr#{row['anchor']})")
    assert figure.get_attribute("id") == f"figure-{row['figure']}"
    image = figure.locator("img")
    assert image.get_attribute("src") == f"../{study}/figures/{row['figure']}.png"
    image.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete", arg=image.element_handle())
    assert image.evaluate("img => img.naturalWidth > 0")
    shot = tmp_path / f"study-{study}.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 0


def test_a_front_page_count_opens_the_claims_table_filtered(page, workdir, smoke_run):
    results = workdir / "results"
    study, card = _study_with_misses(results)
    page.goto((results / "site" / "index.html").as_uri())
    links = page.locator(f"a[href^='claims.html?study={study}&'][href$='not%20reproduced']")
    counts = [int(t) for t in links.all_inner_texts()]
    assert sum(counts) == int((card["verdict"] == "not reproduced").sum())
    with page.expect_navigation(wait_until="load"):
        links.first.click()
    assert page.input_value("select[data-filter=study]") == study
    assert page.input_value("select[data-filter=verdict]") == "not reproduced"
    assert page.inner_text("[data-shown]") == str(counts[0])


def test_the_claims_table_sorts_by_a_column(page, workdir, smoke_run):
    page.goto((workdir / "results" / "site" / "claims.html").as_uri())
    page.click("table.claims th:has-text('verdict')")
    verdicts = page.locator("table.claims tbody tr td.verdict").all_inner_texts()
    assert len(set(verdicts)) > 1 and verdicts == sorted(verdicts)
    page.click("table.claims th:has-text('verdict')")
    assert page.locator("table.claims tbody tr td.verdict").all_inner_texts() == sorted(
        verdicts, reverse=True)
