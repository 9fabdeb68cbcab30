"""The hourly bike rentals of Hooker, Mentch & Zhou (2021), Fig. 9.

``extrapolation.bikeshare`` serves the hourly bike-sharing data of Fanaee-T & Gama (2013) with
``y = log`` of the hourly rental count (see :mod:`imlbench.data.bikeshare`).
"""

from __future__ import annotations

import pandas as pd

from imlbench.data.bikeshare import BIKESHARE_SOURCES, check_source, load_islp, load_uci_hour
from imlbench.dgp.base import DGPS
from imlbench.dgp.real_data import TableDGP
from imlbench.params import choice, text


@DGPS.register("extrapolation.bikeshare")
class BikeShare(TableDGP):
    """The bike-sharing hours: ``source="islp"`` (2011, ships with ISLP) or ``"uci"``.

    ``source="uci"`` reads the UCI ``hour.csv`` at ``path`` (see
    :func:`imlbench.data.bikeshare.download_uci_hour`).
    """

    params = {"source": choice("islp", BIKESHARE_SOURCES), "path": text(None, nullable=True)}

    def __init__(self, source: str = "islp", path: str | None = None) -> None:
        check_source("extrapolation.bikeshare", source, path, "hour.csv")
        self.source = source
        self.path = path

    def load(self) -> pd.DataFrame:
        return load_islp() if self.source == "islp" else load_uci_hour(self.path)
