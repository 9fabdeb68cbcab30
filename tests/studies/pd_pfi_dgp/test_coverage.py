"""The coverage simulation of Molnar et al. ("Relating the PDP and PFI to the DGP", Sect. 8):
compact learners, per-refit PD and PFI, the coverage summary and its claims."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import LinearRegression
from sklearn.tree import DecisionTreeRegressor

from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.learner_level import LearnerEstimate
from imlbench.io import write_parquet
from imlbench.learners.compact import CompactForest, LeastSquares, RpartTree
from imlbench.metrics.claims import CLAIMS, NoData, Tables
from imlbench.metrics.contrasts import Cell, paired
from imlbench.params import ParamError
from imlbench.stats import t_multiplier
from imlbench.studies.pd_pfi_dgp.dgp_simulation import PdPfiSimulation
from imlbench.studies.pd_pfi_dgp.refit_simulation import RefitDesign, model_pd_pfi, refit_values
from imlbench.studies.pd_pfi_dgp.statistics import COLUMNS, coverage
from imlbench.studies.pd_pfi_dgp.summaries import interval_halfwidths, prefix_moments, summarise

GRID = np.array([0.1, 0.3, 0.5, 0.7, 0.9])


def _data(n, p, seed=0):
    r = np.random.default_rng(seed)
    X = r.uniform(size=(n, p))
    return X, X[:, 0] - X[:, 1] + r.normal(size=n), r.uniform(size=(300, p))


@pytest.mark.parametrize("max_features", [1, 0.5, "sqrt", None])
@pytest.mark.parametrize("n", [63, 400])
def test_compact_forest_equals_scikit_learns_forest(max_features, n):
    X, y, Xp = _data(n, 4)
    kw = {"n_estimators": 25, "max_features": max_features, "min_samples_split": 6,
          "min_samples_leaf": 1, "random_state": 11}
    ours = CompactForest(**kw).fit(X, y).predict(Xp)
    theirs = RandomForestRegressor(**kw).fit(X, y).predict(Xp)
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("n", [63, 632])
def test_rpart_tree_equals_cart_with_cp_times_the_root_variance(n):
    X, y, Xp = _data(n, 4, seed=3)
    ours = RpartTree(cp=0.01, random_state=5).fit(X, y).predict(Xp)
    theirs = DecisionTreeRegressor(min_samples_split=20, min_samples_leaf=7, max_depth=30,
                                   min_impurity_decrease=0.01 * np.var(y),
                                   random_state=5).fit(X, y).predict(Xp)
    np.testing.assert_array_equal(ours, theirs)
    # cp matters: no split at all when a split must remove the whole variance
    assert np.unique(RpartTree(cp=1.0).fit(X, y).predict(Xp)).size == 1


def test_least_squares_equals_linear_regression():
    X, y, Xp = _data(80, 3)
    np.testing.assert_allclose(LeastSquares().fit(X, y).predict(Xp),
                               LinearRegression().fit(X, y).predict(Xp), rtol=0, atol=1e-12)


def test_model_pd_and_pfi_of_a_linear_model_equal_direct_computations():
    """PD_j(g) = b0 + b_j g + sum_{k != j} b_k mean(x_k) (eq. 2); PFI_j is the mean over the
    replacements of MSE(x_j replaced) - MSE (eq. 4), computed here row by row."""
    r = np.random.default_rng(1)
    X, y, _ = _data(50, 3)
    b0, b = 0.3, np.array([1.0, -2.0, 0.5])

    def predict(Z):
        return b0 + Z @ b

    repl = np.stack([X[r.permutation(50)] for _ in range(4)])
    pd_, pfi = model_pd_pfi(predict, X, y, repl, RefitDesign([0, 1, 2], GRID, 4))
    for j in range(3):
        expected = b0 + b[j] * GRID + sum(b[k] * X[:, k].mean() for k in range(3) if k != j)
        np.testing.assert_allclose(pd_[j], expected, atol=1e-12)
        losses = []
        for k in range(4):
            Z = X.copy()
            Z[:, j] = repl[k][:, j]
            losses.append(np.mean((y - predict(Z)) ** 2) - np.mean((y - predict(X)) ** 2))
        assert pfi[j] == pytest.approx(np.mean(losses), abs=1e-12)


def test_refit_sizes_follow_the_strategies():
    """Bootstrap: n rows with replacement, evaluated on the out-of-bag rows; subsampling:
    floor(0.632 n) rows and the rest; ideal: floor(0.632 n) fresh rows and 36.8% of n; truth:
    floor(0.632 n) fresh training and evaluation rows."""
    dgp = PdPfiSimulation("linear")
    r = np.random.default_rng(2)
    X = dgp.sample_features(100, r)
    y = dgp.f(X) + dgp.noise(100, r)
    seen = []

    def fit(Xtr, ytr):
        seen.append(Xtr)
        return lambda Z: np.zeros(len(Z))

    design = RefitDesign([0, 1], GRID, 2)
    for strategy, n_train in (("bootstrap", 100), ("subsampling", 63), ("ideal", 63),
                              ("truth", 63)):
        seen.clear()
        pd_, pfi = refit_values(fit, dgp, X, y, strategy, 3, design, r)
        assert pd_.shape == (3, 2, 5) and pfi.shape == (3, 2)
        assert all(len(s) == n_train for s in seen)
        fresh = not any(np.isin(s[:, 0], X[:, 0]).any() for s in seen)
        assert fresh == (strategy in ("ideal", "truth"))


def test_refit_method_runs_the_declared_defaults():
    """Without strategies, grid and n_permutations: ideal, bootstrap and subsampling refits
    and the truth runs, on the paper's grid 0.1, ..., 0.9; an unknown strategy is rejected
    by the declaration before anything runs."""
    dgp = PdPfiSimulation("linear")
    r = np.random.default_rng(3)
    X = dgp.sample_features(60, r)
    y = dgp.f(X) + dgp.noise(60, r)
    ctx = ExplainContext(model=None, X=X, y=y, feature_names=dgp.feature_names, dgp=dgp,
                         fit=lambda Xn, yn: LinearRegression().fit(Xn, yn).predict,
                         fixed_rng=lambda label: np.random.default_rng(0))
    refits = METHODS.get("pd_pfi_dgp.learner_refits")
    out = refits(ctx, {"max_refits": 3, "truth_fits": 2}, r)
    assert out.groupby("strategy")["refit"].nunique().to_dict() == {
        "ideal": 3, "bootstrap": 3, "subsampling": 3, "truth": 2}
    np.testing.assert_array_equal(np.sort(out["x"].dropna().unique()), GRID)
    assert set(out["feature"]) == {"x1", "x2"}
    with pytest.raises(ParamError, match=r"strategies\[1\]"):
        refits(ctx, {"strategies": ["ideal", "jackknife"]}, r)


def test_halfwidths_equal_the_learner_estimate_interval():
    r = np.random.default_rng(4)
    values = r.normal(size=(3, 30, 4))  # reps x refits x points
    half = interval_halfwidths(prefix_moments(values)[1], c=0.58)
    for m in (2, 15, 30):
        lo, hi = LearnerEstimate(values[1, :m]).interval(c=0.58)
        np.testing.assert_allclose(half[m - 2, 1], (hi - lo) / 2, rtol=1e-10)


def _write_refits(tmp_path, per_rep_shift_sd, bias=0.0, truth_runs=4000):
    """Per-refit values of one (scenario, learner): 2000 reps x 30 refits of a PD at two
    points and one PFI, N(mu + bias, 1) around a shift shared by the refits of a repetition
    (sd ``per_rep_shift_sd``); ``truth_runs`` truth runs at N(mu, 1 + shift variance)."""
    r = np.random.default_rng(5)
    mu = {("pd", 0.1): 0.0, ("pd", 0.9): 1.0, ("pfi", np.nan): 0.5}
    rows = []
    reps, refits = 2000, 30
    for (q, x), m in mu.items():
        shift = r.normal(0, per_rep_shift_sd, reps)
        vals = m + bias + shift[:, None] + r.normal(size=(reps, refits))
        rows.append(pd.DataFrame({
            "rep": np.repeat(np.arange(reps), refits), "strategy": "bootstrap",
            "refit": np.tile(np.arange(refits), reps), "quantity": q, "feature": "x1", "x": x,
            "value": vals.ravel()}))
        truth = m + r.normal(0, np.sqrt(1 + per_rep_shift_sd**2), truth_runs)
        rows.append(pd.DataFrame({"rep": 0, "strategy": "truth", "refit": np.arange(truth_runs),
                                  "quantity": q, "feature": "x1", "x": x, "value": truth}))
    df = pd.concat(rows, ignore_index=True)
    df.insert(0, "p_form", "linear")
    path = tmp_path / "estimates" / "sc" / "lm" / "refits" / "c0.parquet"
    path.parent.mkdir(parents=True)
    write_parquet(df, path, config_hash="x", seed=[0])
    return path


def test_the_refit_method_declares_its_coverage_summary():
    """The summaries job condenses the refit method's files with :func:`summarise`."""
    assert METHODS.get("pd_pfi_dgp.learner_refits").summarise is summarise


