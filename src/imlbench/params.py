"""Declared parameters of methods, samplers and claim kinds: type, default, allowed values.

Every registered method, sampler and claim kind declares its parameters where it is
registered, e.g. ``{"n_repeats": integer(1, minimum=1), "data": choice("train", ("train",
"test"))}``.
The validator checks every value of a study file against the declarations before any job
runs (:func:`check_all`), with a message naming the key and the allowed values; the stages
hand the code the values with every missing default filled in (:func:`with_defaults`), so
the numerical code trusts its parameters and holds no defaults of its own.

Nested mappings (a grid, a sampler's parameters) are checked against their declared fields
but not filled: their defaults stay with the code that reads them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

#: marks a parameter without a default: the study file must give it.
REQUIRED: Any = type("Required", (), {"__repr__": lambda self: "REQUIRED"})()

Fields = Mapping[str, "Param"] | Callable[[Mapping[str, Any]], Mapping[str, "Param"]]


class ParamError(ValueError):
    """A parameter value that its declaration rejects; ``key`` is its path below the
    parameters (``n_repeats``, ``grid.kind``, ``strategies[1]``; empty for the whole set)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}" if key else message)
        self.key = key
        self.message = message


@dataclass(frozen=True)
class Param:
    """One declared parameter. Build it with :func:`integer`, :func:`number`, :func:`flag`,
    :func:`text`, :func:`choice`, :func:`items`, :func:`table`, :func:`either`,
    :func:`registered`, :func:`study_name`, :func:`feature_name` or :func:`feature_names`."""

    kind: str  # integer | number | flag | text | list | mapping | any
    default: Any = REQUIRED
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    #: exclusive bounds (e.g. a correlation of unit-variance features lies in (-1, 1))
    above: float | None = None
    below: float | None = None
    #: a list's items
    item: Param | None = None
    #: the values of a mapping with free keys (e.g. groups: name -> features)
    value: Param | None = None
    #: the keys of a mapping and their declarations (or a function of the sibling parameters)
    fields: Fields | None = None
    length: int | None = None
    nullable: bool = False
    #: the strings are feature names of the scenario's data (checked by the validator)
    features: bool = False
    #: the value is a name registered in this registry (e.g. the samplers)
    registry: Any = None
    #: the value may take any of these forms instead (e.g. a number or a keyword)
    alternatives: tuple[Param, ...] = ()
    #: the strings name entries of this section of the study file ("methods", "learners")
    refers: str | None = None
    #: a list whose items must differ (a sweep of widths, a set of names): a repeat is refused
    unique: bool = False
    #: a list of [cause, effect] pairs that must form no cycle (the edges of a DAG)
    acyclic: bool = False

    def describe(self) -> str:
        """The allowed values, as an error message states them."""
        if self.alternatives:
            out = " or ".join(p.describe() for p in self.alternatives)
        elif self.registry is not None:
            out = ", ".join(self.registry.names())
        elif self.choices is not None:
            out = ", ".join(map(str, self.choices))
        elif self.kind == "list":
            size = f"{self.length} " if self.length else ""
            out = f"a list of {size}items" + (" without repeats" if self.unique else "")
            out += " forming no cycle" if self.acyclic else ""
            out += f", each {self.item.describe()}" if self.item else ""
        elif self.kind == "mapping":
            if isinstance(self.fields, Mapping):
                out = f"a mapping with keys {', '.join(self.fields)}"
            elif self.value is not None:
                out = f"a mapping of names to {self.value.describe()}"
            else:
                out = "a mapping"
        else:
            out = {"integer": "an integer", "number": "a number", "flag": "true or false",
                   "text": "a string", "any": "any value"}[self.kind]
            if self.features:
                out = "a feature name"
            marks = ((">=", self.minimum), (">", self.above), ("<=", self.maximum),
                     ("<", self.below))
            bounds = [f"{sign} {bound:g}" for sign, bound in marks if bound is not None]
            out += (" " + " and ".join(bounds)) if bounds else ""
        return out + (" or null" if self.nullable else "")


def integer(default: Any = REQUIRED, *, minimum: float | None = None,
            maximum: float | None = None, nullable: bool = False) -> Param:
    return Param("integer", default, minimum=minimum, maximum=maximum, nullable=nullable)


