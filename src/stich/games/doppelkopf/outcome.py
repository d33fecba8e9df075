"""The facts of a finished Doppelkopf deal that evaluation needs (dossier §7).

The state machine (state.py) fills a :class:`DealFacts`; the evaluation
(scoring.py) turns it into a :class:`~stich.core.game.DealResult`.  Keeping
this boundary explicit lets the worked examples of §7 be written as plain
facts, without playing a deal.
"""

from __future__ import annotations

from dataclasses import dataclass

from stich.core.tricks import PlayedTrick

# Announcement levels of one party (dossier §5.1, §7.1).
NONE, RE_KONTRA, KEINE90, KEINE60, KEINE30, SCHWARZ = range(6)
LEVEL_NAMES = ("none", "re_kontra", "keine90", "keine60", "keine30", "schwarz")


@dataclass(frozen=True)
class DealFacts:
    """Everything evaluation needs about a finished deal.

    ``kind`` is one of ``normal``, ``hochzeit`` (partner found), ``armut``,
    ``solo`` (declared or forced), ``stille_hochzeit`` and ``hochzeit_solo``
    (wedding without partner, played as a Karo solo), and ``genscher`` (a normal
    game whose parties a Genscher set anew, decision 0025).  ``re_seats`` is the
    final Re party.  ``re_level`` / ``kontra_level`` are each party's highest
    call (0..5, see the constants above).  ``multiplier`` is the bock factor
    (1 without bock).  ``schweine_seat`` is the holder of the Schweine, whose
    diamond aces are not foxes (dossier §1.3, A-24); ``None`` without them.
    """

    num_seats: int
    active_seats: tuple[int, ...]
    kind: str
    contract: str
    re_seats: frozenset[int]
    re_level: int
    kontra_level: int
    tricks: tuple[PlayedTrick, ...]
    multiplier: int = 1
    schweine_seat: int | None = None
    schwein_tricks: frozenset[int] | None = None
    """Tricks in which a diamond ace was played as a Schwein; ``None``: every diamond ace of ``schweine_seat`` was one."""
    knocks: int = 0
    """[VAR §5.5 ``knocking``] how many anonymous raises (Klopfen) were made, decision 0028."""

    def schwein_in(self, index: int, seat: int) -> bool:
        """Whether a diamond ace that ``seat`` played in trick ``index`` was a Schwein (so no fox, A-24)."""
        if self.schwein_tricks is not None:
            return index in self.schwein_tricks
        return seat == self.schweine_seat

    @property
    def is_solo_scoring(self) -> bool:
        """Scored as a solo: tripled for the soloist, no special points (§7.4)."""
        return self.kind in ("solo", "stille_hochzeit", "hochzeit_solo")