def test_coverage_summary_is_nominal_for_independent_refits(tmp_path):
    """Independent refits around the truth: the naive t interval covers with probability
    0.95 exactly (up to the truth's Monte Carlo error, 1/sqrt(4000) of an SD, whose effect
    is of second order). 2000 reps: SE of the coverage about 0.005; tolerance 4 SE = 0.02."""
    s = summarise([_write_refits(tmp_path, 0.0)])
    naive = s[(~s["corrected"]) & (s["m"].isin([2, 15, 30]))]
    assert len(naive) == 6
    assert (abs(naive["coverage"] - 0.95) < 4 * naive["coverage_se"] + 0.003).all()
    assert (naive["coverage_se"] < 0.006).all()
    assert s["truth_fits"].eq(4000).all()
    widths = s[(~s["corrected"]) & (s["quantity"] == "pd")].set_index("m")["width"]
    assert widths.is_monotonic_decreasing


def test_coverage_summary_detects_correlated_refits(tmp_path):
    """A shift shared by a repetition's refits (sd 0.5, like overlapping resamples) makes the
    naive interval (variance s^2/m) far too narrow. At m = 15 its half-width is about
    t_14 / sqrt(15) = 0.55 while the mean's error has SD sqrt(0.25 + 1/15) = 0.56, so it
    covers with probability about P(|Z| < 0.98) = 0.67 (SE 0.01 at 2000 reps; the check
    allows 0.8); the corrected interval (c = 0.58, half-width about 1.7) covers more."""
    s = summarise([_write_refits(tmp_path, 0.5)]).set_index(["quantity", "corrected", "m"])
    naive = s.loc[("pd", False, 15), "coverage"]
    corrected = s.loc[("pd", True, 15), "coverage"]
    assert naive.max() < 0.8
    assert corrected.min() > naive.max() + 0.1


