"""The book's ch. 10 ("Partial and Individual Permutation Feature Importance", Wagner): ICI
curves, their mean the PI curve, their derivatives (d-ICI), the stump on each row's integrated
ICI and the PI within its two sides (Sect. 10.1-10.3), on three simulations and the Boston
housing data. The methods are the layer's ``ici`` (:mod:`imlbench.explain.ici`) and the claim
kinds of :mod:`imlbench.metrics.ici_claims`.

The illustration of Fig. 10.1 is three rows and three replacement values whose ICI values the
book's code prints; the study's claim kind checks the book's printed PI and PFI against our
formulas on them:

``book_importance.toy``
    PI(``point``) (eq. after (8): the mean over the rows of the ICI at that value) or, with
    ``point`` null, the PFI (eq. (4): the mean of every ICI entry) of the illustration's matrix
    :data:`TOY_ICI` equals ``value`` up to ``atol`` (the printed rounding); exact, no sampling error
"""

from __future__ import annotations

import numpy as np

from imlbench.explain.ici import partial_importance, pfi_of_ici
from imlbench.metrics.claims import Tables, claim_kind, claim_row, per_combo
from imlbench.params import number

#: the replacement values of Fig. 10.1
TOY_VALUES = np.array([1.0, 2.0, 3.0])
#: the ICI of its three rows (rows) at the three values (columns), as the book's code has them:
#: each row is 0 at its own value
TOY_ICI = np.array([[0.0, 0.65, 0.85],
                    [0.15, 0.0, 0.75],
                    [0.35, 0.1, 0.0]])


@claim_kind("book_importance.toy", params={"point": number(None, nullable=True), "value": number(),
                             "atol": number(0.0, minimum=0)})
def i_toy(claim: dict, t: Tables) -> list[dict]:
    """The illustration's PI at ``point`` (or its PFI) against the printed ``value`` (see
    the module doc)."""
    point, value, atol = claim["point"], claim["value"], claim["atol"]
    if point is None:
        ours, what = pfi_of_ici(TOY_ICI), "PFI (mean of the 9 ICI values)"
    else:
        at = np.flatnonzero(TOY_VALUES == point)
        if at.size != 1:
            raise ValueError(f"claim {claim['id']} (book_importance.toy): point must be one of "
                             f"{TOY_VALUES.tolist()}; got {point}")
        ours, what = float(partial_importance(TOY_ICI)[at[0]]), f"PI({point:g})"

    def one(claim: dict, _: None, learner: str, method: str) -> dict:
        return claim_row(claim, learner, method, f"{what} = {ours:.4f}",
                         f"|ours - {value:g}| <= {atol:g} (the printed rounding)",
                         bool(abs(ours - value) <= atol))

    return per_combo(claim, t, lambda *_: None, one)
