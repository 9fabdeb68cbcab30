"""The red wine quality data of Cortez, Cerdeira, Almeida, Matos & Reis (2009), "Modeling wine
preferences by data mining from physicochemical properties", Decision Support Systems 47,
547-553, published as the UCI "Wine Quality" data set (id 186).

``winequality-red.csv`` holds 1599 Portuguese red wines: eleven physicochemical measurements
and the median sensory score ``quality`` (0-10) of at least three assessors. The file is
separated by ``;`` and its header names are quoted (``"fixed acidity";"volatile acidity";...``).
Applications treat ``quality`` as a numeric target (Molnar et al., PD and PFI and the data
generating process, Sect. 9). No package installed here ships the file, so it is read from a
path the user gives.
"""

from __future__ import annotations

import os

import pandas as pd

from imlbench.data.tables import Column, read_table

#: the file's column names and ours (short names, as the application's figure labels)
WINE_COLUMNS: dict[str, str] = {
    "fixed acidity": "fixed_acid",
    "volatile acidity": "vol_acid",
    "citric acid": "citric_acid",
    "residual sugar": "res_sugar",
    "chlorides": "chlorides",
    "free sulfur dioxide": "free_SO2",
    "total sulfur dioxide": "total_SO2",
    "density": "density",
    "pH": "pH",
    "sulphates": "sulphates",
    "alcohol": "alcohol",
}
WINE_TARGET = "quality"


def load_wine_quality(path: str | os.PathLike[str]) -> pd.DataFrame:
    """``winequality-red.csv`` (or the white-wine file of the same layout) at ``path``: the 11
    features renamed by :data:`WINE_COLUMNS`, as floats, and ``y = quality``, in file order.

    Raises :class:`~imlbench.data.tables.DataFileError` naming the file and the columns it
    lacks (a file read with the wrong separator has one column only, which the message points
    out), or the column, line and value of the first value that is empty, not a finite number
    or a quality outside 0..10.
    """
    columns = [*map(Column, WINE_COLUMNS), Column(WINE_TARGET, low=0, high=10)]
    raw = read_table(path, columns, sep=";")
    return raw.rename(columns={**WINE_COLUMNS, WINE_TARGET: "y"})
