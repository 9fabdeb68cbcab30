"""Registries by name for DGPs, learners and explanation methods.

Study files refer to these names; the config validator checks every name
against the registry before any job runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    """A mapping from a public name to a registered object."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}

    def register(self, name: str) -> Callable[[T], T]:
        def decorator(obj: T) -> T:
            if name in self._items:
                raise ValueError(f"{self.kind} {name!r} is registered twice")
            self._items[name] = obj
            return obj

        return decorator

    def get(self, name: str) -> T:
        try:
            return self._items[name]
        except KeyError:
            raise KeyError(
                f"unknown {self.kind} {name!r}; allowed: {', '.join(self.names())}"
            ) from None

    def names(self) -> list[str]:
        return sorted(self._items)

    def __contains__(self, name: Any) -> bool:
        return name in self._items


def import_modules(package: str, prefix: str) -> None:
    """Import every module of ``package`` whose name starts with ``prefix`` (study-specific
    modules that register their entries when imported)."""
    import importlib
    import pkgutil

    pkg = importlib.import_module(package)
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith(prefix):
            importlib.import_module(f"{package}.{info.name}")
