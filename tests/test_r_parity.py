"""Learners that imitate an R function agree with R itself.

R is a test reference only (the workflow never needs it): each test runs ``Rscript`` on data
written here and compares R's numbers with ours. Where R or the R package is absent the tests
are skipped, saying so; CI installs both (``.ci/run``: Debian's ``r-base-core`` and
``r-cran-e1071``, ``r-cran-kernlab``, ``r-cran-earth``, ``r-cran-glmnet``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from mars_truths import draw, one_knot, two_knot

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


def _factor_data(r: np.random.Generator, n: int, columns: tuple[str, ...]) -> np.ndarray:
    """Rows of ``columns``: ``f`` codes 0..3, ``g`` codes 0..2 (every level present), others
    numeric."""
    out = []
    for name in columns:
        if name in ("f", "g"):
            k = 4 if name == "f" else 3
            out.append(r.permutation(np.arange(n) % k).astype(float))
        else:
            out.append(r.uniform(0, 10, n))
    return np.column_stack(out)


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
    theirs = np.array([float("nan") if v == "NA" else float(v)
                       for v in (tmp_path / "coef.txt").read_text().split()])
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


# --- additive MARS against earth ----------------------------------------------------------


@_needs("earth")
@pytest.mark.parametrize("truth, n, seed", [(one_knot, 2250, 1), (two_knot, 2700, 2)])
def test_mars_fits_as_earth(tmp_path, truth, n, seed):
    """``mars`` against ``earth(x, y)`` with every default on the book's ch. 13 one-knot and
    two-knot truths with the authors' heteroscedastic noise (90% of their n): the selected
    terms are earth's, each knot the same data value (to 1e-12), and the predictions on new
    rows agree to 1e-8 (y near 20: earth fits on a scaled y, so rounding differs)."""
    X, y = draw(truth, n, seed, noise=True)
    Xq, _ = draw(truth, 300, seed + 100)
    np.savetxt(tmp_path / "X.csv", X, delimiter=",", fmt="%.17g")
    np.savetxt(tmp_path / "y.csv", y, delimiter=",", fmt="%.17g")
    np.savetxt(tmp_path / "Xq.csv", Xq, delimiter=",", fmt="%.17g")
    _run_r("""
        suppressMessages(library(earth))
        X <- as.matrix(read.csv("X.csv", header = FALSE))
        y <- read.csv("y.csv", header = FALSE)[[1]]
        Xq <- as.matrix(read.csv("Xq.csv", header = FALSE))
        colnames(Xq) <- colnames(X)
        fit <- earth(X, y)
        writeLines(sprintf("%.17g", predict(fit, Xq)), "pred.txt")
        used <- fit$selected.terms[-1]
        dirs <- fit$dirs[used, , drop = FALSE]
        cuts <- fit$cuts[used, , drop = FALSE]
        j <- apply(dirs != 0, 1, which)
        terms <- cbind(j - 1, cuts[cbind(seq_along(j), j)], dirs[cbind(seq_along(j), j)])
        write.table(terms, "terms.txt", row.names = FALSE, col.names = FALSE)
    """, tmp_path)
    theirs = np.loadtxt(tmp_path / "terms.txt", ndmin=2)
    fit = make_learner("mars", {}, random_state=0).fit(X, y)
    # earth codes a linear term as direction 2 with cut 0; ours as 0 with the minimum
    ours = np.array([(j, t if d else 0.0, d if d else 2) for j, t, d in fit.terms_])
    np.testing.assert_allclose(_rows_sorted(ours), _rows_sorted(theirs), rtol=1e-12, atol=0)
    knotted = 0 if truth is one_knot else 1  # the feature whose truth has knots
    assert any(j == knotted for j, _ in fit.knots_)
    np.testing.assert_allclose(fit.predict(Xq), np.loadtxt(tmp_path / "pred.txt"), rtol=0,
                               atol=1e-8)


def _rows_sorted(a: np.ndarray) -> np.ndarray:
    """The rows of ``a`` in lexicographic order (first column first)."""
    return a[np.lexsort(a.T[::-1])]


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
