"""Chapter 8 and the real data of chapter 9 of the book (Boston forest PFI, the illustration
tables, the shuffled bike days, Boston with copies of lstat): the illustration method, the claim
kinds on a case that holds and one that fails, and the figures on synthetic inputs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from figure_inputs import WrittenInputs

import imlbench.studies.book_importance  # noqa: F401  (registers the method, kinds, figures)
from imlbench.config import load_study, study_path
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.figures.table import SOURCES
from imlbench.metrics.claims import (
    CLAIMS,
    NO_DATA,
    NOT_REPRODUCED,
    REPRODUCED,
    Tables,
)
from imlbench.params import check_all, with_defaults
from imlbench.studies.book_importance.ch8_boston import conflicts, expected_conflicts

NOISE = np.array([0.0, 0.05, -0.05, 0.02, -0.02, 0.04, -0.04, 0.01])


def _ranked(values: dict[str, np.ndarray], scenario: str = "s", method: str = "m"
            ) -> pd.DataFrame:
    return pd.DataFrame([{"scenario": scenario, "learner": "rf", "method": method, "rep": r,
                          "feature": f, "value": float(v)}
                         for f, vs in values.items() for r, v in enumerate(vs)])


def _row(kind: str, ranked: pd.DataFrame = None, other: pd.DataFrame = None,
         **params) -> dict:
    spec = CLAIMS.get(kind)
    claim = {"id": "c", "kind": kind, "text": "", "published": "",
             "where": {"scenario": "s", "learner": "rf", "method": "m"}, **params}
    claim = {**{k: p.default for k, p in spec.params.items()}, **claim}
    empty = pd.DataFrame()
    (row,) = spec(claim, Tables(ranked=empty if ranked is None else ranked, truth={},
                                other=empty if other is None else other))
    return row


def _contrast(statistic: str, other: pd.DataFrame, **params) -> dict:
    """The row of a ``contrast`` claim on the study's ``statistic`` (rows in ``other``)."""
    return _row("contrast", other=other, statistic=f"book_importance.{statistic}", **params)


class _Model:
    """f(x) = 2 x0 + x1: predictions that depend on the columns."""

    def predict(self, X: np.ndarray) -> np.ndarray:
        return 2 * X[:, 0] + X[:, 1]


def _context(n: int = 40) -> ExplainContext:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 3))
    y = 2 * X[:, 0] + X[:, 1]

    def fit(Xf: np.ndarray, yf: np.ndarray):
        beta = np.linalg.lstsq(Xf, yf, rcond=None)[0]
        return lambda Xn: Xn @ beta

    return ExplainContext(model=_Model(), X=X, y=y, feature_names=["a", "b", "c"], dgp=None,
                          fit=fit, fixed_rng=lambda _: rng)


def test_illustration_rows_permute_keep_the_values_and_drop_refits():
    ctx = _context()
    spec = METHODS.get("book_importance.illustration_rows")
    out = spec(ctx, {"permute": ["a"], "drop": ["a"], "shuffles": 3},
               np.random.default_rng(1))
    original = out[out["table"] == "original"].pivot(index="row", columns="column",
                                                     values="value")
    assert list(original.columns) == sorted(["a", "b", "c", "y", "prediction"])
    np.testing.assert_allclose(original["prediction"], 2 * ctx.X[:, 0] + ctx.X[:, 1])
    perm = out[(out["table"] == "permuted") & (out["column"] == "a")]
    assert sorted(perm["shuffle"].unique()) == [0, 1, 2]
    for _, s in perm.groupby("shuffle"):
        np.testing.assert_allclose(np.sort(s["value"]), np.sort(ctx.X[:, 0]))
        assert not np.allclose(s["value"].to_numpy(), ctx.X[:, 0])
    pred = out[(out["table"] == "permuted") & (out["column"] == "prediction")
               & (out["shuffle"] == 0)]["value"].to_numpy()
    shuffled = perm[perm["shuffle"] == 0]["value"].to_numpy()
    np.testing.assert_allclose(pred, 2 * shuffled + ctx.X[:, 1])
    # without a, the least-squares refit on b and c predicts y through b alone (a is
    # independent of them): its predictions are about b, far from y
    dropped = out[out["table"] == "dropped"]["value"].to_numpy()
    assert np.corrcoef(dropped, ctx.X[:, 1])[0, 1] > 0.9


