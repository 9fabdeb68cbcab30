"""Learners that imitate an R function agree with R itself.

R is a test reference only (the workflow never needs it): each test runs ``Rscript`` on data
written here and compares R's numbers with ours. Where R or the R package is absent the tests
are skipped, saying so; CI installs both (``.ci/run``: Debian's ``r-base-core`` and
``r-cran-e1071``, ``r-cran-kernlab``, ``r-cran-earth``, ``r-cran-glmnet``,
``r-cran-randomforest``).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from imlbench.learners import make_learner

pytestmark = pytest.mark.workflow  # each test starts Rscript

RSCRIPT = shutil.which("Rscript")


def _r_has(package: str) -> bool:
    if RSCRIPT is None:
        return False
    res = subprocess.run([RSCRIPT, "-e", f"quit(status = !requireNamespace('{package}'))"],
                         capture_output=True)
    return res.returncode == 0


def _needs(package: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(not _r_has(package), reason=(
        f"R parity test skipped: Rscript with the R package {package} is not installed "
        f"(Debian: apt-get install r-base-core r-cran-{package.lower()})"))


NEEDS_R = pytest.mark.skipif(RSCRIPT is None, reason=(
    "R parity test skipped: Rscript is not installed (Debian: apt-get install r-base-core)"))


def _run_r(code: str, tmp_path: Path) -> None:
    script = tmp_path / "parity.R"
    script.write_text(code)
    res = subprocess.run([RSCRIPT, str(script)], capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode == 0, res.stderr


def _numbers(path: Path) -> np.ndarray:
    """The numbers R wrote one a line, its NA as NaN."""
    return np.array([float("nan") if v == "NA" else float(v) for v in path.read_text().split()])


@_needs("e1071")
def test_svm_e1071_predicts_as_e1071(tmp_path):
    """``svm_e1071`` against ``e1071::svm(x, y)`` with every default (eps-regression, RBF,
    gamma 1 / columns, cost 1, epsilon 0.1, x and y scaled): both fit with libsvm, so the
    predictions on new rows agree to 1e-6 (y in the hundreds, so relative 1e-8). The learner
    ``svm`` (y unscaled, population SD) is shown to differ, so the test can tell them apart."""
    r = np.random.default_rng(7)
    X = r.uniform(0, 10, size=(80, 3))
    y = 50 * np.sin(X[:, 0]) + 20 * X[:, 1] + r.normal(0, 5, 80) + 300
    Xq = r.uniform(0, 10, size=(25, 3))
    np.savetxt(tmp_path / "X.csv", X, delimiter=",", fmt="%.17g")
    np.savetxt(tmp_path / "y.csv", y, delimiter=",", fmt="%.17g")
    np.savetxt(tmp_path / "Xq.csv", Xq, delimiter=",", fmt="%.17g")
    _run_r("""
        library(e1071)
        X <- as.matrix(read.csv("X.csv", header = FALSE))
        y <- read.csv("y.csv", header = FALSE)[[1]]
        Xq <- as.matrix(read.csv("Xq.csv", header = FALSE))
        colnames(Xq) <- colnames(X)
        fit <- svm(X, y)
        writeLines(sprintf("%.17g", predict(fit, Xq)), "pred.txt")
    """, tmp_path)
    theirs = np.loadtxt(tmp_path / "pred.txt")
    ours = make_learner("svm_e1071", {}, random_state=0).fit(X, y).predict(Xq)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-6)
    other = make_learner("svm", {}, random_state=0).fit(X, y).predict(Xq)
    assert np.abs(other - theirs).max() > 1.0


@_needs("kernlab")
def test_sigest_equals_kernlab_on_the_same_row_pairs(tmp_path):
    """Our ``sigest`` against ``kernlab::sigest(x, scaled = FALSE)`` on R-scaled rows, given
    the row pairs kernlab draws: R draws them under a seed (``sample`` twice, as ``sigest``
    does) and hands them over, so both see the same pairs and must agree to rounding."""
    from imlbench.learners.kernel_svr import RScale, sigest

    r = np.random.default_rng(11)
    X = r.normal(size=(101, 4)) * [1, 10, 0.1, 3]
    np.savetxt(tmp_path / "X.csv", X, delimiter=",", fmt="%.17g")
    _run_r("""
        library(kernlab)
        x <- scale(as.matrix(read.csv("X.csv", header = FALSE)))
        set.seed(3)
        s <- sigest(x, scaled = FALSE)
        set.seed(3)
        m <- nrow(x); n <- floor(0.5 * m)
        index <- sample(1:m, n, replace = TRUE)
        index2 <- sample(1:m, n, replace = TRUE)
        writeLines(sprintf("%.17g", s), "sigest.txt")
        write.table(cbind(index, index2), "pairs.txt", row.names = FALSE, col.names = FALSE)
        writeLines(sprintf("%.17g", mean(s[c(1, 3)])), "sigma.txt")
    """, tmp_path)
    pairs = np.loadtxt(tmp_path / "pairs.txt", dtype=int) - 1
    scaled = RScale().fit_transform(X)
    ours = sigest(scaled, pairs[:, 0], pairs[:, 1])
    np.testing.assert_allclose(ours, np.loadtxt(tmp_path / "sigest.txt"), rtol=1e-12)
    sigma = np.loadtxt(tmp_path / "sigma.txt")
    assert (ours[0] + ours[2]) / 2 == pytest.approx(float(sigma), rel=1e-12)



# --- categorical features: R's model matrix (coding: treatment) ---------------------------

#: the columns of the mixed design: numeric a, a 4-level factor f, numeric b, a 3-level factor g
MIXED = ("a", "f", "b", "g")


def _draw_columns(r: np.random.Generator, n: int, levels: tuple[int, ...]) -> np.ndarray:
    """n rows of columns with the given ``levels``: 0 draws U(0, 10), k > 0 the codes
    0..k-1 in random order, every one present (n >= k)."""
    return np.column_stack([r.permutation(np.arange(n) % k).astype(float) if k else
                            r.uniform(0, 10, n) for k in levels])


def _factor_data(r: np.random.Generator, n: int, columns: tuple[str, ...]) -> np.ndarray:
    """Rows of ``columns``: ``f`` codes 0..3, ``g`` codes 0..2 (every level present), others
    numeric."""
    return _draw_columns(r, n, tuple({"f": 4, "g": 3}.get(c, 0) for c in columns))


def _factor_response(X: np.ndarray, columns: tuple[str, ...], r: np.random.Generator
                     ) -> np.ndarray:
    effects = {"a": lambda v: 30 * np.sin(v), "b": lambda v: 4 * v,
               "f": lambda v: np.array([0.0, 25, -10, 40])[v.astype(int)],
               "g": lambda v: np.array([5.0, -20, 15])[v.astype(int)]}
    return 200 + sum(effects[c](X[:, i]) for i, c in enumerate(columns)) + r.normal(0, 3, len(X))


def _write_frame(path: Path, X: np.ndarray, columns: tuple[str, ...],
                 y: np.ndarray | None = None) -> None:
    data, header = (X, columns) if y is None else (np.column_stack([X, y]), (*columns, "y"))
    np.savetxt(path, data, delimiter=",", fmt="%.17g", header=",".join(header), comments="")


def _factor_problem(tmp_path: Path, seed: int, n: int, columns: tuple[str, ...]
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Training rows X, y and 30 query rows of ``columns`` (``_factor_data``), drawn with
    ``seed`` and written for R as train.csv and query.csv."""
    r = np.random.default_rng(seed)
    X = _factor_data(r, n, columns)
    y = _factor_response(X, columns, r)
    Xq = _factor_data(r, 30, columns)
    _write_frame(tmp_path / "train.csv", X, columns, y)
    _write_frame(tmp_path / "query.csv", Xq, columns)
    return X, y, Xq


