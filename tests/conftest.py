"""Shared pytest configuration."""

from __future__ import annotations


def pytest_configure(config):
    # The whole-workflow test takes minutes; deselect it with `-m "not e2e"`.
    config.addinivalue_line(
        "markers", "e2e: runs the whole workflow on the smoke profile (minutes)"
    )
