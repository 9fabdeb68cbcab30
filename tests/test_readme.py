"""The READMEs and the manual tell the truth about the code.

`config/README.md`, the reference, names every registered learner, DGP, method, sampler,
statistic, claim kind and figure function; its rows of methods, samplers, statistics and claim
kinds list exactly the parameters each one declares, every generic method, every sampler,
every statistic and every claim kind has a row, and no row names an entry that is gone. The
manual is in `docs/*.md`: `docs/studies.md` has a section for every shipped study, which the
README's study table links to. `README.md` stays short (at most 351 lines), opens with the two
set-up commands, documents the full and the quick test commands and links to every section of
the reference; every relative link of `README.md`, `config/README.md` and `docs/*.md` finds its
file, and every `#anchor` its heading.

A table row starts with the backticked name(s); its third cell lists the parameters as
backticked names, with defaults and allowed values in parentheses and the keys of a nested
mapping in braces (neither counted as parameters). Rows are read per section of the reference
(a figure function and a method may share a name, as `surface` does).
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
from imlbench.figures import FIGURES
from imlbench.learners import LEARNERS
from imlbench.metrics.claims import CLAIMS
from imlbench.metrics.contrasts import STATISTICS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
REFERENCE = (ROOT / "config" / "README.md").read_text()
#: the manual's pages by their path from the project's root
DOCS = {p.relative_to(ROOT).as_posix(): p.read_text() for p in sorted((ROOT / "docs").glob("*.md"))}
#: every Markdown file whose links are checked, by its path from the project's root
PAGES = {"README.md": README, "config/README.md": REFERENCE, **DOCS}
studies.load(SHIPPED, figures=True)

#: the most lines README.md may have (the reference material lives in config/README.md and docs/)
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


def _params(cell: str) -> set[str]:
    """The parameters a row's third cell lists: its backticked names outside parentheses and
    braces."""
    return set(re.findall(r"`([a-z0-9_]+)`", _strip(_strip(cell, "{", "}"), "(", ")")))


def _rows(text: str) -> list[tuple[list[str], set[str]]]:
    """(names, parameters) of every table row of ``text`` that starts with backticked names
    (a study's entries are named ``<study>.<name>``)."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) < 3:
            continue
        rows.append((re.findall(r"`([a-z0-9_.]+)`", cells[0]), _params(cells[2])))
    return rows


def _headings(text: str) -> list[tuple[int, int, str]]:
    """(line index, level, title) of every Markdown heading of ``text`` outside code fences."""
    out, fenced = [], False
    for i, line in enumerate(text.splitlines()):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"(#{1,6}) (.*)", line)):
            out.append((i, len(m.group(1)), m.group(2).strip()))
    return out


def _section(text: str, title: str) -> str:
    """The text under the heading ``title`` of ``text``, up to the next heading of its level or
    higher (its subsections included)."""
    lines, heads = text.splitlines(), _headings(text)
    found = [(k, i, level) for k, (i, level, t) in enumerate(heads) if t == title]
    assert found, f"no heading {title!r}"
    k, start, level = found[0]
    end = next((i for i, lv, _ in heads[k + 1:] if lv <= level), len(lines))
    return "\n".join(lines[start + 1:end])


def _rows_of(*titles: str) -> list[tuple[list[str], set[str]]]:
    """The rows of the reference's sections ``titles``."""
    return [row for title in titles for row in _rows(_section(REFERENCE, title))]


#: the reference's rows of each registry, read from its sections
METHOD_ROWS = _rows_of("Feature-effect methods", "Importance methods")
SAMPLER_ROWS = _rows_of("Conditional samplers for importance")
STATISTIC_ROWS = _rows_of("The layer's statistics", "Each study's statistics")
CLAIM_ROWS = _rows_of("The layer's claim kinds", "Each study's claim kinds")
#: the method rows of the reference and every row of README.md: a row that names a method there
#: must list exactly its parameters (the manual's tables name kinds and estimands, not parameters)
ALL_METHOD_ROWS = METHOD_ROWS + _rows(README)


