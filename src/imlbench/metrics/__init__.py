"""Metrics over explanation results: importance ranks, claims and variable-importance tests."""
