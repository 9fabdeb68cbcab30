"""Read ``config/config.yaml`` and the study files, and expand a study for one profile.

A study is one file ``config/studies/<name>.yaml``, or a folder ``config/studies/<name>/`` of
chapter files (``ch05.yaml``, ``ch06.yaml``, ...) that together make it (:func:`read_study`).

This module only parses: :mod:`imlbench.validate` checks a configuration against the JSON
schemas and the registries, once per workflow run, before any job; the jobs then read their
study with :func:`load_study` without checking it again.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from imlbench.seeds import config_hash

PROFILES = ("smoke", "default", "paper")
#: libyaml's parser when the installed PyYAML has it (ten times faster), else PyYAML's own
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class ConfigError(ValueError):
    """A configuration problem, with the file and key in the message."""


#: a part of a key that messages show as is
_PLAIN = re.compile(r"[A-Za-z0-9_.+-]+")


def key_path(parts: Iterable[Any]) -> str:
    """A key of a YAML document as messages write it: ``scenarios.main.reps``, ``claims[0]``;
    a part that is not a plain ASCII name is quoted with escapes (``'r\\u0430'``), so that a
    message stays one line and shows look-alike characters."""
    out = ""
    for part in parts:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        else:
            text = part if isinstance(part, str) and _PLAIN.fullmatch(part) else ascii(part)
            out += f".{text}" if out else text
    return out or "(top level)"


class _DuplicateKey(Exception):
    """A key given twice in one mapping: its path and the marks of both."""

    def __init__(self, path: list, first: yaml.Mark, second: yaml.Mark) -> None:
        super().__init__(path)
        self.path, self.first, self.second = path, first, second


class _Loader(_LOADER):
    """The safe loader, but a key given twice in one mapping is an error (PyYAML would keep
    the last value silently)."""

    def construct_document(self, node: yaml.Node) -> Any:
        _reject_duplicate_keys(self, node)
        return super().construct_document(node)


def _reject_duplicate_keys(loader: yaml.BaseLoader, root: yaml.Node) -> None:
    """Raise :class:`_DuplicateKey` at the first mapping of ``root`` that holds a key twice
    (merge keys ``<<`` aside: the keys they bring may be overridden)."""
    stack: list[tuple[yaml.Node, list]] = [(root, [])]
    seen_nodes: set[int] = set()
    while stack:
        node, path = stack.pop()
        if id(node) in seen_nodes:  # an alias of a node already walked
            continue
        seen_nodes.add(id(node))
        if isinstance(node, yaml.MappingNode):
            first: dict[Any, yaml.Mark] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    stack.append((value_node, path))
                    continue
                key = loader.construct_object(key_node, deep=True)
                if isinstance(key, Hashable):
                    if key in first:
                        raise _DuplicateKey([*path, key], first[key], key_node.start_mark)
                    first[key] = key_node.start_mark
                stack.append((value_node, [*path, key]))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, [*path, i]) for i, item in enumerate(node.value))


def _at(mark: yaml.Mark) -> str:
    return f"line {mark.line + 1}, column {mark.column + 1}"


def read_yaml(path: Path) -> Any:
    """The YAML document at ``path``; a missing file, invalid YAML or a key given twice in one
    mapping is a ConfigError naming the line and column."""
    try:
        with open(path, encoding="utf-8") as fh:
            return yaml.load(fh, Loader=_Loader)  # noqa: S506  (a safe loader)
    except FileNotFoundError:
        raise ConfigError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read as UTF-8 text: {exc}") from None
    except _DuplicateKey as exc:
        raise ConfigError(f"{path}: key {key_path(exc.path)}: given twice in one mapping "
                          f"({_at(exc.first)} and {_at(exc.second)}); allowed: each key once per "
                          f"mapping") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{_at(mark)}: " if mark is not None else ""
        context = (f" ({exc.context} at {_at(exc.context_mark)})"
                   if exc.context and exc.context_mark is not None else "")
        raise ConfigError(f"{path}: {where}not valid YAML: {exc.problem}{context}") from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow: no mark
        text = Path(path).read_text(encoding="utf-8", errors="replace")[:exc.position]
        line, column = text.count("\n") + 1, len(text) - text.rfind("\n")
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise ConfigError(f"{path}: line {line}, column {column}: not valid YAML: character "
                          f"U+{code:04X} is not allowed ({exc.reason})") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {' '.join(str(exc).split())}") from None


def _fmt(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


@dataclass(frozen=True)
class Scenario:
    """One expanded scenario: a DGP with fixed parameters, sizes and repetitions."""

    name: str
    family: str
    dgp: str
    params: dict
    n: int | None
    n_test: int
    reps: int
    chunk_size: int
    learners: tuple[str, ...]
    methods: tuple[str, ...]
    swept: dict = field(default_factory=dict)
    #: share of the drawn rows held out as test rows (then ``n`` counts all drawn rows).
    test_fraction: float = 0.0
    #: whether the fit stage fits each learner per repetition (false: the methods refit
    #: the learners themselves and need no fitted model).
    fit_models: bool = True
    #: whether its run jobs run with no other job on the cores (timing methods).
    exclusive: bool = False
    #: the run jobs its chunks share with those of other families of the same batch
    #: (:func:`imlbench.targets.batches`); the family's name unless the study file says
    batch: str = ""

    @property
    def chunks(self) -> list[str]:
        return [f"c{i}" for i in range((self.reps + self.chunk_size - 1) // self.chunk_size)]

    def chunk_reps(self, chunk: str) -> range:
        i = int(chunk[1:])
        return range(i * self.chunk_size, min(self.reps, (i + 1) * self.chunk_size))


@dataclass
class Study:
    """A study file, expanded for one profile."""

    name: str
    path: Path
    doc: dict
    profile: str
    scenarios: dict[str, Scenario]
    #: the scenarios of every profile by name (claims may name scenarios of other profiles;
    #: a scenario of this profile is that of this profile).
    all_scenarios: dict[str, Scenario] = field(default_factory=dict)
    #: of a study folder: the chapter file of each entry, by key path (:func:`read_study`)
    sources: dict[tuple, Path] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return self.doc["title"]

    @property
    def learners(self) -> dict:
        return self.doc["learners"]

    @property
    def methods(self) -> dict:
        return self.doc["methods"]

    @property
    def figures(self) -> dict:
        return self.doc.get("figures", {})

    @property
    def claims(self) -> list:
        return self.doc.get("claims", [])

    def learner_params(self, learner: str) -> dict:
        """The hyperparameters of learner instance ``learner`` for this study's profile."""
        params = self.learners[learner].get("params", {})
        return {k: for_profile(v, self.profile) for k, v in params.items()}

    def method_params(self, method: str) -> dict:
        """The parameters of method instance ``method`` for this study's profile."""
        return resolve_profile(self.methods[method].get("params", {}), self.profile)

    def methods_for(self, scenario: str, learner: str) -> list[str]:
        """Method instances run for this learner in this scenario."""
        sc = self.scenarios[scenario]
        return [
            m for m in sc.methods
            if learner in self.methods[m].get("learners", sc.learners)
        ]

    def scenarios_of(self, names: list[str]) -> list[Scenario]:
        """Expanded scenarios whose name or family is in ``names``."""
        return [s for s in self.scenarios.values() if s.name in names or s.family in names]

    def hash(self) -> str:
        """The fingerprint of the study's content (of all its chapter files, for a folder)."""
        return config_hash(self.doc)

    def file_of(self, key: str) -> Path:
        """The file that defines ``key`` (as :func:`key_path` writes it), for messages: the
        study file, or the chapter file of a study folder."""
        return source_file(self.path, self.sources, key)


