"""The formula DGP's ``constants``, ``exclude``, ``hidden`` and ``categorical`` keys: where
constants may be written and how a sweep overrides them, the truncated law of ``exclude`` and
its truths against a brute-force Monte Carlo written here, hidden features with the truths of
the visible regression function m_v(x_v) = E_H f(x_v, H), and features declared categorical.

Statistical checks allow Z = 4 standard errors (two-sided: a correct value fails one check with
probability 6e-5); a comparison of two Monte Carlo estimates uses their combined SE
sqrt(se_a^2 + se_b^2). Each is written next to its check.
"""

from __future__ import annotations

import copy
import os
import pickle
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from imlbench import stages
from imlbench.cli import main as cli_main
from imlbench.config import load_study
from imlbench.dgp.base import make_dgp
from imlbench.dgp.formula import FormulaDGP
from imlbench.learners.truth import TrueFunction
from imlbench.params import ParamError
from imlbench.seeds import rng_for
from imlbench.truth import formula as ft

REPO = Path(__file__).resolve().parents[1]
Z = 4.0


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def fixed_rng(label: str) -> np.random.Generator:
    return rng_for(20261201, "test_formula_extensions", label)


def rows(table: pd.DataFrame, kind: str, feature: str) -> pd.DataFrame:
    out = table[(table["estimand"] == kind) & (table["feature"] == feature)]
    assert len(out), f"no {kind} rows of {feature}"
    return out


# --- constants ------------------------------------------------------------------------------

CONSTANT_DGP = {
    "constants": {"sd": 0.5, "rho": 0.3, "top": 3, "cut": 1.5},
    "features": {"x1": {"law": "normal", "mean": 1, "sd": "2*sd"},
                 "x2": {"law": "normal", "mean": 0, "sd": 1},
                 "x3": {"law": "integers", "low": 0, "high": "top"},
                 "x4": "rho*x1 + normal(0, sd)"},
    "dependence": {"features": ["x1", "x2"], "correlation": [[1, "rho"], ["rho", 1]]},
    "f": "top*x1 - x2 + x3",
    "noise_sd": "sd",
    "exclude": "x1 > cut",
}


def test_constants_stand_for_their_numbers_everywhere():
    d = make_dgp("formula", CONSTANT_DGP)
    assert d.marginals["x1"].dist.std() == 1.0  # 2*sd
    assert d.marginals["x3"].dist.support() == (0, 3)  # high: top, an integer
    np.testing.assert_array_equal(d.correlation, [[1, 0.3], [0.3, 1]])
    assert d.noise_sd == 0.5
    X = d.sample_features(20_000, rng(1))
    assert X[:, 0].max() <= 1.5  # exclude: x1 > cut
    np.testing.assert_array_equal(d.f(X), 3 * X[:, 0] - X[:, 1] + X[:, 2])  # f: top*x1
    # x4 = rho x1 + N(0, sd^2): the residual's sd is 0.5 (SE of an sd: sd / sqrt(2 n))
    resid = X[:, 3] - 0.3 * X[:, 0]
    assert abs(resid.std() - 0.5) <= Z * 0.5 / np.sqrt(2 * len(X))
    # the parsed expressions hold numbers: the affine form sees the constants
    assert d.linear() == (0.0, {"x1": 3.0, "x2": -1.0, "x3": 1.0, "x4": 0.0})
    assert d.equations["x4"].affine().coefs == {"x1": 0.3}


def test_a_parameter_named_after_a_constant_overrides_it_and_pickles():
    d = make_dgp("formula", {**CONSTANT_DGP, "sd": 0.25, "rho": -0.5})
    assert d.constants == {"sd": 0.25, "rho": -0.5, "top": 3.0, "cut": 1.5}
    assert d.marginals["x1"].dist.std() == 0.5 and d.noise_sd == 0.25
    np.testing.assert_array_equal(d.correlation, [[1, -0.5], [-0.5, 1]])
    again = pickle.loads(pickle.dumps(d))
    assert again.constants == d.constants
    np.testing.assert_array_equal(again.sample_features(100, rng(2)),
                                  d.sample_features(100, rng(2)))


