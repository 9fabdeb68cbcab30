"""Random streams derived from the configuration.

Every stream is a ``numpy.random.SeedSequence`` whose entropy is the base seed and
whose spawn key hashes the labels (study, scenario, rep, stage, ...). No global
random state is used anywhere, so any job rerun gives bit-identical values.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np


def config_hash(obj: Any) -> str:
    """A short stable hash of a JSON-serialisable configuration object (a stream label, a
    provenance record, a rerun fingerprint)."""
    blob = json.dumps(obj, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def _label_key(label: str | int) -> int:
    digest = hashlib.sha256(str(label).encode()).digest()
    return int.from_bytes(digest[:4], "little")


def seed_sequence(base_seed: int, *labels: str | int) -> np.random.SeedSequence:
    """The seed sequence of the stream named by ``labels`` under ``base_seed``."""
    return np.random.SeedSequence(base_seed, spawn_key=tuple(_label_key(x) for x in labels))


def rng_for(base_seed: int, *labels: str | int) -> np.random.Generator:
    """A generator for the stream named by ``labels`` (e.g. study, scenario, rep, stage)."""
    return np.random.default_rng(seed_sequence(base_seed, *labels))


def int_seed(rng: np.random.Generator) -> int:
    """A 31-bit integer seed drawn from ``rng``, for libraries that take ``random_state``."""
    return int(rng.integers(0, 2**31 - 1))
