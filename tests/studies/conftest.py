"""The study tests find their study's registered entries as the workflow does: a module run
alone does not depend on another test having loaded its study first."""

from __future__ import annotations

import pytest

from imlbench import studies


@pytest.fixture(autouse=True, scope="session")
def study_entries() -> None:
    """Every study package's methods, claim kinds, DGPs and figure functions, registered."""
    studies.load(studies.packages(), figures=True)
