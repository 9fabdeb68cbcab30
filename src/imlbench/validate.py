"""Check a configuration before any job runs: once per workflow run, and by ``imlbench check``.

First ``config/config.yaml`` and each study file against the JSON schemas in
``workflow/schemas/``, which also hold the strict ASCII patterns of every name that ends up in
a file path, a rule name or a command (study names and file names, scenario families and the
names their sweeps give, learner, method and figure keys, claim ids); then every name and value
of a study file against the registries and their declarations: DGPs and their parameters (in
every profile), learners and their hyperparameters, methods and their typed parameters (for
every profile), what each method needs from its learner and scenario (test rows, a known
conditional law, out-of-bag rows, ...), figures (the method roles they read, and scenarios with
repetitions to draw), claims and their typed parameters. Every error names the file, the key
and the allowed values, in one line.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from imlbench import studies as study_packages
from imlbench.config import (
    PROFILES,
    ConfigError,
    Scenario,
    Study,
    key_path,
    load_study,
    read_study,
    read_yaml,
    resolve_profile,
    source_file,
    study_name,
    study_names,
    study_path,
)
from imlbench.dgp.base import DGP, DGPS, make_dgp
from imlbench.dgp.real_data import TableDGP
from imlbench.explain.api import METHODS
from imlbench.explain.grids import LAW_KIND
from imlbench.explain.strategies import MODEL_ROWS_STREAM
from imlbench.figures import FIGURES
from imlbench.learners import LEARNERS, make_learner
from imlbench.metrics.claims import CLAIMS, claim_params
from imlbench.params import Param, ParamError, check, check_all, named_values, with_defaults
from imlbench.truth import truth_tables


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict) -> Any:
    """``pattern`` as JSON Schema means it (ECMA-262): ``$`` ends the string, where Python's
    ``$`` also matches before a final newline (``"rf\\n"`` would pass ``^[a-z]+$``)."""
    import jsonschema

    whole = pattern.startswith("^") and pattern.endswith("$")
    if isinstance(instance, str) and not (re.fullmatch(pattern, instance) if whole
                                          else re.search(pattern, instance)):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


@functools.cache
def _validator_class() -> Any:
    import jsonschema

    return jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _pattern})


def _resolve(schema: Any, root: dict) -> Any:
    """``schema`` with a local ``$ref`` (``#/$defs/name``) followed."""
    while isinstance(schema, dict) and "$ref" in schema:
        target: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        schema = target
    return schema


def _bounds(schema: dict) -> str:
    marks = (("minimum", ">="), ("exclusiveMinimum", ">"), ("maximum", "<="),
             ("exclusiveMaximum", "<"))
    out = [f"{sign} {schema[k]:g}" for k, sign in marks if k in schema]
    return (" " + " and ".join(out)) if out else ""


def _describe(schema: Any, root: dict) -> str:
    """The values ``schema`` allows, in words (a name pattern in those of its description)."""
    schema = _resolve(schema, root)
    if not isinstance(schema, dict):
        return "any value"
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return ", or ".join(_describe(s, root) for s in schema[key])
    if "enum" in schema:
        return ", ".join(map(str, schema["enum"]))
    if "pattern" in schema:
        return schema["description"]
    types = schema.get("type", [])
    types = [types] if isinstance(types, str) else list(types)
    words = [_describe_type(t, schema, root) for t in types if t != "null"]
    out = " or ".join(words) or "any value"
    return out + (" or null" if "null" in types else "")


def _describe_type(kind: str, schema: dict, root: dict) -> str:
    if kind in ("integer", "number"):
        return f"{'an integer' if kind == 'integer' else 'a number'}{_bounds(schema)}"
    if kind == "array":
        least = schema.get("minItems", 0)
        out = ("a non-empty list" if least == 1 else f"a list of at least {least} items"
               if least else "a list")
        out += " without repeats" if schema.get("uniqueItems") else ""
        return out + (f" (each {_describe(schema['items'], root)})" if "items" in schema else "")
    if kind == "object":
        props, required = schema.get("properties", {}), schema.get("required", [])
        values = [_describe(v, root) for v in props.values()]
        if props and set(required) == set(props) and len(set(values)) == 1:
            return f"a map with keys {', '.join(props)} (each {values[0]})"
        if props:
            need = f" ({', '.join(required)} required)" if required else ""
            return f"a map with keys {', '.join(props)}{need}"
        if isinstance(schema.get("additionalProperties"), dict):
            return f"a map (each value {_describe(schema['additionalProperties'], root)})"
        return "a map"
    return {"string": "a string", "boolean": "true or false"}.get(kind, f"a {kind}")


def _show(value: Any) -> str:
    """A value as a message quotes it: one line, at most 80 characters."""
    text = repr(value) if isinstance(value, int | float | bool | type(None)) else ascii(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _branch(err: Any) -> Any:
    """The error inside the one branch of a failed ``oneOf``/``anyOf`` whose type fits the
    value (None when no branch or several do): e.g. the missing key of a per-profile map."""
    branches: dict[int, list] = {}
    for sub in err.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [subs for subs in branches.values()
               if not any(e.validator == "type" and not e.relative_path for e in subs)]
    if len(fitting) != 1:
        return None
    return min(fitting[0], key=lambda e: [str(p) for p in e.relative_path])


def _explain(err: Any, root: dict) -> tuple[list, str, str]:
    """(key path, what is wrong, the allowed values) of a schema error."""
    path, value, schema = list(err.absolute_path), err.instance, err.schema
    allowed = _describe(schema, root)
    kind = err.validator
    if kind in ("oneOf", "anyOf"):
        inner = _branch(err)
        if inner is None:
            return path, f"{_show(value)} is not allowed", allowed
        inner_path, what, inner_allowed = _explain(inner, root)
        # at the same key, name every form; deeper, the form of that key
        return inner_path, what, allowed if inner_path == path else inner_allowed
    if "propertyNames" in err.schema_path:
        return path, f"name {_show(value)} is not allowed", allowed
    if kind == "additionalProperties":
        names = sorted(map(str, schema.get("properties", {})))
        extra = [k for k in value if k not in schema.get("properties", {})]
        return path, f"unknown key(s) {', '.join(map(_show, extra))}", ", ".join(names)
    if kind == "required":
        missing = [k for k in err.validator_value if k not in value]
        return path, f"missing key(s) {', '.join(missing)}", allowed
    if kind == "not" and set(err.validator_value) == {"required"}:
        keys = err.validator_value["required"]
        return path, f"{' and '.join(keys)} are given together", f"at most one of {', '.join(keys)}"
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return path, f"{_show(value)} is out of range", allowed
    if kind == "minItems":
        return path, f"{_show(value)} has {len(value)} item(s)", allowed
    if kind == "minProperties":
        return path, "no entries", f"{allowed}, with at least one entry"
    if kind == "uniqueItems":
        twice = next(v for i, v in enumerate(value) if v in value[:i])
        return path, f"{_show(twice)} is given more than once", allowed
    if kind == "maxLength":
        return path, f"{_show(value)} is longer than {err.validator_value} characters", allowed
    return path, f"{_show(value)} is not allowed", allowed


@functools.cache
def _schema(schema_path: Path) -> dict:
    return read_yaml(schema_path)


def _schema_check(doc: Any, schema_path: Path, path: Path, ref: str | None = None,
                  key: str | None = None, sources: dict[tuple, Path] | None = None) -> None:
    """Raise a one-line ConfigError at the first place where ``doc`` breaks the schema at
    ``schema_path``, or with ``ref`` its ``$defs`` entry of that name (then ``key`` names the
    value ``doc`` in its file; ``sources``: the chapter file of each entry of a study folder,
    named instead of ``path``)."""
    root = _schema(Path(schema_path))
    schema = {"$defs": root["$defs"], "$ref": f"#/$defs/{ref}"} if ref else root
    errors = list(_validator_class()(schema).iter_errors(doc))
    if not errors:
        return
    err = min(errors, key=lambda e: [str(p) for p in e.absolute_path])
    at, what, allowed = _explain(err, root)
    key = key or key_path(at)
    raise ConfigError(f"{source_file(path, sources or {}, key)}: key {key}: {what}; "
                      f"allowed: {allowed}")


def _schemas(root: Path) -> Path:
    return Path(root) / "workflow" / "schemas"


def check_config(root: Path, config: dict | None = None) -> tuple[dict, dict[str, Study]]:
    """Check ``config/config.yaml`` (or the given dict: the file with command-line overrides)
    and every enabled study file; return the configuration and the studies expanded for its
    profile."""
    root = Path(root)
    cfg_path = root / "config" / "config.yaml"
    # read also when the configuration is given, so that invalid YAML or a key given twice
    # in the file is reported
    on_file = read_yaml(cfg_path)
    cfg = on_file if config is None else config
    _schema_check(cfg, _schemas(root) / "config.schema.yaml", cfg_path)
    out = {}
    for name in cfg["studies"]:
        path = study_path(root, name)
        if not path.exists():
            available = study_names(path.parent)
            raise ConfigError(f"{cfg_path}: key studies: no study file {path.name}; "
                              f"allowed: {', '.join(available)}")
        out[name] = check_study(path, cfg["profile"], root)
    return cfg, out


def check_study(path: Path, profile: str, root: Path) -> Study:
    """Check one study (enabled or not; a file, or a folder of chapter files) against the
    schema and the registries."""
    path = Path(path)
    # the file's (folder's) name is the study's: in paths, rule names and the package imported
    _schema_check(study_name(path), _schemas(root) / "config.schema.yaml", path, "study_name",
                  "(the folder name)" if path.is_dir() else "(the file name)")
    doc, sources = read_study(path)
    _schema_check(doc, _schemas(root) / "study.schema.yaml", path, sources=sources)
    study = load_study(path, profile)
    for name, sc in study.all_scenarios.items():
        _schema_check(name, _schemas(root) / "study.schema.yaml", path, "scenario_name",
                      f"scenarios.{sc.family}.sweep", sources)
    study_packages.load([study.name], figures=True)
    check_names(study)
    return study


def check_names(study: Study, memo: dict[tuple[str, ...], Any] | None = None) -> None:
    """The name and value checks of an expanded study (after its schema; its package
    loaded): registries, declared parameters, features and the study's own entries.
    ``memo`` keeps, across checks of variants of one study, the DGPs built and the learners
    found valid, by name and parameters (their checks are deterministic)."""
    _Checker(study, memo).run()


def dgp_abilities(dgp: DGP) -> set[str]:
    """What a DGP offers to methods: a law to draw fresh rows from (a simulation,
    ``has_truth``), a known conditional law (``has_conditional``), a noise block, reference
    rows."""
    out = {"law"} if dgp.has_truth else set()
    if dgp.has_conditional:
        out.add("conditional")
    if hasattr(dgp, "noise_features"):
        out.add("noise_block")
    if hasattr(dgp, "reference_rows"):
        out.add("reference_rows")
    return out


def _algorithms_for(spec: Any, params: dict, caps: set[str]) -> str:
    """For a method with an ``algorithm`` parameter: ", or set params.algorithm to one of"
    the algorithms whose needs ``caps`` meets (empty when it has none)."""
    declared = spec.params.get("algorithm")
    if declared is None or not declared.choices:
        return ""
    fit = [a for a in declared.choices if spec.requirements({**params, "algorithm": a}) <= caps]
    return f" or set params.algorithm to one of {', '.join(fit)}" if fit else ""


def _listed(values: Any) -> list:
    return [values] if isinstance(values, str) else list(values)


class _Checker:
    """The name and value checks of one study (after its schema)."""

    def __init__(self, study: Study, memo: dict[tuple[str, ...], Any] | None = None) -> None:
        self.study = study
        #: the DGPs built and the learners found valid, by name and parameters
        self.memo = {} if memo is None else memo
        #: the features of each scenario's data, by scenario name
        self.names: dict[str, list[str]] = {}

    def fail(self, key: str, msg: str) -> None:
        raise ConfigError(f"{self.study.file_of(key)}: key {key}: {msg}")

    def registered(self, registry: Any, name: str, key: str) -> None:
        """``name`` is an entry of ``registry`` that this study may use."""
        allowed = registry.names(self.study.name)
        if name in allowed:
            return
        study_packages.load(study_packages.packages(), figures=True)  # whose is it, if any?
        owner = registry.owner(name) if name in registry else None
        if owner is not None:
            self.fail(key, f"{registry.kind} {name!r} belongs to study {owner!r} "
                      f"(src/imlbench/studies/{owner}/), and a study may use only the layers' "
                      f"entries and its own; to reuse it, move its code into a layer of "
                      f"src/imlbench/ (registered there, every study may name it); "
                      f"allowed: {', '.join(allowed)}")
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
        self.batches()
        for name, sc in self.study.all_scenarios.items():  # the other profiles' DGP values
            if name not in self.study.scenarios:
                self.dgp(sc, read=False)
        self.figures()
        self.claims()

    # --- learners and methods -------------------------------------------------------------

    def learners(self) -> None:
        for name, spec in self.study.learners.items():
            key = f"learners.{name}"
            self.registered(LEARNERS, spec["learner"], f"{key}.learner")
            params = self.study.learner_params(name)
            valid = ("learner", spec["learner"], repr(sorted(params.items())))
            if valid in self.memo:
                continue
            allowed = LEARNERS.get(spec["learner"]).params()
            unknown = sorted(set(params) - set(allowed))
            if unknown:
                self.fail(f"{key}.params", f"unknown hyperparameter(s) {', '.join(unknown)} of "
                          f"learner {spec['learner']!r}; allowed: {', '.join(allowed) or 'none'}")
            for pname, declared in LEARNERS.get(spec["learner"]).declared().items():
                if pname in params:  # every hyperparameter is declared (learners.declarations)
                    try:
                        check(declared, params[pname], f"{key}.params.{pname}")
                    except ParamError as err:
                        self.fail(err.key, err.message)
            try:  # the constructor's own rules (parameters that exclude each other), and
                # scikit-learn's check, which tells an integer from a real where a declaration
                # cannot (min_samples_split: 1 is no share of the rows)
                from imlbench.learners.declarations import final_estimator  # imports sklearn

                final = final_estimator(make_learner(spec["learner"], params, random_state=0))
                if hasattr(final, "_parameter_constraints"):
                    final._validate_params()
            except Exception as exc:  # noqa: BLE001  (any constructor error is a config error)
                self.fail(f"{key}.params", f"invalid hyperparameters: {exc}")
            self.memo[valid] = True

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

    def dgp(self, sc: Scenario, *, read: bool = True) -> DGP:
        """The scenario's DGP, built from its parameters (and with ``read`` its data table
        read): its constructor rejects invalid values."""
        key = f"scenarios.{sc.family}"
        self.registered(DGPS, sc.dgp, f"{key}.dgp")
        where = "" if sc.name in self.study.scenarios else " (another profile)"
        built = ("dgp", sc.dgp, repr(sorted(sc.params.items())))
        try:
            dgp = self.memo[built] if built in self.memo else make_dgp(sc.dgp, sc.params)
            self.memo[built] = dgp
            if read:
                dgp.feature_names  # noqa: B018  (a real table is read here: a missing file fails)
        except ParamError as err:  # a declared check (make_dgp's or the constructor's)
            name = re.split(r"[.\[]", err.key, maxsplit=1)[0]
            at = ".".join(filter(None, ("sweep" if name in sc.swept else "params", err.key)))
            self.fail(f"{key}.{at}", f"DGP {sc.dgp!r} of scenario {sc.name}{where}: "
                      f"{err.message}")
        except (TypeError, ValueError, OSError) as exc:  # OSError: a data file not found
            self.fail(f"{key}.params", f"invalid parameters for DGP {sc.dgp!r} of scenario "
                      f"{sc.name}{where}: {exc}")
        return dgp

    def features(self, sc: Scenario) -> list[str]:
        """The features of scenario ``sc``'s data: the columns a model sees."""
        if sc.name not in self.names:
            dgp = self.dgp(sc)
            self.names[sc.name] = list(getattr(dgp, "visible", dgp.feature_names))
        return self.names[sc.name]

    def named_features(self, declared: dict[str, Param], given: Any, key: str,
                       scenarios: list[Scenario]) -> None:
        """The feature names among the parameters ``given`` (declared by ``declared``, at
        ``key``) are features of each of ``scenarios``."""
        for sc in scenarios:
            names = self.features(sc)
            for field_, param in declared.items():
                bad = sorted(set(named_values(param, given.get(field_), "features", True, given))
                             - set(names))
                if bad:
                    self.fail(f"{key}.{field_}", f"feature(s) {', '.join(bad)} not in scenario "
                              f"{sc.name}; allowed: {', '.join(names)}")

    def scenario(self, sc: Scenario) -> None:
        study, key = self.study, f"scenarios.{sc.family}"
        dgp = self.dgp(sc)
        abilities = dgp_abilities(dgp) | ({"test_rows"} if sc.n_test or sc.test_fraction
                                          else set())
        if sc.n is not None and not (isinstance(sc.n, int) and sc.n >= 10):
            self.fail(f"{key}.{'sweep.n' if 'n' in sc.swept else 'n'}",
                      f"{sc.n!r} rows in scenario {sc.name}; allowed: an integer >= 10 (the "
                      f"least number of training rows), or null for a whole real data set")
        if isinstance(dgp, TableDGP):
            self.table_rows(sc, dgp)
        for learner in sc.learners:
            if learner not in study.learners:
                self.fail(f"{key}.learners", f"unknown learner {learner!r}; allowed: "
                          f"{', '.join(study.learners)}")
            caps = LEARNERS.get(study.learners[learner]["learner"]).capabilities
            if "oracle" in caps and not dgp.has_truth:
                self.fail(f"{key}.learners",
                          f"learner {learner!r} predicts with the DGP's f, which DGP {sc.dgp!r} "
                          f"does not know; allowed: the study's other learners")
            if "oracle" in caps and getattr(dgp, "hidden", ()):
                self.fail(f"{key}.learners",
                          f"learner {learner!r} predicts with the DGP's f, which reads the "
                          f"hidden feature(s) {', '.join(dgp.hidden)} that the data lack; "
                          f"allowed: a fitted learner, or a DGP without hidden")
        for m in sc.methods:
            if m not in study.methods:
                self.fail(f"{key}.methods",
                          f"unknown method {m!r}; allowed: {', '.join(study.methods)}")
            self.method_in_scenario(sc, m, abilities)
        if not sc.fit_models:
            fitted = [m for m in sc.methods if self.kind(m) != "refits"]
            if fitted:
                self.fail(f"{key}.fit_models",
                          f"fit_models is false, so no model is fitted per repetition, but "
                          f"method(s) {', '.join(fitted)} use the fitted model; allowed: methods "
                          f"that refit the learner themselves (kind refits)")

    def batches(self) -> None:
        """The families that share run jobs (``batch``) agree on ``exclusive``: a job that
        measures run time holds no other work."""
        by_batch: dict[str, dict[bool, str]] = {}
        for sc in self.study.scenarios.values():
            by_batch.setdefault(sc.batch, {}).setdefault(sc.exclusive, sc.family)
        for batch, families in by_batch.items():
            if len(families) > 1:
                self.fail(f"scenarios.{families[True]}.batch",
                          f"batch {batch!r} holds the exclusive family {families[True]!r} and "
                          f"the family {families[False]!r}, which is not; allowed: a batch of "
                          f"its own for an exclusive family")

    def table_rows(self, sc: Scenario, dgp: TableDGP) -> None:
        """A real data set leaves at least 10 training rows once its test rows are held out
        (as the data stage draws them: :func:`imlbench.stages.simulate`)."""
        wanted = None if sc.n is None else sc.n + (0 if sc.test_fraction else sc.n_test)
        rows = len(dgp.data) if wanted is None else min(wanted, len(dgp.data))
        test = round(sc.test_fraction * rows) if sc.test_fraction else sc.n_test
        if rows - test < 10:
            self.fail(f"scenarios.{sc.family}.params",
                      f"the data of DGP {sc.dgp!r} have {len(dgp.data)} rows, which leave "
                      f"{rows - test} training rows in scenario {sc.name}; allowed: a table "
                      f"that leaves at least 10")

    def kind(self, method: str) -> str:
        return METHODS.get(self.study.methods[method]["method"]).kind

    def method_in_scenario(self, sc: Scenario, m: str, abilities: set[str]) -> None:
        study, key = self.study, f"scenarios.{sc.family}"
        spec = METHODS.get(study.methods[m]["method"])
        params = with_defaults(spec.params, study.method_params(m))
        self.named_features(spec.params, params, f"methods.{m}.params", [sc])
        needs = spec.requirements(params)
        if "test_rows" in needs and "test_rows" not in abilities:
            if params.get("data") == "test":
                self.fail(f"methods.{m}.params.data",
                          f"scenario {sc.name} has no test rows (set its n_test or "
                          f"test_fraction); allowed: train")
            self.fail(f"{key}.n_test", f"method {m!r} needs test rows, which scenario "
                      f"{sc.name} has none of; allowed: n_test >= 1 or test_fraction")
        if "law" in needs and "law" not in abilities:
            law_keys = [k for k, v in params.items() if k == MODEL_ROWS_STREAM and v
                        or isinstance(v, dict) and v.get("kind") == LAW_KIND]
            self.fail(f"methods.{m}.params.{law_keys[0]}",
                      f"{law_keys[0]} reads the law of the features (rows drawn from it, or its "
                      f"quantiles), and DGP {sc.dgp!r} of scenario {sc.name} is real data, "
                      f"with no law; allowed: "
                      f"{'null' if law_keys[0] == MODEL_ROWS_STREAM else 'another kind'}")
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
                          f"methods.{m}.learners{_algorithms_for(spec, params, caps)}; "
                          f"allowed: {', '.join(able) or 'none'}")

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
            self.params(dict(declared.params), spec.get("params", {}), f"{key}.params",
                        f"figure function {spec['function']!r}")
            given_params = resolve_profile(spec.get("params", {}), study.profile)
            self.named_entries(dict(declared.params), given_params, f"{key}.params")
            self.named_features(dict(declared.params), given_params, f"{key}.params",
                                study.scenarios_of(spec["scenarios"]))
            given = spec.get("methods", {})
            if set(given) != set(declared.methods):
                self.fail(f"{key}.methods", f"roles {', '.join(sorted(given)) or 'none'} do not "
                          f"match those of {spec['function']}; allowed: "
                          f"{', '.join(declared.methods) or 'none'}")
            scenarios = study.scenarios_of(spec["scenarios"])
            # estimates, data, ranks and summaries come from repetitions: the figure job reads
            # those of the scenarios that run some in this profile
            drawn = [sc for sc in scenarios if sc.chunks]
            if (declared.methods or declared.tables) and scenarios and not drawn:
                self.fail(f"{key}.scenarios", f"scenario(s) {', '.join(s.name for s in scenarios)}"
                          f" run no repetitions in profile {study.profile}, so {fig} would have "
                          f"nothing to draw; allowed: reps >= 1 in profile {study.profile} for "
                          f"at least one of them")
            run = {m for sc in drawn for m in sc.methods}
            for role, methods in given.items():
                for m in _listed(methods):
                    if m not in study.methods:
                        self.fail(f"{key}.methods.{role}", f"unknown method {m!r}; allowed: "
                                  f"{', '.join(study.methods)}")
                    if drawn and m not in run:
                        self.fail(f"{key}.methods.{role}", f"method {m!r} runs in none of the "
                                  f"figure's scenarios with repetitions in profile "
                                  f"{study.profile}; allowed: {', '.join(sorted(run))}")
            drawn_truths = declared.truths if declared.needs_truth(
                with_defaults(declared.params, spec.get("params", {}))) else ()
            for table in drawn_truths:
                if scenarios and not any(table in truth_tables(sc.dgp) for sc in scenarios):
                    self.fail(f"{key}.scenarios", f"{spec['function']} reads the {table} "
                              f"truth, which none of these scenarios' DGPs has; allowed: "
                              f"scenarios whose DGP has it")

    def claims(self) -> None:
        study = self.study
        first: dict[str, int] = {}
        for i, claim in enumerate(study.claims):
            key = f"claims[{i}]"
            j = first.setdefault(claim["id"], i)
            if j != i:
                self.fail(f"{key}.id", f"id {claim['id']!r} is also that of claims[{j}]; "
                          f"allowed: an id not given before")
            self.registered(CLAIMS, claim["kind"], f"{key}.kind")
            spec = CLAIMS.get(claim["kind"])
            for name, param in spec.params.items():  # the entries a claim names (a statistic)
                if param.registry is not None and isinstance(claim.get(name), str):
                    self.registered(param.registry, claim[name], f"{key}.{name}")
            declared = spec.declared(claim)
            self.params(declared, claim_params(claim), key, f"claim kind {claim['kind']!r}",
                        profiles=(study.profile,))
            for name, message in spec.errors(claim) if spec.errors else []:
                self.fail(f"{key}.{name}", message)
            where = claim["where"]
            if where["scenario"] not in study.all_scenarios:
                self.fail(f"{key}.where.scenario", f"unknown scenario {where['scenario']!r}; "
                          f"allowed: {', '.join(sorted(study.all_scenarios))}")
            for field_, pool in (("learner", study.learners), ("method", study.methods)):
                for v in _listed(where.get(field_, [])):
                    if v not in pool:
                        self.fail(f"{key}.where.{field_}",
                                  f"unknown {field_} {v!r}; allowed: {', '.join(pool)}")
            self.misses(claim, key)
            self.resolvable(claim, key)
            # a feature the scenario's data lack is no error here: the claim's row says so
            # (no data, with the reason: substitute data may lack a feature the paper has)
            self.named_entries(declared, claim, key)

    def named_entries(self, declared: dict[str, Param], given: Any, key: str) -> None:
        """The names of the study's methods, learners and scenarios among the parameters
        ``given`` (declared by ``declared``, at ``key``) are entries of the study."""
        study = self.study
        pools = {"methods": study.methods, "learners": study.learners,
                 "scenarios": study.all_scenarios}
        for name, param in declared.items():
            for section, pool in pools.items():
                for v in named_values(param, given.get(name), "refers", section, given):
                    if v not in pool:
                        self.fail(f"{key}.{name}", f"unknown {section[:-1]} {v!r}; "
                                  f"allowed: {', '.join(pool)}")

    def misses(self, claim: dict, key: str) -> None:
        """Each of the claim's ``misses`` selects rows the claim has: its scenario, learners
        and methods are among those of the claim's ``where``."""
        where = claim["where"]
        for k, miss in enumerate(claim.get("misses", [])):
            for field_ in ("scenario", "learner", "method"):
                allowed = _listed(where[field_])
                for v in _listed(miss.get(field_, [])):
                    if v not in allowed:
                        self.fail(f"{key}.misses[{k}].{field_}",
                                  f"{v!r} is not a {field_} of the claim's where; allowed: "
                                  f"{', '.join(map(str, allowed))}")

    def resolvable(self, claim: dict, key: str) -> None:
        """A claim's tolerance must not accept the departure it is about: its ``atol`` or
        ``margin`` stays below its ``resolution`` (else its check cannot fail on it)."""
        resolution = claim.get("resolution")
        for name in ("atol", "margin"):
            tol = claim.get(name)
            if resolution is not None and isinstance(tol, int | float) and tol >= resolution:
                self.fail(f"{key}.{name}", f"{name} {tol:g} accepts the departure of "
                          f"{resolution:g} the claim is about (its resolution), so the check "
                          f"cannot fail on it; allowed: a {name} below {resolution:g}, or a "
                          f"larger resolution")
