"""The synthetic weather data of Parr & Wilson's Fig. 5, and its closed-form effects.

Days 1..365 of ``years`` consecutive years, one row per day, each day one state drawn
uniformly from AZ, CA, CO, NV, WA (coded 0..4 in that order); features ``state``,
``dayofyear`` and ``year`` (kept as a feature, as the paper's code does);
y = base[state] + 10 sin(2 pi dayofyear / 365 + pi) + N(0, noise_sd^2) with base AZ 90,
CA 70, CO 40, NV 80, WA 60. ``n`` rows are the first n days (n = 365 years).

``state`` is independent of the day, so the PD, the ALE and the conditional expectation of
``state`` all equal base[state] up to a constant: relative to CO, AZ 50, CA 30, NV 40,
WA 20.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.dgp.base import DGP, DGPS
from imlbench.params import number
from imlbench.truth import truth, truth_frame

STATES = ("AZ", "CA", "CO", "NV", "WA")
BASE = np.array([90.0, 70.0, 40.0, 80.0, 60.0])
AMPLITUDE, PERIOD = 10.0, 365


@DGPS.register("stratpd.weather")
class StratpdWeather(DGP):
    """See the module doc."""

    categorical = ("state",)

    params = {"noise_sd": number(4.0, minimum=0)}

    def __init__(self, noise_sd: float = 4.0) -> None:
        self.noise_sd = float(noise_sd)

    @property
    def feature_names(self) -> list[str]:
        return ["state", "dayofyear", "year"]

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        day = np.arange(n)
        state = rng.integers(0, len(STATES), n)
        return np.column_stack([state, day % PERIOD + 1, day // PERIOD + 1]).astype(float)

    def f(self, X: np.ndarray) -> np.ndarray:
        season = AMPLITUDE * np.sin(2 * np.pi * X[:, 1] / PERIOD + np.pi)
        return BASE[X[:, 0].astype(int)] + season

    def noise(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.normal(0.0, self.noise_sd, n)


@truth("stratpd.weather", ("effects",))
def weather_effects(dgp: StratpdWeather, fixed_rng) -> dict[str, pd.DataFrame]:
    """PD (= ALE = conditional expectation, up to constants) of ``state`` at its codes,
    base[state] + E[season] = base[state] (the sinusoid averages 0 over whole years), and of
    ``dayofyear``: the sinusoid plus the mean base, 68."""
    day = np.arange(1, PERIOD + 1, dtype=float)
    season = AMPLITUDE * np.sin(2 * np.pi * day / PERIOD + np.pi)
    frames = [truth_frame(e, "state", BASE, x=np.arange(len(STATES), dtype=float))
              for e in ("pd", "ale", "conditional")]
    frames += [truth_frame(e, "dayofyear", season + BASE.mean(), x=day) for e in ("pd", "ale")]
    return {"effects": pd.concat(frames, ignore_index=True)}
