"""Daily bike rentals of the conditional-subgroups application (Molnar et al., Sect. 10).

Nine features in the application's units (see :func:`imlbench.data.bikeshare.daily_features`):
season, yr, holiday, weekday, temp (degrees C), hum (%), work (working day), weather (0 good,
1 bad) and wind (km/h); ``y`` is the daily rental count ``cnt``. The categorical features
are integer codes; :attr:`BikeDaily.levels` names their levels (used to describe subgroups).

``source="uci"`` reads the UCI ``day.csv`` (731 days of 2011-2012) at ``path``, the paper's
data. ``source="islp"`` (the default, offline) builds 365 days from the hourly 2011 data the
ISLP package ships; ``yr`` is constant there and is dropped, so the ISLP data have 8 features.
"""

from __future__ import annotations

import pandas as pd

from imlbench.data.bikeshare import check_source, daily_from_islp, load_uci_day
from imlbench.dgp.base import DGPS
from imlbench.dgp.real_data import TableDGP

#: level names of the integer-coded features (the paper's labels where it has them)
LEVELS: dict[str, dict[int, str]] = {
    "season": {1: "WINTER", 2: "SPRING", 3: "SUMMER", 4: "FALL"},
    "yr": {0: "2011", 1: "2012"},
    "holiday": {0: "NO HOLIDAY", 1: "HOLIDAY"},
    "weekday": {0: "SUN", 1: "MON", 2: "TUE", 3: "WED", 4: "THU", 5: "FRI", 6: "SAT"},
    "work": {0: "NO WORKING DAY", 1: "WORKING DAY"},
    "weather": {0: "GOOD", 1: "MISTY/BAD"},
}


@DGPS.register("bikeshare_daily")
class BikeDaily(TableDGP):
    """The daily rows of ``source`` (``islp`` or ``uci`` with ``path``); see the module doc."""

    def __init__(self, source: str = "islp", path: str | None = None) -> None:
        check_source("bikeshare_daily", source, path, "day.csv")
        self.source, self.path = source, path

    def load(self) -> pd.DataFrame:
        if self.source == "uci":
            return load_uci_day(self.path)
        return daily_from_islp().drop(columns="yr")  # one year only: yr is constant

    @property
    def categorical(self) -> tuple[str, ...]:
        """The integer-coded features present in the data."""
        return tuple(f for f in LEVELS if f in self.feature_names)

    @property
    def levels(self) -> dict[str, dict[int, str]]:
        """Level names of the categorical features present in the data."""
        return {f: LEVELS[f] for f in self.categorical}