def for_profile(value: Any, profile: str) -> Any:
    """``value[profile]`` where ``value`` is a per-profile mapping, else ``value``."""
    if isinstance(value, dict) and set(value) == set(PROFILES):
        return value[profile]
    return value


def resolve_profile(value: Any, profile: str) -> Any:
    """``value`` with every per-profile mapping inside it (at any depth) replaced by its
    ``profile`` entry: method parameters may differ by profile, e.g. ``{smoke: 30, default:
    500, paper: 500}`` trees."""
    value = for_profile(value, profile)
    if isinstance(value, dict):
        return {k: resolve_profile(v, profile) for k, v in value.items()}
    return value


def expand_scenarios(family: str, spec: dict, profile: str) -> list[Scenario]:
    """The cartesian product of a scenario's ``sweep``, for one profile."""
    sweep = {k: for_profile(v, profile) for k, v in spec.get("sweep", {}).items()}
    keys = list(sweep)
    out = []
    for values in itertools.product(*(sweep[k] for k in keys)) if keys else [()]:
        swept = dict(zip(keys, values, strict=True))
        name = family + "".join(f"_{k}{_fmt(v)}" for k, v in swept.items())
        params = {**spec.get("params", {}), **{k: v for k, v in swept.items() if k != "n"}}
        reps = int(for_profile(spec["reps"], profile))
        chunk = int(for_profile(spec.get("chunk_size", reps), profile)) or reps
        out.append(Scenario(
            name=name, family=family, dgp=spec["dgp"], params=params,
            n=swept.get("n", for_profile(spec.get("n"), profile)),
            n_test=int(for_profile(spec.get("n_test", 0), profile)),
            reps=reps, chunk_size=max(1, min(reps, chunk)),
            learners=tuple(spec["learners"]), methods=tuple(spec["methods"]), swept=swept,
            test_fraction=float(spec.get("test_fraction", 0.0)),
            fit_models=bool(spec.get("fit_models", True)),
            exclusive=bool(spec.get("exclusive", False)),
            batch=spec.get("batch", family),
        ))
    return out


