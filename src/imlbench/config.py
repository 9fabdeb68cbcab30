"""Read ``config/config.yaml`` and the study files, and expand a study for one profile.

This module only parses: :mod:`imlbench.validate` checks a configuration against the JSON
schemas and the registries, once per workflow run, before any job; the jobs then read their
study with :func:`load_study` without checking it again.
"""

from __future__ import annotations

import itertools
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


def read_yaml(path: Path) -> Any:
    """The YAML document at ``path``; a missing file or invalid YAML is a ConfigError."""
    try:
        with open(path) as fh:
            return yaml.load(fh, Loader=_LOADER)  # noqa: S506  (a safe loader)
    except FileNotFoundError:
        raise ConfigError(f"{path}: file not found") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None


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
    #: scenario names of every profile (claims may name scenarios of other profiles).
    all_scenarios: set[str] = field(default_factory=set)

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
        return config_hash(self.doc)


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
        ))
    return out


def study_path(root: Path, name: str) -> Path:
    """The file of study ``name`` under the project root."""
    return Path(root) / "config" / "studies" / f"{name}.yaml"


def load_study(path: Path, profile: str) -> Study:
    """The study file at ``path`` expanded for ``profile`` (parsed, not checked)."""
    doc = read_yaml(path)
    scenarios: dict[str, Scenario] = {}
    for family, spec in doc["scenarios"].items():
        for sc in expand_scenarios(family, spec, profile):
            scenarios[sc.name] = sc
    study = Study(Path(path).stem, Path(path), doc, profile, scenarios)
    study.all_scenarios = {
        sc.name for family, spec in doc["scenarios"].items() for prof in PROFILES
        for sc in expand_scenarios(family, spec, prof)
    }
    return study
