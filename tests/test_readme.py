"""The READMEs tell the truth about the code.

`config/README.md`, the reference, has the method and sampler tables: they list exactly the
parameters each one accepts, every generic method has a row, and every registered method, DGP,
learner and sampler is named there. `README.md` stays short (at most 351 lines), opens with the
two set-up commands, documents the full and the quick test commands, and its links into
`config/README.md` (and those within it) point at headings that exist.

A table row starts with the backticked name(s); its third cell lists the parameters as
backticked names, with defaults and allowed values in parentheses and the keys of a nested
mapping in braces (neither counted as parameters).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from shipped import STUDIES as SHIPPED

from imlbench import studies
from imlbench.dgp.base import DGPS
from imlbench.explain.api import METHODS
from imlbench.explain.samplers import SAMPLERS
from imlbench.learners import LEARNERS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
REFERENCE = (ROOT / "config" / "README.md").read_text()
STUDIES = ("extrapolation", "conditional_subgroups", "pd_pfi_dgp", "stratpd")
studies.load(STUDIES)

#: the most lines README.md may have (the reference material lives in config/README.md)
MAX_README_LINES = 351
#: README.md's first lines: its title, then the two set-up commands, unchanged
OPENING = [
    "# imlbench",
    "",
    "```bash",
    "pip install uv && uv sync && uv run snakemake --cores 2   # set-up, then every figure, "
    "the scorecard and the metrics (default profile)",
    "uv run pytest                                             # the tests (includes whole "
    "smoke-profile runs of the workflow)",
    "```",
]


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


def _rows(text: str) -> list[tuple[list[str], set[str]]]:
    """(names, parameters) of every table row of ``text`` that starts with backticked names."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) < 3:
            continue
        names = re.findall(r"`([a-z0-9_]+)`", cells[0])
        params = _strip(_strip(cells[2], "{", "}"), "(", ")")
        rows.append((names, set(re.findall(r"`([a-z0-9_]+)`", params))))
    return rows


#: the reference tables, which must document every method and sampler
ROWS = _rows(REFERENCE)
#: every table row of either file, each of which must list exactly its parameters
ALL_ROWS = ROWS + _rows(README)


def _documented(registry, name: str, rows: list | None = None) -> list[set[str]]:
    """The parameters of each row of ``rows`` (default: the reference's) that names ``name``."""
    return [params for names, params in (ROWS if rows is None else rows)
            if name in names and name in registry]


@pytest.mark.parametrize("name", METHODS.names())
def test_a_method_row_lists_exactly_its_parameters(name):
    declared = set(METHODS.get(name).params)
    for params in _documented(METHODS, name, ALL_ROWS):
        assert params == declared, (f"README row of {name}: missing {declared - params}, "
                                    f"not accepted {params - declared}")


@pytest.mark.parametrize("name", SAMPLERS.names())
def test_a_sampler_row_lists_exactly_its_parameters(name):
    assert _documented(SAMPLERS, name), f"no config/README.md row for sampler {name}"
    for params in _documented(SAMPLERS, name, ALL_ROWS):
        assert params == set(SAMPLERS.get(name).params), name


def test_every_generic_method_has_a_row():
    generic = [m for m in METHODS.names() if METHODS.owner(m) is None]
    assert generic
    missing = [m for m in generic if not _documented(METHODS, m)]
    assert not missing, f"no config/README.md row for {missing}"


@pytest.mark.parametrize("registry", [METHODS, DGPS, LEARNERS, SAMPLERS],
                         ids=lambda r: r.kind)
def test_every_registered_name_is_in_the_reference(registry):
    missing = [n for n in registry.names() if f"`{n}`" not in REFERENCE]
    assert not missing, f"{registry.kind}s config/README.md does not name: {missing}"


def test_the_row_parser_strips_defaults_and_nested_keys():
    line = "| `m` | estimand | `a` (1), `b` {`c`: x \\| y, `d`}, `e` (`f` or `g`) | paper |"
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
    params = _strip(_strip(cells[2], "{", "}"), "(", ")")
    assert set(re.findall(r"`([a-z0-9_]+)`", params)) == {"a", "b", "e"}


def test_the_readme_is_short():
    lines = len(README.splitlines())
    assert lines <= MAX_README_LINES, (
        f"README.md has {lines} lines, at most {MAX_README_LINES}: move reference material "
        "to config/README.md")


def test_the_readme_opens_with_the_two_set_up_commands():
    assert README.splitlines()[:len(OPENING)] == OPENING


def test_the_readme_documents_the_full_and_the_quick_test_commands():
    commands = [line.split("#", 1)[0].strip() for line in README.splitlines()]
    assert "uv run pytest" in commands
    quick = 'uv run pytest -m "not workflow and not slow"'
    assert quick in commands, f"README.md has no line running {quick}"
    line = next(line for line in README.splitlines() if line.startswith(quick))
    assert "quick loop" in line and "under a minute on 2 cores" in line, line


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = heading.lstrip("#").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(text: str) -> set[str]:
    headings, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            headings.append(line)
    return {_anchor(h) for h in headings}


def test_the_anchor_of_a_heading_is_githubs():
    assert _anchor("## `config/config.yaml`") == "configconfigyaml"
    assert _anchor("### The PD and PFI confidence-interval study") == (
        "the-pd-and-pfi-confidence-interval-study")
    assert _anchor("### Job sizes, measured") == "job-sizes-measured"


@pytest.mark.parametrize(("source", "links"), [
    ("README.md", [(t or "README.md", a) for t, a in
                   re.findall(r"\]\(((?:config/README\.md)?)#([^)\s]+)\)", README)]),
    ("config/README.md", [(t or "config/README.md", a) for t, a in
                          re.findall(r"\]\(((?:\.\./README\.md)?)#([^)\s]+)\)", REFERENCE)]),
])
def test_every_link_to_a_section_finds_its_heading(source, links):
    assert links, f"{source} links to no section"
    files = {"README.md": README, "../README.md": README, "config/README.md": REFERENCE}
    broken = [f"{target}#{anchor}" for target, anchor in links
              if anchor not in _anchors(files[target])]
    assert not broken, f"{source} links to headings that do not exist: {broken}"


def test_the_readme_points_at_every_reference_section():
    linked = set(re.findall(r"\]\(config/README\.md#([^)\s]+)\)", README))
    sections = {_anchor(line) for line in REFERENCE.splitlines() if line.startswith("## ")}
    assert sections - linked == set(), f"README.md does not link to {sections - linked}"


@pytest.mark.parametrize("anchor", ["the-conditional-subgroups-study",
                                    "the-pd-and-pfi-confidence-interval-study",
                                    "the-stratpd-study"])
def test_each_study_section_is_in_the_reference(anchor):
    assert anchor in _anchors(REFERENCE), f"config/README.md has no section #{anchor}"


def test_the_readme_table_lists_every_shipped_study_once():
    """The study table of README.md has one row per file or folder of ``config/studies``."""
    rows = re.findall(r"^\| `config/studies/([A-Za-z0-9_]+)(?:\.yaml|/)` \|", README, re.M)
    assert sorted(rows) == list(SHIPPED)