@pytest.mark.parametrize("change, key, fragments", [
    ({"constants": {"x1": 1}}, "constants.x1", ["constant name 'x1' is not allowed"]),
    ({"constants": {"my_sd": 1}}, "constants.my_sd", ["lower-case letters or digits"]),
    ({"constants": {"exp": 1}}, "constants.exp", ["other than feature names, abs"]),
    ({"constants": {"f": 1}}, "constants.f", ["features, f, dependence"]),
    ({"constants": {"sd": "1"}}, "constants.sd", ["'1' is not allowed; allowed: a number"]),
    ({"constants": {"sd": 1}, "foo": 2}, "foo",
     ["unknown parameter 'foo' of DGP 'formula'", "allowed: features, f, dependence, noise_sd, "
      "link, constants, exclude, hidden, noise, categorical, truth_grid, or a declared "
      "constant: sd"]),
    ({"foo": 2}, "foo", ["a declared constant: none declared"]),
    ({"constants": {"sd": 1}, "sd": "big"}, "sd", ["'big' is not allowed; allowed: a number"]),
    ({"noise_sd": "x1"}, "noise_sd", ["unknown name 'x1' in 'x1'; allowed: pi"]),
    ({"constants": {"sd": -1}, "noise_sd": "sd"}, "noise_sd", ["-1.0 is out of range"]),
    ({"features": {"x1": {"law": "normal", "sd": "s"}}}, "features.x1.sd",
     ["unknown name 's'"]),
    ({"dependence": {"features": ["x1", "x2"], "correlation": [[1, "r"], ["r", 1]]}},
     "dependence.correlation[0][1]", ["unknown name 'r'"]),
])
def test_constant_errors_name_the_key(change, key, fragments):
    spec = {"features": {"x1": {"law": "normal"}, "x2": {"law": "normal"}}, "f": "x1 + x2",
            **change}
    with pytest.raises(ParamError) as err:
        make_dgp("formula", spec)
    assert err.value.key == key, err.value
    for fragment in fragments:
        assert fragment in str(err.value), err.value


STUDY = {
    "title": "A formula study with constants",
    "reference": "none",
    "learners": {"lm": {"learner": "lm"}},
    "methods": {"pfi": {"method": "pfi", "params": {"n_repeats": 2}}},
    "scenarios": {"formula": {
        "dgp": "formula", "n": 200, "reps": 2, "learners": ["lm"], "methods": ["pfi"],
        "params": {"constants": {"sd": 0.5},
                   "features": {"x1": {"law": "normal"}, "x2": "x1 + normal(0, sd)"},
                   "f": "x1 + x2", "noise_sd": "sd"},
        "sweep": {"sd": [0.1, 0.3]}}},
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "config", tmp_path / "config")
    shutil.copytree(REPO / "workflow" / "schemas", tmp_path / "workflow" / "schemas")
    return tmp_path


def _study_file(root: Path, study: dict) -> Path:
    path = root / "config" / "studies" / "formula_constants.yaml"
    path.write_text(yaml.safe_dump(study, sort_keys=False))
    return path


def _check(root: Path, path: Path, capsys) -> tuple[int, str]:
    status = cli_main(["--root", str(root), "--profile", "smoke", "check", "--study", str(path)])
    return status, capsys.readouterr().err.strip()


def test_a_swept_constant_passes_the_check_and_reaches_the_dgp(root, capsys, monkeypatch):
    monkeypatch.setattr(os, "environ", dict(os.environ))
    path = _study_file(root, STUDY)
    assert _check(root, path, capsys) == (0, "")
    study = load_study(path, "smoke")
    assert sorted(study.scenarios) == ["formula_sd0.1", "formula_sd0.3"]
    sc = study.scenarios["formula_sd0.3"]
    d = stages.realized_dgp(study, sc, 0, 1)
    assert sc.params["sd"] == 0.3 and d.constants == {"sd": 0.3} and d.noise_sd == 0.3


