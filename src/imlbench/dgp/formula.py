"""A DGP written out in the study file: feature laws, dependence, structural equations and f.

``dgp: formula`` takes plain YAML data (see :class:`FormulaDGP`)::

    features:                  # in order
      x1: {law: normal, mean: 0, sd: 1}
      x2: {law: uniform, low: 0, high: 1}
      x3: {law: bernoulli, p: 0.3}
      x4: {law: categorical, levels: [a, b, c], p: [0.2, 0.3, 0.5]}   # codes 0..k-1
      x5: {law: integers, low: 0, high: 5}                            # inclusive
      x6: {law: loguniform, low: 0.1, high: 10}                       # density ~ 1/x
      x7: "x1 + normal(0, 0.1)"        # a structural equation over earlier features
    dependence:                # optional: a Gaussian copula over marginal-law features
      features: [x1, x2]
      correlation: [[1, 0.5], [0.5, 1]]
    f: "2*x1 + x2 - x3 + x1*x2"
    noise_sd: 1.0              # y = f + N(0, noise_sd^2); or noise: (below), or
                               # noise: {snr: 5} (noise_sd = sd(f(X)) / 5, below)
    link: identity             # or logistic: y ~ Bernoulli(1 / (1 + exp(-f)))

The copula correlation is that of the normal scores z_k = Phi^-1(F_k(x_k)); a block of normal
marginals is therefore a multivariate normal with that correlation. Expressions follow
:mod:`imlbench.dgp.expressions`; random terms (``normal``, ``uniform``) appear in structural
equations only. The exact conditional law (``has_conditional``) is known when no feature is a
structural equation and every copula feature is continuous (normal, uniform or loguniform):
Gaussian conditioning of the normal scores within the copula block, mapped back through each
marginal's quantile function, the marginal law elsewhere, and neither ``exclude`` nor
``hidden`` is given.

Three optional keys extend it::

    constants: {sd: 0.5, rho: 0.3}   # named numbers
    features:
      x1: {law: normal, mean: 0, sd: "sd"}
      x2: {law: normal, mean: 0, sd: 1}
      x3: "x1 + normal(0, 2*sd)"
      x4: {law: normal}
    dependence: {features: [x1, x2], correlation: [[1, "rho"], ["rho", 1]]}
    f: "x1 + x2 + x3 + x4"
    noise_sd: "sd"
    exclude: "(x1 > 0) * (x2 > 0)"   # rows where this is nonzero are rejected
    hidden: [x4]                     # drawn and read by f, not a column of the data
    categorical: [x3]                # codes of a factor that is not a categorical law

``constants``: each name (lower-case letters and digits, starting with a letter; not a feature
name, function, ``pi``, ``y``, Python keyword or parameter name of this DGP) stands for its
number in every expression (structural equations, ``f``, ``exclude``, ``noise``) and may be
written, alone or in a constant-only expression (``"2*sd"``), for ``noise_sd``, ``noise.snr``,
a law parameter
of a feature (not a categorical level) and an entry of ``dependence.correlation``. The names
are replaced by their numbers when the text is parsed. A scenario may sweep a constant
(``sweep: {sd: [0.1, 0.5]}``): a parameter named after a declared constant overrides its value;
any other unknown parameter is an error naming the parameters and the constants.

``exclude``: an expression of the features (no random terms) whose nonzero rows are rejected
(``0.3 < x1 < 0.6``; a product of comparisons is their conjunction). The law of the data is
the law above truncated to the kept region: rows are drawn in rounds until n are kept
(rejection sampling; each round's rows come from a generator seeded by ``rng``, so the draw is
deterministic). The constructor draws :data:`EXCLUDE_PILOT_ROWS` untruncated rows and rejects a
condition that keeps less than :data:`MIN_KEPT_SHARE` of them. Under the truncated law no
closed form of the joint law holds: ``gaussian()`` is None, ``has_conditional`` is False, and a
feature the condition reads is independent only of the features outside its group (see
:meth:`FormulaDGP.independent_of`). ``sample_intervened`` draws the units from the truncated
law and then applies do(x_j = z) to each: x_j is set and the structural equations downstream of
j are recomputed with the unit's own random terms (the same draws), so every unit keeps the
noise that selected it.

``hidden``: features that are drawn and read by the equations and ``f`` but are not columns of
the data (``sample`` drops them, so no model sees them). Each must be independent of every
visible feature (no structural equation, copula correlation or ``exclude`` condition joins
them). The regression function of the data is then m_v(x_v) = E_H[f(x_v, H)]. Because H is
independent of the visible features X_v, the effect truths of a visible feature computed from
full rows are those of m_v: the PD averages f over X_-j, whose law is that of (X_v,-j, H); the
conditional mean E[f(X) | x_j] = E[E[f(X) | X_v] | x_j] = E[m_v(X_v) | x_j]; the ALE's local
derivative of m_v is E_H of that of f; and do(x_j = z) leaves H's law alone. ``feature_names``
are therefore all features (the columns that ``f`` reads and the truths use, hidden ones
included); ``visible`` are the data's columns. The importance truths are those of m_v (see
:mod:`imlbench.truth.formula`); ``categorical`` names visible features only.

``truth_grid``: where the effect truths of a numeric feature are evaluated (by default the
21 quantiles 0.05, 0.10, ..., 0.95 of a Monte Carlo sample of its marginal, see
:mod:`imlbench.truth.formula`): ``{size: 100, probs: [0.0001, 0.9999], trim: 1}`` puts them at
the quantiles of the feature's law (:meth:`FormulaDGP.marginal_quantiles`) at ``size``
probabilities equally spaced from ``probs[0]`` to ``probs[1]``, less ``trim`` points at each
end: the points of a method's grid ``{kind: law_quantile}`` with the same keys, so that
estimates and truths meet at every point without interpolation. The law of the data does not
depend on it.

``categorical``: visible features that are not a categorical law but whose values are the codes
0, 1, ... of a categorical feature: a bernoulli or integers law from 0, or a structural equation
such as ``"where(uniform(0, 1) < 0.3, 1, 0)"`` (a factor whose law given earlier features is
written out). The learners that code categorical features as R's model matrix does (``coding:
treatment``) then code these too; the draws, ``f`` and every truth are unchanged (the truths
read the values). The constructor checks, on its pilot rows, that their values are integers
from 0. They have no level names (``levels`` holds those of the categorical laws).

``noise`` (instead of ``noise_sd``): an expression for the additive noise e, y = f + e, that may
read the features, ``y`` (the noiseless f(x)), the constants and the random terms, e.g. the
heteroscedastic ``"abs(y) / uniform(1, 100) * normal(0, 1)"`` (sd |f(x)| / U(1, 100), the
LMU book *Limitations of Interpretable Machine Learning Methods*, 2019, ch. 13 code). Its form
must show that E[e | x] = 0 (see :meth:`imlbench.dgp.expressions.Expression.centred`: a sum of
terms each with a factor ``normal(0, s)`` or ``uniform(-c, c)``), so the regression function
stays f and every effect truth, and the PFI difference E[(m(X) - m(X~))^2] (the noise cancels
for any noise of mean zero given x), are unchanged. The PFI ratio (noise variance +
difference) / noise variance needs E[e^2], which no single sd gives: ``noise_sd`` is NaN, so
the truths leave out ``pfi_*_ratio`` (they give it only when noise_sd > 0). The noise is drawn
from the rows, so ``noise(n, rng)`` refuses (use ``response``). Without ``noise`` the random
stream is that of ``noise_sd``.

``noise: {snr: s}`` (instead of ``noise_sd``; identity link only): Gaussian noise set by the
signal-to-noise ratio s > 0 (a number or a constant expression), y = f + N(0, noise_sd^2) with
noise_sd = sd(f(X)) / s, where sd(f(X)) is the standard deviation of f under the law of the
features that the DGP draws (truncated by ``exclude``; f of the full rows, hidden features
included), not that of a drawn data set. The constructor estimates it once, from
:data:`SNR_ROWS` rows of ``sample_features`` drawn from a generator of seed :data:`SNR_SEED`
(the same in every run, so noise_sd is a function of the study file); ``noise_sd`` then holds
that number and the noise is drawn exactly as with ``noise_sd`` given it. ``noise_sd_se`` is
its Monte Carlo standard error by the delta method, sqrt((m4 - v^2) / (4 v N)) / s, with v and
m4 the second and fourth central moments of the N values of f (``noise_sd_se`` is 0 for a
given noise_sd, NaN with a noise expression). An f constant on the law is refused.

``marginal_quantiles(j, probs)``: the quantiles of feature j's marginal law. For a feature with
a law they are exact, its ppf (the copula keeps the declared marginals); for a structural
equation, or any feature under ``exclude``, they are the base class's Monte Carlo estimate
from a fixed sample (see :meth:`imlbench.dgp.base.DGP.marginal_quantiles`), approximate.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats
from scipy.special import expit, ndtr, ndtri

from imlbench.dgp.base import DGP, DGPS, LAW_PROBS, quantile_probabilities
from imlbench.dgp.expressions import (
    CONSTANTS,
    FUNCTIONS,
    RANDOM,
    Expression,
    ExpressionError,
    constant_value,
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
from imlbench.seeds import config_hash

#: the declared parameters of each marginal law (``law`` itself included)
LAWS: dict[str, dict[str, Param]] = {
    "normal": {"mean": number(0.0), "sd": number(1.0, above=0)},
    "uniform": {"low": number(0.0), "high": number(1.0)},
    "loguniform": {"low": number(0.1, above=0), "high": number(10.0, above=0)},
    "bernoulli": {"p": number(above=0, below=1)},
    "categorical": {"levels": items(either(text(), number())),
                    "p": items(number(minimum=0), None, nullable=True)},
    "integers": {"low": integer(), "high": integer()},
}
LINKS = ("identity", "logistic")
#: the correlation is checked as a whole (symmetric, unit diagonal, positive definite)
DEPENDENCE = {"features": items(text()),
              "correlation": items(items(either(number(), text())))}
#: the keys of ``noise`` given as a mapping (noise set by a signal-to-noise ratio)
SNR = {"snr": either(number(above=0), text())}
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
RESERVED = {*FUNCTIONS, *RANDOM, *CONSTANTS, "y"}
#: a declared constant's name (a swept one becomes part of scenario names: no underscore)
CONSTANT_NAME = re.compile(r"[a-z][a-z0-9]*")
#: the constructor's own parameters, declared (no constant may take their names); the
#: structure inside each (laws, expressions, names of features) is checked by the constructor
DECLARED = {
    "features": table(value=either(text(), table())), "f": text(),
    "dependence": table(DEPENDENCE, None, nullable=True),
    "noise_sd": either(number(minimum=0, nullable=True), text(), default=None),
    "link": choice("identity", LINKS),
    "constants": table(None, None, value=number(), nullable=True),
    "exclude": text(None, nullable=True), "hidden": items(text(), None, nullable=True),
    "noise": either(text(None, nullable=True), table(SNR), default=None),
    "categorical": items(text(), None, nullable=True),
    "truth_grid": table({"size": integer(100, minimum=2),
                         "probs": items(number(above=0, below=1), list(LAW_PROBS), length=2),
                         "trim": integer(0, minimum=0)}, None, nullable=True),
}
PARAMETERS = tuple(DECLARED)
#: rows drawn once by the constructor, so that an expression that is not finite on the
#: features' law (``log`` of a normal feature, a negative sd) fails the configuration check
PILOT_ROWS = 1000
#: untruncated rows drawn by the constructor to measure the share that ``exclude`` keeps
EXCLUDE_PILOT_ROWS = 20_000
#: the least share of rows that ``exclude`` must keep
MIN_KEPT_SHARE = 1e-3
#: the most rows drawn in one round of the rejection sampler
MAX_ROUND_ROWS = 1_000_000
#: probabilities of the normal scores are kept this far inside (0, 1)
EPS = 1e-12
#: rows of the features' law whose f gives sd(f(X)) for ``noise: {snr}``, drawn in blocks of
#: SNR_BLOCK_ROWS from a generator of seed SNR_SEED (not the run's: the noise sd is a function
#: of the study file alone)
SNR_ROWS = 1_000_000
SNR_BLOCK_ROWS = 100_000
SNR_SEED = 0
#: noise_sd and its standard error of each ``snr`` DGP built in this process, by the hash of
#: its study-file parameters (the Monte Carlo costs about a second; the stages build a DGP
#: once per repetition)
_SNR_SD: dict[str, tuple[float, float]] = {}


@dataclass(frozen=True)
class Marginal:
    """A feature's own law: ``law`` (a key of :data:`LAWS`), its frozen scipy distribution,
    and the level names of a categorical feature."""

    law: str
    dist: Any
    levels: tuple[Any, ...] = ()

    @property
    def continuous(self) -> bool:
        return self.law in ("normal", "uniform", "loguniform")

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


def _number(value: Any, constants: Mapping[str, float], key: str) -> Any:
    """``value`` with a string read as a constant-only expression (its number); other values
    are returned as they are, for the declared checks."""
    if not isinstance(value, str):
        return value
    try:
        return constant_value(value, constants)
    except ExpressionError as err:
        raise ParamError(key, f"{err} (a number or an expression of numbers and the declared "
                              f"constants)") from None


def _law_numbers(name: str, spec: Mapping[str, Any], constants: Mapping[str, float]
                 ) -> dict[str, Any]:
    """The law mapping of feature ``name`` with every parameter written as a constant
    expression replaced by its number (an integer for an integer parameter); categorical
    levels are labels and stay as they are."""
    out = dict(spec)
    for k, v in spec.items():
        key = f"features.{name}.{k}"
        if k in ("law", "levels"):
            continue
        if k == "p" and isinstance(v, list | tuple):
            out[k] = [_number(p, constants, f"{key}[{i}]") for i, p in enumerate(v)]
            continue
        out[k] = _number(v, constants, key)
        declared = LAWS.get(spec.get("law"), {}).get(k)
        if isinstance(v, str) and declared is not None and declared.kind == "integer" \
                and float(out[k]).is_integer():
            out[k] = int(out[k])
    return out


def _marginal(name: str, spec: Mapping[str, Any]) -> Marginal:
    """The law of feature ``name`` from its study-file mapping (numbers only), checked."""
    key = f"features.{name}"
    law = spec.get("law")
    check(choice(None, tuple(LAWS)), law, f"{key}.law")
    declared = {"law": text(), **LAWS[law]}
    check_all(declared, spec, key, f"law {law!r}")
    v = with_defaults(LAWS[law], spec)
    if law == "normal":
        return Marginal(law, stats.norm(v["mean"], v["sd"]))
    if law in ("uniform", "loguniform", "integers") and not v["high"] > v["low"]:
        raise ParamError(f"{key}.high", f"{v['high']!r} is not above low = {v['low']!r}; "
                                        f"allowed: high > low")
    if law == "uniform":
        return Marginal(law, stats.uniform(v["low"], v["high"] - v["low"]))
    if law == "loguniform":
        return Marginal(law, stats.loguniform(v["low"], v["high"]))
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


def _constants(given: Any, overrides: Mapping[str, Any], features: Mapping[str, Any]
               ) -> dict[str, float]:
    """The declared constants, checked, with the values of ``overrides`` (parameters named
    after a constant: a scenario's sweep) in place of theirs."""
    constants = dict(given or {})
    for name in constants:
        if not (isinstance(name, str) and CONSTANT_NAME.fullmatch(name)) \
                or keyword.iskeyword(name) or name in RESERVED or name in PARAMETERS \
                or name in features:
            raise ParamError(f"constants.{name}", f"constant name {name!r} is not allowed; "
                             f"allowed: a lower-case letter, then lower-case letters or digits, "
                             f"other than feature names, {', '.join(sorted(RESERVED))}, "
                             f"{', '.join(PARAMETERS)} and Python keywords")
    _known_overrides(overrides, constants)
    constants.update(overrides)
    return {k: float(v) for k, v in constants.items()}


def _known_overrides(names: Iterable[Any], constants: Iterable[str]) -> None:
    """Raise :class:`ParamError` at the first of ``names`` (parameters other than the
    constructor's own) that is no declared constant."""
    constants = list(constants)
    for name in names:
        if name not in constants:
            raise ParamError(str(name), f"unknown parameter {name!r} of DGP 'formula'; "
                             f"allowed: {', '.join(PARAMETERS)}, or a declared constant: "
                             f"{', '.join(constants) or 'none declared (constants:)'}")


def _correlation(value: Any, size: int, constants: Mapping[str, float]) -> np.ndarray:
    key = "dependence.correlation"
    if all(isinstance(r, list | tuple) for r in value):
        value = [[_number(v, constants, f"{key}[{i}][{k}]") for k, v in enumerate(r)]
                 for i, r in enumerate(value)]
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
    logistic link, the log-odds); ``noise_sd``: sd of the additive Gaussian noise (or
    ``noise``: an expression for the additive noise, or ``{snr: s}`` for Gaussian noise of sd
    sd(f(X)) / s, see the module doc); ``constants``: named
    numbers; ``exclude``: the condition of the rejected rows; ``hidden``: the features left out
    of the data; ``categorical``: further features whose values are codes (see the module
    doc); ``overrides``: new values of declared constants (a scenario's swept
    parameters). The attribute ``categorical`` names the visible categorical-law features and
    those declared (integer codes; ``levels`` the level names of every categorical law);
    ``noise_sd_se`` is the Monte Carlo standard error of a ``noise_sd`` set by ``snr``.
    """

    params = DECLARED

    @classmethod
    def declared(cls, given: Mapping[str, Any]) -> Mapping[str, Param]:
        """:data:`DECLARED` and a number for every declared constant (an override); any
        other name is refused here, with the constants that could be meant."""
        constants = given.get("constants")
        names = [c for c in constants if c not in DECLARED] if isinstance(constants, Mapping) \
            else []
        _known_overrides([k for k in given if k not in DECLARED], names)
        return {**DECLARED, **{name: number(None) for name in names}}

    def __init__(self, features: Mapping[str, Any], f: str,
                 dependence: Mapping[str, Any] | None = None,
                 noise_sd: float | str | None = None, link: str = "identity",
                 constants: Mapping[str, float] | None = None, exclude: str | None = None,
                 hidden: Sequence[str] | None = None,
                 noise: str | Mapping[str, Any] | None = None,
                 categorical: Sequence[str] | None = None,
                 truth_grid: Mapping[str, Any] | None = None, **overrides: float) -> None:
        self._arguments = (features, f, dependence, noise_sd, link,
                           None if constants is None else {**constants, **overrides}, exclude,
                           hidden, noise, categorical, truth_grid)
        self.truth_grid = None if truth_grid is None else self._truth_grid(truth_grid)
        if not features:
            raise ParamError("features", "no features; allowed: a mapping of feature names to "
                                         "laws or expressions")
        self.constants = _constants(constants, overrides, features)
        if noise is not None and noise_sd is not None:
            raise ParamError("noise_sd", f"{noise_sd!r} given with noise; allowed: either "
                                         f"noise_sd (Gaussian noise) or noise (an expression, "
                                         f"or {{snr: ...}}: Gaussian noise of sd sd(f) / snr)")
        expression_noise = noise is not None and not isinstance(noise, Mapping)
        snr = None if noise is None or expression_noise else self._snr(noise)
        noise_sd = _number(0.0 if noise_sd is None else noise_sd, self.constants, "noise_sd")
        check(number(minimum=0), noise_sd, "noise_sd")
        if link == "logistic" and (noise_sd or noise is not None):
            key, value = ("noise", noise) if noise is not None else ("noise_sd", noise_sd)
            raise ParamError(key, f"{value!r} with link logistic, whose y is "
                                  f"Bernoulli(sigmoid(f)); allowed: "
                                  f"{'absent' if key == 'noise' else '0 or absent'}, or link "
                                  f"identity")
        self.noise_sd = float("nan") if expression_noise else float(noise_sd)
        self.noise_sd_se = float("nan") if expression_noise else 0.0
        self.link = link
        self.marginals: dict[str, Marginal] = {}
        self.equations: dict[str, Expression] = {}
        names: list[str] = []
        for name, spec in features.items():
            _check_name(name)
            if isinstance(spec, str):
                self.equations[name] = self._parse(f"features.{name}", spec, names, True,
                                                   "earlier features")
            else:
                self.marginals[name] = _marginal(name, _law_numbers(name, spec, self.constants))
            names.append(name)
        self.names = names
        self.expression = self._parse("f", f, names, False, "features")
        self.block: list[str] = []
        self.correlation = np.eye(0)
        if dependence is not None:
            self._dependence(dependence)
        self.exclude = None if exclude is None else self._parse("exclude", exclude, names,
                                                                False, "features")
        self.noise_expression = self._noise(noise) if expression_noise else None
        self.groups = self._groups()
        self.hidden = self._hidden(hidden)
        self.visible = [n for n in names if n not in self.hidden]
        self.levels = {n: m.levels for n, m in self.marginals.items() if m.law == "categorical"}
        declared = self._declared_categorical(categorical)
        self.categorical = tuple(n for n in self.visible if n in declared or n in self.levels)
        self._conditional_known = not self.equations and all(
            self.marginals[n].continuous for n in self.block) and self.exclude is None \
            and not self.hidden
        self._kept_share = 1.0 if self.exclude is None else self._pilot_kept_share()
        if snr is not None:
            key = config_hash(self._arguments[:-1])  # the law's, without truth_grid
            if key not in _SNR_SD:  # built once per process for each study-file DGP
                _SNR_SD[key] = self._snr_noise_sd(noise, snr)
            self.noise_sd, self.noise_sd_se = _SNR_SD[key]
        pilot = self.sample(PILOT_ROWS, np.random.default_rng(0))
        for name in declared:
            codes = pilot[name].to_numpy()
            if not np.all((codes >= 0) & (codes == np.round(codes))):
                bad = codes[(codes < 0) | (codes != np.round(codes))][0]
                raise ParamError("categorical", f"{name!r} takes the value {bad:g}, which is "
                                 f"not a code; allowed: features whose values are the "
                                 f"integers 0, 1, ...")

    @staticmethod
    def _truth_grid(spec: Mapping[str, Any]) -> dict[str, Any]:
        """``truth_grid`` with its defaults, refusing probabilities out of order and a trim
        that leaves no point."""
        spec = with_defaults(DECLARED["truth_grid"].fields, spec)
        p0, p1 = spec["probs"]
        if not p0 < p1:
            raise ParamError("truth_grid.probs", f"{list(spec['probs'])!r} are not increasing; "
                                                 f"allowed: [p0, p1] with 0 < p0 < p1 < 1")
        if 2 * spec["trim"] >= spec["size"]:
            raise ParamError("truth_grid.trim", f"{spec['trim']} at each end of "
                                                f"{spec['size']} points leaves none; allowed: "
                                                f"0 <= trim < {spec['size'] / 2:g}")
        return spec

    @property
    def has_conditional(self) -> bool:
        """No structural equation, a continuous copula block, no ``exclude``, no ``hidden``
        (see the module doc)."""
        return self._conditional_known

    def __reduce__(self) -> tuple:
        """Pickled as its study-file parameters (the compiled expressions are closures): a
        fitted ``truth`` learner that holds the DGP is saved with the model files. Overridden
        constants are pickled with their new values."""
        return (type(self), self._arguments)

    def _parse(self, key: str, text_: Any, names: list[str], random: bool,
               label: str) -> Expression:
        try:
            return parse(text_, names, random=random, label=label, constants=self.constants)
        except ExpressionError as err:
            raise ParamError(key, str(err)) from None

    def _noise(self, noise: Any) -> Expression:
        """The ``noise`` expression, checked to have mean zero given the features."""
        expr = self._parse("noise", noise, [*self.names, "y"], True, "features and y")
        if not expr.centred():
            raise ParamError("noise", f"{noise!r} is not seen to have mean zero given the "
                                      f"features; allowed: a sum of terms each with a factor "
                                      f"normal(0, s) or uniform(-c, c), e.g. "
                                      f"'abs(y) / uniform(1, 100) * normal(0, 1)'")
        return expr

    def _snr(self, noise: Mapping[str, Any]) -> float:
        """The signal-to-noise ratio of ``noise: {snr}``, checked: the one key ``snr``, a
        number above 0 (or an expression of the constants that is one)."""
        check_all(SNR, noise, "noise", "noise as a mapping")
        snr = _number(noise["snr"], self.constants, "noise.snr")
        check(number(above=0), snr, "noise.snr")
        return float(snr)

    def _snr_noise_sd(self, noise: Mapping[str, Any], snr: float) -> tuple[float, float]:
        """sd(f(X)) / snr and its Monte Carlo standard error (see the module doc): the sd of f
        over SNR_ROWS full rows drawn by ``sample_features`` from a generator of seed
        SNR_SEED."""
        rng = np.random.default_rng(SNR_SEED)
        values = np.concatenate([
            self._finite("f", self.expression,
                         self.f(self.sample_features(min(SNR_BLOCK_ROWS, SNR_ROWS - start), rng)))
            for start in range(0, SNR_ROWS, SNR_BLOCK_ROWS)])
        centred = values - values.mean()
        var = float(np.mean(centred**2))
        if not var > 0:
            raise ParamError("noise", f"{dict(noise)!r}: f is constant on the features' law, so "
                                      f"sd(f) / snr is 0; allowed: noise: {{snr}} with an f "
                                      f"that varies, or noise_sd")
        m4 = float(np.mean(centred**4))
        se = np.sqrt(max(m4 - var**2, 0.0) / (4 * var * SNR_ROWS))
        return float(np.sqrt(var)) / snr, float(se) / snr

    def _dependence(self, dependence: Any) -> None:
        check_all(DEPENDENCE, dependence, "dependence")  # its required keys
        block = list(dependence["features"])
        lawful = list(self.marginals)
        bad = [b for b in block if b not in lawful]
        if bad or len(set(block)) != len(block) or len(block) < 2:
            what = f"{bad[0]!r} is not a feature with a law" if bad else f"{block!r}"
            raise ParamError("dependence.features", f"{what}; allowed: at least two distinct "
                             f"features with a law: {', '.join(lawful)}")
        self.correlation = _correlation(dependence["correlation"], len(block), self.constants)
        self.block = block

    def _groups(self) -> dict[str, int]:
        """Each feature's group: features are joined when a structural equation reads one of
        them for the other, when their copula correlation is nonzero, or when ``exclude`` reads
        both (and transitively). Different groups are independent: their random sources are
        drawn independently (a normal block with zero correlation between two parts is two
        independent blocks), and truncation by a condition of one group leaves the others
        alone."""
        parent = {n: n for n in self.names}

        def root(n: str) -> str:
            while parent[n] != n:
                n = parent[n]
            return n

        def join(names: Sequence[str]) -> None:
            for a in names[1:]:
                parent[root(a)] = root(names[0])

        for name, expr in self.equations.items():
            join([name, *sorted(expr.names)])
        for a, b in zip(*np.nonzero(np.triu(self.correlation, 1)), strict=True):
            join([self.block[a], self.block[b]])
        if self.exclude is not None:
            join(sorted(self.exclude.names))
        roots = [root(n) for n in self.names]
        return {n: roots.index(r) for n, r in zip(self.names, roots, strict=True)}

    def _hidden(self, hidden: Any) -> tuple[str, ...]:
        """The hidden features, checked: known, distinct, not all, and each in a group of
        hidden features only (independent of every visible feature)."""
        if hidden is None:
            return ()
        unknown = [h for h in hidden if h not in self.names]
        if unknown or len(set(hidden)) != len(hidden):
            what = f"{unknown[0]!r} is not a feature" if unknown else f"{list(hidden)!r} repeats"
            raise ParamError("hidden", f"{what}; allowed: distinct features among "
                                       f"{', '.join(self.names)}")
        if len(hidden) == len(self.names):
            raise ParamError("hidden", f"{list(hidden)!r} hides every feature; allowed: at "
                                       f"least one feature left for the data")
        for h in hidden:
            joined = [n for n in self.names if n not in hidden
                      and self.groups[n] == self.groups[h]]
            if joined:
                raise ParamError("hidden", f"{h!r} depends on the visible feature(s) "
                                 f"{', '.join(joined)} (through a structural equation, the "
                                 f"copula or exclude); allowed: features independent of every "
                                 f"visible feature")
        return tuple(h for h in self.names if h in hidden)

    def _declared_categorical(self, categorical: Any) -> tuple[str, ...]:
        """The features declared ``categorical``, checked: distinct visible features that are
        not already a categorical law."""
        if categorical is None:
            return ()
        allowed = [n for n in self.visible if n not in self.levels]
        wrong = [c for c in categorical if c not in allowed]
        if wrong or len(set(categorical)) != len(categorical):
            what = f"{wrong[0]!r} is not" if wrong else f"{list(categorical)!r} repeats"
            raise ParamError("categorical", f"{what} one of them; allowed: distinct visible "
                             f"features that are not a categorical law: {', '.join(allowed)}")
        return tuple(categorical)

    def _pilot_kept_share(self) -> float:
        """The share of EXCLUDE_PILOT_ROWS untruncated rows that ``exclude`` keeps, checked to
        be at least MIN_KEPT_SHARE."""
        rows = self._untruncated(EXCLUDE_PILOT_ROWS, np.random.default_rng(0))
        share = float(self._kept(rows).mean())
        if share < MIN_KEPT_SHARE:
            raise ParamError("exclude", f"{self.exclude.text!r} keeps {share:.2g} of "
                             f"{EXCLUDE_PILOT_ROWS} drawn rows; allowed: a condition that keeps "
                             f"at least {MIN_KEPT_SHARE:g} of them")
        return share

    # --- the DGP contract -----------------------------------------------------------------

    @property
    def feature_names(self) -> list[str]:
        """Every feature, hidden ones included: the columns of ``f`` and of the truths (the
        data's columns are ``visible``)."""
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

    def _untruncated(self, n: int, rng: np.random.Generator,
                     fixed: tuple[int, Any] | None = None) -> np.ndarray:
        """n rows of the features before ``exclude``; with ``fixed = (j, z)`` under
        do(x_j = z). With ``exclude``, an intervened draw takes the same random numbers from
        ``rng`` as the draw without intervention (a structural equation at j still draws its
        random terms)."""
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
            key = f"features.{name}"
            if name == j_name:
                if self.exclude is not None:
                    expr(cols, n, rng)
                cols[name] = np.broadcast_to(np.asarray(fixed[1], dtype=float), (n,)).copy()
                continue
            try:
                cols[name] = self._finite(key, expr, expr(cols, n, rng))
            except ExpressionError as err:
                raise ParamError(key, str(err)) from None
        return np.column_stack([cols[name] for name in self.names])

    def _kept(self, X: np.ndarray) -> np.ndarray:
        """Whether each row of X is kept by ``exclude`` (the condition is zero)."""
        return self._finite("exclude", self.exclude,
                            self.exclude(self._columns(X), len(X))) == 0

    def _draw(self, n: int, rng: np.random.Generator,
              fixed: tuple[int, Any] | None = None) -> np.ndarray:
        """n rows of the features (truncated by ``exclude``: see the module doc); with
        ``fixed = (j, z)`` under do(x_j = z), ``z`` a number or n numbers."""
        if self.exclude is None:
            return self._untruncated(n, rng, fixed)
        parts, kept = [np.empty((0, len(self.names)))], 0
        while kept < n:
            size = min(MAX_ROUND_ROWS, int(np.ceil(1.1 * (n - kept) / self._kept_share)) + 10)
            seed = int(rng.integers(2**63))
            rows = self._untruncated(size, np.random.default_rng(seed))
            keep = np.flatnonzero(self._kept(rows))[:n - kept]
            if fixed is not None:
                j, z = fixed
                values = rows[:, j].copy()  # rejected rows keep their own value
                values[keep] = np.broadcast_to(np.asarray(z, dtype=float), (n,))[
                    kept:kept + len(keep)]
                rows = self._untruncated(size, np.random.default_rng(seed), (j, values))
            parts.append(rows[keep])
            kept += len(keep)
        return np.concatenate(parts)

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """n rows of every feature (hidden ones included), from the law truncated by
        ``exclude``."""
        return self._draw(n, rng)

    def sample_intervened(self, n: int, rng: np.random.Generator, j: int, z: Any) -> np.ndarray:
        """n rows under do(x_j = z) (``z`` a number or n numbers): column j is z, every
        structural equation is evaluated with it (so those downstream of j change), and the
        features with a law keep their law (copula partners of j included). With ``exclude``
        the units are drawn from the truncated law first (see the module doc)."""
        if not 0 <= j < len(self.names):
            raise IndexError(f"feature {j} of {len(self.names)}")
        return self._draw(n, rng, (j, z))

    def f(self, X: np.ndarray) -> np.ndarray:
        """E(y | x) of full rows (hidden features included): the expression ``f`` (identity
        link) or its sigmoid (logistic link)."""
        eta = self.expression(self._columns(X), len(X))
        return expit(eta) if self.link == "logistic" else eta

    def noise(self, n: int, rng: np.random.Generator) -> np.ndarray:
        if self.link == "logistic":
            raise NotImplementedError("y of the logistic link is Bernoulli(f(x)), not f plus "
                                      "noise; use response(X, rng)")
        if self.noise_expression is not None:
            raise NotImplementedError("the noise expression reads the rows (noise: "
                                      f"{self.noise_expression.text!r}); use response(X, rng)")
        return rng.normal(0.0, self.noise_sd, size=n) if self.noise_sd > 0 else np.zeros(n)

    def response(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """y for the rows of X: f(X) plus noise, or a Bernoulli(f(X)) draw (0/1)."""
        mean = self._finite("f", self.expression, self.f(X))
        if self.link == "logistic":
            return rng.binomial(1, mean).astype(float)
        if self.noise_expression is None:
            return mean + self.noise(len(X), rng)
        columns = {**self._columns(X), "y": mean}
        try:
            noise = self.noise_expression(columns, len(X), rng)
        except ExpressionError as err:
            raise ParamError("noise", str(err)) from None
        return mean + self._finite("noise", self.noise_expression, noise)

    def sample(self, n: int, rng: np.random.Generator) -> pd.DataFrame:
        """n rows of the visible features and y (drawn from every feature's value)."""
        X = self.sample_features(n, rng)
        df = pd.DataFrame(X, columns=self.names)
        df["y"] = self.response(X, rng)
        return df.drop(columns=list(self.hidden))

    def sample_conditional(
        self, X: np.ndarray, features: Sequence[int], rng: np.random.Generator
    ) -> np.ndarray:
        """Columns ``features`` drawn from their exact joint law given the other columns of X
        (see the module doc); raises NotImplementedError unless ``has_conditional``."""
        if not self.has_conditional:
            raise NotImplementedError("the conditional law of a formula DGP is known only "
                                      "without structural equations, exclude and hidden, and "
                                      "with continuous copula features")
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

    def marginal_quantiles(self, j: int, probs: np.ndarray) -> np.ndarray:
        """The quantiles of feature j's marginal law at the probabilities ``probs`` (each in
        (0, 1)): exact, the ppf of its law, for a feature with a law when no ``exclude``
        truncates the law (the copula keeps every marginal; a discrete law's ppf is its
        smallest value whose distribution function reaches p); otherwise (a structural
        equation, or ``exclude``) the Monte Carlo estimate of
        :meth:`imlbench.dgp.base.DGP.marginal_quantiles`."""
        name = self.names[j] if 0 <= j < len(self.names) else None
        if name not in self.marginals or self.exclude is not None:
            return super().marginal_quantiles(j, probs)
        return np.asarray(self.marginals[name].dist.ppf(quantile_probabilities(probs)),
                          dtype=float)

    # --- closed forms for the truths ------------------------------------------------------

    def linear(self) -> tuple[float, dict[str, float]] | None:
        """(intercept, coefficient of every feature, hidden ones included) when E(y | x) is
        linear in the features (identity link, affine ``f``), else None. The ALE b_j (z - z_0)
        it gives holds under any law, truncated by ``exclude`` or not."""
        form = self.expression.affine() if self.link == "identity" else None
        if form is None:
            return None
        return form.const, {name: form.coefs.get(name, 0.0) for name in self.names}

    def gaussian(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(mean vector, covariance matrix) of the features, in ``feature_names`` order, when
        they are jointly normal (normal laws, and structural equations affine in earlier
        features plus normal terms of constant parameters) and no ``exclude`` truncates
        them, else None."""
        if self.exclude is not None or any(m.law != "normal" for m in self.marginals.values()):
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
        """Whether feature j is independent of all the others, read off the structure: no
        structural equation, nonzero copula correlation or ``exclude`` condition joins it to
        another feature (its group, see :meth:`_groups`, is itself alone)."""
        group = self.groups[self.names[j]]
        return sum(g == group for g in self.groups.values()) == 1