def test_importance_contrast_within_and_across_scenarios():
    here = _ranked({"lstat": 3.3 + NOISE, "rm": 2.8 - NOISE})
    there = _ranked({"lstat": 4.3 + NOISE}, scenario="orig")
    both = pd.concat([here, there], ignore_index=True)
    lower = _row("importance_contrast", both, features=["lstat"], than_scenario="orig", value=0.0,
                 compare="below")
    assert lower["verdict"] == REPRODUCED and "independent reps" in lower["reproduced"]
    higher = _row("importance_contrast", both, features=["lstat"], than_scenario="orig", value=0.0,
                  compare="above")
    assert higher["verdict"] == NOT_REPRODUCED
    # paired within the scenario: 0.5 + 2 NOISE (SE 0.025, t' about 5.4 at 7 df) is not 0
    paired = _row("importance_contrast", both, features=["lstat"], than_features=["rm"], value=0.0,
                  compare="equal")
    assert paired["verdict"] == NOT_REPRODUCED
    # the importance itself against a value: 3.3 is 3.3, not 1
    assert _row("importance_contrast", both, features=["lstat"], value=3.3,
                compare="equal")["verdict"] == REPRODUCED
    assert _row("importance_contrast", both, features=["lstat"], value=1.0,
                compare="equal")["verdict"] == NOT_REPRODUCED
    gone = _row("importance_contrast", here, features=["lstat"], than_scenario="orig", value=0.0)
    assert gone["verdict"] == NO_DATA and "no importances of orig" in gone["reason"]


def _assoc(r: dict[str, float], reps: int = 5) -> pd.DataFrame:
    rows = [{"scenario": "s", "learner": "rf", "method": "m", "rep": k,
             "metric": f"pearson:{pair}", "value": v + 0.002 * (k - 2)}
            for k in range(reps) for pair, v in r.items()]
    return pd.DataFrame(rows)


def test_association_bound_reads_the_pairs_in_either_order():
    strong = _assoc({"lstat:rm": -0.61, "age:lstat": 0.6, "crim:rm": 0.1})
    row = _contrast("association_bound", strong, feature="lstat", others=["rm", "age"],
                    stat="min", value=0.5, compare="above")
    assert row["verdict"] == REPRODUCED
    weak = _assoc({"lstat:rm": -0.61, "crim:lstat": 0.456})
    assert _contrast("association_bound", weak, feature="lstat", others=["rm", "crim"],
                     stat="min", value=0.5, compare="above")["verdict"] == NOT_REPRODUCED
    assert _contrast("association_bound", weak, feature="lstat", others=["rm", "crim"],
                     stat="max", value=0.5, compare="above")["verdict"] == REPRODUCED
    missing = _contrast("association_bound", weak, feature="lstat", others=["dis"],
                        stat="min", value=0.5, compare="above")
    assert missing["verdict"] == NO_DATA and "dis" in missing["reason"]


def test_the_expected_share_of_conflicts_matches_a_brute_force_average():
    # 14 days: two weeks, Monday of the first week a holiday
    weekday = np.array([6, 0, 1, 2, 3, 4, 5] * 2, float)
    holiday = np.zeros(14)
    holiday[2] = 1
    work = (~np.isin(weekday, [0, 6]) & (holiday == 0)).astype(float)
    assert not conflicts(weekday, work, holiday, [0, 6]).any()
    rng = np.random.default_rng(3)
    shares = [conflicts(rng.permutation(weekday), work, holiday, [0, 6]).mean()
              for _ in range(20000)]
    expected = expected_conflicts(weekday, work, holiday, [0, 6])
    # 9 working days conflict with prob 4/14 (a weekend value), 4 weekend days with 10/14,
    # the holiday never: (9 * 4 + 4 * 10) / 14 / 14
    assert expected == pytest.approx((9 * 4 + 4 * 10) / 14**2)
    # Monte Carlo SE of the mean over 20,000 shuffles: sd (about 0.12) / sqrt(20000) < 0.001
    assert np.mean(shares) == pytest.approx(expected, abs=0.004)


