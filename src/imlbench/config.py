"""Load and validate ``config/config.yaml`` and the study files.

Validation runs before any job: first against the JSON schemas in
``workflow/schemas/``, then every name (DGP, learner, method, parameter, feature)
against the registries. Any problem stops the run with one message naming the
file, the key and the allowed values.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

PROFILES = ("smoke", "default", "paper")


class ConfigError(ValueError):
    """A configuration problem, with the file and key in the message."""


def _load_yaml(path: Path) -> Any:
    try:
        with open(path) as fh:
            return yaml.safe_load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{path}: file not found") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None


def _schema_errors(doc: Any, schema_path: Path, path: Path) -> None:
    import jsonschema

    schema = _load_yaml(schema_path)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if not errors:
        return
    err = errors[0]
    key = ".".join(str(p) for p in err.absolute_path) or "(top level)"
    if err.validator == "additionalProperties":
        allowed = sorted(err.schema.get("properties", {}))
        extra = sorted(set(err.instance) - set(allowed))
        msg = f"unknown key(s) {', '.join(map(repr, extra))}; allowed: {', '.join(allowed)}"
    elif err.validator == "enum":
        allowed = ", ".join(map(str, err.validator_value))
        msg = f"{err.instance!r} is not allowed; allowed: {allowed}"
    elif err.validator == "required":
        msg = err.message
    else:
        msg = err.message
    raise ConfigError(f"{path}: key {key}: {msg}")


def config_hash(obj: Any) -> str:
    """A short stable hash of a JSON-serialisable configuration object."""
    blob = json.dumps(obj, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


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
    """A validated study file, expanded for one profile."""

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

    def method_params(self, method: str) -> dict:
        """The parameters of method instance ``method`` for this study's profile."""
        return resolve_profile(self.methods[method].get("params", {}), self.profile)

    def method_kind(self, method: str) -> str:
        """The registered kind of the study's method instance ``method``."""
        from imlbench.explain.methods import METHODS

        return METHODS.get(self.methods[method]["method"]).kind

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


def load_config(root: Path, config: dict | None = None) -> tuple[dict, dict[str, Study]]:
    """Validate ``config/config.yaml`` (or the given dict) and every enabled study file."""
    root = Path(root)
    cfg_path = root / "config" / "config.yaml"
    cfg = _load_yaml(cfg_path) if config is None else config
    _schema_errors(cfg, root / "workflow" / "schemas" / "config.schema.yaml", cfg_path)
    studies = {}
    for name in cfg["studies"]:
        path = root / "config" / "studies" / f"{name}.yaml"
        if not path.exists():
            available = sorted(p.stem for p in (root / "config" / "studies").glob("*.yaml"))
            raise ConfigError(
                f"{cfg_path}: key studies: no study file {path.name}; "
                f"allowed: {', '.join(available)}"
            )
        studies[name] = load_study(path, cfg["profile"], root)
    return cfg, studies


def load_study(path: Path, profile: str, root: Path) -> Study:
    """Validate one study file against the schema and the registries."""
    doc = _load_yaml(path)
    _schema_errors(doc, root / "workflow" / "schemas" / "study.schema.yaml", path)
    scenarios: dict[str, Scenario] = {}
    for family, spec in doc["scenarios"].items():
        for sc in expand_scenarios(family, spec, profile):
            scenarios[sc.name] = sc
    study = Study(path.stem, path, doc, profile, scenarios)
    study.all_scenarios = {
        sc.name for family, spec in doc["scenarios"].items() for prof in PROFILES
        for sc in expand_scenarios(family, spec, prof)
    }
    from imlbench.validate import check_names

    check_names(study)
    return study