#: R code reading train.csv and query.csv (if present) with f and g as factors, the query's
#: with the training levels (as predict's model frame gives them)
_READ_FACTORS = """
    d <- read.csv("train.csv")
    for (v in intersect(c("f", "g"), names(d))) d[[v]] <- factor(d[[v]])
    if (file.exists("query.csv")) {
        q <- read.csv("query.csv")
        for (v in intersect(c("f", "g"), names(q))) q[[v]] <- factor(q[[v]], levels(d[[v]]))
    }
    write_matrix <- function(x, file) write.table(format(x, digits = 17), file,
                                                  row.names = FALSE, col.names = FALSE,
                                                  quote = FALSE, sep = ",")
"""


def _categorical(columns: tuple[str, ...]) -> list[int]:
    return [i for i, c in enumerate(columns) if c in ("f", "g")]


@NEEDS_R
def test_lm_treatment_coding_has_the_coefficients_of_r_lm(tmp_path):
    """``lm`` with ``coding: treatment`` against R's ``coef(lm(y ~ ., data))`` with f (4
    levels) and g (3 levels) R factors between two numeric columns: the same model matrix
    (treatment contrasts at each factor's position, the lowest level the reference), so the
    intercept and the 7 coefficients agree to 1e-8 relative. Our matrix (without the
    intercept column) is R's ``model.matrix(y ~ ., data)[, -1]`` exactly, and with
    ``coding: numeric`` (codes as numbers) the fit differs."""
    from imlbench.learners.model_matrix import ModelMatrix

    r = np.random.default_rng(21)
    X = _factor_data(r, 90, MIXED)
    y = _factor_response(X, MIXED, r)
    _write_frame(tmp_path / "train.csv", X, MIXED, y)
    _run_r(_READ_FACTORS + """
        writeLines(sprintf("%.17g", coef(lm(y ~ ., d))), "coef.txt")
        writeLines(names(coef(lm(y ~ ., d))), "names.txt")
        write_matrix(model.matrix(y ~ ., d)[, -1], "mm.csv")
    """, tmp_path)
    theirs = np.loadtxt(tmp_path / "coef.txt")
    assert (tmp_path / "names.txt").read_text().split() == [
        "(Intercept)", "a", "f1", "f2", "f3", "b", "g1", "g2"]
    model = make_learner("lm", {"coding": "treatment"}, 0, categorical=_categorical(MIXED))
    model.fit(X, y)
    ours = np.r_[model[-1].intercept_, model[-1].coef_]
    np.testing.assert_allclose(ours, theirs, rtol=1e-8)
    np.testing.assert_array_equal(model[0].transform(X),
                                  np.loadtxt(tmp_path / "mm.csv", delimiter=","))
    np.testing.assert_array_equal(ModelMatrix(_categorical(MIXED)).fit_transform(X),
                                  model[0].transform(X))
    numeric = make_learner("lm", {}, 0, categorical=_categorical(MIXED)).fit(X, y)
    assert len(numeric.coef_) == 4
    assert np.abs(numeric.predict(X) - model.predict(X)).max() > 1.0


