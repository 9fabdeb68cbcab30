"""Synthetic examples of the feature-effect literature, with known f and joint law.

``ale_book_ch6`` (book ch. 6, Example 1 and 2): x1 ~ U(a, b), x2 ~ N(mu, sd),
x3 | x1, x2 ~ N(x2, x1) for ``multiplicative`` / ``squared`` (f = x1 x2 x3 or x1 x2^2), and
x1 ~ U(a, b), x2 ~ N(mu, sd), x3 | x2 ~ N(x2, sd3) for ``additive`` (f = x1 + x2 - x3).

``ale_book_ch7`` (book ch. 7, Examples 1-3): x1 ~ U(0, 10) (or N(10, 3) for ``shaky``),
x2 | x1 ~ U(x1 - 3, x1 + 3); f = (x1-4)(x1-5)(x1-6) + x2^3 (``additive``),
(x1-4)(x1-5)(x1-6) x2^3 (``multiplicative``) or sin(10 x1) x2 (``shaky``).

``stratpd_synthetic`` (Parr & Wilson, Figs. 3-4): ``interaction``: y = x1^2 + x1 x2 +
5 x1 sin(3 x2) + 10 with x1, x2, x3 ~ U(0, 10); ``quadratic``: y = x1^2 + x2 + 10 with
x1, x2 ~ U(-2, 2); Gaussian noise of sd ``noise_sd``.

``stratpd_weight`` (Parr & Wilson, eq. 5): sex (0 = male, 1 = female), pregnant (only
women, half of them), height and education depending on sex;
y = 120 + 10 (height - min height) + 40 pregnant - 1.5 education, with the minimum of the
height law (60.5 in) in place of the sample minimum so that f is fixed.
"""

from __future__ import annotations

import numpy as np

from imlbench.dgp.base import DGP, DGPS
from imlbench.params import ParamError, choice, number

#: the noise standard deviation every example takes
NOISE_SD = {"noise_sd": number(0.0, minimum=0)}


class _Example(DGP):
    """Shared parts: named features, Gaussian noise of sd ``noise_sd``."""

    names: tuple[str, ...] = ()
    #: features coded as integer levels
    categorical: tuple[str, ...] = ()
    params = NOISE_SD

    def __init__(self, noise_sd: float = 0.0) -> None:
        self.noise_sd = float(noise_sd)

    @property
    def feature_names(self) -> list[str]:
        return list(self.names)

    def noise(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.normal(0.0, self.noise_sd, size=n) if self.noise_sd > 0 else np.zeros(n)


@DGPS.register("ale_book_ch6")
class AleBookCh6(_Example):
    names = ("x1", "x2", "x3")
    FUNCTIONS = ("multiplicative", "squared", "additive")
    params = {"function": choice("multiplicative", FUNCTIONS), "a": number(0.0),
              "b": number(0.5), "mu": number(2.0), "sd": number(2.0, minimum=0),
              "sd3": number(0.5, minimum=0), **NOISE_SD}

    def __init__(self, function: str = "multiplicative", a: float = 0.0, b: float = 0.5,
                 mu: float = 2.0, sd: float = 2.0, sd3: float = 0.5,
                 noise_sd: float = 0.0) -> None:
        # x1 ~ U(a, b) is the sd of x3 unless additive
        if function != "additive" and a < 0:
            raise ParamError("a", f"{a!r} with function {function}, where x1 ~ U(a, b) is the "
                                  f"sd of x3; allowed: a number >= 0")
        if not b > a:
            raise ParamError("b", f"{b!r} is not above a = {a!r}; allowed: a number > {a:g}")
        super().__init__(noise_sd)
        self.function, self.a, self.b, self.mu, self.sd, self.sd3 = function, a, b, mu, sd, sd3

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        x1 = rng.uniform(self.a, self.b, n)
        x2 = rng.normal(self.mu, self.sd, n)
        sd3 = self.sd3 if self.function == "additive" else x1
        return np.column_stack([x1, x2, rng.normal(x2, sd3)])

    def f(self, X: np.ndarray) -> np.ndarray:
        x1, x2, x3 = X.T
        if self.function == "multiplicative":
            return x1 * x2 * x3
        if self.function == "squared":
            return x1 * x2**2
        return x1 + x2 - x3


@DGPS.register("ale_book_ch7")
class AleBookCh7(_Example):
    names = ("x1", "x2")
    FUNCTIONS = ("additive", "multiplicative", "shaky")
    params = {"function": choice("additive", FUNCTIONS), **NOISE_SD}

    def __init__(self, function: str = "additive", noise_sd: float = 0.0) -> None:
        super().__init__(noise_sd)
        self.function = function

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        if self.function == "shaky":
            x1 = rng.normal(10.0, 3.0, n)
        else:
            x1 = rng.uniform(0.0, 10.0, n)
        return np.column_stack([x1, rng.uniform(x1 - 3.0, x1 + 3.0)])

    def f(self, X: np.ndarray) -> np.ndarray:
        x1, x2 = X.T
        cubic = (x1 - 4) * (x1 - 5) * (x1 - 6)
        if self.function == "additive":
            return cubic + x2**3
        if self.function == "multiplicative":
            return cubic * x2**3
        return np.sin(10 * x1) * x2


@DGPS.register("stratpd_synthetic")
class StratpdSynthetic(_Example):
    FUNCTIONS = ("interaction", "quadratic")
    params = {"function": choice("interaction", FUNCTIONS), **NOISE_SD}

    def __init__(self, function: str = "interaction", noise_sd: float = 0.0) -> None:
        super().__init__(noise_sd)
        self.function = function
        self.names = ("x1", "x2", "x3") if function == "interaction" else ("x1", "x2")

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        if self.function == "interaction":
            return rng.uniform(0.0, 10.0, (n, 3))
        return rng.uniform(-2.0, 2.0, (n, 2))

    def f(self, X: np.ndarray) -> np.ndarray:
        x1, x2 = X[:, 0], X[:, 1]
        if self.function == "interaction":
            return x1**2 + x1 * x2 + 5 * x1 * np.sin(3 * x2) + 10
        return x1**2 + x2 + 10


@DGPS.register("stratpd_weight")
class StratpdWeight(_Example):
    names = ("sex", "pregnant", "height", "education")
    categorical = ("sex", "pregnant")
    MIN_HEIGHT = 60.5

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        female = rng.integers(0, 2, n)
        pregnant = np.where(female == 1, rng.integers(0, 2, n), 0)
        height = np.where(female == 1, 65 + rng.uniform(-4.5, 5.0, n), 68 + rng.uniform(-7, 8, n))
        education = np.where(female == 1, 12.0, 10.0) + rng.uniform(0.0, 8.0, n)
        return np.column_stack([female, pregnant, height, education]).astype(float)

    def f(self, X: np.ndarray) -> np.ndarray:
        return 120 + 10 * (X[:, 2] - self.MIN_HEIGHT) + 40 * X[:, 1] - 1.5 * X[:, 3]