def _rows_table(weekdays: list[np.ndarray], work: np.ndarray, holiday: np.ndarray,
                weekday: np.ndarray) -> pd.DataFrame:
    n = len(work)
    frames = [pd.DataFrame({"table": "original", "feature": "", "shuffle": 0,
                            "row": np.tile(np.arange(n), 4),
                            "column": np.repeat(["weekday", "work", "holiday", "y"], n),
                            "value": np.concatenate([weekday, work, holiday, np.ones(n)])})]
    for s, w in enumerate(weekdays):
        frames.append(pd.DataFrame({"table": "permuted", "feature": "weekday", "shuffle": s,
                                    "row": np.arange(n), "column": "weekday", "value": w}))
    out = pd.concat(frames, ignore_index=True)
    return out.assign(scenario="s", learner="rf", method="m", rep=0)


def test_shuffle_conflicts_and_permuted_marginal():
    weekday = np.array([6, 0, 1, 2, 3, 4, 5] * 2, float)
    holiday = np.zeros(14)
    work = (~np.isin(weekday, [0, 6])).astype(float)
    rng = np.random.default_rng(0)
    shuffled = _rows_table([rng.permutation(weekday) for _ in range(50)], work, holiday,
                           weekday)
    above = _contrast("shuffle_conflicts", shuffled, value=0.0, compare="above")
    assert above["verdict"] == REPRODUCED and "original data 0.000" in above["reproduced"]
    assert _contrast("shuffle_conflicts", shuffled, minus_expected=True,
                     compare="equal")["verdict"] == REPRODUCED
    # the share is near its expectation (about 0.4), far from 0
    assert _contrast("shuffle_conflicts", shuffled, compare="equal")["verdict"] == \
        NOT_REPRODUCED
    # shuffles that keep every weekday in place conflict nowhere: not above 0
    kept = _rows_table([weekday, weekday], work, holiday, weekday)
    assert _contrast("shuffle_conflicts", kept, value=0.0,
                     compare="above")["verdict"] != REPRODUCED
    assert _row("book_importance.permuted_marginal", other=shuffled,
                feature="weekday")["verdict"] == REPRODUCED
    altered = _rows_table([np.full(14, 3.0)], work, holiday, weekday)
    assert _row("book_importance.permuted_marginal", other=altered,
                feature="weekday")["verdict"] == NOT_REPRODUCED


#: the study's figure entries (the layer's drawers draw most of them from their YAML alone)
ENTRIES = load_study(study_path(Path(__file__).parents[3], "book_importance"), "smoke").figures


class Written(WrittenInputs):
    def draw(self, name: str, params: dict, scenarios: list[str]) -> Path:
        spec = FIGURES.get(name if name in FIGURES else f"book_importance.{name}")
        assert set(self.methods) == set(spec.methods), "the test fills every declared role"
        check_all(spec.params, params, owner=name)
        inputs = FigureInputs(self.paths, self.methods, scenarios)
        png, pdf = self.root / f"{name}.png", self.root / f"{name}.pdf"
        spec(inputs, {"title": name, "caption": "test", "params": params}, png, pdf)
        return png


def test_illustration_table_figure_draws_the_intact_and_the_changed_tables(tmp_path):
    ctx = _context()
    rows = METHODS.get("book_importance.illustration_rows")(
        ctx, {"permute": ["a", "b"], "drop": ["a"]}, np.random.default_rng(1))
    d = Written(tmp_path)
    d.table("s", "rf", "rows_m", "table", rows.assign(rep=0))
    source = {"source": "book_importance.illustration"}
    assert d.draw("table", {**source, "source_params": {"kind": "permute",
                                                        "columns": ["a", "b", "c"]}},
                  ["s"]).exists()
    assert d.draw("table", {**source, "source_params": {
        "kind": "drop", "columns": ["a", "b", "c"], "dates": "2011-01-01",
        "names": {"y": "cnt"}}}, ["s"]).exists()