def test_coverage_se_counts_the_error_of_the_coverage_target(tmp_path):
    """All repetitions share one coverage target, the mean of the truth runs: with 40 runs
    its error (SE 0.16) moves the coverage of intervals biased by 0.3 by far more than the
    spread over 2000 repetitions shows. The summary's target part is half the change of the
    coverage when the target moves up and down by its SE; here it is computed independently
    from the interval's distribution (mean of 15 refits ~ N(bias - d, 1/15) against a target
    moved by d, half-width t_14 s / sqrt(15), 14 s^2 ~ chi2_14), at the targets the file
    holds. Tolerance 0.02: four Monte Carlo SEs of a difference of two coverages on the same
    2000 repetitions (sd at most sqrt(0.25 / 2000) = 0.011, halved)."""
    from scipy.stats import norm
    from scipy.stats import t as student_t

    path = _write_refits(tmp_path, 0.0, bias=0.3, truth_runs=40)
    s = summarise([path]).set_index(["quantity", "corrected", "m"])
    df = pd.read_parquet(path)
    truth = df[df["strategy"] == "truth"].groupby(["quantity", "x"], dropna=False)["value"]
    mu = {("pd", 0.1): 0.0, ("pd", 0.9): 1.0, ("pfi", np.nan): 0.5}
    s_draws = np.sqrt(np.random.default_rng(0).chisquare(14, 200_000) / 14)
    half = student_t.ppf(0.975, 14) * s_draws / np.sqrt(15)

    def covers(offset: float) -> float:
        """Expected coverage when the mean's error against the target is N(offset, 1/15)."""
        sd = 1 / np.sqrt(15)
        return float(np.mean(norm.cdf((half - offset) / sd) - norm.cdf((-half - offset) / sd)))

    for quantity in ("pd", "pfi"):
        keys = [k for k in mu if k[0] == quantity]
        parts = []
        for key in keys:
            g = truth.get_group(key)
            d, se = g.mean() - mu[key], g.std(ddof=1) / np.sqrt(len(g))
            parts.append((covers(0.3 - d - se) - covers(0.3 - d + se)) / 2)
        row = s.loc[(quantity, False, 15)]
        assert abs(row["coverage_se_target"] - abs(np.mean(parts))) < 0.02
        spread = np.sqrt(row["coverage_se"] ** 2 - row["coverage_se_target"] ** 2)
        assert row["coverage_se_target"] > 3 * spread


