"""The facts of a finished Dobbm deal that evaluation needs (dossier §7, §8).

The state machine (state.py) fills a :class:`DealFacts`; the evaluation
(scoring.py) turns it into a :class:`~stich.core.game.DealResult`.  Keeping
this boundary explicit lets the worked examples be written as plain facts.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DealFacts:
    """Everything evaluation needs about a played deal.

    ``opponents`` are the seats that pay or receive against the declarer: the
    three active defenders and, at five players, the idle dealer (§8.3).
    ``trick_points`` are the card points in the declarer's tricks,
    ``talon_points`` those of the four discards (Dobbm) or of the Dobb (Solo).
    ``doubles`` counts the Schwacher and every Retour (§5.5).
    """

    num_seats: int
    declarer: int
    opponents: tuple[int, ...]
    contract: str
    trick_points: int
    talon_points: int
    declarer_tricks: int
    doubles: int = 0
    idle: int | None = None
    mussrunde: bool = False
