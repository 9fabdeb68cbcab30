"""The reference run and ``python -m imlbench compare`` (imlbench.reference).

On synthetic scorecards and estimate tables: values equal up to floating-point noise compare
equal, and a moved value, a changed verdict, a changed count of repetitions, a missing file
are named; runs of another profile or base seed are refused. On the shared smoke run
(``smoke_run`` of conftest.py): the reference written from it compares equal with it, a copy
with one estimate file altered names that file, a copy rerun with one scenario's repetition
count changed names the rows that moved, and the run compares equal with the committed
``reference/smoke.json``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from workflow_runs import REPO, VENV_BIN, environment, error_logs, snakemake, tail

from imlbench.config import load_study, study_path
from imlbench.io import read_parquet, read_provenance, write_parquet
from imlbench.reference.differ import FP_RTOL, compare_digests, printed_change, report, row_key
from imlbench.reference.digest import (
    RefusedComparison,
    RunDigest,
    digest_run,
    frame_digest,
    read_digest,
    reference_path,
    scorecard_rows,
    write_digest,
)
from imlbench.targets import estimates_of

#: relative noise of the size another BLAS library or summation order leaves after a fit:
#: far below the comparison's floor FP_RTOL = 1e-9
NOISE = 1e-13


def _card() -> pd.DataFrame:
    """A study's scorecard: two rows of one claim (two features), one of another."""
    return pd.DataFrame({
        "study": "toy", "claim": ["c1", "c1", "c2"], "scenario": ["s", "s", "timing"],
        "learner": "lm", "method": ["pdp", "pdp", "pfi"],
        "reproduced": ["mean slope x1: 0.5123 (SE 0.0412, 10 reps)",
                       "mean slope x2: -1.207 (SE 0.0399, 10 reps)",
                       "seconds ratio: 3.02 (SE 0.11, 10 reps)"],
        "detectable": [0.1736, 0.1681, 0.45], "detectable_share": [0.35, 0.14, 0.2],
        "verdict": ["reproduced", "consistent", "reproduced"]})


def _estimates(rng: np.random.Generator) -> pd.DataFrame:
    return pd.DataFrame({"rep": np.repeat(np.arange(10), 20), "feature": ["x1", "x2"] * 100,
                         "x": np.tile(np.linspace(-1, 1, 20), 10),
                         "estimate": rng.normal(size=200), "seconds": rng.uniform(size=200)})


def _digest(card: pd.DataFrame, est: pd.DataFrame, profile: str = "smoke",
            seed: int = 2021) -> RunDigest:
    return RunDigest(profile, seed, ["toy"], {"version": "0", "git_revision": "x"},
                     scorecard_rows(card, measured={"timing"}),
                     {"toy/estimates/s/lm/pdp/c0.parquet": frame_digest(est)})


@pytest.fixture
def pair() -> tuple[pd.DataFrame, pd.DataFrame]:
    return _card(), _estimates(np.random.default_rng(1))


def test_floating_point_noise_compares_equal(pair):
    card, est = pair
    noisy_card, noisy = card.copy(), est.copy()
    noise = np.random.default_rng(2).uniform(-NOISE, NOISE, size=len(est))
    noisy["estimate"] *= 1 + noise
    noisy["x"] += NOISE  # a value of 0 moved by an absolute rounding error
    noisy_card["detectable"] *= 1 + NOISE
    noisy["seconds"] *= 2  # measured run times are not compared
    noisy_card.loc[2, "reproduced"] = "seconds ratio: 4.5 (SE 0.2, 10 reps)"
    diff = compare_digests(_digest(card, est), _digest(noisy_card, noisy))
    assert not diff, report(_digest(card, est), _digest(noisy_card, noisy), diff)
    assert (diff.rows_compared, diff.rows_measured, diff.files_compared) == (2, 1, 1)


def test_a_printed_number_equals_within_the_rounding_of_its_print():
    # one unit in the 4th significant digit: the print's rounding of a value moved by noise
    assert printed_change("mean 0.1235 (SE 0.0412)", "mean 0.1234 (SE 0.0412)") == 0
    assert printed_change("mean 0.1237 (SE 0.0412)", "mean 0.1234 (SE 0.0412)") == \
        pytest.approx(3e-4)
    assert printed_change("mean 1.5 (SE 0.04)", "mean 1.6 (SE 0.04)") == pytest.approx(0.1)
    # a count, or the words around the numbers, never moves by rounding
    assert printed_change("(SE 0.04, 10 reps)", "(SE 0.04, 9 reps)") == np.inf
    assert printed_change("slope x1 at rho0.9", "slope x2 at rho0.9") == np.inf
    assert printed_change("slope x1 at rho0.9: nan", "slope x1 at rho0.9: nan") == 0


