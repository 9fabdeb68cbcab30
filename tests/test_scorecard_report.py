"""The scorecard's reasons for rows without data, its header, the run record that
``snakemake --report`` reads, and the comparison of two results trees without the date."""

from __future__ import annotations

import json
import re
import runpy
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pandas as pd
import pytest

import imlbench.studies.extrapolation  # noqa: F401  (registers the claim kinds and statistics used)
from imlbench.compare import (
    SMOKE_BANNER,
    no_data_reason,
    without_date,
    write_scorecard_summary,
)
from imlbench.config import ConfigError, Scenario, Study
from imlbench.io import write_parquet
from imlbench.metrics.claims import INCONCLUSIVE, NO_DATA, NOT_RUN, Tables, claim_row, evaluate
from imlbench.runinfo import (
    RUN_FILE,
    is_report,
    package_versions,
    read_run,
    workflow_config,
)

REPO = Path(__file__).resolve().parents[1]
WHEN = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def _scenario(name: str, reps: int) -> Scenario:
    return Scenario(name=name, family=name, dgp="d", params={}, n=10, n_test=0, reps=reps,
                    chunk_size=2, learners=("lm", "rf"), methods=("pfi", "pd", "theory"))


def _study() -> Study:
    doc = {
        "learners": {"lm": {"learner": "lm"}, "rf": {"learner": "rf"}},
        # ``pd`` runs for the linear model only
        "methods": {"pfi": {"method": "pfi"}, "pd": {"method": "pdp", "learners": ["lm"]},
                    "theory": {"method": "pdp"}},
    }
    scenarios = {"main": _scenario("main", 4), "empty": _scenario("empty", 0)}
    return Study(name="s", path=Path("s.yaml"), doc=doc, profile="smoke", scenarios=scenarios,
                 all_scenarios={"main", "empty", "big"})


def _claim(kind: str = "rank_order", scenario: str = "main", learner: str = "lm",
           method: str = "pfi", **params) -> dict:
    return {"id": "c", "kind": kind, "figure": "fig_1", "text": "t", "published": "p",
            "source": "derived",
            "where": {"scenario": scenario, "learner": learner, "method": method}, **params}


def _rows(scenario: str, learner: str, method: str) -> pd.DataFrame:
    return pd.DataFrame({"scenario": [scenario], "learner": [learner], "method": [method],
                         "rep": [0], "feature": ["x1"], "value": [1.0], "rank": [1.0]})


def _reason(claim: dict, tables: Tables | None = None) -> str:
    tables = tables or Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame())
    row = claim_row(claim, claim["where"]["learner"], claim["where"]["method"], "", "", None)
    return no_data_reason(_study(), tables, claim, row)


def test_reason_names_the_scenario_a_profile_does_not_run_or_runs_no_repetition_of():
    assert _reason(_claim(scenario="big")) == "profile smoke does not run scenario big"
    assert _reason(_claim(scenario="empty")) == (
        "scenario empty runs 0 repetitions in profile smoke")


def test_reason_names_the_method_a_scenario_does_not_run():
    assert _reason(_claim(learner="rf", method="pd")) == (
        "scenario main does not run method pd for learner rf")


def test_reason_names_the_file_that_would_hold_the_rows():
    # an importance is read through the ranks, another method from its estimate files
    assert _reason(_claim()) == "results/s/metrics/ranks.parquet holds no rows of main/lm/pfi"
    assert _reason(_claim("extrapolation.rejection_rate", method="pd", expect="nominal")) == (
        "results/s/estimates/main/lm/pd/c*.parquet holds no rows of main/lm/pd")


def test_reason_names_a_method_the_claim_compares_with():
    """The claim's own estimates exist; the theory its parameter names does not."""
    claim = _claim("contrast", statistic="extrapolation.theory_ratio", theory_method="theory")
    tables = Tables(ranked=_rows("main", "lm", "pfi"), truth={}, other=_rows("main", "lm", "pd"))
    assert _reason(claim, tables) == (
        "results/s/estimates/main/lm/theory/c*.parquet holds no rows of main/lm/theory")
    tables.other = _rows("main", "lm", "theory")
    assert _reason(claim, tables) == ("results/s/metrics/ranks.parquet, results/s/estimates/"
                                      "main/lm/theory/c*.parquet hold rows of main, but not "
                                      "those the claim needs (4 repetitions in profile smoke)")


def test_evaluate_gives_every_row_without_data_a_reason_and_keeps_the_kinds_own():
    study = _study()
    tables = Tables(ranked=_rows("main", "lm", "pfi"), truth={}, other=pd.DataFrame())
    claims = [_claim(higher=["x1"], lower=["x1"]),  # one repetition, no SE: inconclusive
              _claim(learner="rf", higher=["x1"], lower=["x1"]),  # no ranks of rf
              _claim(scenario="big", higher=["x1"], lower=["x1"])]  # not in the profile

    def reason(claim: dict, row: dict) -> str:
        return no_data_reason(study, tables, claim, row)

    card = evaluate(claims, tables, set(study.scenarios), reason)
    assert list(card["verdict"]) == [INCONCLUSIVE, NO_DATA, NOT_RUN]
    assert list(card["reason"]) == [
        "", "results/s/metrics/ranks.parquet holds no rows of main/rf/pfi",
        "profile smoke does not run scenario big"]


