"""The test study ``tests/study_files/formula_demo.yaml`` with extra method instances, written
into a project folder for ``imlbench.validate.check_study``."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def demo_study(tmp_path: Path, methods: dict, scenarios: dict | None = None) -> Path:
    """The demo study with ``methods`` added or replaced (and run by every scenario) and the
    scenarios ``scenarios`` added (running ``methods``), written under ``tmp_path`` beside a
    copy of the schemas; its path."""
    doc = yaml.safe_load((ROOT / "tests" / "study_files" / "formula_demo.yaml").read_text())
    doc["methods"].update(methods)
    for sc in doc["scenarios"].values():
        sc["methods"] += [m for m in methods if m not in sc["methods"]]
    for name, sc in (scenarios or {}).items():
        doc["scenarios"][name] = {**sc, "methods": list(methods)}
    shutil.copytree(ROOT / "workflow" / "schemas", tmp_path / "workflow" / "schemas")
    path = tmp_path / "config" / "studies" / "demo.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(yaml.safe_dump(doc))
    return path