def _summary(*cells, learner="lm", m=15, width=0.1, reps=400, more=()):
    """A summary of (column, coverage, SE) cells of sc/``learner`` pd at ``m`` refits, and the
    rows of ``more`` (summaries of other learners or refit counts)."""
    rows = [{"scenario": "sc", "learner": learner, "method": "refits", "quantity": "pd",
             "strategy": COLUMNS[c][0], "corrected": COLUMNS[c][1], "m": m, "coverage": cov,
             "coverage_se": se, "width": width, "reps": reps} for c, cov, se in cells]
    rows += [r for t in more for r in t.summary.to_dict("records")]
    return Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame(),
                  summary=pd.DataFrame(rows))


def _t(k: float, reps: int = 400) -> float:
    """The kit's multiplier: the t quantile at Phi(k) with reps - 1 df."""
    return float(t_multiplier(k, reps - 1))


TABLE = {"id": "t", "kind": "contrast", "text": "t", "published": "p", "source": "derived",
         "statistic": "pd_pfi_dgp.coverage", "quantity": "pd", "m": 15, "k": 2,
         "compare": "equal", "atol": 0.005,
         "where": {"scenario": "sc", "learner": "lm", "method": "refits"}}


def _table_row(column: str, value: float, t: Tables) -> dict:
    [row] = CLAIMS.get("contrast")({**TABLE, "column": column, "value": value}, t)
    return row


def test_the_coverage_statistic_comes_summarised():
    """The summary keeps a cell's mean and SE, not its repetitions: the statistic carries them
    as its summary (the moments the one-sample and difference tests read), and a paired test
    has nothing to pair."""
    cell = Cell("sc", "lm", "refits", {"column": "boot", "quantity": "pd", "m": 15})
    for reps in (2, 3, 400):
        sample = coverage(cell, _summary(("boot", 0.42, 0.01), reps=reps))
        assert sample.moments() == (0.42, 0.01, reps) and sample.values.empty
    other = Cell("sc", "lm", "refits", {"column": "subs", "quantity": "pd", "m": 15})
    a = coverage(cell, _summary(("boot", 0.42, 0.01), ("subs", 0.40, 0.01)))
    b = coverage(other, _summary(("boot", 0.42, 0.01), ("subs", 0.40, 0.01)))
    assert isinstance(paired(a, b, "subs", 0.0, k=3.0, compare="equal"), NoData)


@pytest.mark.parametrize(("coverage_", "verdict"), [(0.42, "reproduced"),
                                                     (0.45, "not reproduced")])
def test_a_table_cell_is_a_contrast_claim_with_t_se_plus_rounding(coverage_, verdict):
    """Tolerance t(2) x 0.01 + 0.005 (t(2) = 2.01 on 399 df, about 0.025): 0.42 is within,
    0.45 is not; a column the summary lacks has no data and says why."""
    t = _summary(("boot", coverage_, 0.01))
    assert _table_row("boot", 0.41, t)["verdict"] == verdict
    row = _table_row("subs", 0.34, t)
    assert row["verdict"] == "no data"
    assert row["reason"] == ("metrics/summary.parquet has no cell sc lm pd subs at m = 15 "
                             "(this profile runs m = 15 to 15)")