@pytest.mark.parametrize("part, change, fragments", [
    ("sweep", {"sweep": {"sdd": [0.1, 0.3]}},
     ["unknown parameter 'sdd' of DGP 'formula'", "or a declared constant: sd"]),
    ("params", {"params": {**STUDY["scenarios"]["formula"]["params"], "sdd": 0.2}},
     ["unknown parameter 'sdd' of DGP 'formula'", "or a declared constant: sd"]),
    ("params", {"params": {**STUDY["scenarios"]["formula"]["params"],
                           "constants": {"sd": 0.5, "x1": 1}}},
     ["constant name 'x1' is not allowed"]),
])
def test_check_names_the_file_and_key_of_a_bad_constant(root, capsys, monkeypatch, part,
                                                        change, fragments):
    monkeypatch.setattr(os, "environ", dict(os.environ))
    study = copy.deepcopy(STUDY)
    study["scenarios"]["formula"].update(change)
    path = _study_file(root, study)
    status, err = _check(root, path, capsys)
    assert status == 2 and "\n" not in err, err
    key = "sdd" if "sdd" in str(change) else "constants.x1"
    assert err.startswith(f"imlbench: configuration error: {path}: key "
                          f"scenarios.formula.{part}.{key}: DGP 'formula' of scenario "), err
    for fragment in fragments:
        assert fragment in err, err


# --- exclude --------------------------------------------------------------------------------

#: x1 ~ U(0, 1), x2 = x1 + e with e ~ N(0, 0.3^2); rows with x2 > 2 x1^2 are rejected (about
#: 70% are kept). Given x1 = t the kept e lie below 2 t^2 - t, a threshold smooth in t (so the
#: binned conditional truth has no jump to straddle).
GAP = {"constants": {"s": 0.3},
       "features": {"x1": {"law": "uniform", "low": 0, "high": 1}, "x2": "x1 + normal(0, s)"},
       "f": "x1*x2 + x2", "exclude": "x2 > 2*x1**2"}


