"""Deal scores as floats a search can average, whatever their size.

A game's scores are Python integers and can outgrow any float: Dobbm and
Droggn without a Retour limit double the stake on every Retour, and rollouts
by bots that keep answering Retour reach values beyond 1e308, where
``float(score)`` raises ``OverflowError``.  Searches compare and average
scores as floats, so they read them through :func:`score_value`, which caps
the magnitude at :data:`SCORE_CAP`: any score that large already decides
every comparison a search makes.
"""

from __future__ import annotations

SCORE_CAP = 1e15
"""Largest magnitude a score keeps as a float (far beyond any real stake, exact in a double)."""


def score_value(score: int | float) -> float:
    """``score`` as a float, capped to ``[-SCORE_CAP, SCORE_CAP]``."""
    if score > SCORE_CAP:
        return SCORE_CAP
    if score < -SCORE_CAP:
        return -SCORE_CAP
    return float(score)
