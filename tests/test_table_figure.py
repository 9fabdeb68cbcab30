"""The layer's table figure (:mod:`imlbench.figures.table`): the layer's own table of
statistics per line (on the book's run-time tables, as ``book_ale``'s study file declares
them), number formats, table sources and their declared parameters, and the look."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from imlbench.config import load_study, study_path
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.figures.table import SOURCES, Panel, formatted, table_source
from imlbench.io import write_parquet
from imlbench.params import ParamError, check_all, text

ROOT = Path(__file__).parents[1]
#: the columns, formats and bars of the book's run-time tables (book_ale, Figs 6.13-6.18)
RUNTIME = load_study(study_path(ROOT, "book_ale"), "smoke").figures["fig_6_13"]["params"]


@table_source("test_table.two_panels", params={"note": text("")})
def _two_panels(est: pd.DataFrame, *, note: str) -> list[Panel]:
    """Two tables of the estimates' values, the second's first row flagged, column b shaded."""
    cells = est[["a", "b"]].astype(str)
    return [Panel(cells, title=f"first{note}"),
            Panel(cells, title="second", shaded=("b",), flagged=(True, False))]


def _timing(scenario: str, method: str, seconds: dict[int, list[float]]) -> pd.DataFrame:
    """A timing estimate: one line per call (n, repeat, seconds)."""
    return pd.DataFrame([{"scenario": scenario, "learner": "svm", "method": method, "rep": 0,
                          "n": n, "repeat": i, "seconds": s}
                         for n, calls in seconds.items() for i, s in enumerate(calls)])


def _inputs(tmp_path: Path, tables: list[pd.DataFrame], scenarios: list[str]) -> FigureInputs:
    paths = []
    for t in tables:
        sc, lrn, m = t[["scenario", "learner", "method"]].iloc[0]
        path = tmp_path / "estimates" / sc / lrn / m / "c0.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_parquet(t, path, config_hash="test", seed=0)
        paths.append(path)
    methods = list(dict.fromkeys(t["method"].iloc[0] for t in tables))
    return FigureInputs({"estimates": paths}, {"table": methods}, scenarios)


def _draw(inputs: FigureInputs, tmp_path: Path, params: dict) -> None:
    spec = FIGURES.get("table")
    check_all(spec.params, params)
    spec(inputs, {"title": "t", "caption": "c", "params": params}, tmp_path / "f.png",
         tmp_path / "f.pdf")


def _cells(fig) -> list[dict]:
    return [{rc: cell for rc, cell in ax.tables[0].get_celld().items()}
            for ax in fig.axes if ax.tables]


def test_the_run_time_table_of_the_book(tmp_path, drawn):
    """Ours: the calls' statistics in ms and the mean over line 1's; the book's likewise.
    Line 1: 1, 2, 3 ms (mean 2); line 2: 4, 6, 11 ms (mean 7); line 4: 20, 30, 40 ms; line 3
    (n not run) and line 5 (scenario not run) have no calls."""
    rows = [{"label": label, "method": method, "scenario": scenario, "n": n, "book_ms": ms}
            for label, method, scenario, n, ms in (
                ("a", "t_ale20", "runtimep5", 100, 20.0),
                ("b", "t_ale20", "runtimep5", 1000, 50.0),
                ("c", "t_ale20", "runtimep5", 10000, 500.0),
                ("d", "t_pdp20", "runtimep5", 100, 2000.0),
                ("e", "t_pdp20", "runtime_features20", 100, 30.0))]
    inputs = _inputs(tmp_path, [
        _timing("runtimep5", "t_ale20", {100: [1e-3, 2e-3, 3e-3], 1000: [4e-3, 6e-3, 11e-3]}),
        _timing("runtimep5", "t_pdp20", {100: [0.02, 0.03, 0.04]})],
        ["runtimep5", "runtime_features20"])
    _draw(inputs, tmp_path, {**RUNTIME, "rows": rows})
    (fig,) = drawn
    (cells,) = _cells(fig)
    text = [[cells[r, c].get_text().get_text() for c in range(8)] for r in range(6)]
    assert text[0][5] == "ours ratio\n(mean)"
    assert text[1] == ["1. a", "2.00", "2.00", "1.00–3.00", "3", "1.00", "20.0", "1.00"]
    assert text[2][1:] == ["6.00", "7.00", "4.00–11.0", "3", "3.50", "50.0", "2.50"]
    assert text[3][1:] == ["paper profile", "", "", "", "", "500", "25.0"]
    assert text[4][1:] == ["30.0", "30.0", "20.0–40.0", "3", "15.0", "2,000", "100"]
    assert text[5][1:] == ["not run", "", "", "", "", "30.0", "1.50"]
    assert cells[1, 0].get_text().get_ha() == "left" and cells[1, 1].get_text().get_ha() == "right"
    assert cells[1, 6].get_facecolor() != cells[1, 5].get_facecolor()  # the book's, shaded
    bars = [ax for ax in fig.axes if not ax.tables][0]
    assert bars.get_xscale() == "log"
    assert [t.get_text() for t in bars.get_legend().get_texts()] == ["ours (mean)",
                                                                    "book (mean)"]


def test_a_ratio_to_a_missing_first_line_is_a_dash(tmp_path, drawn):
    rows = [{"label": "gone", "method": "m", "scenario": "s", "n": 5},
            {"label": "here", "method": "m", "scenario": "s", "n": 100}]
    columns = [{"header": "call", "show": "label"},
               {"header": "median", "show": "median", "format": "{:.1f}"},
               {"header": "ratio", "show": "median", "ratio": True}]
    inputs = _inputs(tmp_path, [_timing("s", "m", {100: [1.0, 2.0, 4.0]})], ["s"])
    _draw(inputs, tmp_path, {"rows": rows, "columns": columns, "by": ["method", "n"],
                             "value": "seconds"})
    (cells,) = _cells(drawn[0])
    assert [cells[r, 1].get_text().get_text() for r in (1, 2)] == ["no data", "2.0"]
    assert cells[2, 2].get_text().get_text() == "–"


def test_formats_take_the_first_rule_the_value_is_below():
    rules = [{"below": 10, "format": "{:.2f}"}, {"below": 100, "format": "{:.1f}"},
             {"format": "{:,.0f}"}]
    assert [formatted(v, rules) for v in (0.951, 12.34, 1234.5)] == ["0.95", "12.3", "1,234"]
    assert formatted(3.14159, "{:.3g}") == "3.14"
    with pytest.raises(ValueError, match="no format rule"):
        formatted(50.0, [{"below": 10, "format": "{:.2f}"}])


def test_a_line_must_give_what_a_column_shows(tmp_path):
    inputs = _inputs(tmp_path, [_timing("s", "m", {100: [1.0]})], ["s"])
    with pytest.raises(ValueError, match="shows 'book', which line"):
        _draw(inputs, tmp_path, {"rows": [{"label": "x", "method": "m", "scenario": "s"}],
                                 "columns": [{"header": "b", "show": "book"}],
                                 "value": "seconds"})
    with pytest.raises(ValueError, match="no column"):
        _draw(inputs, tmp_path, {"rows": [], "columns": []})


def test_a_source_draws_its_panels_with_the_look(tmp_path, drawn):
    est = pd.DataFrame({"scenario": "s", "learner": "l", "method": "m", "rep": 0,
                        "a": [1, 2], "b": [3, 4]})
    inputs = _inputs(tmp_path, [est], ["s"])
    _draw(inputs, tmp_path, {"source": "test_table.two_panels", "source_params": {"note": "!"},
                             "shade": "#00ff00", "flag": "#ff0000"})
    (fig,) = drawn
    assert [ax.get_title(loc="left") for ax in fig.axes] == ["first!", "second"]
    first, second = _cells(fig)
    assert second[1, 1].get_facecolor()[:3] == (0.0, 1.0, 0.0)
    assert first[1, 1].get_facecolor()[:3] == (1.0, 1.0, 1.0)
    assert second[1, 0].get_text().get_color() == "#ff0000"
    assert second[2, 0].get_text().get_color() != "#ff0000"


def test_a_sources_parameters_are_checked():
    params = FIGURES.get("table").params
    check_all(params, {"source": "test_table.two_panels", "source_params": {"note": "x"}})
    with pytest.raises(ParamError, match="source_params: unknown parameter"):
        check_all(params, {"source": "test_table.two_panels", "source_params": {"nope": 1}})
    with pytest.raises(ParamError, match="unknown table source"):
        check_all(params, {"source": "no_such_source"})
    assert "test_table.two_panels" in SOURCES
