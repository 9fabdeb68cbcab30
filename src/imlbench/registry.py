"""Registries by name: DGPs, learners, samplers, methods, truths, claims and figures.

Study files refer to these names; the validator checks every name against the registry
before any job runs. Every registry is filled the same way: an entry registers itself when
the module defining it is imported. A registry imports its *providers*, the layer modules
that define its generic entries, the first time it is read; the entries of a study are
imported by :func:`imlbench.studies.load`, which imports the study's package.

An entry defined in ``imlbench.studies.<study>`` belongs to that study: it is named
``<study>.<name>`` (:meth:`Registry.register` refuses any other name, so a study's entries
never collide with the layers' or another study's) and is visible to that study's file and to
no other (:meth:`Registry.names` with ``study``), so no study can come to depend on another
one's code through its YAML.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")

STUDIES_PACKAGE = "imlbench.studies"


def owning_study(module: str) -> str | None:
    """The study a module belongs to (``imlbench.studies.<study>...``), or None for a layer."""
    prefix = STUDIES_PACKAGE + "."
    return module[len(prefix):].split(".", 1)[0] if module.startswith(prefix) else None


class Registry(Generic[T]):
    """A mapping from a public name to a registered object, with the study that owns it."""

    def __init__(self, kind: str, providers: Sequence[str] = ()) -> None:
        self.kind = kind
        self._providers = tuple(providers)
        self._loaded = False
        self._items: dict[str, T] = {}
        self._owners: dict[str, str | None] = {}

    def register(self, name: str, *, module: str | None = None) -> Callable[[T], T]:
        """Decorator registering an object under ``name``; ``module`` (default: the object's
        ``__module__``) decides which study, if any, owns it. A study's entry must be named
        ``<study>.<name>`` (a ValueError otherwise)."""

        def decorator(obj: T) -> T:
            where = module or getattr(obj, "__module__", "")
            owner = owning_study(where)
            if owner is not None and not name.startswith(owner + "."):
                raise ValueError(f"{self.kind} {name!r} of module {where} belongs to study "
                                 f"{owner!r}: name it {owner}.<name>")
            if name in self._items:
                raise ValueError(f"{self.kind} {name!r} is registered twice")
            self._items[name] = obj
            self._owners[name] = owner
            return obj

        return decorator

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            for provider in self._providers:
                importlib.import_module(provider)

    def get(self, name: str) -> T:
        self._load()
        try:
            return self._items[name]
        except KeyError:
            raise KeyError(
                f"unknown {self.kind} {name!r}; allowed: {', '.join(self.names())}"
            ) from None

    def names(self, study: str | None = None) -> list[str]:
        """Every registered name, or with ``study`` the names that study may use: the layers'
        and its own."""
        self._load()
        return sorted(n for n, owner in self._owners.items()
                      if study is None or owner is None or owner == study)

    def owner(self, name: str) -> str | None:
        """The study that registered ``name`` (None: a layer)."""
        self._load()
        return self._owners[name]

    def __contains__(self, name: Any) -> bool:
        self._load()
        return name in self._items
