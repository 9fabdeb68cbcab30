"""The layer's claim kind ``importance_order``: features ordered by their importance values,
paired over repetitions, as a chain (``order``, optionally the top or bottom group) or as every
pair of ``above`` and ``below``; each on a case that holds and one that fails."""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import (
    CLAIM_KEYS,
    CLAIMS,
    INCONCLUSIVE,
    NO_DATA,
    NOT_REPRODUCED,
    REPRODUCED,
    Tables,
)
from imlbench.metrics.rank_claims import order_pairs
from imlbench.metrics.ranks import add_ranks
from imlbench.params import check_all, with_defaults

NOISE = np.array([0.05, -0.03, 0.02, -0.04, 0.01, -0.02, 0.03, -0.01, 0.04, -0.05])


def _ranked(values: dict[str, np.ndarray]) -> pd.DataFrame:
    rows = [{"scenario": "s", "learner": "l", "method": "m", "rep": r, "feature": f,
             "value": float(v)} for f, vs in values.items() for r, v in enumerate(vs)]
    return add_ranks(pd.DataFrame(rows))


def _row(ranked: pd.DataFrame, **params) -> dict:
    claim = {"id": "c", "kind": "importance_order", "text": "", "published": "",
             "where": {"scenario": "s", "learner": "l", "method": "m"}, **params}
    kind = CLAIMS.get("importance_order")
    given = {k: v for k, v in claim.items() if k not in CLAIM_KEYS}
    check_all(kind.params, given)
    (row,) = kind({**claim, **with_defaults(kind.params, given)},
                  Tables(ranked=ranked, truth={}, other=ranked))
    return row


def test_order_pairs_chain_top_bottom_and_above_below():
    feats = ["a", "b", "c", "d"]
    assert order_pairs(["a", "b"], "any", feats) == [("a", "b")]
    assert order_pairs(["a"], "top", feats) == [("a", "b"), ("a", "c"), ("a", "d")]
    assert order_pairs(["c", "d"], "bottom", feats) == [("c", "d"), ("a", "c"), ("b", "c")]
    assert order_pairs([], "any", feats, ["a"], ["c", "d"]) == [("a", "c"), ("a", "d")]


def test_a_chain_holds_for_the_true_order_and_fails_for_a_swap():
    r = _ranked({"x4": 3.0 + NOISE, "x2": 2.2 - NOISE, "x1": 1.6 + NOISE, "x3": 1.1 - NOISE})
    assert _row(r, order=["x4", "x2", "x1", "x3"])["verdict"] == REPRODUCED
    assert _row(r, order=["x4", "x1", "x2", "x3"])["verdict"] == NOT_REPRODUCED
    assert _row(r, order=["x4"], position="top")["verdict"] == REPRODUCED
    assert _row(r, order=["x1"], position="bottom")["verdict"] == NOT_REPRODUCED
    assert _row(r, order=["x3"], position="bottom")["verdict"] == REPRODUCED


def test_above_below_holds_for_separated_features_and_fails_for_reversed_ones():
    r = _ranked({"lstat": 4.0 + NOISE, "rm": 3.5 - NOISE, "nox": 1.9 + NOISE / 2,
                 "black": 1.2 + NOISE / 3})
    top = _row(r, above=["lstat", "rm"], below=["nox", "black"])
    assert top["verdict"] == REPRODUCED and "weakest pair rm > nox" in top["reproduced"]
    assert _row(r, above=["black"], below=["nox"])["verdict"] == NOT_REPRODUCED
    # two features equal up to noise: the interval of their difference straddles 0
    close = _ranked({"a": 1.0 + NOISE, "b": 1.0 - NOISE})
    assert _row(close, above=["a"], below=["b"])["verdict"] == INCONCLUSIVE
    absent = _row(r, above=["lstat"], below=["zn"])
    assert absent["verdict"] == NO_DATA and "zn not among the features" in absent["reason"]
    assert _row(r, order=["lstat"])["verdict"] == NO_DATA  # nothing to compare