def test_illustration_panels_shade_the_permuted_column_and_flag_impossible_days():
    """The intact table, then one per permuted column (shaded, its first shuffle); a day whose
    weekday contradicts its working-day flag is flagged."""
    est = pd.DataFrame(
        [{"table": "original", "feature": "", "shuffle": 0, "row": r, "column": c, "value": v}
         for r, day in enumerate([(0, 0, 0), (6, 1, 0), (3, 1, 0)])
         for c, v in zip(("weekday", "work", "holiday"), day, strict=True)]
        + [{"table": "original", "feature": "", "shuffle": 0, "row": r, "column": "y",
            "value": 1.0} for r in range(3)]
        + [{"table": "permuted", "feature": "weekday", "shuffle": 0, "row": r,
            "column": "weekday", "value": v} for r, v in enumerate([3, 2, 0])]).assign(rep=0)
    source = SOURCES.get("book_importance.illustration")
    panels = source.make(est, **with_defaults(source.params, {
        "columns": ["weekday", "work", "holiday"],
        "conflicts": {"feature": "weekday", "flag": "work", "holiday": "holiday"}}))
    assert [p.title for p in panels] == ["intact data", "weekday permuted over all 3 rows"]
    assert panels[0].flagged == (False, True, False)
    assert panels[1].flagged == (True, False, True)
    assert panels[1].shaded == ("weekday",) and panels[0].shaded == ()
    assert list(panels[1].cells["weekday"]) == ["3", "2", "0"]


def test_importance_figures_draw_on_synthetic_inputs(tmp_path):
    d = Written(tmp_path)
    pfi = _ranked({"lstat": 4.0 + NOISE, "rm": 3.5 - NOISE, "black": 1.2 + NOISE})
    pfi = pfi.drop(columns=["scenario", "learner", "method"]).assign(
        lower=lambda x: x["value"] - 0.1, upper=lambda x: x["value"] + 0.1, lower_q=0.05,
        upper_q=0.95, n_repeats=5)
    d.table("s", "rf", "pfi_m", "importance", pfi)
    assert d.draw("importance_dots", ENTRIES["fig_8_2"]["params"], ["s"]).exists()

    d = Written(tmp_path / "variants")
    for sc, shift in (("orig", 0.0), ("dup", -1.5)):
        values = {"lstat": 4.0 + shift + NOISE, "rm": 3.0 + NOISE}
        if sc == "dup":
            values["lstat_dup"] = 2.5 + NOISE
        d.table(sc, "rf", "loco_m", "importance",
                _ranked(values).drop(columns=["scenario", "learner", "method"]))
    assert d.draw("importance_dots", ENTRIES["fig_9_25"]["params"], ["orig", "dup"]).exists()

    d = Written(tmp_path / "benchmark")
    for learner, mse in (("rf", 11.0), ("lm", 27.0)):
        fit = pd.DataFrame({"rep": range(8), "metric": "mse_test", "value": mse + NOISE})
        d.table("orig", learner, "fit_m", "fit", fit)
    for sc, pairs in (("orig", {"rm:lstat": -0.61, "rm:crim": -0.2, "crim:lstat": 0.46}),
                      ("dup", {"lstat:lstat_dup": 1.0, "rm:lstat_dup": -0.61,
                               "rm:lstat": -0.61})):
        assoc = _assoc(pairs).drop(columns=["scenario", "learner", "method"])
        d.table(sc, "rf", "assoc_m", "association", assoc)
    assert d.draw("boston_benchmark", {"names": {"rf": "random forest"}},
                  ["orig", "dup"]).exists()
