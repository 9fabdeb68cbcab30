"""Check a configuration before any job runs: once per workflow run, and by ``imlbench check``.

First ``config/config.yaml`` and each study file against the JSON schemas in
``workflow/schemas/``; then every name and value of a study file against the registries and
their declarations: DGPs and their parameters, learners and their hyperparameters, methods and
their typed parameters (for every profile), what each method needs from its learner and
scenario (test rows, a known conditional law, out-of-bag rows, ...), figures and the method
roles they read, claims and their typed parameters. Every error names the file, the key and
the allowed values, in one line.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from imlbench import studies as study_packages
from imlbench.config import (
    PROFILES,
    ConfigError,
    Scenario,
    Study,
    load_study,
    read_yaml,
    resolve_profile,
    study_path,
)
from imlbench.dgp.base import DGP, DGPS, make_dgp
from imlbench.explain.api import METHODS
from imlbench.figures import FIGURES
from imlbench.learners import LEARNERS, make_learner
from imlbench.metrics.claims import CLAIMS, claim_params
from imlbench.params import Param, ParamError, check_all, named_values, with_defaults
from imlbench.truth import estimands


def _schema_check(doc: Any, schema_path: Path, path: Path) -> None:
    import jsonschema

    schema = read_yaml(schema_path)
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
    else:
        msg = err.message
    raise ConfigError(f"{path}: key {key}: {msg}")


def check_config(root: Path, config: dict | None = None) -> tuple[dict, dict[str, Study]]:
    """Check ``config/config.yaml`` (or the given dict) and every enabled study file; return
    the configuration and the studies expanded for its profile."""
    root = Path(root)
    cfg_path = root / "config" / "config.yaml"
    cfg = read_yaml(cfg_path) if config is None else config
    _schema_check(cfg, root / "workflow" / "schemas" / "config.schema.yaml", cfg_path)
    out = {}
    for name in cfg["studies"]:
        path = study_path(root, name)
        if not path.exists():
            available = sorted(p.stem for p in path.parent.glob("*.yaml"))
            raise ConfigError(f"{cfg_path}: key studies: no study file {path.name}; "
                              f"allowed: {', '.join(available)}")
        out[name] = check_study(path, cfg["profile"], root)
    return cfg, out


def check_study(path: Path, profile: str, root: Path) -> Study:
    """Check one study file (enabled or not) against the schema and the registries."""
    _schema_check(read_yaml(path), Path(root) / "workflow" / "schemas" / "study.schema.yaml",
                  path)
    study = load_study(path, profile)
    study_packages.load([study.name], figures=True)
    _Checker(study).run()
    return study


def dgp_abilities(dgp: DGP) -> set[str]:
    """What a DGP offers to methods: a known conditional law, a noise block, reference rows."""
    out = set()
    if type(dgp).sample_conditional is not DGP.sample_conditional:
        out.add("conditional")
    if hasattr(dgp, "noise_features"):
        out.add("noise_block")
    if hasattr(dgp, "reference_rows"):
        out.add("reference_rows")
    return out


def _dgp_parameters(cls: type) -> tuple[list[str], list[str]] | None:
    """The parameter names of a DGP class and the required ones (None: it takes any)."""
    params = list(inspect.signature(cls).parameters.values())
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return ([p.name for p in params],
            [p.name for p in params if p.default is p.empty and p.kind is not p.VAR_POSITIONAL])


def _listed(values: Any) -> list:
    return [values] if isinstance(values, str) else list(values)


class _Checker:
    """The name and value checks of one study (after its schema)."""

    def __init__(self, study: Study) -> None:
        self.study = study
        self.dgps: dict[str, DGP] = {}

    def fail(self, key: str, msg: str) -> None:
        raise ConfigError(f"{self.study.path}: key {key}: {msg}")

    def registered(self, registry: Any, name: str, key: str) -> None:
        """``name`` is an entry of ``registry`` that this study may use."""
        allowed = registry.names(self.study.name)
        if name not in allowed:
            self.fail(key, f"unknown {registry.kind} {name!r}; allowed: {', '.join(allowed)}")

    def params(self, declared: dict[str, Param], given: Any, key: str, owner: str,
               profiles: tuple[str, ...] = PROFILES) -> None:
        """Typed parameters, for each profile (a value may differ by profile)."""
        for profile in sorted(profiles, key=lambda p: p != self.study.profile):
            try:
                check_all(declared, resolve_profile(given, profile), key, owner)
            except ParamError as err:
                where = "" if profile == self.study.profile else f" (profile {profile})"
                self.fail(err.key or key, err.message + where)

    def run(self) -> None:
        self.learners()
        self.methods()
        for sc in self.study.scenarios.values():
            self.scenario(sc)
        self.figures()
        self.claims()

    # --- learners and methods -------------------------------------------------------------

    def learners(self) -> None:
        for name, spec in self.study.learners.items():
            key = f"learners.{name}"
            self.registered(LEARNERS, spec["learner"], f"{key}.learner")
            params = self.study.learner_params(name)
            allowed = LEARNERS.get(spec["learner"]).params()
            unknown = sorted(set(params) - set(allowed))
            if unknown:
                self.fail(f"{key}.params", f"unknown hyperparameter(s) {', '.join(unknown)} of "
                          f"learner {spec['learner']!r}; allowed: {', '.join(allowed) or 'none'}")
            try:
                est = make_learner(spec["learner"], params, random_state=0)
                final = est.steps[-1][1] if hasattr(est, "steps") else est
                if hasattr(final, "_parameter_constraints"):
                    final._validate_params()
            except Exception as exc:  # noqa: BLE001  (any constructor error is a config error)
                self.fail(f"{key}.params", f"invalid hyperparameters: {exc}")

    def methods(self) -> None:
        for name, spec in self.study.methods.items():
            key = f"methods.{name}"
            self.registered(METHODS, spec["method"], f"{key}.method")
            self.params(METHODS.get(spec["method"]).params, spec.get("params", {}),
                        f"{key}.params", f"method {spec['method']!r}")
            for learner in spec.get("learners", []):
                if learner not in self.study.learners:
                    self.fail(f"{key}.learners", f"unknown learner {learner!r}; allowed: "
                              f"{', '.join(self.study.learners)}")

    # --- scenarios ------------------------------------------------------------------------

    def dgp(self, sc: Scenario) -> DGP:
        key = f"scenarios.{sc.family}"
        self.registered(DGPS, sc.dgp, f"{key}.dgp")
        names = _dgp_parameters(DGPS.get(sc.dgp))
        if names is not None:
            allowed, required = names
            unknown = sorted(set(sc.params) - set(allowed))
            missing = sorted(set(required) - set(sc.params))
            if unknown or missing:
                what = (f"unknown parameter(s) {', '.join(unknown)}" if unknown
                        else f"parameter(s) {', '.join(missing)} must be given")
                self.fail(f"{key}.params", f"{what} of DGP {sc.dgp!r}; allowed: "
                          f"{', '.join(allowed) or 'none'}")
        try:
            dgp = make_dgp(sc.dgp, sc.params)
            dgp.feature_names  # noqa: B018  (a real table is read here: a missing file fails)
        except (TypeError, ValueError, OSError) as exc:  # OSError: a data file not found
            self.fail(f"{key}.params", f"invalid parameters for DGP {sc.dgp!r}: {exc}")
        return dgp

    def scenario(self, sc: Scenario) -> None:
        study, key = self.study, f"scenarios.{sc.family}"
        dgp = self.dgp(sc)
        names = dgp.feature_names
        abilities = dgp_abilities(dgp) | ({"test_rows"} if sc.n_test or sc.test_fraction
                                          else set())
        if sc.n is not None and sc.n < 10:
            self.fail(f"{key}.n", f"at least 10 training rows are needed, got {sc.n}")
        for learner in sc.learners:
            if learner not in study.learners:
                self.fail(f"{key}.learners", f"unknown learner {learner!r}; allowed: "
                          f"{', '.join(study.learners)}")
            caps = LEARNERS.get(study.learners[learner]["learner"]).capabilities
            if "oracle" in caps and not dgp.has_truth:
                self.fail(f"{key}.learners",
                          f"learner {learner!r} predicts with the DGP's f, which DGP {sc.dgp!r} "
                          f"does not know; allowed: the study's other learners")
        for m in sc.methods:
            if m not in study.methods:
                self.fail(f"{key}.methods",
                          f"unknown method {m!r}; allowed: {', '.join(study.methods)}")
            self.method_in_scenario(sc, m, names, abilities)
        if not sc.fit_models:
            fitted = [m for m in sc.methods if self.kind(m) != "refits"]
            if fitted:
                self.fail(f"{key}.fit_models",
                          f"fit_models is false, so no model is fitted per repetition, but "
                          f"method(s) {', '.join(fitted)} use the fitted model; allowed: methods "
                          f"that refit the learner themselves (kind refits)")

    def kind(self, method: str) -> str:
        return METHODS.get(self.study.methods[method]["method"]).kind

    def method_in_scenario(self, sc: Scenario, m: str, names: list[str],
                           abilities: set[str]) -> None:
        study, key = self.study, f"scenarios.{sc.family}"
        spec = METHODS.get(study.methods[m]["method"])
        params = with_defaults(spec.params, study.method_params(m))
        for field_, declared in spec.params.items():
            bad = sorted(set(named_values(declared, params.get(field_), "features", True))
                         - set(names))
            if bad:
                self.fail(f"methods.{m}.params.{field_}",
                          f"feature(s) {', '.join(bad)} not in scenario {sc.name}; "
                          f"allowed: {', '.join(names)}")
        needs = spec.requirements(params)
        if "test_rows" in needs and "test_rows" not in abilities:
            if params.get("data") == "test":
                self.fail(f"methods.{m}.params.data",
                          f"scenario {sc.name} has no test rows (set its n_test or "
                          f"test_fraction); allowed: train")
            self.fail(f"{key}.n_test", f"method {m!r} needs test rows, which scenario "
                      f"{sc.name} has none of; allowed: n_test >= 1 or test_fraction")
        for learner in sc.learners:
            if learner not in study.methods[m].get("learners", sc.learners):
                continue
            caps = LEARNERS.get(study.learners[learner]["learner"]).capabilities | abilities
            missing = needs - caps
            if missing:
                able = [n for n, s in study.learners.items()
                        if needs <= LEARNERS.get(s["learner"]).capabilities | abilities]
                self.fail(f"{key}.methods",
                          f"method {m!r} needs {', '.join(sorted(missing))}, which learner "
                          f"{learner!r} with DGP {sc.dgp!r} lacks; restrict it with "
                          f"methods.{m}.learners; allowed: {', '.join(able) or 'none'}")

    # --- figures and claims ---------------------------------------------------------------

    def figures(self) -> None:
        study = self.study
        known = set(study.scenarios) | {s.family for s in study.scenarios.values()}
        for fig, spec in study.figures.items():
            key = f"figures.{fig}"
            self.registered(FIGURES, spec["function"], f"{key}.function")
            for s in spec["scenarios"]:
                if s not in known:
                    self.fail(f"{key}.scenarios",
                              f"unknown scenario {s!r}; allowed: {', '.join(sorted(known))}")
            declared = FIGURES.get(spec["function"])
            given = spec.get("methods", {})
            if set(given) != set(declared.methods):
                self.fail(f"{key}.methods", f"roles {', '.join(sorted(given)) or 'none'} do not "
                          f"match those of {spec['function']}; allowed: "
                          f"{', '.join(declared.methods) or 'none'}")
            scenarios = study.scenarios_of(spec["scenarios"])
            run = {m for sc in scenarios for m in sc.methods}
            for role, methods in given.items():
                for m in _listed(methods):
                    if m not in study.methods:
                        self.fail(f"{key}.methods.{role}", f"unknown method {m!r}; allowed: "
                                  f"{', '.join(study.methods)}")
                    if scenarios and m not in run:
                        self.fail(f"{key}.methods.{role}", f"method {m!r} runs in none of the "
                                  f"figure's scenarios; allowed: {', '.join(sorted(run))}")
            for estimand in declared.truths:
                if scenarios and not any(estimand in estimands(sc.dgp) for sc in scenarios):
                    self.fail(f"{key}.scenarios", f"{spec['function']} reads the {estimand} "
                              f"truth, which none of these scenarios' DGPs has; allowed: "
                              f"scenarios whose DGP has it")

    def claims(self) -> None:
        study = self.study
        for i, claim in enumerate(study.claims):
            key = f"claims[{i}]"
            self.registered(CLAIMS, claim["kind"], f"{key}.kind")
            declared = CLAIMS.get(claim["kind"]).params
            self.params(declared, claim_params(claim), key, f"claim kind {claim['kind']!r}",
                        profiles=(study.profile,))
            where = claim["where"]
            if where["scenario"] not in study.all_scenarios:
                self.fail(f"{key}.where.scenario", f"unknown scenario {where['scenario']!r}; "
                          f"allowed: {', '.join(sorted(study.all_scenarios))}")
            for field_, pool in (("learner", study.learners), ("method", study.methods)):
                for v in _listed(where.get(field_, [])):
                    if v not in pool:
                        self.fail(f"{key}.where.{field_}",
                                  f"unknown {field_} {v!r}; allowed: {', '.join(pool)}")
            for name, param in declared.items():
                for section in ("methods", "learners"):
                    for v in named_values(param, claim.get(name), "refers", section):
                        if v not in getattr(study, section):
                            self.fail(f"{key}.{name}", f"unknown {section[:-1]} {v!r}; "
                                      f"allowed: {', '.join(getattr(study, section))}")
