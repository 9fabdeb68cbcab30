"""Broken parameters generated from the declarations: every declared parameter of every
registered method, sampler, claim kind, statistic, figure function, learner and DGP gets the broken
values its declaration refuses (a wrong type, a value out of range or at an exclusive bound, a
value not among its choices, a name not registered, a feature or study entry that does not
exist, a repeated item of a list whose items must differ, a cycle of a graph, a list of the
wrong length, a missing required parameter), and every registered entry an unknown parameter
name. Each case is one edit of a shipped study (the *host*: a study-file entry that uses the
registered entry; a probe entry added to a study for the few that no study uses), with the
key and the allowed values its one-line message must hold.

``tests/test_broken_params.py`` counts the cases per parameter and checks that each stops the
check (:func:`imlbench.validate.check_names`, in process: the study's schema is not concerned,
as it leaves parameters free); ``benchmarks/broken_configs.py`` tabulates them.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from imlbench import studies as study_packages
from imlbench.config import (
    ConfigError,
    Study,
    expanded_study,
    read_study,
    resolve_profile,
    study_names,
)
from imlbench.dgp.base import DGPS
from imlbench.explain.api import METHODS
from imlbench.explain.samplers import SAMPLERS
from imlbench.figures import FIGURES
from imlbench.learners import LEARNERS
from imlbench.metrics.claims import CLAIMS
from imlbench.metrics.contrasts import STATISTICS
from imlbench.params import REQUIRED, Param
from imlbench.validate import check_names

REPO = Path(__file__).resolve().parents[1]
STUDIES_DIR = REPO / "config" / "studies"
PROFILE = "default"
#: the study that hosts the probe entries of registered entries no study uses
PROBE_STUDY = "extrapolation"
PROBE_SCENARIO = "main"
UNKNOWN = "no_such_name"
#: the registries whose parameters are keys of a claim: a feature a claim names need not be
#: in the scenario's data (substitute data may lack a feature of the paper's: the claim's row
#: says so, with no data), so they get no case of an unknown feature
CLAIM_REGISTRIES = ("claim kind", "statistic")

Path_ = tuple[Any, ...]  # keys into a study document


@dataclass(frozen=True)
class ParamCase:
    """One broken parameter: ``value`` set at ``at`` (keys into the host study's document;
    None deletes it) stops the check with a message at ``key`` holding ``fragments``."""

    registry: str
    entry: str
    param: str  # the declared parameter ("" for the entry's unknown-name case)
    what: str
    study: str
    at: Path_
    value: Any
    key: str
    fragments: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.registry}:{self.entry}:{self.param or '-'}:{self.what}"

    def edited(self, doc: dict) -> dict:
        """A copy of the study document ``doc`` broken: the containers along ``at`` are
        copied, the rest is shared."""
        out = copy.copy(doc)
        target = out
        for k in self.at[:-1]:
            target[k] = copy.copy(target[k]) if isinstance(target, list) or k in target else {}
            target = target[k]
        if self.value is _DELETE:
            del target[self.at[-1]]
        else:
            target[self.at[-1]] = copy.deepcopy(self.value)
        return out


_DELETE: Any = type("Delete", (), {"__repr__": lambda self: "(deleted)"})()


@dataclass(frozen=True)
class Host:
    """Where a registered entry's parameters are set: the study, the keys of the parameter
    mapping in its document, its key in messages, and the values given there (a DGP's: a
    scenario's ``params``, and the names its ``sweep`` sets instead)."""

    study: str
    at: Path_
    key: str
    given: Mapping[str, Any]
    swept: frozenset[str] = frozenset()


# --- broken values from a declaration ------------------------------------------------------


@dataclass(frozen=True)
class Bad:
    """A value the declaration refuses, the key below the parameter where the check reports it
    and the allowed values it states (None: a name checked against the study or its data,
    reported at the parameter itself with the names allowed there)."""

    what: str
    value: Any
    below: str = ""
    allowed: str | None = ""


def _wrong_type(p: Param) -> Any:
    return {"integer": "two", "number": "two", "flag": "yes", "text": 12345,
            "list": "not_a_list", "mapping": "not_a_mapping"}.get(p.kind, {"not": "allowed"})


def _valid_item(p: Param, given: Any) -> Any:
    """An item value ``p`` allows: the first given item, else one made from the declaration."""
    if isinstance(given, list | tuple) and given:
        return given[0]
    if p.choices:
        return p.choices[0]
    if p.kind in ("integer", "number"):
        low = next((b for b in (p.minimum, p.above) if b is not None), 0)
        return int(low) + 1 if p.kind == "integer" else float(low) + 0.5
    return {"text": "a", "flag": True, "list": [], "mapping": {}}.get(p.kind, "a")


def broken_values(p: Param, given: Any = None, features: bool = True) -> list[Bad]:
    """The values declaration ``p`` refuses (``given``: the host's valid value, if any;
    ``features``: whether a feature name not in the data is refused)."""
    allowed = p.describe()
    if p.alternatives:  # each alternative's broken values that no alternative accepts
        out, seen = [], set()
        for alt in p.alternatives:
            for bad in broken_values(alt, None, features):
                if bad.allowed is not None and repr(bad.value) not in seen and not any(
                        _accepts(a, bad.value) for a in p.alternatives):
                    seen.add(repr(bad.value))
                    out.append(Bad(f"{bad.what} (every form)", bad.value, "", allowed))
        other = {"not": "allowed"}  # forms that accept each other's wrong types (text, number)
        if not out and not any(_accepts(a, other) for a in p.alternatives):
            out.append(Bad("wrong type (every form)", other, "", allowed))
        return out
    if p.registry is not None:
        return [Bad(f"{p.registry.kind} not registered", UNKNOWN, "", None)]
    if p.features:
        return [Bad("feature not in the data", UNKNOWN, "", None)] * features + [
            Bad("wrong type", _wrong_type(p), "", allowed)]
    if p.refers:
        return [Bad(f"unknown {p.refers[:-1]}", UNKNOWN, "", None),
                Bad("wrong type", _wrong_type(p), "", allowed)]
    out = [Bad("not an allowed value", UNKNOWN if not all(isinstance(c, str) for c in p.choices)
               or UNKNOWN not in p.choices else 12345, "", allowed)
           if p.choices is not None else Bad("wrong type", _wrong_type(p), "", allowed)]
    if p.kind == "integer":
        out.append(Bad("not an integer", 2.5, "", allowed))
    step = 1 if p.kind == "integer" else 0.5
    for what, bound, value in (("below the minimum", p.minimum, lambda b: b - step),
                               ("above the maximum", p.maximum, lambda b: b + step),
                               ("at the exclusive lower bound (degenerate)", p.above, lambda b: b),
                               ("at the exclusive upper bound", p.below, lambda b: b)):
        if bound is not None:
            out.append(Bad(what, value(bound), "", allowed))
    if p.kind == "list":
        out += _broken_list(p, given, allowed, features)
    if p.kind == "mapping":
        out += _broken_mapping(p, given, features)
    return out


def _broken_list(p: Param, given: Any, allowed: str, features: bool) -> list[Bad]:
    out = []
    item = _valid_item(p.item, given) if p.item is not None else "a"
    if p.length is not None:
        out.append(Bad("wrong length", [item] * (p.length + 1), "", allowed))
    if p.unique:
        out.append(Bad("a repeated value (degenerate)", [item] * max(p.length or 2, 2), "[1]",
                       allowed))
    if p.acyclic:
        out.append(Bad("a cycle where a graph is asked for", [["a", "b"], ["b", "a"]], "",
                       allowed))
    if p.item is not None:
        for bad in broken_values(p.item, item, features):
            below = "" if bad.allowed is None else f"[0]{bad.below}"
            out.append(Bad(f"item: {bad.what}", [bad.value] * (p.length or 1), below,
                           bad.allowed))
    return out


def _broken_mapping(p: Param, given: Any, features: bool) -> list[Bad]:
    given = given if isinstance(given, Mapping) else {}
    out = []
    if isinstance(p.fields, Mapping):
        out.append(Bad("unknown key", {**given, UNKNOWN: 1}, "", ", ".join(sorted(p.fields))))
        for name, field_ in p.fields.items():
            for bad in broken_values(field_, given.get(name), features):
                below = "" if bad.allowed is None else f".{name}{bad.below}"
                out.append(Bad(f"{name}: {bad.what}", {**given, name: bad.value}, below,
                               bad.allowed))
    elif callable(p.fields):  # fields of a sibling (a sampler's): none is named UNKNOWN
        out.append(Bad("unknown key", {**given, UNKNOWN: 1}, "", None))
    if p.value is not None:
        for bad in broken_values(p.value, None, features):
            below = "" if bad.allowed is None else f".k{bad.below}"
            out.append(Bad(f"value: {bad.what}", {"k": bad.value}, below, bad.allowed))
    return out


def _accepts(p: Param, value: Any) -> bool:
    from imlbench.params import ParamError, check

    try:
        check(p, value, "x")
    except ParamError:
        return False
    return True


# --- hosts ---------------------------------------------------------------------------------


@functools.cache
def _study_paths() -> dict[str, Path]:
    return {name: STUDIES_DIR / (name if (STUDIES_DIR / name).is_dir() else f"{name}.yaml")
            for name in study_names(STUDIES_DIR)}


@functools.cache
def documents() -> dict[str, tuple[dict, dict]]:
    """Every shipped study's document and sources, with the probe entries in the probe
    study."""
    study_packages.load(study_packages.packages(), figures=True)
    docs = {name: read_study(path) for name, path in _study_paths().items()}
    probe, _ = docs[PROBE_STUDY]
    for entry, spec, in_scenario in _probes():
        probe["methods"][entry] = spec
        if in_scenario:
            probe["scenarios"][PROBE_SCENARIO]["methods"].append(entry)
    probe["learners"]["probe_tree"] = {"learner": "tree"}
    probe["learners"]["probe_gam"] = {"learner": "gam"}  # no study fits a GAM
    probe["figures"]["fig_probe_bars"] = {
        "function": "importance_bars", "scenarios": [PROBE_SCENARIO], "title": "probe",
        "caption": "probe", "methods": {"importance": "pfi"}}
    return docs


def _probes() -> list[tuple[str, dict, bool]]:
    """Probe method entries of the registered methods and samplers no study uses: (entry,
    spec, whether it runs in the probe scenario)."""
    return [
        ("probe_mplot", {"method": "mplot"}, True),
        ("probe_learner_pd_pfi", {"method": "learner_pd_pfi"}, True),
        ("probe_cs_pfi_local", {"method": "cs_pfi_local"}, True),
        ("probe_exact", {"method": "conditional_pfi", "params": {"sampler": "exact"}}, False),
        ("probe_gaussian", {"method": "conditional_pfi", "params": {"sampler": "gaussian"}},
         False),
    ]


def _resolved(value: Any) -> Any:
    return resolve_profile(value, PROFILE)


def hosts() -> dict[tuple[str, str], Host]:
    """A host of every registered entry some study (or a probe) uses, by (registry, entry):
    the first in study order."""
    out: dict[tuple[str, str], Host] = {}
    for study, (doc, _) in documents().items():
        def host(registry: str, entry: Any, at: Path_, key: str, given: Any,
                 study: str = study, swept: frozenset[str] = frozenset()) -> None:
            if isinstance(entry, str):
                out.setdefault((registry, entry),
                               Host(study, at, key, _resolved(given or {}), swept))

        for family, spec in doc["scenarios"].items():
            host("dgp", spec["dgp"], ("scenarios", family, "params"),
                 f"scenarios.{family}.params", spec.get("params"),
                 swept=frozenset(spec.get("sweep", {})))
        for name, spec in doc["learners"].items():
            host("learner", spec["learner"], ("learners", name, "params"),
                 f"learners.{name}.params", spec.get("params"))
        for name, spec in doc["methods"].items():
            params = spec.get("params", {})
            host("method", spec["method"], ("methods", name, "params"), f"methods.{name}.params",
                 params)
            host("sampler", _resolved(params.get("sampler")),
                 ("methods", name, "params", "sampler_params"),
                 f"methods.{name}.params.sampler_params", params.get("sampler_params"))
        for name, spec in doc.get("figures", {}).items():
            host("figure function", spec["function"], ("figures", name, "params"),
                 f"figures.{name}.params", spec.get("params"))
        for i, claim in enumerate(doc.get("claims", [])):
            host("claim kind", claim["kind"], ("claims", i), f"claims[{i}]", claim)
            host("statistic", claim.get("statistic"), ("claims", i), f"claims[{i}]", claim)
    return out


# --- the registries ------------------------------------------------------------------------


def registries() -> dict[str, Callable[[str], Mapping[str, Param]]]:
    """The declared parameters of an entry, by registry kind."""
    study_packages.load(study_packages.packages(), figures=True)
    return {
        "method": lambda n: METHODS.get(n).params,
        "sampler": lambda n: SAMPLERS.get(n).params,
        "claim kind": lambda n: CLAIMS.get(n).params,
        "statistic": lambda n: STATISTICS.get(n).params,
        "figure function": lambda n: FIGURES.get(n).params,
        "learner": lambda n: LEARNERS.get(n).declared(),
        "dgp": lambda n: DGPS.get(n).declared({}),
    }


def entries(kind: str) -> list[str]:
    return {"method": METHODS, "sampler": SAMPLERS, "claim kind": CLAIMS,
            "statistic": STATISTICS, "figure function": FIGURES, "learner": LEARNERS,
            "dgp": DGPS}[kind].names()


def parameters() -> list[tuple[str, str, str]]:
    """Every declared parameter: (registry kind, entry, parameter)."""
    return [(kind, entry, name) for kind, declared in registries().items()
            for entry in entries(kind) for name in declared(entry)]


def _unknown_name(kind: str, entry: str, host: Host, declared: Mapping[str, Param]) -> ParamCase:
    if kind == "learner":
        words: tuple[str, ...] = (f"unknown hyperparameter(s) {UNKNOWN}", "allowed: ")
    elif kind == "dgp":  # reported at the name (a swept one at the sweep)
        return ParamCase(kind, entry, "", "unknown parameter name", host.study,
                         (*host.at, UNKNOWN), 1, f"{host.key}.{UNKNOWN}",
                         (f"unknown parameter {UNKNOWN!r} of DGP {entry!r}", "allowed: "))
    elif kind in CLAIM_REGISTRIES:  # a claim's keys: its kind's and its statistic's
        words = (f"unknown parameter(s) {UNKNOWN}", "allowed: ", *sorted(declared))
    else:
        words = (f"unknown parameter(s) {UNKNOWN}",
                 f"allowed: {', '.join(sorted(declared)) or 'none'}")
    return ParamCase(kind, entry, "", "unknown parameter name", host.study, (*host.at, UNKNOWN),
                     1, host.key, words)


def generated_cases() -> list[ParamCase]:
    """Every broken parameter of every registered entry with a host (module doc)."""
    out = []
    found = hosts()
    for kind, declared_of in registries().items():
        for entry in entries(kind):
            host = found.get((kind, entry))
            if host is None:
                continue
            # (a DGP's parameter names may depend on the values given: formula's constants)
            declared = (DGPS.get(entry).declared(host.given) if kind == "dgp"
                        else declared_of(entry))
            out.append(_unknown_name(kind, entry, host, declared))
            for name, param in declared.items():
                out += list(_cases_of(kind, entry, name, param, host))
    return out


def _cases_of(kind: str, entry: str, name: str, param: Param, host: Host
              ) -> Iterator[ParamCase]:
    key, at = f"{host.key}.{name}", (*host.at, name)
    swept = name in host.swept  # a scenario's swept DGP parameter: its sweep takes the value
    if swept:
        key, at = f"{host.key.removesuffix('.params')}.sweep.{name}", (*host.at[:-1], "sweep", name)
    for bad in broken_values(param, host.given.get(name), kind not in CLAIM_REGISTRIES):
        fragments = (("allowed: ",) if bad.allowed is None
                     else (f"allowed: {bad.allowed}",))
        yield ParamCase(kind, entry, name, bad.what, host.study, at,
                        [bad.value] if swept else bad.value, key + bad.below, fragments)
    if param.default is REQUIRED and (name in host.given or swept) and param.registry is None:
        # (a claim without its statistic has the statistic's parameters as unknown keys)
        yield ParamCase(kind, entry, name, "required but missing", host.study, at, _DELETE,
                        host.key, (f"parameter(s) {name}", "must be given", "allowed: "))


# --- running a case ------------------------------------------------------------------------


@functools.cache
def _base(study: str) -> tuple[Study, dict]:
    """The host study ``study`` expanded (probes included) and the memo of its checks."""
    doc, sources = documents()[study]
    return expanded_study(_study_paths()[study], doc, PROFILE, sources), {}


def check_document(study: str, doc: dict) -> None:
    """The name and value checks of study ``study`` with document ``doc`` (a ConfigError at
    the first error): its scenarios are those of the host unless ``doc`` changes them."""
    base, memo = _base(study)
    if doc["scenarios"] is documents()[study][0]["scenarios"]:
        check_names(dataclasses.replace(base, doc=doc), memo)
    else:  # a broken DGP parameter: the scenarios expanded again
        check_names(expanded_study(base.path, doc, PROFILE, documents()[study][1]), memo)


def message(case: ParamCase) -> str | None:
    """The check's message for ``case``, or None when the broken study passes it."""
    try:
        check_document(case.study, case.edited(documents()[case.study][0]))
    except ConfigError as err:
        return str(err)
    return None


def message_holds(case: ParamCase, msg: str | None) -> bool:
    """Whether ``msg`` is one line naming the host's file, the case's key and fragments."""
    if msg is None or "\n" in msg:
        return False
    path = _study_paths()[case.study]
    return (msg.startswith(str(path)) and f"key {case.key}:" in msg
            and all(f in msg for f in case.fragments))
