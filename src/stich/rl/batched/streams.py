"""The per-deal random streams of a batch, and how ``reset(seed=...)`` reseeds them (the same for every batch)."""

from __future__ import annotations

import random
from collections.abc import Sequence


def reseed(streams: Sequence[random.Random], seed: int | Sequence[int]) -> None:
    """Reseed one stream per deal: an int ``s`` gives deal ``i`` the seed ``s + i``, a sequence one seed per deal."""
    seeds = [seed + i for i in range(len(streams))] if isinstance(seed, int) else list(seed)
    if len(seeds) != len(streams):
        raise ValueError(f"reset needs {len(streams)} seeds, got {len(seeds)}")
    for stream, value in zip(streams, seeds, strict=True):
        stream.seed(value)
