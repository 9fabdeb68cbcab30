"""The README tells the truth about the code: its method and sampler tables list exactly the
parameters each one accepts, every generic method has a row, and every registered method,
DGP, learner and sampler is named.

A table row starts with the backticked name(s); its third cell lists the parameters as
backticked names, with defaults and allowed values in parentheses and the keys of a nested
mapping in braces (neither counted as parameters).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from imlbench import studies
from imlbench.dgp.base import DGPS
from imlbench.explain.api import METHODS
from imlbench.explain.samplers import SAMPLERS
from imlbench.learners import LEARNERS

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
STUDIES = ("extrapolation", "conditional_subgroups", "pd_pfi_dgp", "stratpd")
studies.load(STUDIES)


def _strip(text: str, opening: str, closing: str) -> str:
    """``text`` without the (possibly nested) spans between ``opening`` and ``closing``."""
    out, depth = [], 0
    for ch in text:
        if ch == opening:
            depth += 1
        elif ch == closing and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out)


def _rows() -> list[tuple[list[str], set[str]]]:
    """(names, parameters) of every table row that starts with backticked names."""
    rows = []
    for line in README.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) < 3:
            continue
        names = re.findall(r"`([a-z0-9_]+)`", cells[0])
        params = _strip(_strip(cells[2], "{", "}"), "(", ")")
        rows.append((names, set(re.findall(r"`([a-z0-9_]+)`", params))))
    return rows


ROWS = _rows()


def _documented(registry, name: str) -> list[set[str]]:
    return [params for names, params in ROWS if name in names and name in registry]


@pytest.mark.parametrize("name", METHODS.names())
def test_a_method_row_lists_exactly_its_parameters(name):
    declared = set(METHODS.get(name).params)
    for params in _documented(METHODS, name):
        assert params == declared, (f"README row of {name}: missing {declared - params}, "
                                    f"not accepted {params - declared}")


@pytest.mark.parametrize("name", SAMPLERS.names())
def test_a_sampler_row_lists_exactly_its_parameters(name):
    rows = _documented(SAMPLERS, name)
    assert rows, f"no README row for sampler {name}"
    for params in rows:
        assert params == set(SAMPLERS.get(name).params), name


def test_every_generic_method_has_a_row():
    generic = [m for m in METHODS.names() if METHODS.owner(m) is None]
    assert generic
    missing = [m for m in generic if not _documented(METHODS, m)]
    assert not missing, f"no README row for {missing}"


@pytest.mark.parametrize("registry", [METHODS, DGPS, LEARNERS, SAMPLERS],
                         ids=lambda r: r.kind)
def test_every_registered_name_is_in_the_readme(registry):
    missing = [n for n in registry.names() if f"`{n}`" not in README]
    assert not missing, f"{registry.kind}s the README does not name: {missing}"


def test_the_row_parser_strips_defaults_and_nested_keys():
    line = "| `m` | estimand | `a` (1), `b` {`c`: x \\| y, `d`}, `e` (`f` or `g`) | paper |"
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
    params = _strip(_strip(cells[2], "{", "}"), "(", ")")
    assert set(re.findall(r"`([a-z0-9_]+)`", params)) == {"a", "b", "e"}
