"""The bot ladder's rule and standings: which rung a kept match reaches, and the strongest bot per game it gives.

The ladder (docs/strength.md) is random < heuristic < pimc < ismcts; each
rung is a duplicate match of its bot against the rung below.  Which kept run
each game's rung stands on is chosen in ``docs/ladder/standings.json``;
``tools/strength_ladder.py render`` writes, from that choice and the runs'
own numbers, both docs/strength.md's standings table and
:mod:`stich.bots.ladder_standings` (:data:`~stich.bots.ladder_standings.STANDINGS`),
so the web's "strongest bot per game" (``GET /api/bots``) is the ladder's,
not a second copy kept by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

RUNGS = ("heuristic", "pimc", "ismcts")
"""The rungs above ``random``, lowest first; each is matched against the one below."""

BOTTOM = "random"
"""The ladder's foot: the bot every game has, matched by no rung."""

MIN_DEALS = 1000
"""The fewest duplicate deals a match needs before its interval can reach a rung (issue 4's rule)."""


def reached(low: float, deals: int) -> bool:
    """Whether a match reaches its rung: at least :data:`MIN_DEALS` deals and its 95% interval's lower end above zero."""
    return low > 0 and deals >= MIN_DEALS


class Standing(NamedTuple):
    """The kept run one game's rung stands on: its name in docs/ladder, its label, and its mean difference per deal."""

    run: str
    """The kept copy's file name in docs/ladder, without ``.json``."""
    label: str
    """What tells it from other runs of the same match (``keep --suffix``), ``–`` for none."""
    mean: float
    low: float
    """The 95% interval (Student t) of the mean: lower end."""
    high: float
    deals: int

    @property
    def reached(self) -> bool:
        """Whether this run reaches its rung (:func:`reached`)."""
        return reached(self.low, self.deals)


def strongest(standings: Mapping[str, Mapping[str, Standing]]) -> dict[str, str]:
    """Per game, the highest rung reached with every rung below it reached: the ladder's strongest bot there.

    A rung not reached (``ismcts`` in the Tarock family, level with ``pimc``)
    leaves the rung below it on top.
    """
    best: dict[str, str] = {}
    for game, rungs in standings.items():
        top = BOTTOM
        for rung in RUNGS:
            standing = rungs.get(rung)
            if standing is None or not standing.reached:
                break
            top = rung
        best[game] = top
    return best
