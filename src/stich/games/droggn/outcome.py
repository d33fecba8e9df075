"""The facts of a finished Droggn deal that scoring needs (dossier §7, §8).

The state machine (state.py) fills a :class:`DealFacts`; :func:`stich.games.
droggn.scoring.evaluate` turns it into a result.  Keeping this boundary
explicit lets the worked examples be written as plain facts ("a Solo, 40 card
points, the Pagat silently won the last trick") without playing a deal.
"""

from __future__ import annotations

from dataclasses import dataclass

DECLARER = "declarer"
DEFENDERS = "defenders"
SIDES = (DECLARER, DEFENDERS)


def other_side(side: str) -> str:
    """The other side."""
    return DEFENDERS if side == DECLARER else DECLARER


@dataclass(frozen=True)
class PagatFact:
    """How the Pagat was played: by which side, to which trick, and who won that trick."""

    side: str
    """The side that played it (``declarer`` / ``defenders``)."""
    last: bool
    """It was played to the last trick."""
    won: bool
    """The Pagat itself won its trick."""
    winner_side: str
    """The side that won the trick it was played to."""


@dataclass(frozen=True)
class DealFacts:
    """Everything scoring needs about a played deal.

    ``declarer_points`` are the declarer's counted card points [§7] (tricks
    plus discards or talon); the defenders have the rest of the pack's total
    (74, or 78 with the 78-card pack).  ``declarer_tricks`` out of
    ``tricks_played`` were won by the declarer; ``total_tricks`` is 21 (25)
    and a Super Mord that failed stops early [OPEN-POINTS].
    ``last_trick_side`` won the last trick (``None`` if it was not played).
    ``multiplier`` is 2 ** (Schwacher and Retours) [§5.3].  ``laid_out`` is
    ``pagat`` or ``gstiess`` when that card was laid out, by
    ``laid_out_side``.  ``pagat`` says how the Pagat was played (``None`` if
    it was not played: in the talon of a Super, or left in hand when a Super
    Mord stopped).
    """

    contract: str
    declarer_points: int
    declarer_tricks: int
    tricks_played: int
    total_tricks: int = 21
    pack_points: int = 74
    last_trick_side: str | None = None
    multiplier: int = 1
    laid_out: str | None = None
    laid_out_side: str | None = None
    pagat: PagatFact | None = None

    @property
    def all_tricks(self) -> bool:
        """The declarer won every trick of the deal (a Matsch, or a made Super Mord)."""
        return self.tricks_played == self.total_tricks and self.declarer_tricks == self.total_tricks