@NEEDS_R
def test_lm_aliased_drop_has_the_coefficients_of_r_lm(tmp_path):
    """``lm`` with ``aliased: drop`` against R's ``coef(lm(y ~ ., data))`` on a design with an
    exact copy (x2 = x1) and a sum of two columns (x5 = x3 + x4): R gives the later column of
    each aliased set NA and the earlier ones the whole effect; ours gives NaN there and the
    same coefficients to 1e-8, where the default ``aliased: split`` shares the effect (x1 and
    x2 get one half each of 2)."""
    r = np.random.default_rng(5)
    x1, x3, x4 = r.normal(size=(3, 60))
    X = np.column_stack([x1, x1, x3, x4, x3 + x4])
    y = 2 * x1 + x3 - x4 + r.normal(0, 0.1, 60)
    np.savetxt(tmp_path / "X.csv", X, delimiter=",", fmt="%.17g")
    np.savetxt(tmp_path / "y.csv", y, delimiter=",", fmt="%.17g")
    _run_r("""
        X <- read.csv("X.csv", header = FALSE)
        d <- data.frame(X, y = read.csv("y.csv", header = FALSE)[[1]])
        writeLines(sprintf("%.17g", coef(lm(y ~ ., d))), "coef.txt")
    """, tmp_path)
    theirs = _numbers(tmp_path / "coef.txt")
    assert np.isnan(theirs[[2, 5]]).all() and not np.isnan(theirs[[0, 1, 3, 4]]).any()
    model = make_learner("lm", {"aliased": "drop"}, 0).fit(X, y)
    ours = np.r_[model.intercept_, model.coef_]
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(theirs))
    np.testing.assert_allclose(ours[~np.isnan(ours)], theirs[~np.isnan(theirs)], rtol=1e-8)
    split = make_learner("lm", {}, 0).fit(X, y)
    assert abs(split.coef_[0] - split.coef_[1]) < 1e-8 and abs(split.coef_[0] - 1) < 0.05


@_needs("e1071")
@pytest.mark.parametrize("columns", [MIXED, ("f", "g")], ids=["mixed", "factors_only"])
def test_svm_e1071_treatment_coding_predicts_as_the_e1071_formula(tmp_path, columns):
    """``svm_e1071`` with ``coding: treatment`` against ``e1071::svm(y ~ ., data)`` with f
    and g R factors, predicting new rows to 1e-6 (y in the hundreds). ``svm.formula`` drops
    the intercept before ``model.matrix``, so the first factor is coded by all 4 levels and g
    by 2 contrasts; it scales the numeric columns and not the dummies (``fit$scaled``,
    ``fit$x.scale``: the same columns, centres and SDs as ours), gamma = 1 / 8 model-matrix
    columns. On factors only, R scales no column and so not y either (``factors_only``)."""
    from sklearn.base import clone

    from imlbench.learners.model_matrix import ModelMatrix

    X, y, Xq = _factor_problem(tmp_path, 5, 100, columns)
    _run_r(_READ_FACTORS + """
        library(e1071)
        fit <- svm(y ~ ., d)
        writeLines(sprintf("%.17g", predict(fit, q)), "pred.txt")
        writeLines(sprintf("%.17g", fit$gamma), "gamma.txt")
        writeLines(as.character(as.integer(fit$scaled)), "scaled.txt")
        writeLines(sprintf("%.17g", c(fit$x.scale[[1]], fit$x.scale[[2]])), "xscale.txt")
        writeLines(sprintf("%.17g", c(fit$y.scale[[1]], fit$y.scale[[2]])), "yscale.txt")
        m <- model.frame(y ~ ., d)
        terms <- attr(m, "terms")
        attr(terms, "intercept") <- 0
        write_matrix(model.matrix(terms, m), "mm.csv")
    """, tmp_path)
    model = make_learner("svm_e1071", {"coding": "treatment"}, 0,
                         categorical=_categorical(columns)).fit(X, y)
    coding, svr = model.regressor_[0], model.regressor_[-1]
    np.testing.assert_allclose(model.predict(Xq), np.loadtxt(tmp_path / "pred.txt"),
                               rtol=0, atol=1e-6)
    mm = np.loadtxt(tmp_path / "mm.csv", delimiter=",")
    np.testing.assert_array_equal(clone(coding).set_params(scale=False).fit_transform(X), mm)
    # the e1071 matrix is not lm's: with k - 1 columns for f the predictions would differ
    assert mm.shape[1] == ModelMatrix(coding.categorical).fit(X).n_columns_ + 1
    assert svr._gamma == pytest.approx(float(np.loadtxt(tmp_path / "gamma.txt")), rel=1e-15)
    assert svr._gamma == 1 / mm.shape[1]
    scaled = np.loadtxt(tmp_path / "scaled.txt", dtype=int).astype(bool)
    np.testing.assert_array_equal(coding.scaled_, scaled)
    if scaled.any():
        x_scale = np.loadtxt(tmp_path / "xscale.txt")
        np.testing.assert_allclose(np.r_[coding.center_, coding.scale_], x_scale, rtol=1e-13)
        y_scale = np.loadtxt(tmp_path / "yscale.txt")
        ours = model.transformer_
        np.testing.assert_allclose(np.r_[ours.center_, ours.scale_], y_scale, rtol=1e-13)
    else:  # R scales neither x nor y
        assert (tmp_path / "yscale.txt").read_text().strip() == ""
        assert not hasattr(model.transformer_, "scale_")


