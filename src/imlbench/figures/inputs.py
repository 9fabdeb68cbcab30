"""What a figure reads: the Parquet files its rule hands it, by role.

A figure never names a method of the study file: it asks for a *role* it declared
(:func:`imlbench.figures.figure`), and the figure's entry in the study file maps the role to
one or more of the study's methods. Every table comes back restricted to the figure's
scenarios, with a ``role`` column next to ``method`` where methods are involved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from imlbench.io import read_many, read_parquet


class FigureInputs:
    """The inputs of one figure job.

    ``paths`` maps ``estimates``, ``truth``, ``ranks``, ``summary``, ``data`` and
    ``truth_error_reps`` to Parquet files; ``methods`` maps each role to the study methods
    that fill it; ``scenarios`` are the figure's scenarios that run in this profile.
    ``method_kinds`` and ``learner_kinds`` map the study's methods and learners to the
    registered method or learner they are instances of, and ``estimands`` its methods to the
    truth estimand they estimate (None: none), as their registrations declare.
    """

    def __init__(self, paths: Mapping[str, Sequence[Path]], methods: Mapping[str, str | list],
                 scenarios: Sequence[str], *, method_kinds: Mapping[str, str] | None = None,
                 learner_kinds: Mapping[str, str] | None = None,
                 estimands: Mapping[str, str | None] | None = None) -> None:
        self.paths = {k: [Path(p) for p in v] for k, v in paths.items()}
        self.roles = {role: [m] if isinstance(m, str) else list(m)
                      for role, m in methods.items()}
        self.scenarios = list(scenarios)
        self.method_kinds = dict(method_kinds or {})
        self.learner_kinds = dict(learner_kinds or {})
        self.estimands = dict(estimands or {})
        self._effects: pd.DataFrame | None = None
        self._data: pd.DataFrame | None = None

    def methods(self, *roles: str) -> dict[str, str]:
        """Study method -> role, for the given roles (default: all)."""
        unknown = set(roles) - set(self.roles)
        if unknown:
            raise ValueError(f"unknown role(s) {', '.join(sorted(unknown))}; this figure's "
                             f"roles: {', '.join(self.roles)}")
        return {m: role for role in (roles or self.roles) for m in self.roles[role]}

    def _with_roles(self, table: pd.DataFrame, roles: Sequence[str]) -> pd.DataFrame:
        by_method = self.methods(*roles)
        table = table[table["method"].isin(list(by_method))].copy()
        table["role"] = table["method"].map(by_method)
        return table

    def estimates(self, *roles: str) -> pd.DataFrame:
        """The estimates of the methods filling ``roles`` (``estimates/<sc>/<learner>/<m>/``)."""
        wanted = self.methods(*roles)
        paths = [p for p in self.paths.get("estimates", []) if p.parent.name in wanted]
        if not paths:
            raise ValueError(f"no estimates of role(s) {', '.join(roles)} among the inputs")
        return self._with_roles(read_many(paths), roles)

    def truth(self, estimand: str) -> pd.DataFrame:
        """The truth tables of one estimand (e.g. ``importance``, ``effects``)."""
        paths = [p for p in self.paths.get("truth", []) if p.stem == estimand]
        if not paths:
            raise ValueError(f"no {estimand} truth among the inputs")
        return read_many(paths)

    def truth_curve(self, scenario: str, feature: str, estimand: str) -> pd.Series:
        """The true curve of ``estimand`` (``pd``, ``ale``, ``interventional``, ...) of
        ``feature`` in ``scenario``: its value by x (sorted), from the rows of the effects
        truth that describe the feature rather than one row (``row < 0``); empty when the
        truth has none."""
        if self._effects is None:
            self._effects = self.truth("effects")
        t = self._effects
        rows = t[(t["scenario"] == scenario) & (t["feature"] == feature)
                 & (t["estimand"] == estimand) & (t["row"] < 0)]
        return rows.groupby("x")["value"].mean()

    @staticmethod
    def first_rep(table: pd.DataFrame) -> pd.DataFrame:
        """The rows of ``table`` (estimates, or data) from the first repetition of each
        scenario: the one a figure shows where it shows one estimate or one data set."""
        return table[table["rep"] == table.groupby("scenario")["rep"].transform("min")]

    def data(self) -> pd.DataFrame:
        """The first data chunk of each scenario, with a ``scenario`` column (read once)."""
        if self._data is None:
            self._data = pd.concat([read_parquet(p).assign(scenario=p.parent.name)
                                    for p in self.paths.get("data", [])], ignore_index=True)
        return self._data.copy()

    def first_data(self, scenario: str | None = None) -> pd.DataFrame:
        """The training rows of the first repetition (:meth:`first_rep`) of each scenario's
        data, or of ``scenario``'s; a ValueError when there are none."""
        data = self.data()
        if scenario is not None:
            data = data[data["scenario"] == scenario]
        rows = self.first_rep(data)
        rows = rows[rows["split"] == "train"]
        if rows.empty:
            raise ValueError(f"no training rows of {scenario or 'the figure'} among the inputs")
        return rows

    def truth_errors(self) -> pd.DataFrame:
        """Estimates against their truths per repetition and point
        (``metrics/truth_error_reps.parquet``, :mod:`imlbench.metrics.truth_errors`) of the
        figure's scenarios and methods, with a ``role`` column."""
        table = read_many(self.paths.get("truth_error_reps", []))
        if table.empty:
            raise ValueError("no truth_error_reps among the inputs")
        return self._with_roles(table[table["scenario"].isin(self.scenarios)], list(self.roles))

    def summary(self) -> pd.DataFrame:
        """The study's summary table (e.g. interval coverage), for the figure's scenarios."""
        table = read_many(self.paths.get("summary", []))
        if table.empty:
            raise ValueError("no summary among the inputs")
        return table[table["scenario"].isin(self.scenarios)]

    def ranks(self, *roles: str) -> pd.DataFrame:
        """Per-repetition importance ranks of the methods filling ``roles`` (default: all) in
        the figure's scenarios."""
        table = read_many(self.paths.get("ranks", []))
        if table.empty:
            raise ValueError("no ranks among the inputs")
        table = self._with_roles(table[table["scenario"].isin(self.scenarios)], roles)
        if table.empty:
            raise ValueError(f"no ranks of scenarios {', '.join(self.scenarios)}")
        return table