def test_a_table_cell_detects_two_intervals_plus_the_rounding():
    """The check c +- t(2) SE equal to 0.41 up to 0.005: it detects departures of 0.005 + 2
    t(2) x 0.01."""
    row = _table_row("boot", 0.41, _summary(("boot", 0.42, 0.01)))
    assert row["detectable"] == pytest.approx(0.005 + 2 * _t(2) * 0.01)


def test_a_table_cell_has_no_verdict_from_one_repetition():
    row = _table_row("boot", 0.41, _summary(("boot", 0.41, np.inf), reps=1))
    assert row["verdict"] == "no data" and "in 2 repetitions or more" in row["reason"]


PATTERN = {"id": "p", "text": "t", "published": "p", "quantity": "pd", "m": 15, "k": 2,
           "over": None, "where": {"scenario": "sc", "learner": "lm", "method": "refits"}}
cells = CLAIMS.get("pd_pfi_dgp.coverage_cells")


@pytest.mark.parametrize(("coverage_", "verdict"), [(0.90, "reproduced"),
                                                     (0.94, "inconclusive"),
                                                     (0.98, "not reproduced")])
def test_coverage_below_is_three_way(coverage_, verdict):
    """c +- t(2) x 0.01 below 0.95: [0.88, 0.92] below, [0.92, 0.96] straddles (undecided),
    [0.96, 1.00] above; power 2 t(2) x 0.01."""
    claim = {**PATTERN, "columns": ["boot"], "compare": "below", "value": 0.95}
    [row] = cells(claim, _summary(("boot", coverage_, 0.01)))
    assert row["verdict"] == verdict and row["method"] == "boot"
    assert row["detectable"] == pytest.approx(2 * _t(2) * 0.01)
    assert ("undecided" in row["reproduced"]) == (verdict == "inconclusive")


@pytest.mark.parametrize(("coverage_", "verdict"), [(0.93, "reproduced"),
                                                     (0.90, "not reproduced")])
def test_coverage_near_misses_only_outside_the_slack(coverage_, verdict):
    """c +- t(2) x 0.01 against [0.95 - 0.01, 0.95 + 0.01]: [0.91, 0.95] meets it, [0.88,
    0.92] misses it; power 0.01 + 2 t(2) x 0.01."""
    claim = {**PATTERN, "columns": ["boot"], "compare": "equal", "value": 0.95, "atol": 0.01}
    [row] = cells(claim, _summary(("boot", coverage_, 0.01)))
    assert row["verdict"] == verdict
    assert row["detectable"] == pytest.approx(0.01 + 2 * _t(2) * 0.01)


def test_a_share_of_the_gap_closed_straddle_is_inconclusive():
    """Naive 0.80 -> corrected 0.90, SE 0.01 each: the lift 0.10 +- t(2) sqrt(2) 0.01 =
    [0.072, 0.128] against half the gap, 0.5 x (0.95 - 0.80) = 0.075, straddles it:
    inconclusive; a lift to 0.94 ([0.112, 0.168]) closes it. Power 2 t(2) sqrt(2) 0.01: the
    SE of a difference is the root sum of squares."""
    claim = {**PATTERN, "columns": ["boot*"], "than": {"column": {"boot*": "boot"}},
             "compare": "above", "value": 0.95, "share_of_gap": 0.5}
    [row] = cells(claim, _summary(("boot", 0.80, 0.01), ("boot*", 0.90, 0.01)))
    assert row["verdict"] == "inconclusive"
    assert row["detectable"] == pytest.approx(2 * _t(2) * np.sqrt(2) * 0.01)
    [row] = cells(claim, _summary(("boot", 0.80, 0.01), ("boot*", 0.94, 0.01)))
    assert row["verdict"] == "reproduced"


