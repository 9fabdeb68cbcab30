"""Every declared parameter of every registered entry has broken cases generated from its
declaration (``tests/broken_params.py``), and each stops the check before any job with the
file, the key and the allowed values; a method whose estimates are all NaN fails its job, and a
claim computed from NaN says no data.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from broken_params import (
    ParamCase,
    check_document,
    documents,
    entries,
    generated_cases,
    hosts,
    message,
    message_holds,
    parameters,
    registries,
)

from imlbench.cli import main as cli_main
from imlbench.explain.frames import check_estimates
from imlbench.metrics.claims import NO_DATA, Check, claim_row

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cases() -> list[ParamCase]:
    return generated_cases()


def test_every_registered_parameter_has_a_case(cases):
    covered = {(c.registry, c.entry, c.param) for c in cases}
    declared = parameters()
    missing = [p for p in declared if p not in covered]
    assert len(declared) > 900, len(declared)  # the registries are read, not an empty list
    assert not missing, f"{len(missing)} of {len(declared)} parameters have no case: {missing}"


def test_every_registered_entry_has_a_host():
    found = hosts()
    unhosted = [(kind, entry) for kind in registries()
                for entry in entries(kind) if (kind, entry) not in found]
    assert not unhosted, f"no study file (or probe) uses: {unhosted}"


def test_the_hosts_pass_the_check():
    """The host studies (with their probe entries) are valid: each case breaks one value."""
    for study, (doc, _) in documents().items():
        check_document(study, doc)


def _failures(chosen: list[ParamCase]) -> list[str]:
    out = []
    for case in chosen:
        msg = message(case)
        if not message_holds(case, msg):
            out.append(f"{case.name}: {case.key} {case.fragments} -> {msg or 'PASSED'}")
    return out


def _degenerate(case: ParamCase) -> bool:
    return any(w in case.what for w in ("degenerate", "cycle")) or case.param in (
        "kernel_width", "widths")


def test_degenerate_values_stop_the_check(cases):
    """A zero width, a repeated sweep value, a cycle where a graph is asked for: refused."""
    chosen = [c for c in cases if _degenerate(c)]
    assert len(chosen) >= 40, len(chosen)
    assert not _failures(chosen)


@pytest.mark.slow
def test_every_generated_case_stops_the_check(cases):
    failures = _failures(cases)
    assert not failures, f"{len(failures)} of {len(cases)}:\n" + "\n".join(failures)


def test_a_zero_lime_kernel_width_stops_imlbench_check(tmp_path, capsys, monkeypatch):
    """The reviewer's case through ``imlbench check`` on a copy of the project: status 2, one
    line with the file, the key and the allowed values."""
    monkeypatch.setattr(os, "environ", dict(os.environ))
    shutil.copytree(REPO / "config", tmp_path / "config")
    shutil.copytree(REPO / "workflow" / "schemas", tmp_path / "workflow" / "schemas")
    path = tmp_path / "config" / "studies" / "book_lime" / "20_ch13.yaml"
    doc = yaml.safe_load(path.read_text())
    name = next(m for m, spec in doc["methods"].items() if spec["method"] == "lime")
    doc["methods"][name].setdefault("params", {})["kernel_width"] = 0
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    assert cli_main(["--root", str(tmp_path), "check"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith(f"imlbench: configuration error: {path}: "), err
    assert f"key methods.{name}.params.kernel_width: 0 is not allowed" in err, err
    assert "allowed: a number > 0 or null or a list of items without repeats" in err, err


# --- NaN estimates and claims --------------------------------------------------------------


def test_all_nan_estimates_fail_the_job():
    frame = pd.DataFrame({"feature": ["x1", "x2"], "row": [0, 0], "value": [np.nan, np.nan]})
    with pytest.raises(ValueError, match=r"method lime_w \(lime\) with parameters "
                                         r"\{'kernel_width': 0\}: every estimate \(value\) is "
                                         r"NaN, in 2 rows"):
        check_estimates("local", frame, "method lime_w (lime) with parameters "
                                        "{'kernel_width': 0}")


@pytest.mark.parametrize("kind, frame", [
    ("local", pd.DataFrame({"feature": ["x1", "x2"], "row": [0, 0], "value": [np.nan, 1.0]})),
    ("effect", pd.DataFrame({"feature": ["x1"], "x": [np.nan], "value": [0.5]})),  # x: a place
    ("local", pd.DataFrame({"feature": [], "row": [], "value": []})),  # no rows: nothing NaN
    ("other", pd.DataFrame({"note": ["free form"]})),  # no estimate column
])
def test_estimates_with_a_number_pass(kind, frame):
    check_estimates(kind, frame, "method m")


CLAIM = {"id": "c", "text": "t", "published": "p", "where": {"scenario": "s"}}


def test_a_claim_computed_from_nan_has_no_data():
    row = claim_row(CLAIM, "rf", "lime", "share of NaN", "t(2)",
                    Check(np.array([np.nan, np.nan]), np.array([0.1, 0.1]), "above", 0.5))
    assert row["verdict"] == NO_DATA
    assert "statistic is NaN" in row["reason"] and "share of NaN" in row["reason"]


def test_a_claim_with_some_numbers_keeps_its_verdict():
    """One NaN part of several: the check cannot pass, so it is inconclusive, as before."""
    row = claim_row(CLAIM, "rf", "lime", "r", "t",
                    Check(np.array([np.nan, 1.0]), np.array([0.1, 0.1]), "above", 0.5))
    assert row["verdict"] == "inconclusive"
