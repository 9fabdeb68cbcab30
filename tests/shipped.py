"""What the project ships, read from its files, so that no test keeps a list of it: the studies
are the files and folders of ``config/studies`` (a new study is found, not registered)."""

from __future__ import annotations

from pathlib import Path

from imlbench.config import study_names

REPO = Path(__file__).resolve().parents[1]
#: every shipped study, by name, sorted
STUDIES: tuple[str, ...] = tuple(study_names(REPO / "config" / "studies"))
