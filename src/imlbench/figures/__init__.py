"""Figures by name: one function per published figure, reading Parquet only.

A figure function has the signature ``(inputs, spec, out_png, out_pdf)``: ``inputs``
maps a role (``estimates``, ``truth``, ``ranks``, ``summary``, ``data``) to Parquet paths, ``spec``
is the figure's entry of the study file (title, caption, style). The function
registered as ``<study>.<figN>`` lives in ``figures/<study>/<figN>.py``, so the
workflow can rerun exactly the figure whose code changed.
"""

from __future__ import annotations

import importlib
import pkgutil

from imlbench.registry import Registry

FIGURES: Registry = Registry("figure function")


def load_figures() -> None:
    """Import every figure module (each registers its function)."""
    import imlbench.figures as pkg

    for info in pkgutil.walk_packages(pkg.__path__, prefix="imlbench.figures."):
        importlib.import_module(info.name)
