"""Parquet files, written atomically with provenance metadata.

Every Parquet file carries, under the schema metadata key ``imlbench``, a JSON
record of the package version, git revision, config hash, seed and library
versions. Files are written to a temporary name and renamed, so a run killed
midway leaves either the complete file or nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

import imlbench

METADATA_KEY = b"imlbench"
_LIBRARIES = ("numpy", "pandas", "scikit-learn", "xgboost", "pyarrow", "scipy", "snakemake")


@cache
def library_versions() -> dict[str, str]:
    """Installed versions of the libraries that can change results."""
    out = {}
    for lib in _LIBRARIES:
        try:
            out[lib] = version(lib)
        except PackageNotFoundError:
            out[lib] = "absent"
    return out


@cache
def git_revision() -> str:
    """The git revision of the working tree, with ``-dirty`` if it has changes."""
    root = Path(__file__).resolve().parents[2]
    try:
        rev = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True, text=True, check=True, timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True, text=True, check=True, timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return rev + ("-dirty" if dirty else "")


def provenance(config_hash: str, seed: Any) -> dict[str, Any]:
    """The provenance record stored with every output."""
    return {
        "package_version": imlbench.__version__,
        "git_revision": git_revision(),
        "config_hash": config_hash,
        "seed": seed,
        "libraries": library_versions(),
    }


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it over ``path`` on success."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; outputs get the usual permissions
    try:
        yield Path(tmp)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def write_parquet(
    df: pd.DataFrame, path: str | os.PathLike[str], *, config_hash: str, seed: Any
) -> None:
    """Write ``df`` to ``path`` atomically with the provenance metadata."""
    table = pa.Table.from_pandas(df.reset_index(drop=True), preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[METADATA_KEY] = json.dumps(provenance(config_hash, seed), default=str).encode()
    table = table.replace_schema_metadata(meta)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp)


def read_parquet(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a Parquet file written by :func:`write_parquet`."""
    return pq.read_table(path).to_pandas()


def read_many(paths: list[str] | list[Path]) -> pd.DataFrame:
    """Concatenate several Parquet files written by :func:`write_parquet`."""
    frames = [read_parquet(p) for p in paths]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def read_provenance(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The provenance record of a Parquet file."""
    meta = pq.read_schema(path).metadata or {}
    return json.loads(meta[METADATA_KEY])