def test_a_moved_value_is_named_with_its_monte_carlo_tolerance(pair):
    card, est = pair
    moved = card.copy()
    # 0.5123 -> 0.5456: by 0.033, within half the row's detectable 0.1736 (its interval)
    moved.loc[0, "reproduced"] = "mean slope x1: 0.5456 (SE 0.0412, 10 reps)"
    # -1.207 -> -1.507, far beyond half of 0.1681
    moved.loc[1, "reproduced"] = "mean slope x2: -1.507 (SE 0.0399, 10 reps)"
    diff = compare_digests(_digest(card, est), _digest(moved, est))
    assert [(m.old["part"], m.within_monte_carlo) for m in diff.moved] == [(0, True), (1, False)]
    assert diff.moved[0].change == pytest.approx(0.0333)
    text = report(_digest(card, est), _digest(moved, est), diff)
    assert "moved beyond Monte Carlo tolerance (1):\n  toy/c1 (s, lm, pdp #1)" in text
    assert "moved within Monte Carlo tolerance (1):\n  toy/c1 (s, lm, pdp)" in text
    assert text.endswith("differences beyond floating point: see above")


def test_a_changed_estimate_and_a_changed_repetition_count_name_the_file(pair):
    card, est = pair
    shifted = est.copy()
    shifted.loc[7, "estimate"] += 10 * FP_RTOL * shifted["estimate"].abs().sum()
    diff = compare_digests(_digest(card, est), _digest(card, shifted))
    path = "toy/estimates/s/lm/pdp/c0.parquet"
    assert list(diff.files_changed) == [path]
    assert diff.files_changed[path][0].startswith("estimate: sum ")
    # values moved between rows keep every sum but the weighted one
    swapped = est.copy()
    swapped.loc[[3, 4], "estimate"] = est.loc[[4, 3], "estimate"].to_numpy()
    changes = compare_digests(_digest(card, est), _digest(card, swapped)).files_changed[path]
    assert changes[0].startswith("estimate: weighted_sum ")
    fewer = est[est["rep"] < 9]
    diff = compare_digests(_digest(card, est), _digest(card, fewer))
    assert diff.files_changed == {path: ["rows 200 -> 180"]}
    relabelled = est.assign(feature=est["feature"].replace({"x2": "x3"}))
    diff = compare_digests(_digest(card, est), _digest(card, relabelled))
    assert diff.files_changed == {path: ["feature: values differ"]}


def test_a_verdict_change_is_named(pair):
    card, est = pair
    flipped = card.copy()
    flipped.loc[1, "verdict"] = "inconclusive"
    diff = compare_digests(_digest(card, est), _digest(flipped, est))
    assert not diff.moved and bool(diff)
    assert [(a["claim"], a["part"], b["verdict"]) for a, b in diff.verdicts] == [
        ("c1", 1, "inconclusive")]
    assert "verdicts that changed (1):\n  toy/c1 (s, lm, pdp #1): consistent -> inconclusive" \
        in report(_digest(card, est), _digest(flipped, est), diff)


def test_missing_and_extra_rows_files_and_studies_are_named(pair):
    card, est = pair
    ref, run = _digest(card, est), _digest(card.iloc[:2], est)
    run.estimates = {"toy/estimates/s/lm/pdp/c1.parquet": frame_digest(est)}
    run.studies = ["toy", "other"]
    diff = compare_digests(ref, run)
    assert diff.rows_missing == [("toy", "c2", "timing", "lm", "pfi", 0)]
    assert diff.files_missing == ["toy/estimates/s/lm/pdp/c0.parquet"]
    assert diff.files_extra == ["toy/estimates/s/lm/pdp/c1.parquet"]
    assert diff.studies_extra == ["other"]
    # restricted to a study, the others are left out
    assert not compare_digests(ref, ref, studies=["toy"])
    assert compare_digests(ref, ref, studies=["toy", "other"]).studies_missing == ["other"]


@pytest.mark.parametrize(("profile", "seed", "said"), [
    ("default", 2021, "the run's profile is default, the reference's smoke"),
    ("smoke", 7, "the run's base seed is 7, the reference's 2021")])
def test_a_run_of_another_profile_or_seed_is_refused(pair, profile, seed, said):
    card, est = pair
    with pytest.raises(RefusedComparison, match=said):
        compare_digests(_digest(card, est), _digest(card, est, profile, seed))


