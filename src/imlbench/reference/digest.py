"""A run reduced to what its reference holds, as text that a reviewer can diff.

:func:`digest_run` reads a completed run under ``<root>/results``: its profile and studies
(``results/run.json``), its base seed and code version (the provenance of its scorecards),
every row of every study's ``scorecard.parquet`` and a digest of every estimate file the
run's configuration makes (:func:`imlbench.targets.estimates_of`; a file that is absent is
recorded as absent). :func:`write_digest` writes it as ``reference/<profile>.json`` with one
row or file per line, so that a change of reference shows in a diff as the rows that moved.

A scorecard row is kept as its key (study, claim, scenario, learner, method, and ``part``:
its place among the rows of that key, one per feature or point of the claim), its value as the
scorecard prints it (``reproduced``: the statistic, its SE and repetitions), its interval
(``detectable``: the departure its check detects, the margin plus twice the interval's
half-width, and ``detectable_share``, that share of the claimed value, both at full
precision) and its verdict. Rows on scenarios that measure run time (``exclusive``) are marked
``measured``: their values differ between any two runs.

An estimate file is digested per column: a numeric column (floats, integers, booleans) as
:data:`NUMERIC_DIGEST` (counts of non-finite values, and sums that floating-point noise moves
by at most a relative 1e-9 of the sum of |x|, :mod:`imlbench.reference.differ`); any other
column as a hash of its values in row order (text has no rounding); columns of measured run
time (:data:`imlbench.explain.timing.MEASURED_COLUMNS`) are left out. Floats are stored with
:data:`STORED_DIGITS` significant digits, far finer than the comparison's tolerance.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from imlbench import targets
from imlbench.config import load_study, study_path
from imlbench.explain.timing import MEASURED_COLUMNS
from imlbench.io import atomic_path, read_parquet, read_provenance
from imlbench.runinfo import RUN_FILE, read_run

#: the version of the reference's layout; :func:`read_digest` refuses another
FORMAT = 1
#: where a project keeps its references, one file per profile
REFERENCE_DIR = Path("reference")
#: the columns that identify a scorecard row
KEY = ("study", "claim", "scenario", "learner", "method", "part")
#: what a numeric column's digest holds, in order
NUMERIC_DIGEST = ("nan", "+inf", "-inf", "sum", "weighted_sum", "sum_of_squares", "sum_of_abs")
#: significant digits of a stored float
STORED_DIGITS = 12


class RefusedComparison(Exception):
    """A run that cannot be digested or compared (no completed run, another profile or base
    seed than the reference's, a reference in another format), with the reason."""


@dataclass
class RunDigest:
    """A run as its reference holds it (see the module doc)."""

    profile: str
    base_seed: int
    studies: list[str]
    #: the package version and git revision that computed the run
    code: dict[str, str]
    #: one per scorecard row: :data:`KEY`, reproduced, detectable, detectable_share, verdict,
    #: measured
    rows: list[dict[str, Any]] = field(default_factory=list)
    #: estimate file (path under ``results/``) -> its digest (:func:`frame_digest`), or None
    #: when the run lacks it
    estimates: dict[str, dict[str, Any] | None] = field(default_factory=dict)


def reference_path(root: Path, profile: str) -> Path:
    """The committed reference of ``profile`` under the project ``root``."""
    return Path(root) / REFERENCE_DIR / f"{profile}.json"


def _stored(value: Any) -> float | None:
    """A float as stored: :data:`STORED_DIGITS` significant digits; None for NaN."""
    value = float(value)
    return None if math.isnan(value) else float(f"{value:.{STORED_DIGITS}g}")


def column_digest(values: pd.Series) -> list[float | int] | str:
    """A numeric column as :data:`NUMERIC_DIGEST` (the weighted sum weighs the value at row i
    of n by (i + 1) / n, so that values moved between rows change it; the sums run over the
    finite values); any other column as the SHA-256 of its values' text in row order (the
    first 16 hex digits)."""
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_complex_dtype(values):
        x = values.to_numpy(dtype=float, na_value=np.nan)
        finite = np.isfinite(x)
        weights = np.arange(1, len(x) + 1) / max(len(x), 1)
        f, w = x[finite], weights[finite]
        return [int(np.isnan(x).sum()), int(np.isposinf(x).sum()), int(np.isneginf(x).sum()),
                *(_stored(v) for v in (f.sum(), (w * f).sum(), (f * f).sum(), np.abs(f).sum()))]
    text = "\x1f".join(str(v) for v in values)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def frame_digest(df: pd.DataFrame) -> dict[str, Any]:
    """The digest of an estimate table: its row count and every column's
    :func:`column_digest`, measured run times left out."""
    return {"rows": len(df), "columns": {str(c): column_digest(df[c]) for c in df.columns
                                         if c not in MEASURED_COLUMNS}}


def scorecard_rows(card: pd.DataFrame, measured: set[str]) -> list[dict[str, Any]]:
    """The rows of a study's scorecard as the reference keeps them (see the module doc);
    ``measured``: the study's scenarios that measure run time."""
    key = list(KEY[1:-1])
    part = card.groupby(key, sort=False).cumcount()
    return [{"study": r["study"], **{k: r[k] for k in key}, "part": int(p),
             "reproduced": r["reproduced"], "detectable": _stored(r["detectable"]),
             "detectable_share": _stored(r["detectable_share"]), "verdict": r["verdict"],
             "measured": r["scenario"] in measured}
            for (_, r), p in zip(card.iterrows(), part, strict=True)]


def _base_seed(paths: list[Path]) -> tuple[int, dict[str, str]]:
    """The base seed and code version (package version, git revision) the scorecards at
    ``paths`` were computed with (their provenance; its seed is [base_seed, study, stage])."""
    records = [read_provenance(p) for p in paths]
    seeds = {r["seed"][0] for r in records}
    if len(seeds) != 1:
        raise RefusedComparison(f"the scorecards come from several base seeds: {sorted(seeds)}; "
                                "rerun the workflow with one")
    code = {"version": records[0]["package_version"], "git_revision": records[0]["git_revision"]}
    return seeds.pop(), code


def digest_run(root: Path) -> RunDigest:
    """The digest of the completed run under ``root``: its scorecards and estimate files under
    ``root/results``, the estimate files listed by the study files of ``root/config`` for the
    run's profile (see the module doc)."""
    root = Path(root)
    run = read_run(root / RUN_FILE)
    if run is None:
        raise RefusedComparison(f"{root / RUN_FILE}: no completed run (the workflow's last job "
                                "writes it); run the workflow first")
    studies = {name: load_study(study_path(root, name), run["profile"])
               for name in run["studies"]}
    cards = [root / "results" / name / "scorecard.parquet" for name in studies]
    seed, code = _base_seed(cards)
    out = RunDigest(run["profile"], int(seed), list(studies), code)
    for card, study in zip(cards, studies.values(), strict=True):
        measured = {sc.name for sc in study.scenarios.values() if sc.exclusive}
        out.rows += scorecard_rows(read_parquet(card), measured)
        for path in targets.estimates_of(study, list(study.scenarios.values())):
            file = root / path
            out.estimates[Path(path).relative_to("results").as_posix()] = (
                frame_digest(read_parquet(file)) if file.is_file() else None)
    return out


def write_digest(digest: RunDigest, path: Path) -> None:
    """``digest`` as JSON at ``path``: the run's description, then one scorecard row and one
    estimate file per line (sorted by path)."""
    if missing := [p for p, d in digest.estimates.items() if d is None]:
        raise RefusedComparison(f"the run lacks {len(missing)} estimate files (such as "
                                f"{missing[0]}); a reference is written from a complete run")
    head = {k: v for k, v in asdict(digest).items() if k not in ("rows", "estimates")}
    lines = ["{", f' "format": {FORMAT},']
    lines += [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    lines.append(f' "numeric_digest": {json.dumps(list(NUMERIC_DIGEST))},')
    lines.append(' "rows": [')
    lines.append(",\n".join(f"  {json.dumps(r)}" for r in digest.rows))
    lines.append(" ],")
    lines.append(' "estimates": {')
    lines.append(",\n".join(f"  {json.dumps(p)}: {json.dumps(d)}"
                            for p, d in sorted(digest.estimates.items())))
    lines.append(" }")
    lines.append("}")
    with atomic_path(path) as tmp:
        tmp.write_text("\n".join(lines) + "\n")


def read_digest(path: Path) -> RunDigest:
    """The reference written by :func:`write_digest` at ``path``."""
    if not Path(path).is_file():
        raise RefusedComparison(f"{path}: no such reference; write one from a completed run "
                                "with `python -m imlbench compare --write-reference`")
    doc = json.loads(Path(path).read_text())
    if doc.get("format") != FORMAT or doc.get("numeric_digest") != list(NUMERIC_DIGEST):
        raise RefusedComparison(f"{path}: a reference of format {doc.get('format')!r}; this "
                                f"version reads format {FORMAT}: write it again")
    return RunDigest(doc["profile"], doc["base_seed"], doc["studies"], doc["code"],
                     doc["rows"], doc["estimates"])