def number(default: Any = REQUIRED, *, minimum: float | None = None,
           maximum: float | None = None, above: float | None = None,
           below: float | None = None, nullable: bool = False) -> Param:
    """A real number (integers are accepted); ``above`` and ``below`` are exclusive bounds."""
    return Param("number", default, minimum=minimum, maximum=maximum, above=above,
                 below=below, nullable=nullable)


def flag(default: Any = REQUIRED) -> Param:
    return Param("flag", default)


def text(default: Any = REQUIRED, *, nullable: bool = False) -> Param:
    return Param("text", default, nullable=nullable)


def choice(default: Any, options: tuple[Any, ...], *, nullable: bool = False) -> Param:
    """One of ``options`` (strings or numbers)."""
    return Param("any", default, choices=tuple(options), nullable=nullable)


def items(item: Param, default: Any = REQUIRED, *, length: int | None = None,
          nullable: bool = False, unique: bool = False, acyclic: bool = False) -> Param:
    """A list whose items are each ``item``; with ``unique`` no item repeats (a sweep whose
    repeated value would give two results of one name); with ``acyclic`` the items are
    [cause, effect] pairs that form no cycle (the edges of a DAG)."""
    return Param("list", default, item=item, length=length, nullable=nullable, unique=unique,
                 acyclic=acyclic)


def table(fields: Fields | None = None, default: Any = REQUIRED, *, value: Param | None = None,
          nullable: bool = False) -> Param:
    """A mapping: with ``fields``, of those keys (each optional); with ``value``, of any keys
    whose values are each ``value``."""
    return Param("mapping", default, fields=fields, value=value, nullable=nullable)


def either(*alternatives: Param, default: Any = REQUIRED) -> Param:
    """A value of any of the given forms, e.g. ``either(number(), choice(None, ("sqrt",)))``."""
    return Param("any", default, alternatives=tuple(alternatives))


def registered(registry: Any, default: Any = REQUIRED) -> Param:
    """The name of an entry of ``registry``."""
    return Param("text", default, registry=registry)


def study_name(section: str, default: Any = REQUIRED) -> Param:
    """The name of an entry of the study file's ``section`` (``methods`` or ``learners``)."""
    return Param("text", default, refers=section)


def feature_name(default: Any = REQUIRED) -> Param:
    """The name of a feature of the scenario's data."""
    return Param("text", default, features=True)


def feature_names(default: Any = None) -> Param:
    """A list of feature names of the scenario's data (null or absent: every feature)."""
    return Param("list", default, item=feature_name(), nullable=True)


def _type_ok(param: Param, value: Any) -> bool:
    if param.kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if param.kind == "number":  # NaN passes no bound: it is no number here
        return isinstance(value, int | float) and not isinstance(value, bool) and value == value
    if param.kind == "flag":
        return isinstance(value, bool)
    if param.kind == "text":
        return isinstance(value, str)
    if param.kind == "list":
        return isinstance(value, list | tuple)
    if param.kind == "mapping":
        return isinstance(value, Mapping)
    return True


def _cycle(edges: Any) -> list[Any] | None:
    """A cycle of the directed graph of ``edges`` ([cause, effect] pairs) as its nodes, the
    first repeated at the end, or None when the graph has none (depth-first search)."""
    children: dict[Any, list[Any]] = {}
    for cause, effect in edges:
        children.setdefault(cause, []).append(effect)
    state: dict[Any, int] = {}  # 1: on the current path, 2: done

    def visit(path: list[Any]) -> list[Any] | None:
        state[path[-1]] = 1
        for child in children.get(path[-1], []):
            if state.get(child) == 1:  # back on the current path: a cycle
                return [*path[path.index(child):], child]
            found = None if child in state else visit([*path, child])
            if found:
                return found
        state[path[-1]] = 2
        return None

    for start in list(children):
        if start not in state:
            found = visit([start])
            if found:
                return found
    return None


