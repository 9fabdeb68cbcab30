"""The application of the PD/PFI-and-DGP study (Molnar et al. 2023, Sect. 9): the application's
DGP (its wine reader is the data layer's, tested in tests/test_data_files.py), the corrected
resampled t-test, the model-level Monte Carlo intervals, the two methods on a small table and
the claim kinds."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import t as student_t
from sklearn.linear_model import LinearRegression

from imlbench.data.wine import WINE_COLUMNS
from imlbench.dgp.base import make_dgp
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.metrics.claims import CLAIMS, Tables
from imlbench.seeds import rng_for
from imlbench.stats import t_multiplier
from imlbench.studies.pd_pfi_dgp.methods_application import (
    corrected_t_interval,
    mc_interval,
    per_row_pfi,
)

#: the header line (quoted names, ';'-separated) and the first rows of winequality-red.csv
WINE_HEADER = ";".join(f'"{c}"' for c in [*WINE_COLUMNS, "quality"])
WINE_HEAD = WINE_HEADER + """
7.4;0.7;0;1.9;0.076;11;34;0.9978;3.51;0.56;9.4;5
7.8;0.88;0;2.6;0.098;25;67;0.9968;3.2;0.68;9.8;5
7.8;0.76;0.04;2.3;0.092;15;54;0.997;3.26;0.65;9.8;5
11.2;0.28;0.56;1.9;0.075;17;60;0.998;3.16;0.58;9.8;6
"""


# ---------------------------------------------------------------- data and DGP


def test_wine_source_reads_the_semicolon_file(tmp_path):
    path = tmp_path / "winequality-red.csv"
    path.write_text(WINE_HEAD)
    assert WINE_HEADER.startswith('"fixed acidity";"volatile acidity";"citric acid";')
    dgp = make_dgp("pd_pfi_dgp.application", {"source": "wine", "path": str(path)})
    assert dgp.dominant == "alcohol"
    assert dgp.feature_names == list(WINE_COLUMNS.values())
    df = dgp.sample(None, np.random.default_rng(0))
    assert len(df) == 4 and df["y"].tolist() == [5.0, 5.0, 5.0, 6.0]
    comma = tmp_path / "comma.csv"
    comma.write_text(WINE_HEAD.replace(";", ","))
    with pytest.raises(ValueError, match="';'-separated"):
        make_dgp("pd_pfi_dgp.application", {"source": "wine", "path": str(comma)}).data  # noqa: B018


@pytest.mark.parametrize("params, message", [
    ({"source": "red"}, "source: 'red' is not allowed; allowed: saratoga, wine or null"),
    ({"source": "wine"}, "needs path"),
    ({"source": "saratoga", "path": "x.csv"}, "only read with source='wine'"),
])
def test_bad_application_params(params, message):
    with pytest.raises(ValueError, match=message):
        make_dgp("pd_pfi_dgp.application", params)


def test_offline_substitute_table():
    dgp = make_dgp("pd_pfi_dgp.application", {})
    df = dgp.sample(None, np.random.default_rng(0))
    assert df.shape == (1728, 10) and dgp.dominant == "livingArea"
    assert np.isfinite(df.to_numpy()).all() and 10 < df["y"].mean() < 14  # log dollars


# ---------------------------------------------------------------- statistics


def test_corrected_t_interval_by_hand():
    d = np.array([-0.10, -0.06, -0.09, -0.07, -0.08])
    c = 0.368 / 0.632
    mean, se, lo, hi = corrected_t_interval(d, c)
    # by hand: mean -0.08, s^2 = sum of squared deviations / 4 = 0.001 / 4 = 0.00025
    s2 = (0.02**2 + 0.02**2 + 0.01**2 + 0.01**2 + 0.0) / 4
    assert mean == pytest.approx(-0.08)
    assert se == pytest.approx(np.sqrt((1 / 5 + c) * s2))
    half = 2.7764451051977987 * np.sqrt((1 / 5 + c) * s2)  # t_{0.975, 4}
    assert (lo, hi) == pytest.approx((-0.08 - half, -0.08 + half))


def test_model_pd_interval_is_the_t_interval_of_the_ice_values():
    r = np.random.default_rng(0)
    X = r.normal(size=(50, 2))
    model = LinearRegression().fit(X, X[:, 0] ** 2 + X[:, 1])
    grid = np.array([-1.0, 0.0, 1.0])
    dgp = make_dgp("pd_pfi_dgp.application", {})
    ctx = ExplainContext(model=model, X=X[:30], y=np.zeros(30), feature_names=["a", "b"],
                         dgp=dgp, fit=lambda X_, y_: model.predict, fixed_rng=rng_for,
                         X_test=X[30:], y_test=r.normal(size=20))
    out = METHODS.get("pd_pfi_dgp.model")(
        ctx, {"features": ["a"], "grid": {"kind": "values", "values": grid.tolist()}},
        np.random.default_rng(1))
    pdp = out[out["quantity"] == "pd"]
    # direct: ICE values of grid point g are the predictions of every test row with a = g
    for g, row in zip(grid, pdp.itertuples(), strict=True):
        Z = X[30:].copy()
        Z[:, 0] = g
        v = model.predict(Z)
        half = student_t.ppf(0.975, 19) * v.std(ddof=1) / np.sqrt(20)
        assert row.value == pytest.approx(v.mean())
        assert (row.lower, row.upper) == pytest.approx((v.mean() - half, v.mean() + half))
    assert set(out["source"]) == {"saratoga"} and set(out["n_test"]) == {20}


def test_per_row_pfi_averages_to_the_permutation_importance():
    """The mean of the per-row values is the PFI; for y = 2 x + 0 noise and the true model its
    expectation is 4 * 2 Var(x) = 8 (Var 1); with 2000 rows and 5 permutations the MC SE is
    about 0.2, so 8 +- 1 is a 5-SE check, and the reported SE is near the spread / sqrt(n)."""
    r = np.random.default_rng(3)
    X = r.normal(size=(2000, 1))
    y = 2 * X[:, 0]
    vals = per_row_pfi(lambda Z: 2 * Z[:, 0], X, y, 0, 5, r)
    mean, se, lo, hi = mc_interval(vals[:, None])
    assert abs(mean[0] - 8.0) < 1.0 and lo[0] < mean[0] < hi[0]
    assert se[0] == pytest.approx(vals.std(ddof=1) / np.sqrt(2000))


# ---------------------------------------------------------------- methods on a tiny table


def _ctx(fit, n=120, seed=0):
    r = np.random.default_rng(seed)
    X = r.uniform(size=(n, 3))
    y = 3 * X[:, 0] + 0.5 * X[:, 1] + r.normal(scale=0.3, size=n)
    ntr = int(0.632 * n)
    predict = fit(X[:ntr], y[:ntr])

    class Model:
        def predict(self, Z):
            return predict(Z)

    return ExplainContext(model=Model(), X=X[:ntr], y=y[:ntr], feature_names=["a", "b", "c"],
                          dgp=make_dgp("pd_pfi_dgp.application", {}), fit=fit,
                          fixed_rng=lambda label: rng_for(1, label), X_test=X[ntr:],
                          y_test=y[ntr:], sampler_rng=lambda key: rng_for(2, key))


def _lm(X, y):
    return LinearRegression().fit(X, y).predict


def _mean(X, y):
    mu = float(np.mean(y))
    return lambda Z: np.full(len(Z), mu)


def test_resampled_method_on_a_tiny_table():
    params = {"features": ["a"], "m": 6, "grid": {"kind": "equidistant", "size": 5},
              "n_permutations": 2}
    out = METHODS.get("pd_pfi_dgp.resampled")(_ctx(_lm), params, np.random.default_rng(0))
    mse = out[out["quantity"] == "mse"]
    assert len(mse) == 6 and (mse["n_test"] > 20).all()  # about 0.368 * 120 out-of-bag rows
    pfi = out[out["quantity"] == "pfi"].set_index("feature")
    assert pfi["value"].idxmax() == "a" and (pfi["lower"] < pfi["value"]).all()
    # the corrected interval is wider than the naive one: (1/m + c) > 1/m
    assert ((pfi["upper"] - pfi["lower"]) > (pfi["upper_naive"] - pfi["lower_naive"])).all()
    pdp = out[out["quantity"] == "pd"]
    assert len(pdp) == 5 and pdp["x"].is_monotonic_increasing
    assert np.all(np.diff(pdp["value"]) > 0)  # the linear model's slope on a is near 3
    refit = out[out["quantity"] == "pfi_refit"]
    assert len(refit) == 6 * 3
    assert refit.groupby("feature")["value"].mean()["a"] == pytest.approx(pfi.loc["a", "value"])
    # the splits do not depend on the learner: the mean model sees the same out-of-bag rows
    other = METHODS.get("pd_pfi_dgp.resampled")(_ctx(_mean), params, np.random.default_rng(5))
    assert other.loc[other["quantity"] == "mse", "n_test"].tolist() == mse["n_test"].tolist()
    assert (mse["value"].to_numpy() < other.loc[other["quantity"] == "mse",
                                                "value"].to_numpy()).all()


def test_model_method_uses_the_test_rows():
    out = METHODS.get("pd_pfi_dgp.model")(_ctx(_lm), {"features": ["a"]},
                                         np.random.default_rng(0))
    pdp = out[out["quantity"] == "pd"]
    assert len(pdp) == 20 and set(out["n_test"]) == {120 - int(0.632 * 120)}
    pfi = out[out["quantity"] == "pfi"].set_index("feature")
    assert pfi["value"].idxmax() == "a" and pfi.loc["a", "lower"] > 0


# ---------------------------------------------------------------- claim kinds


def _tables(frames):
    other = pd.concat(frames, ignore_index=True)
    return Tables(ranked=pd.DataFrame(), truth={}, other=other)


def _mse_rows(learner, values, source="saratoga"):
    return pd.DataFrame({"scenario": "s", "learner": learner, "method": "r", "rep": 0,
                         "quantity": "mse", "split": np.arange(len(values)), "value": values,
                         "source": source, "c": 0.368 / 0.632, "alpha": 0.05})


#: the normal quantile at 0.975: the kit's t(k) is then t_{0.975, m-1}, the corrected test's
K95 = 1.959963984540054
BEST = {"id": "c", "kind": "contrast", "text": "t", "published": "p", "source": "derived",
        "statistic": "pd_pfi_dgp.oob_mse", "corrected": True, "test": "paired",
        "than": {"learner": "rf"}, "compare": "above", "k": K95,
        "where": {"scenario": "s", "learner": "lm", "method": "r"}}


def test_the_forest_is_best_by_the_corrected_t_test():
    """lm - rf per shared split, 0.08 on average, s^2 = 0.00025: the corrected interval 0.08
    +- t_4 sqrt((1/5 + c) s^2) lies above 0, and the row states the corrected SE."""
    rf = np.array([0.30, 0.33, 0.35, 0.32, 0.34])
    lm = rf + np.array([0.10, 0.06, 0.09, 0.07, 0.08])
    [row] = CLAIMS.get("contrast")(BEST, _tables([_mse_rows("rf", rf), _mse_rows("lm", lm)]))
    assert row["verdict"] == "reproduced" and "paired difference 0.08" in row["reproduced"]
    c = 0.368 / 0.632
    half = student_t.ppf(0.975, 4) * np.sqrt((1 / 5 + c) * 0.00025)
    assert row["detectable"] == pytest.approx(2 * half)


def test_the_wine_interval_claim_checks_midpoint_and_half_width():
    """No data on the substitute table; on the wine file both parts of the published
    interval are checked."""
    rf = np.array([0.30, 0.33, 0.35, 0.32, 0.34])
    lm = rf + np.array([0.10, 0.06, 0.09, 0.07, 0.08])
    wine = {"id": "c", "text": "t", "published": "p", "best": "rf", "needs": "wine",
            "intervals": {"lm": [-0.098, -0.062]},
            "where": {"scenario": "s", "learner": ["rf", "lm"], "method": "r"}}
    kind = CLAIMS.get("pd_pfi_dgp.mse_difference")
    rows = kind(wine, _tables([_mse_rows("rf", rf), _mse_rows("lm", lm)]))
    assert rows[0]["verdict"] == "no data" and "not checkable" in rows[0]["reproduced"]
    rows = kind(wine, _tables([_mse_rows("rf", rf, "wine"), _mse_rows("lm", lm, "wine")]))
    assert rows[0]["claim"] == "c" and rows[0]["verdict"] in ("reproduced", "not reproduced")
    assert "half-width" in rows[0]["tolerance"] and "prediction interval" in rows[0]["tolerance"]


def test_mse_claims_power_and_straddle_by_hand():
    """MSEs 0.30, 0.32, 0.34, 0.36 (mean 0.33, s = sqrt(0.002 / 3)) against 0.33, published
    as a mean of 4 splits: the prediction interval t(2) s sqrt(1/4 + 1/4), detecting twice
    that. Differences lm - rf of 0.02 +- 0.01 have a corrected t interval around 0.02 that
    straddles 0: inconclusive."""
    rf = np.array([0.30, 0.32, 0.34, 0.36])
    claim = {"id": "m", "kind": "contrast", "text": "t", "published": "p", "source": "derived",
             "statistic": "pd_pfi_dgp.oob_mse", "test": "prediction", "runs": 4,
             "value": 0.33, "k": 2, "where": {"scenario": "s", "learner": "rf", "method": "r"}}
    [row] = CLAIMS.get("contrast")(claim, _tables([_mse_rows("rf", rf)]))
    assert row["verdict"] == "reproduced"
    half = float(t_multiplier(2, 3)) * np.sqrt(0.002 / 3) * np.sqrt(1 / 4 + 1 / 4)
    assert row["detectable"] == pytest.approx(2 * half)
    [row] = CLAIMS.get("contrast")({**claim, "needs": "wine"}, _tables([_mse_rows("rf", rf)]))
    assert row["verdict"] == "no data" and "the wine data" in row["reason"]
    lm = rf + np.array([0.01, 0.03, 0.01, 0.03])
    [row] = CLAIMS.get("contrast")(BEST, _tables([_mse_rows("rf", rf), _mse_rows("lm", lm)]))
    # d = 0.02 +- t_3 sqrt((1/4 + 0.58) s^2) = 0.02 +- 3.18 x 0.0105: straddles 0
    assert row["verdict"] == "inconclusive"
    s2 = 0.01**2 * 4 / 3
    half = student_t.ppf(0.975, 3) * np.sqrt((1 / 4 + 0.368 / 0.632) * s2)
    assert row["detectable"] == pytest.approx(2 * half)


def _pfi_rows(method, intervals):
    """PFI rows of one method: {feature: (value, lower, upper)}."""
    return pd.DataFrame([{"scenario": "s", "learner": "rf", "method": method, "rep": 0,
                          "quantity": "pfi", "feature": f, "value": v, "lower": lo,
                          "upper": hi, "source": "saratoga"}
                         for f, (v, lo, hi) in intervals.items()])


def test_pfi_interval_claims_are_three_way():
    """Separation [a, b]: learner level a's interval above b's (a 1.0 [0.8, 1.2], b 0.5 [0.3,
    0.7]: reproduced), overlapping (b 0.9 [0.7, 1.1]: the difference 0.1 +- 0.4 straddles 0,
    inconclusive, was not reproduced); model level overlap (reproduced), b's interval wholly
    above a's (b 1.6 [1.4, 1.8]: not reproduced; it was "overlap" before). Power: 2 x (0.2 +
    0.2) = 0.8. Top features [a, b] with our top two a, c: the mismatch b 0.9 [0.7, 1.1] vs c
    1.0 [0.9, 1.1] overlaps: inconclusive (was reproduced), power 2 x (0.2 + 0.1) = 0.6."""
    sep = CLAIMS.get("pd_pfi_dgp.pfi_separation")
    claim = {"id": "s", "text": "t", "published": "p", "features": ["a", "b"],
             "where": {"scenario": "s", "learner": "rf", "method": ["lvl", "mdl"]}}
    a = (1.0, 0.8, 1.2)
    cases = (((0.5, 0.3, 0.7), (0.9, 0.7, 1.1), ["reproduced", "reproduced"]),
             ((0.9, 0.7, 1.1), (1.6, 1.4, 1.8), ["inconclusive", "not reproduced"]))
    for learner_b, model_b, verdicts in cases:
        rows = sep(claim, _tables([_pfi_rows("lvl", {"a": a, "b": learner_b}),
                                   _pfi_rows("mdl", {"a": a, "b": model_b})]))
        assert [r["verdict"] for r in rows] == verdicts
        assert [r["detectable"] for r in rows] == pytest.approx([0.8, 0.8])
    top = CLAIMS.get("pd_pfi_dgp.top_features")
    claim = {"id": "k", "text": "t", "published": "p", "top": ["a", "b"],
             "where": {"scenario": "s", "learner": "rf", "method": "lvl"}}
    pfi = {"a": (1.2, 1.0, 1.4), "b": (0.9, 0.7, 1.1), "c": (1.0, 0.9, 1.1)}
    [row] = top(claim, _tables([_pfi_rows("lvl", pfi)]))
    assert row["verdict"] == "inconclusive" and row["detectable"] == pytest.approx(0.6)
    pfi["b"] = (0.5, 0.3, 0.7)  # b's interval wholly below c's
    [row] = top(claim, _tables([_pfi_rows("lvl", pfi)]))
    assert row["verdict"] == "not reproduced"
    pfi["b"] = (1.1, 1.0, 1.2)  # the same set: an exact agreement
    [row] = top(claim, _tables([_pfi_rows("lvl", pfi)]))
    assert row["verdict"] == "reproduced" and row["detectable"] == 0.0


def test_width_claims_use_the_refits():
    pd_pfi_width_ratio = CLAIMS.get("pd_pfi_dgp.width_ratio")
    r = np.random.default_rng(0)
    x = np.linspace(0, 1, 10)
    sd = np.where((x < 0.15) | (x > 0.85), 1.0, 0.2)  # wide at the ends
    per = r.normal(size=(15, 10)) * sd
    base = {"scenario": "s", "learner": "rf", "rep": 0, "source": "saratoga", "c": 0.58,
            "alpha": 0.05}
    refit = pd.DataFrame({**base, "method": "r", "quantity": "pd_refit",
                          "split": np.repeat(np.arange(15), 10), "x": np.tile(x, 15),
                          "value": per.ravel()})
    half = 2.14 * np.sqrt((1 / 15 + 0.58) * per.var(axis=0, ddof=1))
    learner = pd.DataFrame({**base, "method": "r", "quantity": "pd", "x": x,
                            "value": per.mean(axis=0), "lower": -half, "upper": half})
    model = pd.DataFrame({**base, "method": "mo", "quantity": "pd", "x": x, "value": 0.0,
                          "lower": -0.05, "upper": 0.05})
    t = _tables([refit, learner, model])
    claim = {"id": "w", "text": "t", "published": "p", "quantity": "pd",
             "where": {"scenario": "s", "learner": "rf", "method": ["r", "mo"]}}
    assert pd_pfi_width_ratio(claim, t)[0]["verdict"] == "reproduced"
    ends = {"id": "e", "kind": "contrast", "text": "t", "published": "p", "source": "derived",
            "statistic": "pd_pfi_dgp.refit_pd", "points": "ends", "share": 0.1,
            "test": "spread_ratio", "than": {"points": "inner"}, "compare": "above",
            "value": 1, "k": 2, "where": {"scenario": "s", "learner": "rf", "method": "r"}}
    [row] = CLAIMS.get("contrast")(ends, t)
    assert row["verdict"] == "reproduced"
    # the statistic's ratio is the refits' sd at the outer points over that inside
    sd = per.std(axis=0, ddof=1)
    assert "ratio %.3g" % (sd[[0, 9]].mean() / sd[1:9].mean()) in row["reproduced"]


# ---------------------------------------------------------------- figure


def test_fig6_reads_the_methods_of_its_roles(tmp_path):
    """Fig. 6 draws whichever methods the study file maps to its roles ``learner`` and
    ``model`` (here named unlike the study's), on the model-level method's learner."""
    from imlbench import studies
    from imlbench.figures import FIGURES
    from imlbench.figures.inputs import FigureInputs
    from imlbench.io import write_parquet

    studies.load(["pd_pfi_dgp"], figures=True)
    ctx = _ctx(_lm)
    params = {"features": ["a"], "n_permutations": 2}
    outputs = {
        "lvl": METHODS.get("pd_pfi_dgp.resampled")(ctx, {**params, "m": 4},
                                                   np.random.default_rng(0)),
        "mdl": METHODS.get("pd_pfi_dgp.model")(ctx, params, np.random.default_rng(1)),
    }
    paths = {"estimates": [], "data": [tmp_path / "data/app/c0.parquet"]}
    for name, out in outputs.items():
        path = tmp_path / f"estimates/app/lm/{name}/c0.parquet"
        path.parent.mkdir(parents=True)
        out = out.assign(scenario="app", learner="lm", method=name, rep=0)
        write_parquet(out, path, config_hash="test", seed=0)
        paths["estimates"].append(path)
    paths["data"][0].parent.mkdir(parents=True)
    write_parquet(pd.DataFrame(ctx.X_test, columns=ctx.feature_names), paths["data"][0],
                  config_hash="test", seed=0)
    spec = FIGURES.get("pd_pfi_dgp.fig_6")
    assert set(spec.methods) == {"learner", "model"} and spec.tables == ("data",)
    png, pdf = tmp_path / "fig6.png", tmp_path / "fig6.pdf"
    spec(FigureInputs(paths, {"learner": "lvl", "model": "mdl"}, ["app"]),
         {"title": "t", "caption": "c"}, png, pdf)
    assert png.stat().st_size > 10_000 and pdf.stat().st_size > 1_000
