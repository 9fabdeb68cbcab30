"""Every default-profile row that does not reproduce says why, and no reason sits on a claim
that reproduces; the verdicts hold across base seeds.

The rows come from two committed files that ``benchmarks/verdict_stability.py`` writes:
``benchmarks/results_misses.md`` lists every ``not reproduced`` or ``inconclusive`` row of the
default profile at base seed 2021, and ``benchmarks/results_verdicts.md`` gives the share of
scored rows whose verdict changes between that seed and two others.
"""

from __future__ import annotations

import re
from pathlib import Path

from imlbench.config import read_study, read_yaml, study_names, study_path
from imlbench.metrics.claims import MISS_CLASSES, miss_of

REPO = Path(__file__).resolve().parents[1]
VERDICTS = REPO / "benchmarks" / "results_verdicts.md"
MISSES = REPO / "benchmarks" / "results_misses.md"
BOOK_MISSES = REPO / "benchmarks" / "results_book_misses.md"
MISSES_HEADING = "## Default-profile rows that do not reproduce (base seed)"
#: the most rows whose verdict may change between base seeds
MAX_CHANGED = 0.05


def _table(section: str) -> list[list[str]]:
    """The cells of the Markdown table rows of ``section`` (header and rule left out)."""
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [[c.strip() for c in line.strip("|").split(" | ")] for line in rows[1:]]


def _misses() -> list[dict]:
    text = MISSES.read_text()
    assert MISSES_HEADING in text, f"{MISSES} has no section {MISSES_HEADING!r}"
    cells = _table(text.split(MISSES_HEADING)[1])
    keys = ["study", "claim", "scenario", "learner", "method", "verdict"]
    return [dict(zip(keys, row, strict=True)) for row in cells]


def _misses_studies() -> set[str]:
    """The studies whose default run ``results_misses.md`` describes (its header)."""
    return set(re.search(r"studies ([a-z_, ]+):", MISSES.read_text()).group(1).split(", "))


def test_the_misses_file_describes_every_enabled_study():
    enabled = set(read_yaml(REPO / "config" / "config.yaml")["studies"])
    assert _misses_studies() == enabled, sorted(_misses_studies() ^ enabled)


def _claims() -> dict[tuple[str, str], dict]:
    out = {}
    for name in study_names(REPO / "config" / "studies"):
        doc, _ = read_study(study_path(REPO, name))
        for claim in doc.get("claims", []):
            out[(name, claim["id"])] = claim
    return out


def test_every_miss_of_the_default_profile_has_a_reason():
    claims = _claims()
    missing = [f"{r['study']}/{r['claim']} ({r['scenario']}, {r['learner']}, {r['method']}: "
               f"{r['verdict']})" for r in _misses()
               if miss_of(claims[(r["study"], r["claim"])], r) is None]
    assert not missing, "rows without a reason in their study file:\n" + "\n".join(missing)


def _book_evidence() -> dict[tuple[str, ...], dict]:
    """The entries of ``results_book_misses.md`` by (study, claim, scenario, learner, method):
    one section per book study, one table row per miss."""
    keys = ["claim", "scenario", "learner", "method", "class", "evidence", "result"]
    out = {}
    for section in BOOK_MISSES.read_text().split("\n## ")[1:]:
        study = section.splitlines()[0].strip()
        for cells in _table(section):
            entry = dict(zip(keys, cells, strict=True))
            out[(study, *(entry[k] for k in keys[:4]))] = entry
    return out


def test_every_book_miss_has_its_evidence():
    """Each book miss of the default profile has an entry in ``results_book_misses.md``: the
    class its study file gives, the command (or the text) that shows it, and what that gave."""
    claims, evidence = _claims(), _book_evidence()
    missing, other = [], []
    for r in _misses():
        if not r["study"].startswith("book_"):
            continue
        key = (r["study"], r["claim"], r["scenario"], r["learner"], r["method"])
        entry = evidence.get(key)
        if entry is None or not entry["evidence"] or not entry["result"]:
            missing.append(" / ".join(key))
            continue
        reason = miss_of(claims[(r["study"], r["claim"])], r)
        # the class cell may add what it was before re-examination: "finding (was method)"
        if reason is not None and reason["class"] != entry["class"].split()[0]:
            other.append(f"{' / '.join(key)}: {entry['class']} here, {reason['class']} in the "
                         "study file")
    assert not missing, f"book misses without evidence in {BOOK_MISSES.name}:\n" + \
        "\n".join(missing)
    assert not other, "\n".join(other)


def test_no_reason_sits_on_rows_that_reproduce():
    """Each entry of a claim's ``misses`` selects at least one row that misses (a reason for
    rows that reproduce would be stale); its class is one of the allowed ones."""
    misses = _misses()
    covered = _misses_studies()
    stale = []
    for (study, cid), claim in _claims().items():
        if study not in covered:  # a study the file does not describe (not yet enabled)
            continue
        rows = [r for r in misses if (r["study"], r["claim"]) == (study, cid)]
        for k, miss in enumerate(claim.get("misses", [])):
            assert miss["class"] in MISS_CLASSES, f"{study}/{cid}: misses[{k}]"
            if not any(miss_of({"misses": [miss]}, r) is not None for r in rows):
                stale.append(f"{study}/{cid}: misses[{k}] ({miss['why'][:60]})")
    assert not stale, "reasons on rows that reproduce:\n" + "\n".join(stale)


def test_verdicts_hold_across_base_seeds():
    """In every study at most 5% of the scored rows change verdict across three base seeds
    (``reproduced`` and ``consistent`` one outcome: see ``benchmarks/verdict_stability.py``),
    and the table is of three seeds, each of every study the configuration enables."""
    first = VERDICTS.read_text().split("\n## ")[0]
    seeds = re.search(r"base seeds ([\d, ]+);", first).group(1).split(", ")
    assert len(seeds) >= 3, f"{VERDICTS} compares {len(seeds)} base seeds, not 3"
    per_seed = re.search(r"Studies per seed: (.*)\.", first).group(1).split("; ")
    enabled = set(read_yaml(REPO / "config" / "config.yaml")["studies"])
    assert all(set(part.split(": ")[1].split(", ")) == enabled for part in per_seed), per_seed
    rows = {row[0]: (int(row[1]), int(row[2])) for row in _table(first)}
    assert set(rows) == enabled | {"all"}, sorted(rows)
    over = {study: f"{changed} of {scored}" for study, (scored, changed) in rows.items()
            if not (scored > 0 and changed <= MAX_CHANGED * scored)}
    assert not over, f"rows that change verdict with the base seed: {over}"


def test_the_misses_section_is_read():
    """The parser reads the committed table (a guard against a format change)."""
    rows = _misses()
    assert rows and {r["verdict"] for r in rows} <= {"not reproduced", "inconclusive"}
