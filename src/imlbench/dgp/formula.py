"""A DGP written out in the study file: feature laws, dependence, structural equations and f.

``dgp: formula`` takes plain YAML data (see :class:`FormulaDGP`)::

    features:                  # in order
      x1: {law: normal, mean: 0, sd: 1}
      x2: {law: uniform, low: 0, high: 1}
      x3: {law: bernoulli, p: 0.3}
      x4: {law: categorical, levels: [a, b, c], p: [0.2, 0.3, 0.5]}   # codes 0..k-1
      x5: {law: integers, low: 0, high: 5}                            # inclusive
      x6: "x1 + normal(0, 0.1)"        # a structural equation over earlier features
    dependence:                # optional: a Gaussian copula over marginal-law features
      features: [x1, x2]
      correlation: [[1, 0.5], [0.5, 1]]
    f: "2*x1 + x2 - x3 + x1*x2"
    noise_sd: 1.0              # y = f + N(0, noise_sd^2)
    link: identity             # or logistic: y ~ Bernoulli(1 / (1 + exp(-f)))

The copula correlation is that of the normal scores z_k = Phi^-1(F_k(x_k)); a block of normal
marginals is therefore a multivariate normal with that correlation. Expressions follow
:mod:`imlbench.dgp.expressions`; random terms (``normal``, ``uniform``) appear in structural
equations only. The exact conditional law (``has_conditional``) is known when no feature is a
structural equation and every copula feature is continuous (normal or uniform): Gaussian
conditioning of the normal scores within the copula block, the marginal law elsewhere.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats
from scipy.special import expit, ndtr, ndtri

from imlbench.dgp.base import DGP, DGPS
from imlbench.dgp.expressions import (
    CONSTANTS,
    FUNCTIONS,
    RANDOM,
    Expression,
    ExpressionError,
    parse,
)
from imlbench.params import (
    Param,
    ParamError,
    check,
    check_all,
    choice,
    either,
    integer,
    items,
    number,
    table,
    text,
    with_defaults,
)

#: the declared parameters of each marginal law (``law`` itself included)
LAWS: dict[str, dict[str, Param]] = {
    "normal": {"mean": number(0.0), "sd": number(1.0, above=0)},
    "uniform": {"low": number(0.0), "high": number(1.0)},
    "bernoulli": {"p": number(above=0, below=1)},
    "categorical": {"levels": items(either(text(), number())),
                    "p": items(number(minimum=0), None, nullable=True)},
    "integers": {"low": integer(), "high": integer()},
}
LINKS = ("identity", "logistic")
#: the correlation is checked as a whole (symmetric, unit diagonal, positive definite)
DEPENDENCE = {"features": items(text()), "correlation": items(items(number()))}
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
RESERVED = {*FUNCTIONS, *RANDOM, *CONSTANTS, "y"}
#: rows drawn once by the constructor, so that an expression that is not finite on the
#: features' law (``log`` of a normal feature, a negative sd) fails the configuration check
PILOT_ROWS = 1000
#: probabilities of the normal scores are kept this far inside (0, 1)
EPS = 1e-12


@dataclass(frozen=True)
class Marginal:
    """A feature's own law: ``law`` (a key of :data:`LAWS`), its frozen scipy distribution,
    and the level names of a categorical feature."""

    law: str
    dist: Any
    levels: tuple[Any, ...] = ()

    @property
    def continuous(self) -> bool:
        return self.law in ("normal", "uniform")

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return np.asarray(self.dist.rvs(size=n, random_state=rng), dtype=float)

    def from_score(self, z: np.ndarray) -> np.ndarray:
        """The feature value whose normal score is ``z`` (the copula's quantile map)."""
        if self.law == "normal":
            return self.dist.mean() + self.dist.std() * z
        return np.asarray(self.dist.ppf(np.clip(ndtr(z), EPS, 1 - EPS)), dtype=float)

    def to_score(self, x: np.ndarray) -> np.ndarray:
        """The normal score Phi^-1(F(x)) of a continuous feature's values."""
        if self.law == "normal":
            return (x - self.dist.mean()) / self.dist.std()
        return ndtri(np.clip(self.dist.cdf(x), EPS, 1 - EPS))


def _marginal(name: str, spec: Mapping[str, Any]) -> Marginal:
    """The law of feature ``name`` from its study-file mapping, checked."""
    key = f"features.{name}"
    law = spec.get("law")
    check(choice(None, tuple(LAWS)), law, f"{key}.law")
    declared = {"law": text(), **LAWS[law]}
    check_all(declared, spec, key, f"law {law!r}")
    v = with_defaults(LAWS[law], spec)
    if law == "normal":
        return Marginal(law, stats.norm(v["mean"], v["sd"]))
    if law in ("uniform", "integers") and not v["high"] > v["low"]:
        raise ParamError(f"{key}.high", f"{v['high']!r} is not above low = {v['low']!r}; "
                                        f"allowed: high > low")
    if law == "uniform":
        return Marginal(law, stats.uniform(v["low"], v["high"] - v["low"]))
    if law == "integers":
        return Marginal(law, stats.randint(v["low"], v["high"] + 1))
    if law == "bernoulli":
        return Marginal(law, stats.bernoulli(v["p"]))
    levels = list(v["levels"])
    if len(levels) < 2 or len(set(map(str, levels))) < len(levels):
        raise ParamError(f"{key}.levels", f"{levels!r}; allowed: at least two distinct levels")
    p = np.full(len(levels), 1 / len(levels)) if v.get("p") is None else np.asarray(v["p"], float)
    if len(p) != len(levels) or abs(p.sum() - 1) > 1e-9:
        raise ParamError(f"{key}.p", f"{v['p']!r} (sum {p.sum():g}); allowed: {len(levels)} "
                                     f"probabilities, one per level, summing to 1")
    return Marginal(law, stats.rv_discrete(values=(np.arange(len(levels)), p)), tuple(levels))


def _check_name(name: Any) -> None:
    if not (isinstance(name, str) and NAME.fullmatch(name)) or keyword.iskeyword(name) \
            or name in RESERVED:
        raise ParamError(f"features.{name}", f"feature name {name!r} is not allowed; allowed: a "
                         f"letter, then letters, digits or _, other than "
                         f"{', '.join(sorted(RESERVED))} and Python keywords")


def _correlation(value: Any, size: int) -> np.ndarray:
    key = "dependence.correlation"
    R = np.asarray(value, dtype=float) if all(isinstance(r, list | tuple) and len(r) == size
                                              for r in value) else None
    if R is None or R.shape != (size, size):
        raise ParamError(key, f"{value!r} is not a {size} x {size} matrix; allowed: one row "
                              f"and column per feature of dependence.features")
    if not (np.allclose(R, R.T) and np.allclose(np.diag(R), 1)):
        raise ParamError(key, "not symmetric with unit diagonal; allowed: a correlation matrix")
    smallest = float(np.linalg.eigvalsh(R)[0])
    if smallest <= 1e-10:
        raise ParamError(key, f"not positive definite (smallest eigenvalue {smallest:.3g}); "
                              f"allowed: a positive definite correlation matrix")
    np.fill_diagonal(R, 1.0)
    return R


@DGPS.register("formula")
class FormulaDGP(DGP):
    """The DGP a study file writes out (see the module doc).

    ``features``: name -> a law (a mapping with ``law`` and its parameters) or a structural
    equation (an expression over earlier features, with random terms); ``dependence``: the
    copula block (``features``, ``correlation``); ``f``: the regression function (under the
    logistic link, the log-odds); ``noise_sd``: sd of the additive Gaussian noise.
    ``categorical`` names the categorical-law features (integer codes; ``levels`` their names).
    """

    def __init__(self, features: Mapping[str, Any], f: str,
                 dependence: Mapping[str, Any] | None = None, noise_sd: float = 0.0,
                 link: str = "identity") -> None:
        self._arguments = (features, f, dependence, noise_sd, link)
        check(table(value=either(text(), table())), features, "features")
        if not features:
            raise ParamError("features", "no features; allowed: a mapping of feature names to "
                                         "laws or expressions")
        check(number(minimum=0), noise_sd, "noise_sd")
        check(choice("identity", LINKS), link, "link")
        if link == "logistic" and noise_sd:
            raise ParamError("noise_sd", f"{noise_sd!r} with link logistic, whose y is "
                                         f"Bernoulli(sigmoid(f)); allowed: 0 or absent")
        self.noise_sd, self.link = float(noise_sd), link
        self.marginals: dict[str, Marginal] = {}
        self.equations: dict[str, Expression] = {}
        names: list[str] = []
        for name, spec in features.items():
            _check_name(name)
            if isinstance(spec, str):
                self.equations[name] = self._parse(f"features.{name}", spec, names, True,
                                                   "earlier features")
            else:
                self.marginals[name] = _marginal(name, spec)
            names.append(name)
        self.names = names
        self.expression = self._parse("f", f, names, False, "features")
        self.block: list[str] = []
        self.correlation = np.eye(0)
        if dependence is not None:
            self._dependence(dependence)
        self.categorical = tuple(n for n, m in self.marginals.items() if m.law == "categorical")
        self.levels = {n: m.levels for n, m in self.marginals.items() if m.law == "categorical"}
        self._conditional_known = not self.equations and all(
            self.marginals[n].continuous for n in self.block)
        self.sample(PILOT_ROWS, np.random.default_rng(0))

    @property
    def has_conditional(self) -> bool:
        """No structural equation and a continuous copula block (see the module doc)."""
        return self._conditional_known

    def __reduce__(self) -> tuple:
        """Pickled as its study-file parameters (the compiled expressions are closures): a
        fitted ``truth`` learner that holds the DGP is saved with the model files."""
        return (type(self), self._arguments)

    @staticmethod
    def _parse(key: str, text_: Any, names: list[str], random: bool, label: str) -> Expression:
        try:
            return parse(text_, names, random=random, label=label)
        except ExpressionError as err:
            raise ParamError(key, str(err)) from None

    def _dependence(self, dependence: Any) -> None:
        check(table(DEPENDENCE), dependence, "dependence")
        check_all(DEPENDENCE, dependence, "dependence")
        block = list(dependence["features"])
        lawful = list(self.marginals)
        bad = [b for b in block if b not in lawful]
        if bad or len(set(block)) != len(block) or len(block) < 2:
            what = f"{bad[0]!r} is not a feature with a law" if bad else f"{block!r}"
            raise ParamError("dependence.features", f"{what}; allowed: at least two distinct "
                             f"features with a law: {', '.join(lawful)}")
        self.correlation = _correlation(dependence["correlation"], len(block))
        self.block = block

    # --- the DGP contract -----------------------------------------------------------------

    @property
    def feature_names(self) -> list[str]:
        return list(self.names)

    def _columns(self, X: np.ndarray) -> dict[str, np.ndarray]:
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != len(self.names):
            raise ValueError(f"X has shape {X.shape}; allowed: (rows, {len(self.names)}) with "
                             f"the columns {', '.join(self.names)}")
        return {name: X[:, i] for i, name in enumerate(self.names)}

    @staticmethod
    def _finite(key: str, expr: Expression, values: np.ndarray) -> np.ndarray:
        bad = int(np.count_nonzero(~np.isfinite(values)))
        if bad:
            raise ParamError(key, f"{expr.text!r} is not finite for {bad} of {len(values)} "
                                  f"drawn rows; allowed: expressions finite on the features' law")
        return values

    def _draw(self, n: int, rng: np.random.Generator,
              fixed: tuple[int, Any] | None = None) -> np.ndarray:
        """n rows of the features; with ``fixed = (j, z)`` under do(x_j = z)."""
        cols: dict[str, np.ndarray] = {}
        for name, marginal in self.marginals.items():
            if name not in self.block:
                cols[name] = marginal.draw(n, rng)
        if self.block:
            L = np.linalg.cholesky(self.correlation)
            Z = rng.standard_normal((n, len(self.block))) @ L.T
            for k, name in enumerate(self.block):
                cols[name] = self.marginals[name].from_score(Z[:, k])
        j_name = None if fixed is None else self.names[fixed[0]]
        if j_name in self.marginals:
            cols[j_name] = np.broadcast_to(np.asarray(fixed[1], dtype=float), (n,)).copy()
        for name, expr in self.equations.items():
            if name == j_name:
                cols[name] = np.broadcast_to(np.asarray(fixed[1], dtype=float), (n,)).copy()
                continue
            key = f"features.{name}"
            try:
                cols[name] = self._finite(key, expr, expr(cols, n, rng))
            except ExpressionError as err:
                raise ParamError(key, str(err)) from None
        return np.column_stack([cols[name] for name in self.names])

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return self._draw(n, rng)

    def sample_intervened(self, n: int, rng: np.random.Generator, j: int, z: Any) -> np.ndarray:
        """n rows under do(x_j = z) (``z`` a number or n numbers): column j is z, every
        structural equation is evaluated with it (so those downstream of j change), and the
        features with a law keep their law (copula partners of j included)."""
        if not 0 <= j < len(self.names):
            raise IndexError(f"feature {j} of {len(self.names)}")
        return self._draw(n, rng, (j, z))

    def f(self, X: np.ndarray) -> np.ndarray:
        """E(y | x): the expression ``f`` (identity link) or its sigmoid (logistic link)."""
        eta = self.expression(self._columns(X), len(X))
        return expit(eta) if self.link == "logistic" else eta

    def noise(self, n: int, rng: np.random.Generator) -> np.ndarray:
        if self.link == "logistic":
            raise NotImplementedError("y of the logistic link is Bernoulli(f(x)), not f plus "
                                      "noise; use response(X, rng)")
        return rng.normal(0.0, self.noise_sd, size=n) if self.noise_sd > 0 else np.zeros(n)

    def response(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """y for the rows of X: f(X) plus noise, or a Bernoulli(f(X)) draw (0/1)."""
        mean = self._finite("f", self.expression, self.f(X))
        if self.link == "logistic":
            return rng.binomial(1, mean).astype(float)
        return mean + self.noise(len(X), rng)

    def sample(self, n: int, rng: np.random.Generator) -> pd.DataFrame:
        X = self.sample_features(n, rng)
        df = pd.DataFrame(X, columns=self.names)
        df["y"] = self.response(X, rng)
        return df

    def sample_conditional(
        self, X: np.ndarray, features: Sequence[int], rng: np.random.Generator
    ) -> np.ndarray:
        """Columns ``features`` drawn from their exact joint law given the other columns of X
        (see the module doc); raises NotImplementedError unless ``has_conditional``."""
        if not self.has_conditional:
            raise NotImplementedError("the conditional law of a formula DGP is known only "
                                      "without structural equations and with continuous "
                                      "copula features")
        self._columns(X)
        features = list(features)
        if len(set(features)) != len(features) or not all(
                0 <= j < len(self.names) for j in features):
            raise ValueError(f"features {features!r}; allowed: distinct column indices below "
                             f"{len(self.names)}")
        X = np.asarray(X, dtype=float)
        n = len(X)
        out = np.empty((n, len(features)))
        targets = [self.names[j] for j in features]
        for k, name in enumerate(targets):
            if name not in self.block:
                out[:, k] = self.marginals[name].draw(n, rng)
        S = [b for b, name in enumerate(self.block) if name in targets]
        if S:
            G = [b for b in range(len(self.block)) if b not in S]
            R = self.correlation
            mean = np.zeros((n, len(S)))
            cov = R[np.ix_(S, S)]
            if G:
                scores = np.column_stack([self.marginals[self.block[b]].to_score(
                    X[:, self.names.index(self.block[b])]) for b in G])
                A = np.linalg.solve(R[np.ix_(G, G)], R[np.ix_(G, S)]).T  # R_SG R_GG^-1
                mean = scores @ A.T
                cov = cov - A @ R[np.ix_(G, S)]
            Z = mean + rng.standard_normal((n, len(S))) @ np.linalg.cholesky(cov).T
            for col, b in enumerate(S):
                out[:, targets.index(self.block[b])] = self.marginals[self.block[b]].from_score(
                    Z[:, col])
        return out

    # --- closed forms for the truths ------------------------------------------------------

    def linear(self) -> tuple[float, dict[str, float]] | None:
        """(intercept, coefficient of every feature) when E(y | x) is linear in the features
        (identity link, affine ``f``), else None."""
        form = self.expression.affine() if self.link == "identity" else None
        if form is None:
            return None
        return form.const, {name: form.coefs.get(name, 0.0) for name in self.names}

    def gaussian(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(mean vector, covariance matrix) of the features, in ``feature_names`` order, when
        they are jointly normal (normal laws, and structural equations affine in earlier
        features plus normal terms of constant parameters), else None."""
        if any(m.law != "normal" for m in self.marginals.values()):
            return None
        p = len(self.names)
        index = {name: i for i, name in enumerate(self.names)}
        mean, cov = np.zeros(p), np.zeros((p, p))
        for name, m in self.marginals.items():
            mean[index[name]], cov[index[name], index[name]] = m.dist.mean(), m.dist.var()
        sds = np.array([self.marginals[b].dist.std() for b in self.block])
        rows = [index[b] for b in self.block]
        if rows:
            cov[np.ix_(rows, rows)] = self.correlation * np.outer(sds, sds)
        for name, expr in self.equations.items():
            form = expr.affine()
            if form is None:
                return None
            b = np.array([form.coefs.get(other, 0.0) for other in self.names])
            row = b @ cov  # covariances with earlier features (later ones are set in turn)
            k = index[name]
            row[k] = row @ b + form.var
            cov[k, :] = cov[:, k] = row
            mean[k] = form.const + b @ mean
        return mean, cov

    def independent_of(self, j: int) -> bool:
        """Whether feature j is independent of all the others, read off the structure: it is
        no structural equation of other features, enters none, and has no nonzero copula
        correlation."""
        name = self.names[j]
        if name in self.equations and self.equations[name].names:
            return False
        if any(name in expr.names for expr in self.equations.values()):
            return False
        if name in self.block:
            b = self.block.index(name)
            return bool(np.all(np.delete(self.correlation[b], b) == 0))
        return True