def test_a_kinds_own_reason_is_kept():
    import imlbench.studies.pd_pfi_dgp  # noqa: F401  (registers the coverage statistic)

    summary = pd.DataFrame({"scenario": ["main"], "learner": ["lm"], "method": ["refits"],
                            "quantity": ["pd"], "strategy": ["bootstrap"], "corrected": [False],
                            "m": [15], "coverage": [0.9], "coverage_se": [float("nan")],
                            "reps": [1]})
    claims = [_claim("contrast", method="refits", statistic="pd_pfi_dgp.coverage",
                     column=column, quantity="pd", m=15, value=0.9, compare="equal", k=2.0)
              for column in ("boot", "subs")]
    tables = Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame(), summary=summary)
    card = evaluate(claims, tables, {"main"}, lambda claim, row: "the caller's reason")
    assert list(card["verdict"]) == [NO_DATA, NO_DATA]
    assert list(card["reason"]) == [
        "an SE over repetitions needs pd boot coverage at m = 15 in 2 repetitions or more; "
        "main/lm/refits has it in 1",
        "metrics/summary.parquet has no cell main lm pd subs at m = 15 (this profile runs "
        "m = 15 to 15)"]


def _cards(tmp_path: Path) -> list[Path]:
    cards = []
    for study, verdict, reason in (("a", "reproduced", ""), ("b", NO_DATA, "why | not")):
        card = pd.DataFrame([{"study": study, "claim": f"{study}1", "figure": "fig_1",
                              "source": "derived", "learner": "lm", "method": "pfi",
                              "published": "p", "reproduced": "", "tolerance": "",
                              "power": "", "verdict": verdict, "reason_class": "",
                              "reason": reason}])
        path = tmp_path / study / "scorecard.parquet"
        write_parquet(card, path, config_hash="h", seed=0)
        cards.append(path)
    return cards


def _summary(tmp_path: Path, cards: list[Path], profile: str, when: datetime) -> tuple[str, str]:
    md, html, run = tmp_path / "SCORECARD.md", tmp_path / "scorecard.html", tmp_path / "run.json"
    write_scorecard_summary(cards, md, html, profile, run, when)
    return md.read_text(), html.read_text()


def test_scorecard_header_states_profile_studies_and_utc_time(tmp_path):
    cards = _cards(tmp_path)
    # 04:04:05 at UTC+1 is 03:04:05 UTC
    md, html = _summary(tmp_path, cards, "smoke", WHEN.astimezone(timezone(timedelta(hours=1))))
    header = md.split("| study |")[0]
    assert "Profile: smoke. Studies: a, b." in header
    assert "Written: 2026-01-02 03:04:05 UTC." in header
    assert "<p>Profile: smoke. Studies: a, b.</p>" in html
    assert "<p>Written: 2026-01-02 03:04:05 UTC.</p>" in html
    # a smoke run opens with the banner: its verdicts are not evidence (not on a default run)
    assert header.startswith(f"# Scorecard\n\n{SMOKE_BANNER}")
    assert f"<p>{SMOKE_BANNER}</p>" in html
    (tmp_path / "default").mkdir()
    assert SMOKE_BANNER not in _summary(tmp_path / "default", cards, "default", WHEN)[0]
    # counts by study, source and verdict first
    counts = md.split("## Claims by study, source and verdict")[1].split("## Claims\n")[0]
    assert "| study | source | reproduced | no data |" in counts
    assert "| a | derived | 1 | 0 |" in counts and "| all |  | 1 | 1 |" in counts
    assert "<h2>Claims by study, source and verdict</h2>" in html
    # the reason is a column of both, its "|" escaped in the markdown table (as written)
    claims = md.split("## Claims\n")[1]
    assert "| tolerance | power | verdict |" in claims
    assert "| reason |" in claims and "| no data |  | why \\| not |" in claims
    row = next(line for line in claims.splitlines() if line.startswith("| b |"))
    head = next(line for line in claims.splitlines() if line.startswith("| study |"))
    assert len(re.split(r"(?<!\\)\|", row)) == len(head.split("|"))  # one cell per column
    assert "<th>reason</th>" in html and "<td>why | not</td>" in html
    assert json.loads((tmp_path / "run.json").read_text()) == {
        "profile": "smoke", "studies": ["a", "b"], "finished_utc": "2026-01-02T03:04:05+00:00",
        "versions": package_versions()}
    assert {"imlbench", "numpy", "snakemake"} <= set(package_versions())


