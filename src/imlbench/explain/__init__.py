"""Explanation methods: feature effects and feature importance.

The registry of methods by name is ``imlbench.explain.api.METHODS``; the generic methods are
registered by family in the ``methods_*`` modules, the estimands they may estimate are in
:mod:`imlbench.explain.estimands`.
"""
