"""Synthetic figure inputs of the study tests: Parquet files written where the workflow puts
them, and the roles they fill."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from imlbench.io import write_parquet


def write(table: pd.DataFrame, path: Path) -> Path:
    """``table`` as Parquet at ``path`` (its folders made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_parquet(table, path, config_hash="test", seed=0)
    return path


class WrittenInputs:
    """The paths of one figure's inputs by kind and the study methods filling each role;
    the study tests add writers of their own tables."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.paths: dict[str, list[Path]] = {"estimates": [], "truth": [], "data": [],
                                             "truth_error_reps": []}
        self.methods: dict[str, list[str]] = {}

    def table(self, scenario: str, learner: str, method: str, role: str, table: pd.DataFrame,
              **columns: object) -> pd.DataFrame:
        """The estimates of ``method`` (filling ``role``), tagged and written as the run job
        writes them."""
        table = table.assign(scenario=scenario, learner=learner, method=method, **columns)
        self.paths["estimates"].append(
            write(table, self.root / "estimates" / scenario / learner / method / "c0.parquet"))
        if method not in self.methods.setdefault(role, []):
            self.methods[role].append(method)
        return table
