"""Cross-checks of a study file against the registries (after the JSON schema).

Every error names the study file, the key and the allowed values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from imlbench.config import ConfigError, for_profile

if TYPE_CHECKING:
    from imlbench.config import Study
    from imlbench.dgp.base import DGP


def dgp_abilities(dgp: DGP) -> set[str]:
    """What a DGP offers to methods: a known conditional law, a noise block, reference rows."""
    from imlbench.dgp.base import DGP

    out = set()
    if type(dgp).sample_conditional is not DGP.sample_conditional:
        out.add("conditional")
    if hasattr(dgp, "noise_features"):
        out.add("noise_block")
    if hasattr(dgp, "reference_rows"):
        out.add("reference_rows")
    return out


def _fail(study: Study, key: str, msg: str) -> None:
    raise ConfigError(f"{study.path}: key {key}: {msg}")


def _check_learners(study: Study) -> None:
    from imlbench.learners import LEARNERS, make_learner

    for name, spec in study.learners.items():
        key = f"learners.{name}"
        if spec["learner"] not in LEARNERS:
            _fail(study, f"{key}.learner",
                  f"unknown learner {spec['learner']!r}; allowed: {', '.join(LEARNERS.names())}")
        try:
            params = {k: for_profile(v, study.profile) for k, v in spec.get("params", {}).items()}
            est = make_learner(spec["learner"], params, random_state=0)
            final = est.steps[-1][1] if hasattr(est, "steps") else est
            if hasattr(final, "_parameter_constraints"):
                final._validate_params()
        except Exception as exc:  # noqa: BLE001  (any constructor error is a config error)
            _fail(study, f"{key}.params", f"invalid hyperparameters: {exc}")


def _check_methods(study: Study) -> None:
    from imlbench.explain.methods import METHODS
    from imlbench.explain.samplers import SAMPLERS

    for name, spec in study.methods.items():
        key = f"methods.{name}"
        if spec["method"] not in METHODS:
            _fail(study, f"{key}.method",
                  f"unknown method {spec['method']!r}; allowed: {', '.join(METHODS.names())}")
        allowed = METHODS.get(spec["method"]).params
        extra = set(spec.get("params", {})) - allowed
        if extra:
            _fail(study, f"{key}.params",
                  f"unknown parameter(s) {', '.join(sorted(extra))} of method {spec['method']!r}; "
                  f"allowed: {', '.join(sorted(allowed))}")
        sampler = study.method_params(name).get("sampler")
        if sampler is not None and sampler not in SAMPLERS:
            _fail(study, f"{key}.params.sampler",
                  f"unknown sampler {sampler!r}; allowed: {', '.join(SAMPLERS)}")
        for learner in spec.get("learners", []):
            if learner not in study.learners:
                _fail(study, f"{key}.learners",
                      f"unknown learner {learner!r}; allowed: {', '.join(study.learners)}")


def _check_scenarios(study: Study) -> None:
    from imlbench.dgp.base import DGPS, make_dgp
    from imlbench.explain.methods import METHODS
    from imlbench.learners import LEARNERS

    for sc in study.scenarios.values():
        key = f"scenarios.{sc.family}"
        if sc.dgp not in DGPS:
            _fail(study, f"{key}.dgp",
                  f"unknown DGP {sc.dgp!r}; allowed: {', '.join(DGPS.names())}")
        try:
            dgp = make_dgp(sc.dgp, sc.params)
            names = dgp.feature_names
        except (TypeError, ValueError, OSError) as exc:  # OSError: a data file not found
            _fail(study, f"{key}.params", f"invalid parameters for DGP {sc.dgp!r}: {exc}")
        abilities = dgp_abilities(dgp)
        for learner in sc.learners:
            if learner not in study.learners:
                _fail(study, f"{key}.learners",
                      f"unknown learner {learner!r}; allowed: {', '.join(study.learners)}")
            caps = LEARNERS.get(study.learners[learner]["learner"]).capabilities
            if "oracle" in caps and not dgp.has_truth:
                _fail(study, f"{key}.learners",
                      f"learner {learner!r} predicts with the DGP's f, which DGP {sc.dgp!r} "
                      f"does not know; allowed: the study's other learners")
        for m in sc.methods:
            if m not in study.methods:
                _fail(study, f"{key}.methods",
                      f"unknown method {m!r}; allowed: {', '.join(study.methods)}")
            spec = study.methods[m]
            params = study.method_params(m)
            groups = params.get("groups", {})
            named = {"features": params.get("features", []),
                     "categorical": params.get("categorical", []),
                     "groups": [f for members in groups.values() for f in members]}
            for field_, used in named.items():
                bad = set(used) - set(names)
                if bad:
                    _fail(study, f"methods.{m}.params.{field_}",
                          f"feature(s) {', '.join(sorted(bad))} not in scenario {sc.name}; "
                          f"allowed: {', '.join(names)}")
            needs = METHODS.get(spec["method"]).requires
            if params.get("sampler") == "exact":
                needs = needs | {"conditional"}
            for learner in sc.learners:
                if learner not in spec.get("learners", sc.learners):
                    continue
                caps = LEARNERS.get(study.learners[learner]["learner"]).capabilities | abilities
                missing = needs - caps
                if missing:
                    able = [
                        n for n, s in study.learners.items()
                        if needs <= LEARNERS.get(s["learner"]).capabilities | abilities
                    ]
                    _fail(study, f"{key}.methods",
                          f"method {m!r} needs {', '.join(sorted(missing))}, which learner "
                          f"{learner!r} with DGP {sc.dgp!r} lacks; restrict it with "
                          f"methods.{m}.learners; allowed: {', '.join(able) or 'none'}")
        if not sc.fit_models:
            fitted = [m for m in sc.methods if study.method_kind(m) != "refits"]
            if fitted:
                _fail(study, f"{key}.fit_models",
                      f"fit_models is false, so no model is fitted per repetition, but "
                      f"method(s) {', '.join(fitted)} use the fitted model; allowed: methods "
                      f"that refit the learner themselves (kind refits)")
        if sc.n is not None and sc.n < 10:
            _fail(study, f"{key}.n", f"at least 10 training rows are needed, got {sc.n}")


def _check_figures_and_claims(study: Study) -> None:
    from imlbench.figures import FIGURES, load_figures
    from imlbench.metrics.claims import CLAIMS

    load_figures()
    known = set(study.scenarios) | {s.family for s in study.scenarios.values()}
    for fig, spec in study.figures.items():
        if spec["function"] not in FIGURES:
            _fail(study, f"figures.{fig}.function",
                  f"unknown figure function {spec['function']!r}; "
                  f"allowed: {', '.join(FIGURES.names())}")
        for s in spec["scenarios"]:
            if s not in known:
                _fail(study, f"figures.{fig}.scenarios",
                      f"unknown scenario {s!r}; allowed: {', '.join(sorted(known))}")
    for i, claim in enumerate(study.claims):
        key = f"claims[{i}]"
        if claim["kind"] not in CLAIMS:
            _fail(study, f"{key}.kind",
                  f"unknown claim kind {claim['kind']!r}; allowed: {', '.join(CLAIMS.names())}")
        where = claim["where"]
        if where["scenario"] not in study.all_scenarios:
            _fail(study, f"{key}.where.scenario",
                  f"unknown scenario {where['scenario']!r}; allowed: "
                  f"{', '.join(sorted(study.all_scenarios))}")
        for field_, pool in (("learner", study.learners), ("method", study.methods)):
            values = where.get(field_, [])
            for v in [values] if isinstance(values, str) else values:
                if v not in pool:
                    _fail(study, f"{key}.where.{field_}",
                          f"unknown {field_} {v!r}; allowed: {', '.join(pool)}")


def check_names(study: Study) -> None:
    """Validate every name of ``study`` against the registries; raise ConfigError."""
    _check_learners(study)
    _check_methods(study)
    _check_scenarios(study)
    _check_figures_and_claims(study)
