"""The facts of a finished Tapp Tarock deal that evaluation needs (dossier §7, §8).

The state machine (state.py) fills a :class:`DealFacts`; the evaluation
(scoring.py) turns it into a :class:`~stich.core.game.DealResult`.  Keeping
this boundary explicit lets worked examples be written as plain facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from stich.cards import Card
from stich.core.tricks import PlayedTrick

TRICKS = 16
"""Tricks in a deal: 16 cards per player [§6]."""


@dataclass(frozen=True)
class DealFacts:
    """Everything evaluation needs about a played-out deal.

    ``active_seats`` are forehand, middlehand and rearhand (the players with
    cards); at a table of four the dealer is not among them and scores 0.
    ``declarer_cards`` are the declarer's tricks plus the three discards,
    ``defender_cards`` the defenders' tricks plus the unused talon half (the
    whole talon in a Solo) [§7].  ``announced`` holds ``ultimo`` and/or
    ``valat`` [§5.1]; ``doubling`` the level per item ``game``, ``ultimo``,
    ``valat`` (0 none, 1 Kontra, 2 Rekontra, 3 Subkontra) [§5.2].
    ``bonus_hands`` gives per seat the cards that count for the hand bonuses
    (the hand as dealt by default) [§8.3]; only Trull cards and kings matter.
    """

    num_seats: int
    active_seats: tuple[int, ...]
    declarer: int
    contract: str
    declarer_cards: tuple[Card, ...]
    defender_cards: tuple[Card, ...]
    declarer_tricks: int
    last_trick: PlayedTrick | None
    announced: frozenset[str] = frozenset()
    doubling: tuple[int, int, int] = (0, 0, 0)
    bonus_hands: tuple[tuple[Card, ...], ...] = ()
    talon_taken: str | None = None

    @property
    def defenders(self) -> tuple[int, ...]:
        """The two defenders, in play order from the declarer's next player."""
        i = self.active_seats.index(self.declarer)
        n = len(self.active_seats)
        return tuple(self.active_seats[(i + k) % n] for k in range(1, n))
