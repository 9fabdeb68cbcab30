"""Daily bike rentals: ``dgp: bikeshare_daily`` (the application of Molnar et al., conditional
subgroups, Sect. 10).

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

from imlbench.data.bikeshare import BIKESHARE_SOURCES, DAILY_LEVELS, daily_from_islp, load_uci_day
from imlbench.dgp.base import DGPS
from imlbench.dgp.real_data import SourcedTable


@DGPS.register("bikeshare_daily")
class BikeDaily(SourcedTable):
    """The daily rows of ``source`` (``islp`` or ``uci`` with ``path``); see the module doc."""

    name, sources, original_file = "bikeshare_daily", BIKESHARE_SOURCES, "day.csv"
    load_original = staticmethod(load_uci_day)

    @staticmethod
    def load_offline() -> pd.DataFrame:
        return daily_from_islp().drop(columns="yr")  # one year only: yr is constant

    @property
    def categorical(self) -> tuple[str, ...]:
        """The integer-coded features present in the data."""
        return tuple(f for f in DAILY_LEVELS if f in self.feature_names)

    @property
    def levels(self) -> dict[str, dict[int, str]]:
        """Level names of the categorical features present in the data."""
        return {f: DAILY_LEVELS[f] for f in self.categorical}