def _documented(registry, name: str, rows: list) -> list[set[str]]:
    """The parameters of each row of ``rows`` that names ``name`` of ``registry``."""
    return [params for names, params in rows if name in names and name in registry]


@pytest.mark.parametrize("name", METHODS.names())
def test_a_method_row_lists_exactly_its_parameters(name):
    declared = set(METHODS.get(name).params)
    for params in _documented(METHODS, name, ALL_METHOD_ROWS):
        assert params == declared, (f"README row of {name}: missing {declared - params}, "
                                    f"not accepted {params - declared}")


@pytest.mark.parametrize("name", SAMPLERS.names())
def test_a_sampler_row_lists_exactly_its_parameters(name):
    assert _documented(SAMPLERS, name, SAMPLER_ROWS), f"no config/README.md row for sampler {name}"
    for params in _documented(SAMPLERS, name, SAMPLER_ROWS):
        assert params == set(SAMPLERS.get(name).params), name


@pytest.mark.parametrize(("registry", "rows"), [
    pytest.param(STATISTICS, STATISTIC_ROWS, id="statistic"),
    pytest.param(CLAIMS, CLAIM_ROWS, id="claim kind")])
def test_every_statistic_and_claim_kind_has_a_row_with_exactly_its_parameters(registry, rows):
    wrong = []
    for name in registry.names():
        documented = _documented(registry, name, rows)
        declared = set(registry.get(name).params)
        if not documented:
            wrong.append(f"{name}: no row")
        wrong += [f"{name}: missing {sorted(declared - p)}, not accepted {sorted(p - declared)}"
                  for p in documented if p != declared]
    assert not wrong, f"config/README.md's {registry.kind} rows:\n" + "\n".join(wrong)


@pytest.mark.parametrize(("registry", "rows"), [
    pytest.param(METHODS, METHOD_ROWS, id="method"),
    pytest.param(SAMPLERS, SAMPLER_ROWS, id="sampler"),
    pytest.param(STATISTICS, STATISTIC_ROWS, id="statistic"),
    pytest.param(CLAIMS, CLAIM_ROWS, id="claim kind")])
def test_every_row_names_a_registered_entry(registry, rows):
    """No row documents an entry that is gone (a claim kind ported onto ``contrast``)."""
    gone = sorted({n for names, _ in rows for n in names} - set(registry.names()))
    assert not gone, f"config/README.md has {registry.kind} rows of unregistered {gone}"


def test_every_generic_method_has_a_row():
    generic = [m for m in METHODS.names() if METHODS.owner(m) is None]
    assert generic
    missing = [m for m in generic if not _documented(METHODS, m, METHOD_ROWS)]
    assert not missing, f"no config/README.md row for {missing}"


@pytest.mark.parametrize("registry", [METHODS, DGPS, LEARNERS, SAMPLERS, STATISTICS, CLAIMS,
                                      FIGURES], ids=lambda r: r.kind)
def test_every_registered_name_is_in_the_reference(registry):
    missing = [n for n in registry.names() if f"`{n}`" not in REFERENCE]
    assert not missing, f"{registry.kind}s config/README.md does not name: {missing}"


def test_the_studies_own_entries_are_registered():
    """The reference's tests see every shipped study's entries (its statistics among them)."""
    owners = {STATISTICS.owner(n) for n in STATISTICS.names()}
    assert None in owners and owners - {None}, owners


def test_the_row_parser_strips_defaults_and_nested_keys():
    line = "| `m` | estimand | `a` (1), `b` {`c`: x \\| y, `d`}, `e` (`f` or `g`) | paper |"
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
    assert _params(cells[2]) == {"a", "b", "e"}
    assert _rows("| `study.stat` | what | `x`, `y` (1) | where |") == [(["study.stat"], {"x", "y"})]


def test_the_section_reader_stops_at_the_next_heading_of_its_level():
    text = "## A\n| `a` | x | `p` |\n### A1\n| `b` | x | `q` |\n## B\n| `c` | x | `r` |\n"
    assert [names for names, _ in _rows(_section(text, "A"))] == [["a"], ["b"]]
    assert [names for names, _ in _rows(_section(text, "A1"))] == [["b"]]