def _is_dir(path: Path) -> bool:
    try:
        return Path(path).is_dir()
    except OSError:  # e.g. a name too long for the file system: no such folder
        return False


def study_path(root: Path, name: str) -> Path:
    """The study ``name`` under the project root: its file ``config/studies/<name>.yaml``, or
    its folder ``config/studies/<name>/`` of chapter files when there is no such file (a study
    given both ways is an error of :func:`read_study`)."""
    base = Path(root) / "config" / "studies"
    file = base / f"{name}.yaml"
    if name not in ("", ".", "..") and Path(name).name == name and _is_dir(base / name):
        try:
            if not file.exists():
                return base / name
        except OSError:
            pass
    return file


def study_name(path: Path) -> str:
    """The name of the study at ``path``: the name of its folder, or of its file less
    ``.yaml``."""
    path = Path(path)
    return path.name if _is_dir(path) else path.stem


def study_names(folder: Path) -> list[str]:
    """The studies in ``folder`` (``config/studies``): its ``*.yaml`` files and its folders
    of chapter files, by name."""
    folder = Path(folder)
    files = {p.stem for p in folder.glob("*.yaml")}
    folders = {p.name for p in folder.glob("*/") if not p.name.startswith(".")
               and any(_chapters(p))}
    return sorted(files | folders)


def _chapters(folder: Path) -> list[Path]:
    """The chapter files of a study folder, in file-name order (hidden files aside)."""
    return sorted((p for p in Path(folder).glob("*.yaml")
                   if not p.name.startswith(".") and p.is_file()), key=lambda p: p.name)


def study_files(path: Path) -> list[Path]:
    """The files that make the study at ``path``: the study file, or the chapter files
    (``*.yaml``) of a study folder in file-name order. A study given both as ``<name>.yaml``
    and as a folder ``<name>/`` beside it is a ConfigError naming both."""
    path = Path(path)
    if _is_dir(path):
        file, folder = path.parent / f"{path.name}.yaml", path
    else:
        file, folder = path, path.with_suffix("") if path.suffix == ".yaml" else None
    if folder is not None and _is_dir(folder) and file.is_file():
        raise ConfigError(
            f"{file} and {folder}{os.sep}: study {folder.name!r} is given both as a file and as "
            f"a folder of chapter files; allowed: one of them")
    if folder is None or path == file:
        return [path]
    chapters = _chapters(folder)
    if not chapters:
        raise ConfigError(f"{folder}{os.sep}: key (top level): a study folder without chapter "
                          f"files; allowed: one or more <chapter>.yaml files")
    return chapters


def _kind(value: Any) -> str:
    return ("a map" if isinstance(value, dict) else "a list" if isinstance(value, list)
            else "a single value")


