"""The association measures of ``method: association`` (the LMU book's ch. 3.2): Pearson's r,
the corrected contingency coefficient K* and the variance-explained measure sqrt(R^2), against
hand computations and, where R is installed, against R's ``chisq.test`` and ``lm``."""

from __future__ import annotations

import shutil
import subprocess
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.association import (
    chi_squared,
    corrected_contingency,
    pearson,
    variance_explained,
)


def _from_table(table: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Two categorical vectors whose contingency table is ``table``."""
    a, b = [], []
    for i, row in enumerate(table):
        for j, count in enumerate(row):
            a += [i] * count
            b += [j] * count
    return np.array(a), np.array(b)


def test_kstar_of_a_2x2_table():
    """Table [[10, 20], [30, 40]]: margins 30/70 and 40/60, expected 12, 18, 28, 42, every
    cell off by 2, so chi2 = 4 (1/12 + 1/18 + 1/28 + 1/42) = 50/63; K* = sqrt(chi2 / (chi2 +
    100)) / sqrt(1/2)."""
    a, b = _from_table([[10, 20], [30, 40]])
    chi2 = 50 / 63
    assert chi_squared(a, b) == pytest.approx(chi2, rel=1e-12)
    assert corrected_contingency(a, b) == pytest.approx(
        np.sqrt(chi2 / (chi2 + 100)) / np.sqrt(0.5), rel=1e-12)


def test_kstar_of_3x3_tables():
    """A diagonal 3x3 table is perfect association: chi2 = n (M - 1) = 60 and K* = 1. The
    table [[10, 0, 10], [0, 20, 0], [10, 0, 10]] (n 60, every margin 20): every expected count
    is 20/3, so chi2 = (4 (10/3)^2 + 4 (20/3)^2 + (40/3)^2) / (20/3) = 60 and K* =
    sqrt(60/120) / sqrt(2/3). Proportional rows (independence) give 0."""
    a, b = _from_table([[10, 0, 0], [0, 10, 0], [0, 0, 10]])
    assert chi_squared(a, b) == pytest.approx(60.0, rel=1e-12)
    assert corrected_contingency(a, b) == pytest.approx(1.0, rel=1e-12)
    table = np.array([[10, 0, 10], [0, 20, 0], [10, 0, 10]], float)
    expected = np.outer(table.sum(1), table.sum(0)) / table.sum()  # 20*20/60 = 20/3 each
    assert np.allclose(expected, 20 / 3)
    assert float(((table - expected) ** 2 / expected).sum()) == pytest.approx(60.0)
    a, b = _from_table(table.astype(int).tolist())
    assert chi_squared(a, b) == pytest.approx(60.0, rel=1e-12)
    m = 3
    assert corrected_contingency(a, b) == pytest.approx(
        np.sqrt(60 / 120) / np.sqrt((m - 1) / m), rel=1e-12)
    a, b = _from_table([[5, 10, 15], [10, 20, 30], [1, 2, 3]])
    assert corrected_contingency(a, b) == pytest.approx(0.0, abs=1e-12)


def test_eta_is_the_correlation_with_an_explicit_lm_fit():
    rng = np.random.default_rng(3)
    g = rng.integers(1, 5, size=200)
    x = 0.3 * g + rng.normal(size=200)
    design = np.column_stack([np.ones(200)] + [(g == k).astype(float) for k in (2, 3, 4)])
    fitted = design @ np.linalg.lstsq(design, x, rcond=None)[0]
    assert variance_explained(x, g) == pytest.approx(np.corrcoef(x, fitted)[0, 1], rel=1e-10)
    assert variance_explained(x, np.zeros(200)) == pytest.approx(0.0, abs=1e-12)


def test_pearson_is_numpys():
    rng = np.random.default_rng(4)
    a, b = rng.normal(size=(2, 50))
    assert pearson(a, b) == pytest.approx(np.corrcoef(a, b)[0, 1], rel=1e-12)


def _ctx(X: np.ndarray, y: np.ndarray, names: list[str], categorical: tuple[str, ...]
         ) -> ExplainContext:
    return ExplainContext(model=None, X=X, y=y, feature_names=names,
                          dgp=SimpleNamespace(categorical=categorical), fit=None,
                          fixed_rng=None)


def test_the_method_names_each_pair_by_its_measure():
    """Pairs in the order of ``features``; ``categorical`` adds to the DGP's; ``target``
    appends y as a numeric variable."""
    rng = np.random.default_rng(5)
    season = rng.integers(1, 5, 120)
    month = season * 3 - rng.integers(0, 3, 120)
    temp = season + rng.normal(size=120)
    flag = rng.integers(0, 2, 120)
    X = np.column_stack([season, temp, month, flag]).astype(float)
    y = 2 * temp + rng.normal(size=120)
    ctx = _ctx(X, y, ["season", "temp", "mnth", "flag"], ("season", "mnth"))
    out = METHODS.get("association")(
        ctx, {"features": ["temp", "season", "mnth", "flag"], "categorical": ["flag"],
              "target": "cnt"}, np.random.default_rng(0))
    assert list(out.columns) == ["metric", "value"]
    assert out["metric"].tolist() == [
        "eta:temp:season", "eta:temp:mnth", "eta:temp:flag", "pearson:temp:cnt",
        "kstar:season:mnth", "kstar:season:flag", "eta:season:cnt", "kstar:mnth:flag",
        "eta:mnth:cnt", "eta:flag:cnt"]
    got = dict(zip(out["metric"], out["value"], strict=True))
    assert got["eta:temp:season"] == pytest.approx(variance_explained(temp, season))
    assert got["kstar:season:mnth"] == pytest.approx(corrected_contingency(season, month))
    assert got["kstar:season:mnth"] > 0.9  # the month determines the season
    assert got["pearson:temp:cnt"] == pytest.approx(pearson(temp, y))
    with pytest.raises(ValueError, match="target name 'temp'"):
        METHODS.get("association")(ctx, {"target": "temp"}, np.random.default_rng(0))


# ---------------------------------------------------------------- R parity

RSCRIPT = shutil.which("Rscript")


@pytest.mark.workflow  # starts Rscript
@pytest.mark.skipif(RSCRIPT is None, reason=(
    "R parity test skipped: Rscript is not installed (Debian: apt-get install r-base-core)"))
def test_kstar_and_eta_equal_rs(tmp_path):
    """K* from ``chisq.test(a, b, correct = FALSE)$statistic`` and sqrt(R^2) of
    ``lm(x ~ factor(g))`` on the same data agree with ours to 1e-10."""
    rng = np.random.default_rng(6)
    a = rng.integers(1, 5, 300)
    b = np.where(rng.random(300) < 0.6, a, rng.integers(1, 4, 300))
    x = a + rng.normal(size=300)
    pd.DataFrame({"a": a, "b": b, "x": x}).to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "p.R").write_text("""
        d <- read.csv("d.csv")
        chi2 <- unname(suppressWarnings(chisq.test(d$a, d$b, correct = FALSE))$statistic)
        m <- min(length(unique(d$a)), length(unique(d$b)))
        kstar <- sqrt(chi2 / (chi2 + nrow(d))) / sqrt((m - 1) / m)
        eta <- sqrt(summary(lm(x ~ factor(a), data = d))$r.squared)
        writeLines(sprintf("%.17g", c(kstar, eta)), "out.txt")
    """)
    res = subprocess.run([RSCRIPT, "p.R"], capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    kstar, eta = np.loadtxt(tmp_path / "out.txt")
    assert corrected_contingency(a, b) == pytest.approx(kstar, rel=1e-10)
    assert variance_explained(x, a) == pytest.approx(eta, rel=1e-10)