@_needs("kernlab")
def test_sigest_of_treatment_coding_is_kernlabs_on_its_formula_matrix(tmp_path):
    """``gamma: sigest`` with ``coding: treatment`` takes kernlab's width on the matrix
    ``ksvm(y ~ ., data)`` builds: R fits ``ksvm(y ~ ., data, kpar = "automatic")`` under a seed
    and hands over the row pairs its ``sigest`` draws under that seed; our ``sigest`` on our
    scaled model matrix (first factor with all its levels, numeric columns scaled by R's
    ``scale()``, dummies 0/1) and those pairs gives ksvm's sigma to 1e-12, so both see the
    same matrix. Then ``ksvm(y ~ ., data, kpar = list(sigma = s))`` and ``svm_e1071`` with
    gamma s fit the same problem (kernlab's eps-svr solver is libsvm's too): their predictions
    on new rows agree to 1e-6 (1e-13 seen). ``gamma: sigest`` draws its pairs with the
    learner's seed, on the same matrix."""
    from imlbench.learners.kernel_svr import sigest, sigest_gamma
    from imlbench.learners.model_matrix import ModelMatrix

    X, y, Xq = _factor_problem(tmp_path, 13, 101, MIXED)
    _run_r(_READ_FACTORS + """
        library(kernlab)
        set.seed(3)
        fit <- ksvm(y ~ ., d, kpar = "automatic")
        sigma <- kpar(kernelf(fit))$sigma
        set.seed(3)
        m <- nrow(d); n <- floor(0.5 * m)
        index <- sample(1:m, n, replace = TRUE)
        index2 <- sample(1:m, n, replace = TRUE)
        write.table(cbind(index, index2), "pairs.txt", row.names = FALSE, col.names = FALSE)
        writeLines(sprintf("%.17g", sigma), "sigma.txt")
        fixed <- ksvm(y ~ ., d, kpar = list(sigma = sigma))
        writeLines(sprintf("%.17g", predict(fixed, q)), "pred.txt")
    """, tmp_path)
    pairs = np.loadtxt(tmp_path / "pairs.txt", dtype=int) - 1
    sigma = float(np.loadtxt(tmp_path / "sigma.txt"))
    Z = ModelMatrix(_categorical(MIXED), intercept=False, scale=True).fit_transform(X)
    assert Z.shape[1] == 8
    s = sigest(Z, pairs[:, 0], pairs[:, 1])
    assert (s[0] + s[2]) / 2 == pytest.approx(sigma, rel=1e-12)
    ours = make_learner("svm_e1071", {"coding": "treatment", "gamma": sigma}, 0,
                        categorical=_categorical(MIXED)).fit(X, y).predict(Xq)
    np.testing.assert_allclose(ours, np.loadtxt(tmp_path / "pred.txt"), rtol=0, atol=1e-6)
    drawn = make_learner("svm_e1071", {"coding": "treatment", "gamma": "sigest"}, 4,
                         categorical=_categorical(MIXED)).fit(X, y)
    assert drawn.regressor_[-1].sigest_ == sigest_gamma(Z, np.random.default_rng(4))


#: the book_pdp study's folder in this project
BOOK_PDP = Path(__file__).resolve().parents[1] / "config" / "studies" / "book_pdp"


