"""A study may be a folder ``config/studies/<name>/`` of chapter files instead of one file
``config/studies/<name>.yaml``: its files, read in file-name order, merge into the same study
(:func:`imlbench.config.read_study`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml
from shipped import STUDIES

from imlbench.cli import main as cli_main
from imlbench.config import (
    ConfigError,
    load_study,
    read_study,
    read_yaml,
    study_files,
    study_names,
    study_path,
)
from imlbench.validate import check_config, check_study

REPO = Path(__file__).resolve().parents[1]
STUDY = "extrapolation"
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "config", tmp_path / "config")
    shutil.copytree(REPO / "workflow" / "schemas", tmp_path / "workflow" / "schemas")
    return tmp_path


def _write(path: Path, doc: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.dump(doc, Dumper=_DUMPER, sort_keys=False, allow_unicode=True))
    return path


def _halves(mapping: dict) -> tuple[dict, dict]:
    keys = list(mapping)
    return ({k: mapping[k] for k in keys[:len(keys) // 2]},
            {k: mapping[k] for k in keys[len(keys) // 2:]})


def _chapters(doc: dict) -> dict[str, dict]:
    """The study document ``doc`` cut into four chapters: every map section split between two
    of them, the claims and the deviations shared out in order."""
    scenarios, figures, claims = _halves(doc["scenarios"]), _halves(doc["figures"]), doc["claims"]
    deviations = doc["deviations"]
    return {
        "ch01_intro.yaml": {"title": doc["title"], "reference": doc["reference"],
                            "description": doc["description"], "deviations": deviations[:2],
                            "learners": doc["learners"]},
        "ch02_methods.yaml": {"methods": doc["methods"], "scenarios": scenarios[0],
                              "deviations": deviations[2:]},
        "ch03_scenarios.yaml": {"scenarios": scenarios[1], "figures": figures[0],
                                "claims": claims[:3]},
        "ch04_figures.yaml": {"title": doc["title"], "figures": figures[1], "claims": claims[3:]},
    }


def _split(root: Path, name: str = STUDY) -> Path:
    """Replace the study file ``name`` by a folder of its chapters; return the folder."""
    file = study_path(root, name)
    doc = read_yaml(file)
    folder = file.with_suffix("")
    for chapter, part in _chapters(doc).items():
        _write(folder / chapter, part)
    file.unlink()
    return folder


def test_a_folder_study_is_the_study_of_its_file(root):
    one = load_study(study_path(root, STUDY), "smoke")
    folder = _split(root)
    assert study_path(root, STUDY) == folder
    assert [p.name for p in study_files(folder)] == sorted(_chapters(one.doc))
    two = load_study(study_path(root, STUDY), "smoke")
    assert two.name == one.name == STUDY and two.path == folder
    assert two.doc == one.doc
    assert list(two.doc["claims"]) == list(one.doc["claims"])  # in file order
    assert two.scenarios == one.scenarios and two.all_scenarios == one.all_scenarios
    assert two.hash() == one.hash()
    # the chapter of each entry, for messages
    assert two.file_of("scenarios." + list(one.doc["scenarios"])[-1] + ".reps") == (
        folder / "ch03_scenarios.yaml")
    assert two.file_of("claims[3].where") == folder / "ch04_figures.yaml"
    assert two.file_of("title") == folder / "ch01_intro.yaml"
    assert two.file_of("(top level)") == folder


def test_a_folder_study_passes_the_check_and_is_found_by_name(root, capsys, monkeypatch):
    _split(root)
    assert STUDY in study_names(root / "config" / "studies")
    checked = check_study(study_path(root, STUDY), "smoke", root)
    assert checked.name == STUDY
    monkeypatch.setattr(os, "environ", dict(os.environ))  # main() sets OMP_NUM_THREADS etc.
    assert cli_main(["--root", str(root), "--profile", "smoke", "check", "--study", STUDY]) == 0
    assert capsys.readouterr().out.startswith(f"{STUDY}: ")


def test_an_unknown_study_lists_the_folder_studies(root, capsys, monkeypatch):
    _split(root)
    monkeypatch.setattr(os, "environ", dict(os.environ))
    assert cli_main(["--root", str(root), "check", "--study", "shapley"]) == 2
    assert f"allowed: {', '.join(STUDIES)}" in capsys.readouterr().err
    cfg = read_yaml(root / "config" / "config.yaml")
    with pytest.raises(ConfigError, match=f"allowed: {', '.join(STUDIES)}"):
        check_config(root, {**cfg, "studies": ["shapley"]})


def test_a_key_in_two_chapter_files_is_an_error_naming_both(root):
    folder = _split(root)
    first = folder / "ch02_methods.yaml"
    family = next(iter(read_yaml(first)["scenarios"]))
    later = folder / "ch03_scenarios.yaml"
    doc = read_yaml(later)
    doc["scenarios"][family] = read_yaml(first)["scenarios"][family]
    _write(later, doc)
    with pytest.raises(ConfigError) as err:
        load_study(folder, "smoke")
    msg = str(err.value)
    assert msg.startswith(f"{later}: key scenarios.{family}: given in two chapter files "
                          f"({first} and {later})"), msg
    assert "\n" not in msg
    with pytest.raises(ConfigError, match=f"key scenarios.{family}: given in two chapter"):
        check_config(root)


@pytest.mark.parametrize("value, said", [
    ("Another title", "also given in {first}, with another value"),
    (["a", "list"], "a list here but a single value in {first}"),
])
def test_a_value_given_differently_in_two_chapter_files_is_an_error(root, value, said):
    folder = _split(root)
    later = _write(folder / "ch05_more.yaml", {"title": value})
    with pytest.raises(ConfigError) as err:
        load_study(folder, "smoke")
    assert str(err.value).startswith(
        f"{later}: key title: " + said.format(first=folder / "ch01_intro.yaml")), err.value


def test_a_study_given_as_a_file_and_as_a_folder_is_an_error_naming_both(root):
    file = study_path(root, STUDY)
    folder = _split(root)
    shutil.copy(REPO / "config" / "studies" / f"{STUDY}.yaml", file)
    for path in (file, folder, study_path(root, STUDY)):
        with pytest.raises(ConfigError) as err:
            load_study(path, "smoke")
        msg = str(err.value)
        assert msg.startswith(f"{file} and {folder}{os.sep}: study {STUDY!r} is given both as a "
                              f"file and as a folder"), msg
        assert "allowed: one of them" in msg
    with pytest.raises(ConfigError, match="is given both as a file and as a folder"):
        check_config(root)


def test_a_chapter_that_is_not_a_map_and_an_empty_folder_are_errors(root):
    folder = _split(root)
    chapter = folder / "ch05_more.yaml"
    chapter.write_text("- a\n- list\n")
    with pytest.raises(ConfigError, match=f"^{chapter}: key \\(top level\\): a list is not"):
        read_study(folder)
    empty = root / "config" / "studies" / "empty"
    empty.mkdir()
    (empty / "notes.md").write_text("no chapters yet\n")
    assert "empty" not in study_names(root / "config" / "studies")
    with pytest.raises(ConfigError, match="a study folder without chapter files"):
        read_study(empty)


def test_a_check_error_names_the_chapter_file_and_the_key(root):
    folder = _split(root)
    chapter = folder / "ch03_scenarios.yaml"
    doc = read_yaml(chapter)
    family = next(iter(doc["scenarios"]))
    doc["scenarios"][family]["learners"] = ["nosuchlearner"]
    _write(chapter, doc)
    with pytest.raises(ConfigError) as err:
        check_study(folder, "smoke", root)
    assert str(err.value).startswith(f"{chapter}: key scenarios.{family}.learners"), err.value
    doc["scenarios"][family]["reps"] = "many"  # a schema error
    _write(chapter, doc)
    with pytest.raises(ConfigError) as err:
        check_study(folder, "smoke", root)
    assert str(err.value).startswith(f"{chapter}: key scenarios.{family}.reps: "), err.value


def test_the_hash_follows_every_chapter(root):
    folder = _split(root)
    before = load_study(folder, "smoke").hash()
    for chapter in study_files(folder):
        text = chapter.read_text()
        chapter.write_text(text + "\n# a comment changes no value\n")
        assert load_study(folder, "smoke").hash() == before
        doc = read_yaml(chapter)
        section = next(k for k, v in doc.items() if isinstance(v, dict | list))
        entry = next(iter(doc[section])) if isinstance(doc[section], dict) else 0
        value = doc[section][entry]  # one value changed
        doc[section][entry] = ({**value, "note": chapter.name} if isinstance(value, dict)
                               else f"{value} ({chapter.name})")
        _write(chapter, doc)
        assert load_study(folder, "smoke").hash() != before, chapter.name
        chapter.write_text(text)
    assert load_study(folder, "smoke").hash() == before
