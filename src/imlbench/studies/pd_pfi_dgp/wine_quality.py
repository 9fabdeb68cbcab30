"""The red wine quality data of Cortez, Cerdeira, Almeida, Matos & Reis (2009), "Modeling wine
preferences by data mining from physicochemical properties", Decision Support Systems 47,
547-553, published as the UCI "Wine Quality" data set (id 186).

``winequality-red.csv`` holds 1599 Portuguese red wines: eleven physicochemical measurements
and the median sensory score ``quality`` (0-10) of at least three assessors. The file is
separated by ``;`` and its header names are quoted (``"fixed acidity";"volatile acidity";...``).
The application of Molnar et al. (PD and PFI and the data generating process, Sect. 9) treats
``quality`` as a numeric target. No package installed here ships the file, so it is read from a
path the user gives.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

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
#: the feature with the largest importance in the application
WINE_DOMINANT = "alcohol"


def load_wine_quality(path: str | os.PathLike[str]) -> pd.DataFrame:
    """``winequality-red.csv`` (or the white-wine file of the same layout) at ``path``: the 11
    features renamed by :data:`WINE_COLUMNS`, as floats, and ``y = quality``, in file order.

    Raises ``ValueError`` naming the file when a column is missing (a file read with the wrong
    separator has one column only, which the message points out) or a value is not numeric.
    """
    raw = pd.read_csv(path, sep=";")
    raw.columns = [str(c).strip().strip('"').strip() for c in raw.columns]
    required = [*WINE_COLUMNS, WINE_TARGET]
    missing = [c for c in required if c not in raw.columns]
    if missing:
        hint = " (is the file ';'-separated?)" if len(raw.columns) == 1 else ""
        raise ValueError(f"{path}: missing column(s) {', '.join(missing)}{hint}")
    df = raw[list(WINE_COLUMNS)].rename(columns=WINE_COLUMNS)
    df["y"] = raw[WINE_TARGET]
    try:
        df = df.astype(float)
    except ValueError as exc:
        raise ValueError(f"{path}: a value is not numeric ({exc})") from None
    if not np.isfinite(df.to_numpy()).all():
        raise ValueError(f"{path}: missing or infinite values")
    return df.reset_index(drop=True)