@_needs("e1071")
@pytest.mark.parametrize("scenario", ["catx1x2", "catx1x3"])
def test_book_categorical_svm_has_the_pdps_of_e1071_with_factors(tmp_path, scenario):
    """The ch. 3.3.5 SVM of book_pdp on one data set of cases 2 and 3 against the book's
    ``svm(Y ~ ., data)`` (mlr's ``regr.svm``) with ``X1`` and ``X2`` R factors
    (``as.factor``, as the book's code): the PDPs of x1 and x2 at their levels and of x3 on
    10 points agree to 1e-5 when both solve to libsvm's tolerance 1e-7 (at their common
    default 1e-3 the two libsvm builds stop at solutions some 0.005 apart on these 1,000
    rows). The study declares x1 categorical, so the learner codes it as
    e1071 does (two unscaled indicators); coding x1 as a scaled number instead, the design the
    study used before, moves some PDP value by more than 0.01 (y has a spread of about 10)."""
    from imlbench import stages
    from imlbench.config import load_study
    from imlbench.explain.effects import partial_dependence

    study = load_study(BOOK_PDP, "default")
    sc = study.scenarios[scenario]
    df = stages.simulate(study, sc, 0, 2021)
    features = ["x1", "x2", "x3"]
    X, y = df[features].to_numpy(), df["y"].to_numpy()
    dgp = stages.realized_dgp(study, sc, 0, 2021)
    categorical = stages.categorical_columns(study, "g_svm", dgp, features)
    assert categorical == (0, 1)
    grid = np.linspace(X[:, 2].min(), X[:, 2].max(), 10)
    np.savetxt(tmp_path / "grid.txt", grid, fmt="%.17g")
    _write_frame(tmp_path / "train.csv", X, tuple(features), y)
    _run_r("""
        library(e1071)
        d <- read.csv("train.csv")
        d$x1 <- factor(d$x1)
        d$x2 <- factor(d$x2)
        fit <- svm(y ~ ., d, tolerance = 1e-7)
        pd <- function(feature, values) sapply(values, function(v) {
            e <- d
            e[[feature]] <- if (is.factor(d[[feature]])) factor(v, levels(d[[feature]])) else v
            mean(predict(fit, e))
        })
        grid <- scan("grid.txt", quiet = TRUE)
        writeLines(sprintf("%.17g", c(pd("x1", levels(d$x1)), pd("x2", levels(d$x2)),
                                      pd("x3", grid))), "pd.txt")
    """, tmp_path)
    expected = np.loadtxt(tmp_path / "pd.txt")

    def pds(model) -> np.ndarray:
        return np.concatenate([partial_dependence(model.predict, X, j, values) for j, values in
                               ((0, np.unique(X[:, 0])), (1, np.unique(X[:, 1])), (2, grid))])

    params = {**study.learners["g_svm"]["params"], "tol": 1e-7}
    ours = pds(make_learner("svm_e1071", params, 0, categorical=categorical).fit(X, y))
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-5)
    numeric_x1 = pds(make_learner("svm_e1071", params, 0, categorical=(1,)).fit(X, y))
    assert np.abs(numeric_x1 - expected).max() > 0.01


# --- six designs per learner: svm_e1071, kernlab's width, lm ------------------------------


@dataclass(frozen=True)
class Design:
    """A regression problem for the parity tests: ``n`` training and 30 query rows of
    ``columns`` drawn with ``seed`` (``levels``: 0 a U(0, 10) column, k > 0 integer codes
    0..k-1; the columns named f and g are categorical, :func:`_categorical`), y =
    ``response(X, r)``. ``alias`` gives, from the training rows, a column aliased with their
    model matrix (intercept and treatment-coded factors) for the ``lm`` tests; on the query
    rows that column is drawn U(0, 10) instead, so the aliasing does not hold there (as on a
    PD grid)."""

    columns: tuple[str, ...]
    levels: tuple[int, ...]
    n: int
    seed: int
    response: Callable[[np.ndarray, np.random.Generator], np.ndarray]
    alias: Callable[[np.ndarray], np.ndarray]


F4 = np.array([0.0, 25, -10, 40])  # effects of the 4 levels of f
G3 = np.array([5.0, -20, 15])  # effects of the 3 levels of g
#: x1..x26 numeric, z 0/1 numeric, f and g factors: p = 29
WIDE = (*(f"x{j}" for j in range(1, 27)), "z", "f", "g")