def test_without_date_drops_only_the_date(tmp_path):
    cards = _cards(tmp_path)
    first = _summary(tmp_path, cards, "smoke", WHEN)
    later = _summary(tmp_path, cards, "smoke", WHEN + timedelta(days=3))
    other = _summary(tmp_path, cards, "default", WHEN)
    for i in (0, 1):
        assert first[i] != later[i]
        assert without_date(first[i]) == without_date(later[i])
        assert "2026-01-0" not in without_date(first[i])
        assert without_date(first[i]) != without_date(other[i])  # the profile is compared


def test_report_mode_is_read_from_the_command_line():
    assert is_report(["snakemake", "--report", "results/report.html"])
    assert is_report(["snakemake", "--report=r.html", "--config", "profile=smoke"])
    assert not is_report(["snakemake", "--cores", "2"])
    assert not is_report(["snakemake", "--cores", "2", "--report", "r.html",
                          "--report-after-run"])
    assert not is_report(["snakemake", "--report-stylesheet", "s.css"])


def test_a_report_takes_the_recorded_run_unless_the_command_line_sets_it(tmp_path):
    config = {"profile": "default", "studies": ["a", "b", "c"], "base_seed": 1}
    report = ["snakemake", "--report", "results/report.html"]
    # no recorded run: the configuration as given
    assert workflow_config(config, {}, tmp_path, report) == config
    (tmp_path / RUN_FILE).parent.mkdir()
    (tmp_path / RUN_FILE).write_text(json.dumps(
        {"profile": "smoke", "studies": ["a"], "finished_utc": "2026-01-02T03:04:05+00:00"}))
    assert workflow_config(config, {}, tmp_path, report) == {
        "profile": "smoke", "studies": ["a"], "base_seed": 1}
    assert workflow_config({**config, "profile": "paper"}, {"profile": "paper"}, tmp_path,
                           report) == {"profile": "paper", "studies": ["a"], "base_seed": 1}
    # a run is never changed
    assert workflow_config(config, {}, tmp_path, ["snakemake", "--cores", "2"]) == config


@pytest.mark.parametrize(("record", "message"), [
    ("{", r"results/run.json: not valid JSON"),
    ('{"profile": "huge", "studies": []}',
     r"results/run.json: key profile: 'huge'; allowed: smoke, default, paper"),
    ('{"profile": "smoke", "studies": "a"}', r"results/run.json: key studies: 'a'"),
])
def test_a_bad_run_record_names_the_file_and_key(tmp_path, record, message):
    path = tmp_path / RUN_FILE
    path.parent.mkdir()
    path.write_text(record)
    with pytest.raises(ConfigError, match=message):
        read_run(path)


def test_compare_results_ignores_the_date_of_the_scorecard(tmp_path, monkeypatch, capsys):
    def tree(name: str, profile: str, when: datetime) -> Path:
        root = tmp_path / name
        _summary(root, _cards(root), profile, when)
        return root

    def compare(old: Path, new: Path) -> int:
        monkeypatch.setattr(sys, "argv", ["compare_results.py", str(old), str(new)])
        with pytest.raises(SystemExit) as exc:
            runpy.run_path(str(REPO / "benchmarks" / "compare_results.py"), run_name="__main__")
        return exc.value.code

    old = tree("old", "smoke", WHEN)
    assert compare(old, tree("same", "smoke", WHEN + timedelta(hours=5))) == 0
    assert "compared 4 files: 0 differ" in capsys.readouterr().out
    assert compare(old, tree("other", "default", WHEN)) == 1
    out = capsys.readouterr().out
    assert "differs: SCORECARD.md" in out and "differs: scorecard.html" in out


def test_a_pattern_claims_reason_is_a_cell_its_scenarios_run():
    """``over`` names a scenario that does not fit the learner: the reason is the missing
    refit count of the scenario that does, not the learner's absence from the other."""
    import imlbench.studies.pd_pfi_dgp  # noqa: F401  (registers the claim kind)
    from imlbench.metrics.claims import CLAIMS

    summary = pd.DataFrame({"scenario": ["rfsc"], "learner": ["rf"], "method": ["refits"],
                            "quantity": ["pd"], "strategy": ["bootstrap"], "corrected": [False],
                            "m": [16], "coverage": [0.9], "coverage_se": [0.01], "reps": [4]})
    claim = _claim("pd_pfi_dgp.coverage_cells", learner="rf", method="refits", columns=["boot"],
                   over=["lmsc", "rfsc"], quantity="pd", m=30, k=2.0, compare="below",
                   value=0.95)
    tables = Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame(), summary=summary)
    [row] = CLAIMS.get("pd_pfi_dgp.coverage_cells")(claim, tables)
    assert row["verdict"] == NO_DATA
    assert row["reason"] == ("metrics/summary.parquet has no cell rfsc rf pd boot at m = 30 "
                             "(this profile runs m = 16 to 16)")
