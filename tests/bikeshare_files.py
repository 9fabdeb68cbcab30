"""A small hourly bike-sharing file in the UCI layout, for the loader tests."""

from __future__ import annotations

import pandas as pd

from imlbench.data.bikeshare import UCI_COLUMNS

UCI_ROWS = [
    # instant, dteday, season, yr, mnth, hr, holiday, weekday, workingday, weathersit,
    # temp, atemp, hum, windspeed, casual, registered, cnt
    (1, "2011-01-01", 1, 0, 1, 0, 0, 6, 0, 1, 0.24, 0.2879, 0.81, 0.0, 3, 13, 16),
    (2, "2011-01-02", 1, 0, 1, 5, 0, 0, 0, 2, 0.46, 0.4545, 0.88, 0.2985, 0, 1, 1),
    (3, "2011-03-01", 1, 0, 3, 17, 0, 2, 1, 3, 0.30, 0.3030, 0.70, 0.1045, 10, 90, 100),
    (4, "2012-12-31", 1, 1, 12, 23, 0, 1, 1, 4, 0.22, 0.2273, 0.65, 0.1343, 7, 42, 49),
]
UCI_DAYS = [0, 1, 59, 730]


def write_uci(path, columns=UCI_COLUMNS):
    frame = pd.DataFrame(UCI_ROWS, columns=UCI_COLUMNS)
    frame[columns].to_csv(path, index=False)
    return path