def read_study(path: Path) -> tuple[Any, dict[tuple, Path]]:
    """The document of the study at ``path`` and, for a study folder, the chapter file that
    defines each entry by key path (``("title",)``, ``("scenarios", "main")``,
    ``("claims", 3)``); a study file has no such map.

    The chapter files of a folder are read in file-name order and their top-level maps
    merged: a map section (``learners``, ``methods``, ``scenarios``, ``figures``, ...) key by
    key, a key in two files being a ConfigError naming both; a list section (``claims``)
    concatenated in file order; any other key (``title``, ...) in one file, or with the same
    value in each file that gives it."""
    files = study_files(path)
    if files == [Path(path)]:
        return read_yaml(path), {}
    doc: dict = {}
    sources: dict[tuple, Path] = {}
    for file in files:
        chapter = read_yaml(file)
        if not isinstance(chapter, dict):
            raise ConfigError(f"{file}: key (top level): {_kind(chapter)} is not allowed; "
                              f"allowed: a map of study keys (a chapter of the study folder "
                              f"{Path(path)})")
        for section, value in chapter.items():
            if section not in doc:
                doc[section] = (dict(value) if isinstance(value, dict) else
                                list(value) if isinstance(value, list) else value)
                sources[(section,)] = file
                if isinstance(value, dict | list):
                    keys = value if isinstance(value, dict) else range(len(value))
                    sources.update({(section, k): file for k in keys})
                continue
            first, merged = sources[(section,)], doc[section]
            if isinstance(merged, dict) and isinstance(value, dict):
                for k, v in value.items():
                    if k in merged:
                        raise ConfigError(
                            f"{file}: key {key_path([section, k])}: given in two chapter files "
                            f"({sources[(section, k)]} and {file}); allowed: each key in one "
                            f"file of the study folder")
                    merged[k], sources[(section, k)] = v, file
            elif isinstance(merged, list) and isinstance(value, list):
                sources.update({(section, len(merged) + i): file for i in range(len(value))})
                merged.extend(value)
            elif isinstance(merged, dict | list) or isinstance(value, dict | list):
                raise ConfigError(
                    f"{file}: key {key_path([section])}: {_kind(value)} here but "
                    f"{_kind(merged)} in {first}; allowed: the same kind in every chapter file "
                    f"(maps are merged, lists joined)")
            elif not (type(value) is type(merged) and value == merged):
                raise ConfigError(
                    f"{file}: key {key_path([section])}: also given in {first}, with another "
                    f"value; allowed: the key in one chapter file, or the same value in each")
    return doc, sources


def source_file(path: Path, sources: dict[tuple, Path], key: str) -> Path:
    """The file of ``key`` (as :func:`key_path` writes it) in the study at ``path``: the
    chapter file of its entry in ``sources`` (:func:`read_study`), else ``path``."""
    best, found = -1, Path(path)
    for parts, file in sources.items():
        prefix = key_path(parts)
        if len(prefix) > best and (key == prefix or key.startswith((prefix + ".",
                                                                        prefix + "["))):
            best, found = len(prefix), file
    return found


def _origin(sc: Scenario) -> str:
    swept = ", ".join(f"{k}={v!r}" for k, v in sc.swept.items())
    return f"scenarios.{sc.family}" + (f" with {swept}" if swept else "")


def expand_study(path: Path, doc: dict, profile: str,
                 sources: dict[tuple, Path] | None = None) -> dict[str, Scenario]:
    """Every scenario of the study document ``doc`` for one profile, by name. Two scenarios
    of one name (sweep values that format alike, e.g. 0.1 and 0.10000001) are a ConfigError:
    one would silently replace the other (``sources``: see :func:`read_study`)."""
    out: dict[str, Scenario] = {}
    for family, spec in doc["scenarios"].items():
        for sc in expand_scenarios(family, spec, profile):
            other = out.get(sc.name)
            if other is not None:
                key = f"scenarios.{family}" + (".sweep" if other.family == family else "")
                raise ConfigError(
                    f"{source_file(path, sources or {}, key)}: key {key}: {_origin(other)} and "
                    f"{_origin(sc)} both give scenario "
                    f"name {sc.name!r} (profile {profile}); allowed: sweep values whose names "
                    f"differ (a number is named with %g: 6 significant digits)")
            out[sc.name] = sc
    return out


def load_study(path: Path, profile: str) -> Study:
    """The study at ``path`` (a file, or a folder of chapter files) expanded for ``profile``
    (parsed, not checked but for scenario names given twice, in any profile)."""
    doc, sources = read_study(path)
    return expanded_study(path, doc, profile, sources)


def expanded_study(path: Path, doc: dict, profile: str,
                   sources: dict[tuple, Path] | None = None) -> Study:
    """The study of document ``doc`` (read from ``path``; ``sources``: see
    :func:`read_study`) expanded for ``profile``, as :func:`load_study` expands it."""
    sources = sources or {}
    expanded = {prof: expand_study(path, doc, prof, sources) for prof in PROFILES}
    study = Study(study_name(path), Path(path), doc, profile, expanded[profile],
                  sources=sources)
    for prof in sorted(PROFILES, key=lambda p: p != profile):
        for name, sc in expanded[prof].items():
            study.all_scenarios.setdefault(name, sc)
    return study