def test_the_readme_is_short():
    lines = len(README.splitlines())
    assert lines <= MAX_README_LINES, (
        f"README.md has {lines} lines, at most {MAX_README_LINES}: move reference material "
        "to config/README.md or the manual to docs/")


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
    return {_anchor(title) for _, _, title in _headings(text)}


def test_the_anchor_of_a_heading_is_githubs():
    assert _anchor("## `config/config.yaml`") == "configconfigyaml"
    assert _anchor("### The PD and PFI confidence-interval study") == (
        "the-pd-and-pfi-confidence-interval-study")
    assert _anchor("### Job sizes, measured") == "job-sizes-measured"
    assert _anchor("## The book's ALE study") == "the-books-ale-study"


def _links(text: str) -> list[str]:
    """The targets of the relative links and images of ``text`` outside code fences."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            out += [t for t in re.findall(r"\]\(([^)\s]+)\)", line)
                    if not re.match(r"[a-z]+:", t)]
    return out


@pytest.mark.parametrize("source", list(PAGES))
def test_every_link_finds_its_file_and_its_heading(source):
    links = _links(PAGES[source])
    assert links, f"{source} links to nothing"
    broken = []
    for link in links:
        path, _, anchor = link.partition("#")
        target = (ROOT / source).parent / path if path else ROOT / source
        if not target.exists():
            broken.append(f"{link}: no file {target.relative_to(ROOT)}")
        elif anchor and target.suffix == ".md" and anchor not in _anchors(target.read_text()):
            broken.append(f"{link}: no heading #{anchor} in {target.relative_to(ROOT)}")
    assert not broken, f"{source} has broken links:\n" + "\n".join(broken)


def test_the_readme_points_at_every_reference_section():
    linked = set(re.findall(r"\]\(config/README\.md#([^)\s]+)\)", README))
    sections = {_anchor(title) for _, level, title in _headings(REFERENCE) if level == 2}
    assert sections - linked == set(), f"README.md does not link to {sections - linked}"


def test_the_reference_points_at_every_page_of_the_manual():
    assert set(DOCS) >= {"docs/studies.md", "docs/claims.md", "docs/methods.md",
                         "docs/adding-a-study.md", "docs/performance.md"}
    linked = {f"docs/{page}" for page in re.findall(r"\]\(\.\./docs/([^)#\s]+)", REFERENCE)}
    assert set(DOCS) - linked == set(), f"config/README.md does not link to {set(DOCS) - linked}"


def _study_sections() -> dict[str, str]:
    """The anchor of each ``## `` section of docs/studies.md by the text under it."""
    text = DOCS["docs/studies.md"]
    return {_anchor(title): _section(text, title) for _, level, title in _headings(text)
            if level == 2}


@pytest.mark.parametrize("study", SHIPPED)
def test_each_study_has_a_section_in_the_manual_that_the_readme_links_to(study):
    """docs/studies.md has a section naming the study's file or folder, and the README's row
    of the study links to it."""
    names = (f"`config/studies/{study}.yaml`", f"`config/studies/{study}/`")
    anchors = [a for a, body in _study_sections().items() if any(n in body for n in names)]
    assert len(anchors) == 1, f"docs/studies.md sections naming {study}'s file: {anchors}"
    row = next(line for line in README.splitlines()
               if re.match(rf"\| `config/studies/{study}(\.yaml|/)` \|", line))
    assert f"](docs/studies.md#{anchors[0]})" in row, (
        f"README.md's row of {study} does not link to docs/studies.md#{anchors[0]}")


def test_the_readme_table_lists_every_shipped_study_once():
    """The study table of README.md has one row per file or folder of ``config/studies``."""
    rows = re.findall(r"^\| `config/studies/([A-Za-z0-9_]+)(?:\.yaml|/)` \|", README, re.M)
    assert sorted(rows) == list(SHIPPED)