DESIGNS = {
    "continuous": Design(
        ("a", "b", "c"), (0, 0, 0), 80, 31,
        lambda X, r: 300 + 50 * np.sin(X[:, 0]) + 20 * X[:, 1] - 5 * X[:, 2] + r.normal(0, 5, 80),
        lambda X: X[:, 0] + X[:, 1]),
    "binary": Design(  # f with two levels: a 0/1 feature (a 2-level factor when treatment-coded)
        ("a", "f", "b"), (0, 2, 0), 80, 32,
        lambda X, r: 200 + 30 * np.sin(X[:, 0]) + 25 * X[:, 1] + 4 * X[:, 2] + r.normal(0, 3, 80),
        lambda X: 1 - X[:, 1]),
    "factor": Design(
        MIXED, (0, 4, 0, 3), 90, 33,
        lambda X, r: _factor_response(X, MIXED, r),
        lambda X: (X[:, 1] == 2).astype(float)),
    "wide": Design(
        WIDE, (*(0,) * 26, 2, 4, 3), 100, 34,
        lambda X, r: (100 + 10 * np.sin(X[:, 0]) + 5 * X[:, 1] - 2 * X[:, 2] + 8 * X[:, 26]
                      + F4[X[:, 27].astype(int)] + G3[X[:, 28].astype(int)]
                      + r.normal(0, 3, 100)),
        lambda X: X[:, 2] - 2 * X[:, 4]),
    "noise": Design(  # y independent of X
        MIXED, (0, 4, 0, 3), 60, 35,
        lambda X, r: r.normal(10, 2, 60),
        lambda X: X[:, 2].copy()),
    "small": Design(
        ("a", "f", "b"), (0, 4, 0), 20, 36,
        lambda X, r: 200 + 30 * np.sin(X[:, 0]) + F4[X[:, 1].astype(int)] + 4 * X[:, 2]
        + r.normal(0, 3, 20),
        lambda X: 2 * X[:, 2] + 1),
}


