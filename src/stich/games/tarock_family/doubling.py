"""Schwacher and Retour: the doubling round of Dobbm and Droggn.

Both dossiers state the same procedure (dobbm.md §5, droggn.md §5.3 with
OPEN-POINTS): once the declarer "lies", the defenders speak in turn from
the declarer's left, each passing or giving a **Schwacher**; the first
Schwacher ends their round and the declarer answers, passing or saying
**Retour**; after a declarer's Retour the defenders speak again from the
declarer's left, each once, passing or saying Retour, and so on.  Every
Schwacher and Retour doubles the stakes (``2 ** doubles``); the option
``retour_limit`` caps the Retours (0: no limit).

The games differ only in what surrounds it, which stays in each game: their
words and action codes, who opens the first round (Dobbm's
``doubling_first_speaker``), a Droggn defender laying out the Pagat on its
turn, Dobbm's log of the calls, and whether an answer with nothing left to
choose is asked at all (:attr:`SchwacherRetour.ASK_FORCED`).
"""

from __future__ import annotations

from typing import ClassVar

PASS = "pass"
"""Pass (Dobbm's ``accept``, gut): a defender lets the next one speak, the declarer starts the play."""
SCHWACHER = "schwacher"
"""The defenders' first double."""
RETOUR = "retour"
"""Every double after the Schwacher, by the declarer or a defender."""


class SchwacherRetour:
    """The Schwacher and Retour round, mixed into a game's state.

    The state keeps the round in three plain attributes (copied by its
    :meth:`~stich.core.game.PhasedState.clone`: ``speakers`` belongs in its
    ``MUTABLE``), sets :attr:`retour_limit` from its options, and provides
    :meth:`_doubling_declarer`, :meth:`_defenders_in_turn` and
    :meth:`_start_play`.
    """

    ASK_FORCED: ClassVar[bool]
    """Whether an answer with only pass left (no Retour under ``retour_limit``) is still asked (Droggn), or the
    play begins at once (Dobbm)."""

    doubles: int
    """Schwacher and Retours said: the stakes are multiplied by ``2 ** doubles``."""
    speakers: list[int]
    """The defenders still to speak in the current round (empty while the declarer answers)."""
    answering: bool
    """Whether the declarer is answering a double."""
    retour_limit: int
    """The most Retours in one deal; 0 = no limit."""
    to_move: int

    def _doubling_declarer(self) -> int:
        """The declarer's seat."""
        raise NotImplementedError

    def _defenders_in_turn(self) -> list[int]:
        """The defenders clockwise from the declarer's left: who speaks after a declarer's Retour."""
        raise NotImplementedError

    def _start_play(self) -> None:
        """The doubling is over: the play begins."""
        raise NotImplementedError

    def retour_open(self) -> bool:
        """Whether one more Retour may be said after the doubles so far."""
        return self.retour_limit == 0 or self.doubles - 1 < self.retour_limit

    def doubling_calls(self) -> tuple[str, ...]:
        """The calls open to the player to speak: pass, and the Schwacher before any double, else a Retour while one is left."""
        if self.doubles == 0:
            return (PASS, SCHWACHER)
        return (PASS, RETOUR) if self.retour_open() else (PASS,)

    def _open_doubling(self, speakers: list[int]) -> None:
        """A defenders' round with ``speakers`` in this order."""
        self.speakers = speakers
        self.answering = False
        self.to_move = speakers[0]

    def _say(self, call: str) -> None:
        """Apply ``call`` (one of :meth:`doubling_calls`) of the player to speak."""
        if call == PASS:
            if self.answering:
                self._start_play()  # the declarer accepts
                return
            self.speakers.pop(0)
            if self.speakers:
                self.to_move = self.speakers[0]
            else:
                self._start_play()  # every defender passed
            return
        self.doubles += 1
        if not self.ASK_FORCED and not self.retour_open():
            self._start_play()  # no Retour left to answer with: nothing to ask
        elif self.answering:
            self._open_doubling(self._defenders_in_turn())  # a declarer's Retour: the defenders again from the declarer's left
        else:
            self.speakers = []  # the first double ends the defenders' round; the declarer answers
            self.answering = True
            self.to_move = self._doubling_declarer()