def check(param: Param, value: Any, key: str, siblings: Mapping[str, Any] | None = None) -> None:
    """Raise :class:`ParamError` (at ``key``) unless ``value`` is allowed by ``param``.

    ``siblings`` are the other parameters of the same set (defaults filled), for fields that
    depend on them (a sampler's parameters depend on the sampler)."""
    if value is None and param.nullable:
        return
    if param.alternatives:
        for alt in param.alternatives:
            try:
                check(alt, value, key, siblings)
                return
            except ParamError:
                pass
        raise ParamError(key, f"{value!r} is not allowed; allowed: {param.describe()}")
    if param.registry is not None and (not isinstance(value, str)
                                       or value not in param.registry):
        raise ParamError(key, f"unknown {param.registry.kind} {value!r}; allowed: "
                              f"{param.describe()}")
    if not _type_ok(param, value) or (param.choices is not None and value not in param.choices):
        raise ParamError(key, f"{value!r} is not allowed; allowed: {param.describe()}")
    if param.minimum is not None and value < param.minimum or (
            param.maximum is not None and value > param.maximum) or (
            param.above is not None and not value > param.above) or (
            param.below is not None and not value < param.below):
        raise ParamError(key, f"{value!r} is out of range; allowed: {param.describe()}")
    if param.kind == "list":
        if param.length is not None and len(value) != param.length:
            raise ParamError(key, f"{value!r} has {len(value)} items; allowed: "
                                  f"{param.describe()}")
        for i, v in enumerate(value):
            if param.item is not None:
                check(param.item, v, f"{key}[{i}]")
            if param.unique and v in value[:i]:
                raise ParamError(f"{key}[{i}]", f"{v!r} is given more than once; allowed: "
                                                f"{param.describe()}")
        cycle = _cycle(value) if param.acyclic else None
        if cycle:
            raise ParamError(key, f"the edges form a cycle {' -> '.join(map(str, cycle))}; "
                                  f"allowed: {param.describe()}")
    elif param.kind == "mapping":
        fields = param.fields(siblings or {}) if callable(param.fields) else param.fields
        if fields is not None:
            check_all(fields, value, key, required=False)
        if param.value is not None:
            for k, v in value.items():
                check(param.value, v, f"{key}.{k}")


def check_all(declared: Mapping[str, Param], given: Mapping[str, Any], prefix: str = "",
              owner: str = "", *, required: bool = True) -> None:
    """Check a whole parameter set: no unknown names, every required one given (unless
    ``required`` is false: the keys of a nested mapping are all optional), every value allowed.
    ``prefix`` is prepended to the keys in errors; ``owner`` names the method, sampler or claim
    kind in them."""
    unknown = sorted(map(str, set(given) - set(declared)))  # YAML may give a key as a bool
    of = f" of {owner}" if owner else ""
    if unknown:
        raise ParamError(prefix, f"unknown parameter(s) {', '.join(unknown)}{of}; allowed: "
                                 f"{', '.join(sorted(declared)) or 'none'}")
    missing = sorted(k for k, p in declared.items()
                     if required and p.default is REQUIRED and k not in given)
    if missing:
        raise ParamError(prefix, f"parameter(s) {', '.join(missing)}{of} must be given; "
                                 f"allowed: " + "; ".join(f"{k}: {declared[k].describe()}"
                                                          for k in missing))
    filled = with_defaults(declared, given)
    for name, value in given.items():
        check(declared[name], value, f"{prefix}.{name}" if prefix else name, filled)


def with_defaults(declared: Mapping[str, Param], given: Mapping[str, Any]) -> dict[str, Any]:
    """``given`` with the default of every declared parameter it lacks (copied, so that the
    code may not change a shared default)."""
    out = {k: copy.deepcopy(p.default) for k, p in declared.items()
           if k not in given and p.default is not REQUIRED}
    out.update(given)
    return out


def named_values(param: Param, value: Any, attr: str, target: Any,
                 siblings: Mapping[str, Any] | None = None) -> list[Any]:
    """The values inside ``value`` (a string, or lists and mappings of them) whose declaration
    has ``attr`` equal to ``target``: the feature names (``features``, True) or the names of
    study-file entries (``refers``, "methods"). ``siblings`` are the other parameters of the
    set, for mappings whose fields depend on them."""
    if value is None:
        return []
    if getattr(param, attr) == target:
        return list(value) if isinstance(value, list | tuple) else [value]
    if param.kind == "list" and param.item is not None:
        return [f for v in value for f in named_values(param.item, v, attr, target)]
    if param.kind == "mapping" and param.value is not None:
        return [f for v in value.values() for f in named_values(param.value, v, attr, target)]
    if param.kind == "mapping" and param.fields is not None and isinstance(value, Mapping):
        fields = param.fields(siblings or {}) if callable(param.fields) else param.fields
        return [f for k, v in value.items() if k in fields
                for f in named_values(fields[k], v, attr, target)]
    return []
