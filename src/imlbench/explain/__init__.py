"""Explanation methods: feature effects and feature importance.

The registry of methods by name is ``imlbench.explain.methods.METHODS``.
"""
