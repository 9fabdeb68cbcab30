"""One truth shape and declared estimands (:mod:`imlbench.explain.estimands`).

Every registered truth, for every DGP of the shipped study files (smoke profile), returns its
tables in the one long shape; every method whose estimates are compared with a truth declares
the estimand where it is registered, and the estimand map of the truth errors is gone.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import imlbench.metrics.truth_errors as truth_errors
from imlbench import studies
from imlbench.dgp.base import make_dgp
from imlbench.explain.api import METHODS, estimand_of
from imlbench.explain.estimands import (
    TABLE_OF,
    TABLES,
    TRUTH_COLUMNS,
    derived_importances,
    truth_frame,
)
from imlbench.metrics.ranks import truth_ranks
from imlbench.seeds import rng_for
from imlbench.truth import TRUTHS
from imlbench.validate import check_config

ROOT = Path(__file__).resolve().parents[1]
STUDIES = ("extrapolation", "conditional_subgroups", "pd_pfi_dgp", "stratpd")
studies.load(list(STUDIES))

#: the methods of kind effect or importance whose estimates are compared with no truth, and why
NOT_COMPARED = {
    "oob_pfi": "the forest's out-of-bag importance, scaled by its SE by default: no truth of f",
    "cvirf": "the forest's conditional importance given the features associated with x_j at a "
             "threshold: conditions on a data-dependent set",
    "permute_relearn": "permute and relearn: a relearned model, not a PFI",
    "condition_relearn": "condition and relearn: a relearned model, not a PFI",
    "cs_pdp": "a PD within each subgroup of the fitted tree: no truth per subgroup",
    "conditional_subgroups.cs_pdp_rules": "cs-PDPs per subgroup rule",
    "conditional_subgroups.cs_pfi_quantiles": "quantiles of cs-PFI over subgroups",
    "marginal_y": "the data's mean y per value (no model); not compared today",
    "mplot_window": "a windowed M-plot (conditional_subgroups); not compared today",
    "ici": "individual conditional importance: each row's loss change along x_j, a curve of a "
           "model's loss, not of f",
}


def _scenarios() -> list:
    """One scenario per (DGP, parameters) with truths, of every study in the smoke profile."""
    cfg = check_config(ROOT)[0]
    _, expanded = check_config(ROOT, {**cfg, "profile": "smoke", "studies": list(STUDIES)})
    seen, out = set(), []
    for study in expanded.values():
        for sc in study.scenarios.values():
            key = (sc.dgp, repr(sorted(sc.params.items())))
            if sc.dgp in TRUTHS and key not in seen:
                seen.add(key)
                out.append(pytest.param(sc, id=f"{study.name}-{sc.name}"))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("sc", _scenarios())
def test_every_truth_returns_the_one_shape(sc):
    spec = TRUTHS.get(sc.dgp)
    raw = spec.compute(make_dgp(sc.dgp, sc.params), lambda label: rng_for(1, "t", label))
    assert set(raw) == set(spec.names) and set(raw) <= set(TABLES)
    for name, table in raw.items():
        assert list(table.columns) == list(TRUTH_COLUMNS), name
        assert {c: str(t) for c, t in table.dtypes.items()} == TRUTH_COLUMNS, name
        assert set(table["estimand"]) <= set(TABLES[name]), name
        assert (table["row"] >= -1).all() and table["value"].notna().all()
        assert (table["se"] >= 0).all()
        curves = table["estimand"].map(TABLE_OF) == "effects"
        assert table.loc[curves, "x"].notna().all() and table.loc[~curves, "x"].isna().all()
        assert (table.loc[table["estimand"] != "ice", "row"] == -1).all()
        # the stage's check passes them as they are, the importances derived from them added
    checked = spec.tables(make_dgp(sc.dgp, sc.params), lambda label: rng_for(1, "t", label))
    for name, table in checked.items():
        expected = derived_importances(raw[name]) if name == "importance" else raw[name]
        pd.testing.assert_frame_equal(table, expected)


def test_a_table_not_in_the_one_shape_is_rejected():
    from imlbench.explain.estimands import one_shape

    good = truth_frame("pd", "x1", [1.0, 2.0], x=[0.0, 1.0])
    with pytest.raises(ValueError, match="a truth table has exactly"):
        one_shape(good.rename(columns={"estimand": "kind"}))
    with pytest.raises(ValueError, match="unknown estimand 'marginal'"):
        one_shape(good.assign(estimand="marginal"))
    with pytest.raises(ValueError, match="unknown estimand"):
        truth_frame("dgp_pd", "x1", 1.0)


def test_truth_ranks_are_average_ranks_least_important_first():
    t = truth_frame("pfi_marginal", ["a", "b", "c", "d"], [0.3, 0.1, 0.3, 0.2])
    ranks = truth_ranks(pd.concat([t, truth_frame("pfi_conditional", ["a"], 9.0)]),
                        "pfi_marginal")
    assert ranks.to_dict() == {"a": 3.5, "b": 1.0, "c": 3.5, "d": 2.0}


def test_every_compared_method_declares_its_estimand():
    assert not hasattr(truth_errors, "ESTIMANDS")
    for name in METHODS.names():
        spec = METHODS.get(name)
        if spec.kind in ("effect", "importance"):
            assert spec.estimand is not None or name in NOT_COMPARED, (
                f"method {name} ({spec.kind}) declares no estimand and is not listed as "
                f"compared with no truth")
        if spec.estimand is not None:
            assert name not in NOT_COMPARED
            assert callable(spec.estimand) or spec.estimand in TABLE_OF
    assert {m for m in METHODS.names() if METHODS.get(m).estimand is not None} == {
        "pdp", "ice", "ale", "stratpd", "mplot", "pfi", "cpfi", "conditional_pfi", "loco"}


@pytest.mark.parametrize("method, params, estimand", [
    ("pdp", {}, "pd"),
    ("pdp", {"algorithm": "path"}, "pd"),
    ("ale", {}, "ale"),
    ("stratpd", {}, "ale"),
    ("mplot", {}, "conditional"),
    ("ice", {}, "ice"),
    ("ice", {"rows": "data"}, "pd"),
    ("ice", {"curve": "centered"}, None),
    ("pfi", {}, "pfi_marginal"),
    ("pfi", {"loss": "absolute"}, None),
    ("pfi", {"contrast": "ratio"}, None),
    ("pfi", {"groups": {"g": ["x1", "x2"]}}, None),
    ("cpfi", {}, "pfi_conditional"),
    ("conditional_pfi", {"sampler": "permutation"}, "pfi_marginal"),
    ("conditional_pfi", {"sampler": "subgroups"}, "pfi_conditional"),
    ("conditional_pfi", {"sampler": "knockoffs", "contrast": "ratio"}, None),
    ("loco", {}, "loco"),
    ("loco", {"contrast": "ratio"}, None),
    ("loco", {"loss": "absolute"}, None),
    ("shap", {}, None),
])
def test_estimand_of_reads_the_declaration(method, params, estimand):
    assert estimand_of(method, params) == estimand


def test_loco_is_derived_where_the_conditional_importance_is_held():
    cond = truth_frame("pfi_conditional", ["a", "b"], [0.8, 0.2], se=[0.02, 0.0])
    ratio = truth_frame("pfi_conditional_ratio", ["a", "b"], [3.0, 1.5], se=[0.1, 0.0])
    marginal = truth_frame("pfi_marginal", ["a", "b"], [1.0, 0.3])
    out = derived_importances(pd.concat([marginal, cond, ratio], ignore_index=True))
    loco = out[out["estimand"] == "loco"]
    assert loco["value"].tolist() == [0.4, 0.1] and loco["se"].tolist() == [0.01, 0.0]
    assert len(out) == 8
    # nothing to derive from the marginal importance alone, nor twice
    pd.testing.assert_frame_equal(derived_importances(marginal), marginal)
    pd.testing.assert_frame_equal(derived_importances(out), out)


def test_the_declared_estimands_are_those_the_truths_hold():
    assert set(TABLE_OF) == {e for held in TABLES.values() for e in held}
    assert np.isnan(truth_frame("pfi_marginal", "x1", 1.0)["x"]).all()