def test_a_column_order_is_a_difference_against_zero_per_column_row():
    """boot* 0.90 vs boot 0.80 (SE 0.01 each): the difference 0.10 +- t(2) sqrt(2) 0.01
    (0.028) lies above 0; boot* 0.82: 0.02 +- 0.028 straddles 0 (inconclusive); boot* 0.70:
    -0.10 +- 0.028 lies below 0. One row per column, labelled with the order it claims."""
    claim = {**PATTERN, "columns": ["boot*", "subs*"], "compare": "above", "rows": "column",
             "than": {"column": {"boot*": "boot", "subs*": "subs"}}}
    for corrected, verdict in ((0.90, "reproduced"), (0.82, "inconclusive"),
                               (0.70, "not reproduced")):
        rows = cells(claim, _summary(("boot", 0.80, 0.01), ("boot*", corrected, 0.01),
                                     ("subs", 0.70, 0.01), ("subs*", 0.90, 0.01)))
        assert [r["method"] for r in rows] == ["boot* > boot", "subs* > subs"]
        assert [r["verdict"] for r in rows] == [verdict, "reproduced"]
        assert rows[0]["detectable"] == pytest.approx(2 * _t(2) * np.sqrt(2) * 0.01)


def test_lowest_and_refits_trend_are_three_way():
    """lm 0.80 vs rf 0.85 (SE 0.01 each): -0.05 +- 0.028 lies below 0 (lowest); rf 0.82:
    -0.02 +- 0.028 straddles 0 (inconclusive). Coverage 0.90 at m = 2 falls to 0.80 at m = 30
    (0.10 +- 0.028 above 0) as the width falls (0.2 -> 0.1, no SE): reproduced; to 0.88 (0.02
    +- 0.028) inconclusive; a width that grows fails exactly."""
    claim = {**PATTERN, "columns": ["boot"], "than": {"learner": ["rf"]}, "compare": "below"}
    for other, verdict in ((0.85, "reproduced"), (0.82, "inconclusive")):
        t = _summary(("boot", 0.80, 0.01), more=[_summary(("boot", other, 0.01), learner="rf")])
        [row] = cells(claim, t)
        assert row["verdict"] == verdict
        assert row["detectable"] == pytest.approx(2 * _t(2) * np.sqrt(2) * 0.01)
    claim = {**PATTERN, "columns": ["boot"], "widths": ["boot", "ideal"], "m": 2,
             "than": {"m": 30}, "compare": "above"}
    for late, late_width, verdict in ((0.80, 0.1, "reproduced"), (0.88, 0.1, "inconclusive"),
                                      (0.80, 0.3, "not reproduced")):
        t = _summary(("boot", 0.90, 0.01), ("ideal", 0.95, 0.01), m=2, width=0.2,
                     more=[_summary(("boot", late, 0.01), ("ideal", 0.95, 0.01), m=30,
                                    width=late_width)])
        [row] = cells(claim, t)
        assert row["verdict"] == verdict and row["method"] == "boot/ideal"
        assert "3 cells" in row["reproduced"]  # the coverage drop and two width drops


def test_a_pattern_claims_own_columns_are_checked():
    """``than.column`` may move only the claim's columns (``imlbench check`` says so)."""
    errors = CLAIMS.get("pd_pfi_dgp.coverage_cells").errors
    assert errors({"columns": ["boot*"], "than": {"column": {"boot*": "boot"}}}) == []
    [(key, message)] = errors({"columns": ["boot*"], "than": {"column": {"subs*": "subs"}}})
    assert key == "than" and "subs*" in message


@pytest.mark.parametrize(("form", "sign"), [("linear", -1), ("nonlinear", -1),
                                            ("nonlinear", 1)])
def test_dgp_pd_and_pfi_closed_forms_match_monte_carlo(form, sign):
    """Closed-form DGP-PD (Definition 1) at x = 0.3 and DGP-PFI (Definition 2) against
    200,000 draws; tolerance 4 Monte Carlo SEs."""
    dgp = PdPfiSimulation(form, sign)
    r = np.random.default_rng(7)
    X = dgp.sample_features(200_000, r)
    for j in range(X.shape[1]):
        Xg = X.copy()
        Xg[:, j] = 0.3
        v = dgp.f(Xg)
        assert abs(v.mean() - dgp.dgp_pd(j, np.array(0.3))) < 4 * v.std() / np.sqrt(len(v))
        Xr = X.copy()
        Xr[:, j] = r.uniform(size=len(X))
        d = (dgp.f(X) - dgp.f(Xr)) ** 2
        assert abs(d.mean() - dgp.dgp_pfi(j)) < 4 * d.std() / np.sqrt(len(d))
