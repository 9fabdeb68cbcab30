"""The Titanic passengers of the book's ch. 2 (``dgp: titanic``): the offline Titanicp table and
Kaggle's train.csv read from a path, in the same columns and codes."""

from __future__ import annotations

import numpy as np
import pytest

from imlbench.data.tables import DataFileError
from imlbench.dgp.base import make_dgp

HEADER = "PassengerId,Survived,Pclass,Name,Sex,Age,SibSp,Parch,Ticket,Fare,Cabin,Embarked\n"
ROWS = (
    '1,0,3,"Braund, Mr. Owen Harris",male,22,1,0,A/5 21171,7.25,,S\n'
    '2,1,1,"Cumings, Mrs. John Bradley (Florence Briggs Thayer)",female,38,1,0,PC 17599,'
    '71.2833,C85,C\n'
    '3,1,3,"Heikkinen, Miss. Laina",female,,0,0,STON/O2. 3101282,7.925,,S\n'
    '4,1,2,"Nasser, Mrs. Nicholas (Adele Achem)",female,14,1,0,237736,30.0708,,C\n'
    '5,0,3,"Allen, Mr. William Henry",male,0.42,0,0,373450,8.05,,S\n'
)


def test_titanicp_is_the_offline_default():
    dgp = make_dgp("titanic", {})
    df = dgp.data
    assert list(df.columns) == ["age", "sex", "pclass", "y"]
    assert len(df) == 1309 and not df.isna().any().any()
    assert df["age"].min() == pytest.approx(0.1667, abs=1e-4)  # not the book's 0.42
    # 263 missing ages filled with the mean of the 1,046 present ones
    mean = df["age"].mode().iloc[0]
    assert (df["age"] == mean).sum() >= 263 and mean == pytest.approx(29.88, abs=0.01)
    assert df["y"].sum() == 500  # survivors of both lists
    assert df.groupby("pclass").size().tolist() == [323, 277, 709]
    assert dgp.categorical == ("sex", "pclass")
    assert dgp.levels["pclass"] == {0: "1st", 1: "2nd", 2: "3rd"}


def test_kaggle_file_is_read_in_the_same_columns(tmp_path):
    path = tmp_path / "train.csv"
    path.write_text(HEADER + ROWS)
    df = make_dgp("titanic", {"source": "kaggle", "path": str(path)}).data
    assert list(df.columns) == ["age", "sex", "pclass", "fare", "y"]
    np.testing.assert_allclose(df["age"], [22, 38, np.mean([22, 38, 14, 0.42]), 14, 0.42])
    assert df["sex"].tolist() == [1, 0, 0, 0, 1]  # female 0, male 1 as in Titanicp
    assert df["pclass"].tolist() == [2, 0, 2, 1, 2]  # classes 1-3 as codes 0-2
    assert df["fare"].tolist() == [7.25, 71.2833, 7.925, 30.0708, 8.05]
    assert df["y"].tolist() == [0, 1, 1, 1, 0]


def test_kaggle_file_with_other_codes_is_refused(tmp_path):
    path = tmp_path / "train.csv"
    path.write_text(HEADER + ROWS.replace(",male,", ",M,").replace(",female,", ",F,"))
    with pytest.raises(DataFileError, match="column 'Sex' holds F, M; allowed: female, male"):
        make_dgp("titanic", {"source": "kaggle", "path": str(path)}).data  # noqa: B018


def test_kaggle_needs_its_path():
    with pytest.raises(ValueError, match="needs path, the location of train.csv"):
        make_dgp("titanic", {"source": "kaggle"})
