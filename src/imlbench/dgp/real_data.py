"""Real data sets behind the DGP interface: rows are drawn from a file, not simulated.

:class:`TableDGP` is the base of every real data set: the regression function and the
conditional laws are unknown, so only ``sample`` works. :class:`SourcedTable` is a table read
from an offline source by default or from its original file at a path the user gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from imlbench.data.records import check_source
from imlbench.dgp.base import DGP
from imlbench.params import Param, choice, text


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


class SourcedTable(TableDGP):
    """A table replaced by an offline source (``sources[0]``, the default) or read from its
    original file (``source=sources[1]`` with ``path``, the location of ``original_file``).

    A subclass sets the class attributes and the two loaders; ``load_original`` gets the path.
    """

    #: the registered name, the sources (offline first), the original file's name
    name: str = ""
    sources: tuple[str, str] = ("", "")
    original_file: str = ""
    #: the categorical features by source (none by default)
    categorical_by_source: dict[str, tuple[str, ...]] = {}

    @classmethod
    def declared(cls, given: Mapping[str, Any]) -> Mapping[str, Param]:
        """``source`` (null: the offline one) and ``path``, then the subclass's
        :attr:`params`."""
        return {"source": choice(None, cls.sources, nullable=True),
                "path": text(None, nullable=True), **cls.params}

    def __init__(self, source: str | None = None, path: str | None = None) -> None:
        source = self.sources[0] if source is None else source
        check_source(self.name, self.sources, source, path, self.original_file)
        self.source, self.path = source, path

    @property
    def categorical(self) -> tuple[str, ...]:
        return self.categorical_by_source.get(self.source, ())

    def load(self) -> pd.DataFrame:
        if self.source == self.sources[1]:
            return self.load_original(self.path)
        return self.load_offline()

    @staticmethod
    def load_offline() -> pd.DataFrame:
        raise NotImplementedError

    @staticmethod
    def load_original(path: str) -> pd.DataFrame:
        raise NotImplementedError
