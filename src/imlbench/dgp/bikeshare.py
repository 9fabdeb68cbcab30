"""Daily bike rentals: ``dgp: bikeshare_daily``.

``columns: application`` (the default): nine features in the units of the application of
Molnar et al., conditional subgroups, Sect. 10 (see
:func:`imlbench.data.bikeshare.daily_features`): season, yr, holiday, weekday, temp (degrees
C), hum (%), work (working day), weather (0 good, 1 bad) and wind (km/h). ``columns: uci``:
the ten features of the UCI ``day.csv`` that the LMU book's ch. 3 uses, as the file codes them
(:func:`imlbench.data.bikeshare.uci_day_features`): season, yr, mnth, holiday, workingday,
weathersit (1-4), and the normalised temp, atemp, hum and windspeed. ``y`` is the daily rental
count ``cnt``. The categorical features are integer codes; :attr:`BikeDaily.levels` names
their levels. ``features`` keeps those columns only, in the order given (a model that sees a
subset of the day's features; ``yr`` is left out where the data lack it).

``source="uci"`` reads the UCI ``day.csv`` (731 days of 2011-2012) at ``path``.
``source="islp"`` (the default, offline) builds 365 days from the hourly 2011 data the ISLP
package ships; ``yr`` is constant there and is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from imlbench.data.bikeshare import (
    BIKESHARE_SOURCES,
    DAILY_LEVELS,
    DAY_COLUMN_SETS,
    UCI_DAY_LEVELS,
    daily_from_islp,
    load_uci_day,
)
from imlbench.dgp.base import DGPS
from imlbench.dgp.real_data import SourcedTable
from imlbench.params import ParamError, choice, items, text

#: level names of the categorical features, by column set
_LEVELS = {"application": DAILY_LEVELS, "uci": UCI_DAY_LEVELS}


@DGPS.register("bikeshare_daily")
class BikeDaily(SourcedTable):
    """The daily rows of ``source`` (``islp`` or ``uci`` with ``path``) in the column set
    ``columns``, restricted to ``features`` when given; see the module doc."""

    name, sources, original_file = "bikeshare_daily", BIKESHARE_SOURCES, "day.csv"
    params = {"columns": choice("application", tuple(DAY_COLUMN_SETS)),
              "features": items(text(), None, nullable=True, unique=True)}

    def __init__(self, source: str | None = None, path: str | None = None,
                 columns: str = "application", features: Sequence[str] | None = None) -> None:
        super().__init__(source, path)
        self.columns = columns
        self.features = None if features is None else list(features)

    def load(self) -> pd.DataFrame:
        if self.source == self.sources[1]:
            data = load_uci_day(self.path, self.columns)
        else:  # one year only: yr is constant
            data = daily_from_islp(self.columns).drop(columns="yr")
        if self.features is None:
            return data
        held = [c for c in data.columns if c != "y"]
        chosen = [f for f in self.features if f in held or f != "yr"]  # yr: absent offline
        for k, name in enumerate(self.features):
            if name not in held and name != "yr":
                raise ParamError(f"features[{k}]", f"{name!r} is not a column of the "
                                                   f"{self.source} days; allowed: "
                                                   f"{', '.join(held)}")
        return data[[*chosen, "y"]]

    @property
    def categorical(self) -> tuple[str, ...]:
        """The integer-coded features present in the data."""
        return tuple(f for f in _LEVELS[self.columns] if f in self.feature_names)

    @property
    def levels(self) -> dict[str, dict[int, str]]:
        """Level names of the categorical features present in the data."""
        return {f: _LEVELS[self.columns][f] for f in self.categorical}