def test_the_written_reference_reads_back_one_row_per_line(pair, tmp_path):
    card, est = pair
    ref = _digest(card, est)
    path = reference_path(tmp_path, "smoke")
    write_digest(ref, path)
    assert read_digest(path) == ref
    lines = path.read_text().splitlines()
    assert sum(line.startswith('  {"study": "toy"') for line in lines) == len(card)
    assert sum(line.startswith('  "toy/estimates/') for line in lines) == 1
    assert json.loads(path.read_text())["profile"] == "smoke"
    with pytest.raises(RefusedComparison, match="no such reference"):
        read_digest(tmp_path / "absent.json")
    incomplete = _digest(card, est)
    incomplete.estimates["toy/estimates/s/lm/pdp/c1.parquet"] = None
    with pytest.raises(RefusedComparison, match="lacks 1 estimate files"):
        write_digest(incomplete, tmp_path / "incomplete.json")


def test_a_reference_takes_one_studys_rows_from_a_run_of_that_study(pair):
    """``compare --write-reference --studies toy2``: the study's rows and files come from the
    run, the other studies' stay, and a run of another profile cannot update it."""
    from imlbench.reference.command import merged

    card, est = pair
    ref = _digest(card, est)
    other = _digest(card.assign(study="toy2", verdict="not reproduced"), est)
    other.studies = ["toy2"]
    other.estimates = {"toy2/estimates/s/lm/pdp/c0.parquet": frame_digest(est)}
    other.code = {"version": "1", "git_revision": "y"}
    both = merged(ref, other, ["toy2"])
    assert both.studies == ["toy", "toy2"] and both.code == other.code
    assert [r["verdict"] for r in both.rows if r["study"] == "toy"] == list(card["verdict"])
    assert {r["verdict"] for r in both.rows if r["study"] == "toy2"} == {"not reproduced"}
    assert sorted(both.estimates) == ["toy/estimates/s/lm/pdp/c0.parquet",
                                      "toy2/estimates/s/lm/pdp/c0.parquet"]
    again = merged(both, _digest(card.assign(verdict="inconclusive"), est), ["toy"])
    assert {r["verdict"] for r in again.rows if r["study"] == "toy"} == {"inconclusive"}
    assert len(again.rows) == len(both.rows)
    with pytest.raises(RefusedComparison, match="profile default"):
        merged(ref, _digest(card, est, profile="default"), ["toy"])
    with pytest.raises(RefusedComparison, match="no study toy3"):
        merged(ref, other, ["toy3"])


@pytest.mark.parametrize("profile", ["smoke", "default"])
def test_the_committed_reference_covers_every_estimate_file_of_the_shipped_studies(profile):
    """reference/<profile>.json is of the shipped configuration: its base seed and studies,
    and exactly the estimate files the studies make in that profile (a study, scenario or
    method added without a new reference would be missing from it)."""
    ref = read_digest(REPO / "reference" / f"{profile}.json")
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    assert (ref.profile, ref.base_seed) == (profile, config["base_seed"])
    assert ref.studies == config["studies"]
    expected = set()
    for name in config["studies"]:
        study = load_study(study_path(REPO, name), profile)
        expected |= {Path(f).relative_to("results").as_posix()
                     for f in estimates_of(study, list(study.scenarios.values()))}
    assert set(ref.estimates) == expected
    assert {row["study"] for row in ref.rows} == set(config["studies"])


def test_zenodo_metadata_agrees_with_the_citation_file():
    """.zenodo.json (what Zenodo reads when a GitHub release is archived) is valid JSON of
    Zenodo's deposit keys and says what CITATION.cff says."""
    zenodo = json.loads((REPO / ".zenodo.json").read_text())
    cff = yaml.safe_load((REPO / "CITATION.cff").read_text())
    assert set(zenodo) <= {"title", "description", "upload_type", "creators", "license",
                           "version", "keywords", "related_identifiers"}
    assert zenodo["upload_type"] == "software"
    assert zenodo["title"] == cff["title"]
    assert [c["name"] for c in zenodo["creators"]] == [a["name"] for a in cff["authors"]]
    assert zenodo["license"] == cff["license"]
    assert zenodo["version"] == cff["version"]
    assert zenodo["keywords"] == cff["keywords"]
    assert zenodo["description"] == " ".join(cff["abstract"].split())


# --- on the shared smoke run -------------------------------------------------------------

def _compare(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(VENV_BIN / "python"), "-m", "imlbench", "--root", str(root),
                           "compare", *args], env=environment(), capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def smoke_reference(tmp_path_factory, workdir, smoke_run) -> Path:
    """The reference written from the shared smoke run (outside it)."""
    path = tmp_path_factory.mktemp("reference") / "smoke.json"
    res = _compare(workdir, "--write-reference", str(path))
    assert res.returncode == 0, res.stdout + res.stderr
    return path


def _copy_run(workdir: Path, dst: Path) -> Path:
    """A copy of the shared run's project and results (modification times kept, so that
    Snakemake reruns only what a test edits), without the run's drawings (its figures, site
    and report: large, and read by no test here)."""
    shutil.copytree(workdir, dst, symlinks=True, ignore=_drawings)
    return dst