def _design_problem(tmp_path: Path, design: Design, alias: bool = False
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """X, y and the query rows Xq of ``design``, written for R as train.csv and query.csv;
    with ``alias`` both get the aliased column h last (``Design.alias``)."""
    r = np.random.default_rng(design.seed)
    X = _draw_columns(r, design.n, design.levels)
    y = design.response(X, r)
    Xq = _draw_columns(r, 30, design.levels)
    columns = design.columns
    if alias:
        X = np.column_stack([X, design.alias(X)])
        Xq = np.column_stack([Xq, r.uniform(0, 10, 30)])
        columns = (*columns, "h")
    _write_frame(tmp_path / "train.csv", X, columns, y)
    _write_frame(tmp_path / "query.csv", Xq, columns)
    return X, y, Xq


#: R code (after _READ_FACTORS) with train.csv and query.csv as numeric matrices: x and xq
#: (the codes of f and g as numbers), as ``svm(x, y)`` and ``ksvm(x, y)`` are called
_READ_MATRICES = """
    x <- as.matrix(read.csv("train.csv"))
    x <- x[, colnames(x) != "y", drop = FALSE]
    xq <- as.matrix(read.csv("query.csv"))
"""


@_needs("e1071")
@pytest.mark.parametrize("name", DESIGNS)
def test_svm_e1071_predicts_as_e1071_on_six_designs(tmp_path, name):
    """``svm_e1071`` with every default against ``e1071::svm(x, y)`` on the numeric matrix
    (f and g codes as numbers), and with ``coding: treatment`` against ``svm(y ~ ., data)``
    with f and g R factors, on each design: both fit with libsvm, so the predictions on the
    query rows agree to 1e-6 (libsvm's own rounding, 1e-13 seen; y between 10 and a few
    hundred). That needs the scaled x and y bit for bit: the centres and SDs of x and y are
    R's ``scale()``'s exactly (with numpy's mean and SD, one last bit of y's SD moved the
    ``binary`` treatment-coded fit by 0.018, libsvm stopping elsewhere within its tolerance
    1e-3). Without categorical columns (``continuous``) the two codings are one learner and
    R's two interfaces one fit."""
    design = DESIGNS[name]
    X, y, Xq = _design_problem(tmp_path, design)
    _run_r(_READ_FACTORS + _READ_MATRICES + """
        library(e1071)
        fits <- list(numeric = svm(x, d$y), treatment = svm(y ~ ., d))
        news <- list(numeric = xq, treatment = q)
        for (coding in names(fits)) {
            fit <- fits[[coding]]
            writeLines(sprintf("%.17g", predict(fit, news[[coding]])), paste0(coding, ".txt"))
            writeLines(sprintf("%.17g", unlist(c(fit$x.scale, fit$y.scale))),
                       paste0(coding, "_scale.txt"))
        }
    """, tmp_path)
    categorical = _categorical(design.columns)
    for coding in ("numeric", "treatment"):
        model = make_learner("svm_e1071", {"coding": coding}, 0, categorical=categorical)
        np.testing.assert_allclose(model.fit(X, y).predict(Xq),
                                   np.loadtxt(tmp_path / f"{coding}.txt"), rtol=0, atol=1e-6,
                                   err_msg=f"coding: {coding}")
        x_scale, y_scale = model.regressor_[0], model.transformer_
        np.testing.assert_array_equal(
            np.r_[x_scale.center_, x_scale.scale_, y_scale.center_, y_scale.scale_],
            np.loadtxt(tmp_path / f"{coding}_scale.txt"), err_msg=f"coding: {coding}")


@_needs("kernlab")
@pytest.mark.parametrize("name", DESIGNS)
def test_sigest_is_kernlabs_on_six_designs(tmp_path, name):
    """``gamma: sigest`` against ``kernlab::ksvm(kpar = "automatic")`` on each design, on the
    numeric matrix (``ksvm(x, y)``, coding numeric) and with f and g R factors (``ksvm(y ~ .,
    data)``, ``coding: treatment``). kernlab draws its row pairs with R's generator, ours with
    numpy's, so R fits under a seed and hands over the pairs ``sample`` draws under that seed
    (the same for both interfaces: they depend on the row count only): our ``sigest`` on our
    scaled matrix and those pairs gives ksvm's sigma to 1e-12 (rounding of one quantile).
    With that sigma as gamma, ``svm_e1071`` predicts the query rows as ``ksvm(..., kpar =
    list(sigma = sigma))`` to 1e-6 (kernlab's eps-svr solver is libsvm's). ``gamma: sigest``
    itself draws its pairs with the learner's seed on that same matrix."""
    from imlbench.learners.kernel_svr import RScale, sigest, sigest_gamma
    from imlbench.learners.model_matrix import ModelMatrix

    design = DESIGNS[name]
    X, y, Xq = _design_problem(tmp_path, design)
    _run_r(_READ_FACTORS + _READ_MATRICES + """
        library(kernlab)
        fits <- list(numeric = function(k) ksvm(x, d$y, kpar = k),
                     treatment = function(k) ksvm(y ~ ., d, kpar = k))
        news <- list(numeric = xq, treatment = q)
        for (coding in names(fits)) {
            set.seed(3)
            sigma <- kpar(kernelf(fits[[coding]]("automatic")))$sigma
            writeLines(sprintf("%.17g", sigma), paste0(coding, "_sigma.txt"))
            pred <- predict(fits[[coding]](list(sigma = sigma)), news[[coding]])
            writeLines(sprintf("%.17g", pred), paste0(coding, "_pred.txt"))
        }
        set.seed(3)
        m <- nrow(d); n <- floor(0.5 * m)
        index <- sample(1:m, n, replace = TRUE)
        index2 <- sample(1:m, n, replace = TRUE)
        write.table(cbind(index, index2), "pairs.txt", row.names = FALSE, col.names = FALSE)
    """, tmp_path)
    pairs = np.loadtxt(tmp_path / "pairs.txt", dtype=int) - 1
    categorical = _categorical(design.columns)
    scaled = {"numeric": RScale().fit_transform(X),
              "treatment": ModelMatrix(categorical, intercept=False, scale=True).fit_transform(X)}
    for coding, Z in scaled.items():
        sigma = float(np.loadtxt(tmp_path / f"{coding}_sigma.txt"))
        s = sigest(Z, pairs[:, 0], pairs[:, 1])
        assert (s[0] + s[2]) / 2 == pytest.approx(sigma, rel=1e-12), coding
        params = {"coding": coding, "gamma": sigma}
        ours = make_learner("svm_e1071", params, 0, categorical=categorical).fit(X, y)
        np.testing.assert_allclose(ours.predict(Xq), np.loadtxt(tmp_path / f"{coding}_pred.txt"),
                                   rtol=0, atol=1e-6, err_msg=f"coding: {coding}")
        drawn = make_learner("svm_e1071", {"coding": coding, "gamma": "sigest"}, 4,
                             categorical=categorical).fit(X, y)
        svr = drawn.regressor_[-1]
        assert svr.sigest_ == sigest_gamma(Z, np.random.default_rng(4))


@NEEDS_R
@pytest.mark.parametrize("name", DESIGNS)
def test_lm_treatment_coding_predicts_as_r_lm_on_six_designs(tmp_path, name):
    """``lm`` with ``coding: treatment`` against R's ``lm(y ~ ., data)`` with f and g R
    factors, on each design as drawn and with the aliased column h added last (an exact copy,
    linear combinations of columns, 1 - a 0/1 factor, a factor's dummy, 2 b + 1). Without h, both
    ``aliased: split`` and ``aliased: drop`` have R's coefficients and predict the query rows
    as R does. With h, R gives h the coefficient NA: ``aliased: drop`` gives it NaN and has
    R's other coefficients and R's predictions on query rows where h is not aliased (R's
    ``predict`` leaves NA terms out); ``aliased: split`` shares the effect with h and predicts
    those rows otherwise (by 0.003 to 0.46 of max |y| seen; checked: more than 1e-3). Both
    solve least squares in double precision (R by Householder QR, ours by SVD, after the
    Gram-Schmidt selection with ``drop``), so they differ by rounding of order cond x machine
    epsilon: the model matrices here have condition numbers of 23 to 330, so at most some 1e-13
    of max |y| (predictions) and of the largest coefficient (coefficients); 4e-15 seen; the
    checks allow 1e-12."""
    design = DESIGNS[name]
    X, y, Xq = _design_problem(tmp_path, design, alias=True)
    _run_r(_READ_FACTORS + """
        for (suffix in c("", "_h")) {
            fit <- lm(if (suffix == "") y ~ . - h else y ~ ., d)
            writeLines(sprintf("%.17g", coef(fit)), paste0("coef", suffix, ".txt"))
            pred <- suppressWarnings(predict(fit, q))  # warns of the rank-deficient fit
            writeLines(sprintf("%.17g", pred), paste0("pred", suffix, ".txt"))
        }
    """, tmp_path)
    categorical = _categorical(design.columns)
    scale = np.abs(y).max()

    def fit(aliased: str, with_h: bool) -> tuple[np.ndarray, np.ndarray]:
        cols = slice(None) if with_h else slice(0, -1)
        model = make_learner("lm", {"coding": "treatment", "aliased": aliased}, 0,
                             categorical=categorical).fit(X[:, cols], y)
        ols = model[-1] if categorical else model
        return np.r_[ols.intercept_, ols.coef_], model.predict(Xq[:, cols])

    for suffix, with_h in (("", False), ("_h", True)):
        coef = _numbers(tmp_path / f"coef{suffix}.txt")
        pred = _numbers(tmp_path / f"pred{suffix}.txt")
        assert np.isnan(coef).sum() == with_h
        for aliased in ("split", "drop"):
            ours_coef, ours_pred = fit(aliased, with_h)
            if with_h and aliased == "split":  # no NaN; h shares an effect: other predictions
                assert not np.isnan(ours_coef).any()
                assert np.abs(ours_pred - pred).max() > 1e-3 * scale
                continue
            np.testing.assert_array_equal(np.isnan(ours_coef), np.isnan(coef))
            known = ~np.isnan(coef)
            np.testing.assert_allclose(ours_coef[known], coef[known], rtol=0,
                                       atol=1e-12 * np.abs(coef[known]).max(), err_msg=aliased)
            np.testing.assert_allclose(ours_pred, pred, rtol=0, atol=1e-12 * scale,
                                       err_msg=aliased)


# --- additive MARS against earth ----------------------------------------------------------


@_needs("glmnet")
def test_lime_ridge_is_glmnets_until_the_kernel_weights_underflow(tmp_path):
    """Our LIME surrogate fit (``weighted_ridge``, glmnet's penalty in closed form) against R
    lime's ``glmnet(x, y, weights, alpha = 0, lambda = 0.001)`` on the same samples and weights:
    a linear black box 5 + 4 x1 - 3 x2 + 5 x3, 1,000 normal samples, the explained point first,
    the kernel sqrt(exp(-d^2 / w^2)) on the sd-standardised distance (book ch. 13, Fig. 13.7).
    At width 0.3 both recover the slope 4 of x1 and agree to 0.01. At width 0.025 nearly every
    weight but the point's underflows (exp below 1e-300): glmnet then returns x1's coefficient 0
    or near it in most draws, our solver a scattered value, so the two differ (ch13-linear-small-
    fails, benchmarks/book_evidence/ch13_lime_glmnet_rerun.R)."""
    from imlbench.explain.lime import weighted_ridge

    r = np.random.default_rng(3)
    draws, n = 20, 1000
    mean, sd, x = np.full(3, 5.0), np.array([1.0, 0.95, 0.9]), np.array([4.4, 6.1, 5.8])
    lines, ours = [], {}
    for width in (0.3, 0.025):
        for k in range(draws):
            Z = r.normal(mean, sd, size=(n, 3))
            Z[0] = x
            t = 5 + Z @ np.array([4.0, -3.0, 5.0])
            w = np.sqrt(np.exp(-(((Z - x) / sd) ** 2).sum(axis=1) / width**2))
            ours[width, k] = weighted_ridge(Z, t, w, 0.001)[0][0]
            lines += [",".join(f"{v:.17g}" for v in (width, k, *Z[i], t[i], w[i]))
                      for i in range(n)]
    (tmp_path / "s.csv").write_text("width,draw,x1,x2,x3,t,w\n" + "\n".join(lines) + "\n")
    _run_r("""
        suppressMessages(library(glmnet))
        d <- read.csv("s.csv")
        b <- sapply(split(d, list(d$width, d$draw)), function(g) c(g$width[1], g$draw[1],
          coef(glmnet(as.matrix(g[, c("x1", "x2", "x3")]), g$t, weights = g$w, alpha = 0,
                      lambda = 0.001))[2]))
        write.table(t(b), "b1.txt", row.names = FALSE, col.names = FALSE)
    """, tmp_path)
    theirs = {(w, int(k)): b for w, k, b in np.loadtxt(tmp_path / "b1.txt", ndmin=2)}
    for width in (0.3, 0.025):
        g = np.array([theirs[width, k] for k in range(draws)])
        o = np.array([ours[width, k] for k in range(draws)])
        if width == 0.3:
            np.testing.assert_allclose(o, g, rtol=0, atol=0.01)
            np.testing.assert_allclose(g, 4.0, rtol=0, atol=0.01)
        else:
            assert (np.abs(g) < 0.5).sum() >= 12  # glmnet: 0 or near it (16 of 20)
            assert (np.abs(o) < 0.5).sum() <= 5  # ours: scattered (2 of 20)
            assert np.median(np.abs(o - g)) > 1
