"""Closed-form feature effects of the synthetic examples in :mod:`imlbench.dgp.effect_examples`.

Estimands of feature j at value z (uncentred; every curve is a function of z):
``pd``: the interventional partial dependence E_{X_-j}[f(z, X_-j)] (Friedman);
``conditional``: the conditional expectation E[f(X) | X_j = z] (the M-plot's estimand);
``ale``: the uncentred accumulated local effect int_{z0}^{z} E[df/dx_j | X_j = t] dt
(Apley & Zhu; book ch. 5), given up to its additive constant, i.e. as a function whose
differences are the ALE's differences. It is also StratPD's idealised PD (Parr & Wilson
eq. 1, with the conditional mean of the partial derivative), up to the constant that
makes it 0 at the smallest x.

Every formula is derived from f and the joint law alone (the derivations are in the
docstrings of the cases); none uses an estimator.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from imlbench.dgp.base import DGP
from imlbench.dgp.effect_examples import AleBookCh6, AleBookCh7, StratpdSynthetic, StratpdWeight
from imlbench.truth import truth, truth_frame

Curve = Callable[[np.ndarray], np.ndarray]
EFFECT_ESTIMANDS = ("pd", "conditional", "ale")


def _ch6(d: AleBookCh6) -> dict[tuple[str, str], Curve]:
    """E[X1] = m1 = (a + b)/2, E[X2^2] = s2 = mu^2 + sd^2, E[X3 | X1, X2] = X2.

    x1 x2 x3: PD_1 = z E[X2 X3] = s2 z; PD_2 = PD_3 = z E[X1] E[X2] = m1 mu z;
    E[f | x1] = s2 z; E[f | x2 = z] = z E[X1 X3 | z] = m1 z^2; ALE_1' = s2, ALE_2' = m1 z.
    x1 x2^2: PD_1 = s2 z, PD_2 = m1 z^2, PD_3 = 0 = ALE_3; conditional of x1, x2 equal the PDs.
    x1 + x2 - x3: PD = z, z + m1 - mu, m1 + mu - z; E[f | x2 = z] = m1 (x2 and x3 cancel);
    ALE slopes 1, 1, -1.
    """
    m1, s2, mu = (d.a + d.b) / 2, d.mu**2 + d.sd**2, d.mu
    if d.function == "multiplicative":
        return {
            ("pd", "x1"): lambda z: s2 * z, ("pd", "x2"): lambda z: m1 * mu * z,
            ("pd", "x3"): lambda z: m1 * mu * z,
            ("conditional", "x1"): lambda z: s2 * z, ("conditional", "x2"): lambda z: m1 * z**2,
            ("ale", "x1"): lambda z: s2 * z, ("ale", "x2"): lambda z: m1 * z**2 / 2,
        }
    if d.function == "squared":
        return {
            ("pd", "x1"): lambda z: s2 * z, ("pd", "x2"): lambda z: m1 * z**2,
            ("pd", "x3"): lambda z: 0 * z,
            ("conditional", "x1"): lambda z: s2 * z, ("conditional", "x2"): lambda z: m1 * z**2,
            ("ale", "x1"): lambda z: s2 * z, ("ale", "x2"): lambda z: m1 * z**2,
            ("ale", "x3"): lambda z: 0 * z,
        }
    return {
        ("pd", "x1"): lambda z: z, ("pd", "x2"): lambda z: z + m1 - mu,
        ("pd", "x3"): lambda z: m1 + mu - z,
        ("conditional", "x2"): lambda z: m1 + 0 * z,
        ("ale", "x1"): lambda z: z, ("ale", "x2"): lambda z: z, ("ale", "x3"): lambda z: -z,
    }


def ale_book_ch6_second_order(d: AleBookCh6, x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    """The centred pure second-order ALE of (x1, x2) for f = x1 x2 x3 (book eq. 6.13).

    d2f/dx1dx2 = x3 and E[x3 | x1, x2] = x2, so the raw effect is (x1 - a)(x2^2 - z0^2)/2;
    removing both main effects and centring gives (1/2)(x1 - (a+b)/2)(x2^2 - mu^2 - sd^2).
    """
    if d.function != "multiplicative":
        raise ValueError("the closed-form second-order ALE is for function: multiplicative")
    return 0.5 * (x1 - (d.a + d.b) / 2) * (x2**2 - d.mu**2 - d.sd**2)


def _ch7(d: AleBookCh7) -> dict[tuple[str, str], Curve]:
    """g(z) = (z-4)(z-5)(z-6), g' = 3z^2 - 30z + 74; X2 | X1 = z ~ U(z-3, z+3).

    E[X2^3 | z] = z^3 + 9z and E[X2 | z] = z.
    additive: ALE_1 = g (book ch. 7, Example 1); ALE_2' = 3 z^2.
    multiplicative: ALE_1' = g'(z)(z^3 + 9z) = 3z^5 - 30z^4 + 101z^3 - 270z^2 + 666z,
    ALE_1 = z^6/2 - 6z^5 + 101z^4/4 - 90z^3 + 333z^2 (Example 2).
    shaky: ALE_1' = 10 z cos(10 z), ALE_1 = z sin(10z) + cos(10z)/10 (Example 3, corrected).
    """
    def g(z):
        return (z - 4) * (z - 5) * (z - 6)

    if d.function == "additive":
        return {("ale", "x1"): g, ("ale", "x2"): lambda z: z**3}
    if d.function == "multiplicative":
        return {("ale", "x1"): lambda z: z**6 / 2 - 6 * z**5 + 101 * z**4 / 4 - 90 * z**3
                + 333 * z**2}
    return {("ale", "x1"): lambda z: z * np.sin(10 * z) + np.cos(10 * z) / 10}


def _stratpd(d: StratpdSynthetic) -> dict[tuple[str, str], Curve]:
    """Independent features, so PD = conditional = ALE up to constants.

    interaction, x ~ U(0, 10): E[x] = 5, E[x^2] = 100/3, E[sin 3x] = (1 - cos 30)/30;
    PD_1 = z^2 + 5z + 5z (1 - cos 30)/30 + 10, PD_2 = 100/3 + 5z + 25 sin(3z) + 10, PD_3 = const.
    quadratic, x ~ U(-2, 2): PD_1 = z^2 + 10, PD_2 = z + 4/3 + 10.
    """
    if d.function == "interaction":
        s = (1 - np.cos(30.0)) / 30
        curves = {"x1": lambda z: z**2 + 5 * z + 5 * z * s + 10,
                  "x2": lambda z: 100 / 3 + 5 * z + 25 * np.sin(3 * z) + 10,
                  "x3": lambda z: 0 * z + 100 / 3 + 25 + 25 * s + 10}
    else:
        curves = {"x1": lambda z: z**2 + 10, "x2": lambda z: z + 4 / 3 + 10}
    return {(e, j): c for j, c in curves.items() for e in EFFECT_ESTIMANDS}


def _weight(d: StratpdWeight) -> dict[tuple[str, str], Curve]:
    """f is additive: slopes 10 (height), -1.5 (education), a jump of 40 (pregnant).

    PD and ALE of pregnant and height are these effects up to constants. The conditional
    curve of pregnant is not 40 per level: pregnancy implies female, and women are shorter
    and more educated: E[f | pregnant = 1] - E[f | pregnant = 0] = 40 + 10 (E[h | F] -
    E[h | not pregnant]) - 1.5 (E[e | F] - E[e | not pregnant]), with E[h | F] = 65.25,
    E[h | M] = 68.5, E[e | F] = 16, E[e | M] = 14 and P(F | not pregnant) = 1/3.
    """
    h_f, h_m, e_f, e_m = 65.25, 68.5, 16.0, 14.0
    h_np, e_np = (h_f + 2 * h_m) / 3, (e_f + 2 * e_m) / 3
    jump = 40 + 10 * (h_f - h_np) - 1.5 * (e_f - e_np)
    return {
        ("pd", "pregnant"): lambda z: 40 * z, ("ale", "pregnant"): lambda z: 40 * z,
        ("conditional", "pregnant"): lambda z: jump * z,
        ("pd", "height"): lambda z: 10 * z, ("ale", "height"): lambda z: 10 * z,
        ("pd", "education"): lambda z: -1.5 * z, ("ale", "education"): lambda z: -1.5 * z,
    }


_CASES: dict[type, Callable[[DGP], dict[tuple[str, str], Curve]]] = {
    AleBookCh6: _ch6, AleBookCh7: _ch7, StratpdSynthetic: _stratpd, StratpdWeight: _weight,
}


def effect_truth(dgp: DGP, estimand: str, feature: str) -> Curve:
    """The closed-form curve ``estimand`` of ``feature`` under ``dgp`` (see the module doc)."""
    if estimand not in EFFECT_ESTIMANDS:
        raise ValueError(f"estimand {estimand!r} is not one of {', '.join(EFFECT_ESTIMANDS)}")
    case = _CASES.get(type(dgp))
    curves = case(dgp) if case else {}
    if (estimand, feature) not in curves:
        known = ", ".join(f"{e}/{j}" for e, j in curves) or "none"
        raise KeyError(f"no closed-form {estimand} of {feature} for {type(dgp).__name__} "
                       f"(known: {known})")
    return curves[(estimand, feature)]


def effect_curves_table(
    dgp: DGP, fixed_rng: Callable[[str], np.random.Generator], size: int = 101
) -> dict[str, pd.DataFrame]:
    """Every closed-form curve of ``dgp`` on ``size`` points spanning each feature's central
    99% (quantiles of 100,000 draws from the DGP): the ``effects`` table (the one shape of
    :mod:`imlbench.explain.estimands`; exact, so ``se`` 0)."""
    case = _CASES[type(dgp)]
    X = dgp.sample_features(100_000, fixed_rng("effect_curve_range"))
    frames = []
    for (estimand, feature), curve in case(dgp).items():
        x = X[:, dgp.feature_names.index(feature)]
        lo, hi = np.quantile(x, [0.005, 0.995])
        z = np.unique(x) if len(np.unique(x)) <= 10 else np.linspace(lo, hi, size)
        frames.append(truth_frame(estimand, feature, np.broadcast_to(curve(z), z.shape), x=z))
    return {"effects": pd.concat(frames, ignore_index=True)}


for _dgp in ("ale_book_ch6", "ale_book_ch7", "stratpd_synthetic", "stratpd_weight"):
    truth(_dgp, ("effects",))(effect_curves_table)