def _drawings(directory: str, names: list[str]) -> set[str]:
    """The names under ``results/`` that hold the run's drawings (not the code's
    ``imlbench/figures`` package), and any report."""
    drawn = {"site", "figures"} if "results" in Path(directory).parts else set()
    return {n for n in names if n in drawn or n == "report.html"}


@pytest.mark.workflow
@pytest.mark.e2e
def test_the_smoke_run_equals_its_own_reference(workdir, smoke_reference):
    res = _compare(workdir, "--reference", str(smoke_reference))
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("no difference beyond floating point")
    ref = read_digest(smoke_reference)
    run = json.loads((workdir / "results" / "run.json").read_text())
    assert (ref.profile, ref.studies) == ("smoke", run["studies"])
    card = workdir / "results" / run["studies"][0] / "scorecard.parquet"
    assert ref.base_seed == read_provenance(card)["seed"][0]
    assert len(ref.rows) == sum(len(read_parquet(workdir / "results" / s / "scorecard.parquet"))
                                for s in run["studies"])
    assert ref.estimates and all(ref.estimates.values())


@pytest.mark.workflow
@pytest.mark.e2e
def test_an_altered_estimate_file_is_named(tmp_path, workdir, smoke_reference):
    copy = _copy_run(workdir, tmp_path / "copy")
    ref = read_digest(smoke_reference)
    rel = next(p for p, d in ref.estimates.items()
               if isinstance(d["columns"].get("value"), list) and d["columns"]["value"][3])
    path = copy / "results" / rel
    df = read_parquet(path)
    i = np.isfinite(df["value"]).idxmax()
    df.loc[i, "value"] += 1e-6 * (1 + abs(df.loc[i, "value"]))  # one value moved by 1e-6
    prov = read_provenance(path)
    write_parquet(df, path, config_hash=prov["config_hash"], seed=prov["seed"])
    res = _compare(copy, "--reference", str(smoke_reference))
    assert res.returncode == 1, res.stdout + res.stderr
    assert f"estimate files that differ (1):\n  {rel}: value: sum " in res.stdout
    assert "rows that moved" not in res.stdout


@pytest.mark.workflow
@pytest.mark.e2e
def test_a_changed_repetition_count_names_the_rows_that_moved(tmp_path, workdir,
                                                             smoke_reference):
    """stratpd's `quadratic` family (Fig 4) runs one repetition fewer in a copy of the run,
    rerun with the README's command: exactly its estimate files and its claims' rows (those
    with data) move; every other row and file stays, also those of the scenarios that share
    its run job (rerun: the values are seeded)."""
    copy = _copy_run(workdir, tmp_path / "copy")
    study_file = copy / "config" / "studies" / "stratpd.yaml"
    doc = yaml.safe_load(study_file.read_text())
    reps = doc["scenarios"]["quadratic"]["reps"]
    assert reps["smoke"] > 2, "the changed run must keep 2 repetitions, which an SE needs"
    reps["smoke"] -= 1
    study_file.write_text(yaml.safe_dump(doc, sort_keys=False))
    res = snakemake(copy, "--cores", "2", "--config", "profile=smoke", timeout=1200)
    assert res.returncode == 0, f"{tail(res)}\n{error_logs(copy)}"
    family = {sc.name for sc in load_study(study_path(copy, "stratpd"), "smoke")
              .scenarios.values() if sc.family == "quadratic"}
    ref = read_digest(smoke_reference)
    with_data = {row_key(r) for r in ref.rows if r["study"] == "stratpd"
                 and r["scenario"] in family and r["reproduced"]}
    assert with_data, "no claim reads the quadratic scenarios in the smoke profile"
    diff = compare_digests(ref, digest_run(copy))
    assert {row_key(m.old) for m in diff.moved} == with_data
    assert set(diff.files_changed) == {p for p in ref.estimates if p.split("/")[2] in family}
    assert not (diff.rows_missing or diff.rows_extra or diff.files_missing or diff.files_extra)
    res = _compare(copy, "--reference", str(smoke_reference))
    assert res.returncode == 1, res.stdout + res.stderr
    for key in with_data:
        assert f"  stratpd/{key[1]} ({key[2]}, {key[3]}, {key[4]}" in res.stdout


@pytest.mark.workflow
@pytest.mark.e2e
def test_the_smoke_run_equals_the_committed_reference(workdir, smoke_run):
    """CI's check: the shared smoke run against ``reference/smoke.json`` as committed (a
    change that moves a value updates it in the same commit, saying why)."""
    committed = reference_path(REPO, "smoke")
    if not committed.is_file():
        pytest.skip(f"{committed} is not committed yet: write it from a smoke run with "
                    "`python -m imlbench compare --write-reference`")
    res = _compare(workdir, "--reference", str(committed))
    assert res.returncode == 0, res.stdout + res.stderr
