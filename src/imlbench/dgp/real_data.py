"""Real data sets behind the DGP interface: rows are drawn from a file, not simulated.

:class:`TableDGP` is the base of every real data set: the regression function and the
conditional laws are unknown, so only ``sample`` works.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.dgp.base import DGP


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
