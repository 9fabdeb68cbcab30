"""Learners that imitate an R function agree with R itself.

R is a test reference only (the workflow never needs it): each test runs ``Rscript`` on data
written here and compares R's numbers with ours. Where R or the R package is absent the tests
are skipped, saying so; CI installs both (``.ci/run``: Debian's ``r-base-core`` and
``r-cran-e1071``, ``r-cran-kernlab``).
"""

from __future__ import annotations

import shutil
import subprocess
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

