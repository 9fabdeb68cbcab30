"""The cells of the book's Figs. 3.3 and 3.7 from the book's own bike data: our association
measures (:func:`imlbench.explain.association.association`: Pearson's r for the numeric
features and the count, the corrected contingency coefficient K* for the categorical ones) on
the 731 days of ``data/day.csv`` in the book's repository (the file its ch. 3 code reads),
against the two decimals each cell prints. book_pdp reports these cells on the offline
substitute year without a verdict; this shows that the measures, on the book's data, give the
printed table.

    git --git-dir=<snapshot of slds-lmu/iml_methods_limitations> show HEAD:data/day.csv > day.csv
    uv run python benchmarks/book_evidence/ch3_association_cells.py day.csv

Prints every cell and exits 1 when one does not round to the printed value.
"""

from __future__ import annotations

import sys

import pandas as pd

from imlbench.explain.association import association

#: the printed cells: Fig. 3.3 (Pearson) and Fig. 3.7 (K*), without yr
PRINTED = {
    ("temp", "atemp"): 0.99, ("temp", "hum"): 0.13, ("temp", "windspeed"): -0.16,
    ("temp", "cnt"): 0.63, ("atemp", "hum"): 0.14, ("atemp", "windspeed"): -0.18,
    ("atemp", "cnt"): 0.63, ("hum", "windspeed"): -0.25, ("hum", "cnt"): -0.10,
    ("windspeed", "cnt"): -0.23,
    ("season", "mnth"): 0.97, ("season", "holiday"): 0.06, ("season", "workingday"): 0.04,
    ("season", "weathersit"): 0.17, ("mnth", "holiday"): 0.16, ("mnth", "workingday"): 0.09,
    ("mnth", "weathersit"): 0.28, ("holiday", "workingday"): 0.35,
    ("holiday", "weathersit"): 0.05, ("workingday", "weathersit"): 0.09,
}
NUMERIC = {"temp", "atemp", "hum", "windspeed", "cnt"}


def main(path: str) -> int:
    day = pd.read_csv(path)
    wrong = 0
    for (a, b), printed in PRINTED.items():
        categorical = a not in NUMERIC
        value = association(day[a].to_numpy(), day[b].to_numpy(), categorical, categorical)[1]
        ok = round(value, 2) == printed
        wrong += not ok
        kind = "K*" if categorical else "r"
        print(f"{kind:2s} {a:>10s} x {b:<10s} {value:8.4f}  printed {printed:5.2f}"
              f"  {'ok' if ok else 'DIFFERS'}")
    return int(wrong > 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
