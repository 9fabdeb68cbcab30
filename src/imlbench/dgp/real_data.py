"""Real data sets behind the DGP interface: rows are drawn from a file, not simulated.

:class:`TableDGP` is the base of every real data set.
``bikeshare`` serves the hourly bike-sharing data of Fanaee-T & Gama (2013) with
``y = log`` of the hourly rental count (see :mod:`imlbench.data.bikeshare`). The
regression function and the conditional laws are unknown, so only ``sample`` works.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.data.bikeshare import load_islp, load_uci_hour
from imlbench.dgp.base import DGP, DGPS

BIKESHARE_SOURCES = ("islp", "uci")


class TableDGP(DGP):
    """A real data set: ``load()`` returns every row (the features and ``y``) in file order.

    The regression function and the conditional laws are unknown, so only ``sample`` works.
    The table is loaded once per instance.
    """

    has_truth = False
    _data: pd.DataFrame | None = None

    def load(self) -> pd.DataFrame:
        raise NotImplementedError

    @property
    def data(self) -> pd.DataFrame:
        """All rows in file order: the features and ``y``."""
        if self._data is None:
            self._data = self.load()
        return self._data

    @property
    def feature_names(self) -> list[str]:
        return [c for c in self.data.columns if c != "y"]

    def sample(self, n: int | None, rng: np.random.Generator) -> pd.DataFrame:
        """All rows if ``n`` is None or at least the row count, else ``n`` distinct rows.

        The subsample is drawn without replacement with ``rng`` and kept in file order.
        """
        data = self.data
        if n is None or n >= len(data):
            return data.copy()
        rows = np.sort(rng.choice(len(data), size=n, replace=False))
        return data.iloc[rows].reset_index(drop=True)


def check_source(dgp: str, source: str, path: str | None, file: str) -> None:
    """Validate a bike-sharing ``source`` (offline ``islp``, or ``uci`` read from ``path``)."""
    if source not in BIKESHARE_SOURCES:
        raise ValueError(
            f"{dgp}: source must be one of {', '.join(BIKESHARE_SOURCES)}, got {source!r}"
        )
    if source == "uci" and path is None:
        raise ValueError(f"{dgp}: source='uci' needs path, the location of {file}")
    if source == "islp" and path is not None:
        raise ValueError(f"{dgp}: path is only read with source='uci'")


@DGPS.register("bikeshare")
class BikeShare(TableDGP):
    """The bike-sharing hours: ``source="islp"`` (2011, ships with ISLP) or ``"uci"``.

    ``source="uci"`` reads the UCI ``hour.csv`` at ``path`` (see
    :func:`imlbench.data.bikeshare.download_uci_hour`).
    """

    def __init__(self, source: str = "islp", path: str | None = None) -> None:
        check_source("bikeshare", source, path, "hour.csv")
        self.source = source
        self.path = path

    def load(self) -> pd.DataFrame:
        return load_islp() if self.source == "islp" else load_uci_hour(self.path)
