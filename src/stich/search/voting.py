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


def weighted_winsorized_mean(values: Sequence[float], weights: Sequence[float], trim: float = TRIM) -> float:
    """Weighted mean of ``values`` after the clipping of :func:`winsorized_mean` (the clip points by count, not by weight).

    The clip points stay those of the unweighted worlds, so a world of small
    weight still cannot stretch the range the heavy ones are clipped to.
    """
    if not values or len(values) != len(weights):
        raise ValueError(f"need as many weights as values, got {len(weights)} and {len(values)}")
    total = sum(weights)
    if not total > 0:
        raise ValueError("the weights must not all be zero")
    ordered = sorted(values)
    cut = int(trim * len(ordered))
    low, high = ordered[cut], ordered[len(ordered) - 1 - cut]
    return sum(w * min(max(v, low), high) for v, w in zip(values, weights, strict=True)) / total


def effective_worlds(weights: Sequence[float]) -> float:
    """Kish's effective sample size of weighted worlds: ``(sum w)^2 / sum w^2`` (their number when all weigh the same)."""
    square = sum(w * w for w in weights)
    return sum(weights) ** 2 / square if square > 0 else 0.0


def vote(
    rows: Sequence[Sequence[float]],
    base: int,
    *,
    confidence: float = 0.0,
    min_worlds: int = 1,
    weights: Sequence[float] | None = None,
) -> tuple[int, list[float]]:
    """The best candidate by winsorized mean paired difference to candidate ``base``, and those means.

    ``rows[w][i]`` is candidate ``i``'s value in world ``w``.  Ties go to
    ``base``, then to the lower index.  With ``confidence`` > 0 a candidate
    overrules ``base`` only when its mean difference exceeds ``confidence``
    standard errors and at least ``min_worlds`` worlds were seen.
    ``weights`` (one per world, ``None``: all equal) weigh the worlds
    (:func:`weighted_winsorized_mean`; the ``pimc`` bot's inference); the
    standard error and ``min_worlds`` then count the effective worlds
    (:func:`effective_worlds`).
    """
    n: float = len(rows) if weights is None else effective_worlds(weights)
    scores: list[float] = []
    eligible: list[bool] = []
    for i in range(len(rows[0])):
        diffs = [row[i] - row[base] for row in rows]
        mean = winsorized_mean(diffs) if weights is None else weighted_winsorized_mean(diffs, weights)
        scores.append(mean)
        if i == base:
            eligible.append(True)
        elif confidence <= 0.0:
            eligible.append(n >= min_worlds)
        else:
            spread = _spread(diffs, weights) if len(rows) > 1 else 0.0
            eligible.append(n >= min_worlds and mean > confidence * spread / math.sqrt(max(n - 1, 1)))
    best = base
    for i, score in enumerate(scores):
        if eligible[i] and score > scores[best] + 1e-9:
            best = i
    return best, scores


def _spread(values: Sequence[float], weights: Sequence[float] | None) -> float:
    """Population standard deviation of ``values``, weighted when ``weights`` are given."""
    if weights is None:
        return statistics.pstdev(values)
    total = sum(weights)
    mean = sum(w * v for v, w in zip(values, weights, strict=True)) / total
    return math.sqrt(sum(w * (v - mean) ** 2 for v, w in zip(values, weights, strict=True)) / total)
