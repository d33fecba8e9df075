"""Robust comparison of candidate actions over sampled worlds: winsorized mean paired differences.

Each sampled world gives one value per candidate.  Comparing candidates by
their *paired* difference to a base candidate in the same world cancels the
luck of the world (a strong hand makes every candidate look good), and
clipping the extreme worlds (winsorizing) keeps one world in which a Retour
or a Valat multiplies everything from outvoting the rest.  Used by the
``pimc`` bot for every decision and by the ``ismcts`` search for its paired
root (:mod:`stich.search.ismcts`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

TRIM = 0.1
"""Share of worlds clipped at each end when averaging (winsorized mean)."""


def winsorized_mean(values: Sequence[float], trim: float = TRIM) -> float:
    """Mean of ``values`` after clipping the lowest and highest ``trim`` share to the nearest kept value."""
    if not values:
        raise ValueError("no values to average")
    ordered = sorted(values)
    cut = int(trim * len(ordered))
    low, high = ordered[cut], ordered[len(ordered) - 1 - cut]
    return sum(min(max(v, low), high) for v in ordered) / len(ordered)


def vote(rows: Sequence[Sequence[float]], base: int, *, confidence: float = 0.0, min_worlds: int = 1) -> tuple[int, list[float]]:
    """The best candidate by winsorized mean paired difference to candidate ``base``, and those means.

    ``rows[w][i]`` is candidate ``i``'s value in world ``w``.  Ties go to
    ``base``, then to the lower index.  With ``confidence`` > 0 a candidate
    overrules ``base`` only when its mean difference exceeds ``confidence``
    standard errors and at least ``min_worlds`` worlds were seen.
    """
    n = len(rows)
    scores: list[float] = []
    eligible: list[bool] = []
    for i in range(len(rows[0])):
        diffs = [row[i] - row[base] for row in rows]
        mean = winsorized_mean(diffs)
        scores.append(mean)
        if i == base:
            eligible.append(True)
        elif confidence <= 0.0:
            eligible.append(n >= min_worlds)
        else:
            spread = statistics.pstdev(diffs) if n > 1 else 0.0
            eligible.append(n >= min_worlds and mean > confidence * spread / math.sqrt(max(n - 1, 1)))
    best = base
    for i, score in enumerate(scores):
        if eligible[i] and score > scores[best] + 1e-9:
            best = i
    return best, scores