def _gap_f(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    return x1 * x2 + x2


def _kept(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    return ~(x2 > 2 * x1**2)


def _mean_se(v: np.ndarray) -> tuple[float, float]:
    return float(v.mean()), float(v.std(ddof=1) / np.sqrt(len(v)))


def _brute_force(z: np.ndarray, n: int, r: np.random.Generator) -> dict[str, np.ndarray]:
    """PD, conditional and interventional curves of GAP at z from plain numpy draws of the
    untruncated law, rejected by the condition: value and SE arrays by estimand."""
    x1 = r.uniform(0, 1, 3 * n)
    e = r.normal(0, 0.3, 3 * n)
    keep = _kept(x1, x1 + e)
    x1, e = x1[keep][:n], e[keep][:n]
    assert len(x1) == n
    out: dict[str, list] = {"pd": [], "conditional": [], "interventional": []}
    for zi in z:
        out["pd"].append(_mean_se(_gap_f(zi, x1 + e)))  # x2 from its truncated marginal
        out["interventional"].append(_mean_se(_gap_f(zi, zi + e)))  # the kept units' own e
        ez = r.normal(0, 0.3, 3 * n)  # the law of x2 given x1 = zi: rejection at x1 = zi
        ez = ez[_kept(np.full(len(ez), zi), zi + ez)][:n]
        assert len(ez) == n
        out["conditional"].append(_mean_se(_gap_f(zi, zi + ez)))
    return {k: np.array(v) for k, v in out.items()}


@pytest.fixture(scope="module")
def gap():
    d = make_dgp("formula", GAP)
    return d, ft.effects_table(d, fixed_rng)


def test_exclude_keeps_no_row_of_the_region_and_is_deterministic():
    d = make_dgp("formula", GAP)
    df = d.sample(5_000, rng(3))
    assert len(df) == 5_000 and _kept(df["x1"], df["x2"]).all()
    pd.testing.assert_frame_equal(df, d.sample(5_000, rng(3)))
    # the kept share matches the pilot's, and a round may need more rows than it drew
    X = d.sample_features(50_000, rng(4))
    assert X.shape == (50_000, 2) and _kept(X[:, 0], X[:, 1]).all()
    # the units of an intervention come from the truncated law: x2 - x1 is the kept unit's e
    units = d.sample_features(200, rng(5))
    done = d.sample_intervened(200, rng(5), 0, 0.9)
    np.testing.assert_allclose(done[:, 1] - 0.9, units[:, 1] - units[:, 0], atol=1e-12)
    z = np.linspace(0, 1, 200)
    per_row = d.sample_intervened(200, rng(5), 0, z)
    np.testing.assert_allclose(per_row[:, 1] - z, units[:, 1] - units[:, 0], atol=1e-12)


def test_exclude_removes_the_closed_forms_of_the_law():
    d = make_dgp("formula", {"features": {"x1": {"law": "normal"}, "x2": {"law": "normal"},
                                          "x3": {"law": "normal"}},
                             "f": "x1 + x2 + x3", "exclude": "x1 + x2 > 1"})
    assert d.gaussian() is None and not d.has_conditional
    assert [d.independent_of(j) for j in range(3)] == [False, False, True]
    with pytest.raises(NotImplementedError, match="exclude"):
        d.sample_conditional(d.sample_features(5, rng(6)), [0], rng(7))
    # the ALE of a linear f is b_j (z - z_0) under any law: its closed form stays
    effects = ft.effects_table(d, fixed_rng)
    ale = rows(effects, "ale", "x1")
    assert (ale["se"] == 0).all()
    np.testing.assert_allclose(ale["value"], ale["x"] - ale["x"].iloc[0])
    # the PD is Monte Carlo under the truncated law: E[x2 | x1 + x2 <= 1] < 0 shifts it
    pd_ = rows(effects, "pd", "x1")
    assert (pd_["se"] > 0).all() and (pd_["value"] - pd_["x"] < -0.1).all()


def test_exclude_refuses_a_condition_that_keeps_almost_nothing():
    """P(x1 <= -3.2) = 0.0007 for a standard normal x1 (binomial SE on 20,000 rows: 0.0002)."""
    with pytest.raises(ParamError, match=r"exclude: 'x1 > -3.2' keeps 0.000\d+ of 20000 "
                                         r"drawn rows; allowed: a condition that keeps at least "
                                         r"0.001 of them"):
        make_dgp("formula", {"features": {"x1": {"law": "normal"}}, "f": "x1",
                             "exclude": "x1 > -3.2"})
    with pytest.raises(ParamError, match="exclude: 'x1 > -10' keeps 0 of 20000"):
        make_dgp("formula", {"features": {"x1": {"law": "normal"}}, "f": "x1",
                             "exclude": "x1 > -10"})
    with pytest.raises(ParamError, match="exclude: random term 'normal'"):
        make_dgp("formula", {"features": {"x1": {"law": "normal"}}, "f": "x1",
                             "exclude": "x1 > normal(0, 1)"})


@pytest.mark.parametrize("kind", ["pd", "conditional", "interventional"])
def test_exclude_truths_match_a_brute_force_monte_carlo(gap, kind):
    """Each of the 21 grid points within Z = 4 combined SEs of the brute force (100,000 kept
    rows per point). The binned conditional truth is also off by about g''(z) h^2 / 6 with h
    near 0.01 (1% of 500,000 rows each side, x1's density near 1): below 1e-4 here, against
    combined SEs near 3e-3."""
    _, effects = gap
    truth = rows(effects, kind, "x1")
    brute = _brute_force(truth["x"].to_numpy(), 100_000, rng(8))[kind]
    combined = np.sqrt(truth["se"].to_numpy() ** 2 + brute[:, 1] ** 2)
    excess = np.abs(truth["value"].to_numpy() - brute[:, 0]) - Z * combined
    assert (excess <= 0).all(), f"worst excess {excess.max():.3g} over {Z} combined SEs"


def test_the_three_curves_of_the_truncated_law_differ(gap):
    """The check above could tell the estimands apart: on the truncated law the PD, the
    conditional and the interventional curve of x1 differ by far more than their SEs."""
    _, effects = gap
    curves = {k: rows(effects, k, "x1") for k in ("pd", "conditional", "interventional")}
    for a, b in (("pd", "conditional"), ("pd", "interventional"),
                 ("conditional", "interventional")):
        gap_ = np.abs(curves[a]["value"].to_numpy() - curves[b]["value"].to_numpy()).max()
        se = np.sqrt(curves[a]["se"].to_numpy() ** 2 + curves[b]["se"].to_numpy() ** 2).max()
        assert gap_ > 10 * Z * se, (a, b, gap_, se)


# --- hidden ---------------------------------------------------------------------------------

def hidden_dgp(f: str, **extra) -> FormulaDGP:
    return make_dgp("formula", {
        "features": {"x1": {"law": "normal", "mean": 1, "sd": 1},
                     "x2": {"law": "uniform", "low": 0, "high": 2},
                     "x3": {"law": "normal", "mean": 0, "sd": 1}},
        "f": f, "hidden": ["x3"], **extra})


def test_a_hidden_feature_is_no_column_of_the_data_but_is_in_the_truth():
    d = hidden_dgp("x1 + x2 + x3", noise_sd=0.5)
    df = d.sample(1_000, rng(9))
    assert list(df.columns) == ["x1", "x2", "y"] and d.visible == ["x1", "x2"]
    assert d.feature_names == ["x1", "x2", "x3"]
    # y is drawn with x3: its variance is Var(x1) + Var(x2) + Var(x3) + 0.25 = 2.5833 (SE of a
    # variance of a near-normal sum: var sqrt(2 / n))
    assert abs(df["y"].var() - (1 + 4 / 12 + 1 + 0.25)) <= Z * 2.5833 * np.sqrt(2 / len(df))
    effects, imp = ft.effects_table(d, fixed_rng), ft.importance_table(d, fixed_rng)
    assert {"x1", "x2", "x3"} == set(effects["feature"])
    # m_v = x1 + x2 + E x3 = x1 + x2: the PD of x1 is z + E x2 = z + 1, slope 1 (Monte Carlo:
    # x2 is uniform, so no linear-Gaussian closed form; each point within Z SEs)
    pd_x1 = rows(effects, "pd", "x1")
    assert (np.abs(pd_x1["value"] - (pd_x1["x"] + 1.0)) <= Z * pd_x1["se"]).all()
    # importance of m_v: visible features only, marginal only, no ratio (the noise of m_v is
    # not noise_sd); 2 Var(x_j) each, within Z SEs
    assert list(imp["feature"]) == ["x1", "x2"] and set(imp["estimand"]) == {"pfi_marginal"}
    assert (np.abs(imp["value"] - [2.0, 2 * 4 / 12]) <= Z * imp["se"]).all()


def test_a_hidden_feature_is_absent_from_the_fitted_models_columns(tmp_path):
    study_file = tmp_path / "hidden.yaml"
    study_file.write_text(yaml.safe_dump({
        "title": "t", "reference": "r",
        "learners": {"lm": {"learner": "lm", "params": {"coding": "treatment"}}},
        "methods": {"pdp": {"method": "pdp", "params": {"features": ["x1", "x4"]}}},
        "scenarios": {"main": {
            "dgp": "formula",
            "params": {"features": {
                "x1": {"law": "normal"},
                "x2": {"law": "categorical", "levels": ["a", "b", "c"]},
                "x3": {"law": "categorical", "levels": ["u", "v"]},
                "x4": {"law": "normal"}},
                "f": "x1 + (x2 == 1) + x3 + x4", "noise_sd": 0.1, "hidden": ["x3"]},
            "n": 200, "reps": 1, "learners": ["lm"], "methods": ["pdp"]}},
    }))
    study = load_study(study_file, "smoke")
    sc = study.scenarios["main"]
    df = stages.sample_chunk(study, sc, "c0", 1)
    assert stages.feature_columns(df) == ["x1", "x2", "x4"]
    fitted = stages.fit_chunk(study, sc, "c0", 1, df, "lm")
    assert fitted[0][0].categorical == (1,) and fitted[0].n_features_in_ == 3
    out = stages.explain_chunk(study, sc, "c0", 1, df, "lm", ["pdp"], fitted, {0: {}},
                               max_rows=100_000)
    assert set(out["pdp"]["feature"]) == {"x1", "x4"}


def test_the_pd_truth_of_a_visible_feature_is_that_of_m_v():
    """f = x1 x3^2 + x2 with x3 ~ N(0, 1) hidden: m_v = x1 + x2, so the PD of x1 is z + E x2 =
    z + 1 (Monte Carlo: f is not linear; each point within Z SEs)."""
    d = hidden_dgp("x1*x3**2 + x2")
    pd_x1 = rows(ft.effects_table(d, fixed_rng), "pd", "x1")
    assert (pd_x1["se"] > 0).all()
    assert (np.abs(pd_x1["value"] - (pd_x1["x"] + 1.0)) <= Z * pd_x1["se"]).all()


def test_the_pfi_truth_is_that_of_m_v_not_of_f():
    """f = x1 x3 + x2 with x3 ~ N(0, 1) hidden: m_v = x2, so the PFI of x1 is 0 and that of x2
    is 2 Var(x2) = 2/3. The naive E[(f(X) - f(X~))^2] would give x1 2 Var(x1) Var(x3) = 2, far
    outside the Z-SE band around 0 that the product estimate meets."""
    d = hidden_dgp("x1*x3 + x2", noise_sd=1.0)
    imp = ft.importance_table(d, fixed_rng).set_index("feature")
    assert set(imp["estimand"]) == {"pfi_marginal"} and list(imp.index) == ["x1", "x2"]
    x1, x2 = imp.loc["x1"], imp.loc["x2"]
    assert abs(x1["value"]) <= Z * x1["se"]
    assert abs(x2["value"] - 2 / 3) <= Z * x2["se"]
    # the naive estimate on the same kind of draws is 2 (within its own SEs), which the check
    # on x1 above rejects
    r = rng(10)
    X, fresh = d.sample_features(100_000, r), d.sample_features(100_000, r)
    Xt = X.copy()
    Xt[:, 0] = fresh[:, 0]
    naive, naive_se = _mean_se((d.f(X) - d.f(Xt)) ** 2)
    assert abs(naive - 2.0) <= Z * naive_se
    assert abs(naive) > Z * x1["se"]


@pytest.mark.parametrize("change, fragment", [
    ({"features": {"x1": {"law": "normal"}, "x3": "x1 + normal(0, 1)"}},
     "'x3' depends on the visible feature(s) x1"),
    ({"features": {"x1": {"law": "normal"}, "x3": {"law": "normal"}},
      "dependence": {"features": ["x1", "x3"], "correlation": [[1, 0.2], [0.2, 1]]}},
     "'x3' depends on the visible feature(s) x1"),
    ({"features": {"x1": {"law": "normal"}, "x3": {"law": "normal"}},
      "exclude": "x1 + x3 > 1"}, "'x3' depends on the visible feature(s) x1"),
    ({"hidden": ["x9"]}, "'x9' is not a feature; allowed: distinct features among x1, x3"),
    ({"hidden": ["x3", "x3"]}, "['x3', 'x3'] repeats"),
    ({"hidden": ["x1", "x3"]}, "hides every feature"),
])
def test_hidden_errors(change, fragment):
    spec = {"features": {"x1": {"law": "normal"}, "x3": {"law": "normal"}}, "f": "x1 + x3",
            "hidden": ["x3"], **change}
    with pytest.raises(ParamError) as err:
        make_dgp("formula", spec)
    assert err.value.key == "hidden" and fragment in str(err.value), err.value


def test_hidden_features_with_an_exclude_of_their_own_stay_independent():
    d = make_dgp("formula", {"features": {"x1": {"law": "normal"}, "x3": {"law": "normal"}},
                             "f": "x1 + x3", "hidden": ["x3"], "exclude": "x3 > 0"})
    assert d.hidden == ("x3",) and d.independent_of(0) and d.independent_of(1)


def test_the_truth_learner_refuses_a_dgp_with_hidden_features():
    with pytest.raises(ValueError, match=r"hidden feature\(s\) x3 \(DGP parameter hidden\)"):
        TrueFunction().bind(hidden_dgp("x1 + x3"))


@pytest.mark.parametrize("change, key, fragment", [
    ({"methods": {"pfi": {"method": "pfi", "params": {"n_repeats": 2, "features": ["x3"]}}}},
     "methods.pfi", "x3"),
    ({"learners": {"lm": {"learner": "truth"}}}, "scenarios.hidden.learners",
     "reads the hidden feature(s) x3"),
])
def test_check_refuses_a_hidden_feature_where_a_model_needs_it(root, capsys, monkeypatch, change,
                                                               key, fragment):
    """A method may name only the columns the model sees, and the truth learner (f itself)
    cannot predict without the hidden columns: both are caught before any job runs."""
    monkeypatch.setattr(os, "environ", dict(os.environ))
    study = copy.deepcopy(STUDY)
    study["scenarios"] = {"hidden": {
        "dgp": "formula", "n": 200, "reps": 2, "learners": ["lm"], "methods": ["pfi"],
        "params": {"features": {"x1": {"law": "normal"}, "x2": {"law": "normal"},
                                "x3": {"law": "normal"}},
                   "f": "x1 + x2 + x3", "hidden": ["x3"]}}}
    study.update(change)
    status, err = _check(root, _study_file(root, study), capsys)
    assert status == 2 and f"key {key}" in err and fragment in err, err


# --- categorical ----------------------------------------------------------------------------

CODED = {"x2": {"law": "categorical", "levels": ["a", "b", "c"]},
         "x1": "where(x2 == 0, uniform(0, 1) < 0.2, 1)",
         "x3": {"law": "bernoulli", "p": 0.5}, "x4": {"law": "normal"}}


def test_declared_codes_are_categorical_and_leave_the_draws_alone():
    plain = make_dgp("formula", {"features": CODED, "f": "x1 + x2 + x3 + x4", "noise_sd": 1})
    coded = make_dgp("formula", {"features": CODED, "f": "x1 + x2 + x3 + x4", "noise_sd": 1,
                                 "categorical": ["x3", "x1"]})
    assert plain.categorical == ("x2",)
    # in the order of the features; level names only for the categorical law
    assert coded.categorical == ("x2", "x1", "x3") and set(coded.levels) == {"x2"}
    pd.testing.assert_frame_equal(plain.sample(500, rng(3)), coded.sample(500, rng(3)))
    assert pickle.loads(pickle.dumps(coded)).categorical == coded.categorical


@pytest.mark.parametrize("declared, fragment", [
    (["x2"], "'x2' is not one of them; allowed: distinct visible features that are not a "
             "categorical law: x1, x3, x4"),
    (["x1", "x1"], "['x1', 'x1'] repeats"),
    (["x9"], "'x9' is not one of them"),
    (["x4"], "'x4' takes the value"),
])
def test_a_wrong_categorical_declaration_names_the_key(declared, fragment):
    with pytest.raises(ParamError) as err:
        make_dgp("formula", {"features": CODED, "f": "x1", "categorical": declared})
    assert err.value.key == "categorical" and fragment in str(err.value)
