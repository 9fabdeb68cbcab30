"""The studies: one package per reproduced paper, holding everything only that study uses.

``imlbench.studies.<study>`` (the name of ``config/studies/<study>.yaml``) imports the modules
that register the study's DGPs, truths, methods and claim kinds; every module of its
``figures`` package is found and imported, registering its figure functions (no list to keep).
:func:`load` is how the workflow brings a study's entries into the
registries (:mod:`imlbench.registry`); a study file that uses only the layers' entries needs
no package. Layers never import a study, and no study imports another.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Iterable


def load(names: Iterable[str], *, figures: bool = False) -> None:
    """Import the packages of the named studies (and, with ``figures``, their figure
    functions), registering their entries; a study without a package is skipped."""
    for name in names:
        package = f"{__name__}.{name}"
        if importlib.util.find_spec(package) is None:
            continue
        importlib.import_module(package)
        if figures and importlib.util.find_spec(f"{package}.figures") is not None:
            found = importlib.import_module(f"{package}.figures")
            for module in pkgutil.iter_modules(found.__path__, f"{found.__name__}."):
                importlib.import_module(module.name)


def packages() -> list[str]:
    """The names of the studies that have a package (their own entries)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)
