"""A session (German "Liste"): a series of deals with dealer rotation and a score sheet.

A session is deterministic: deal ``i`` is dealt from ``derive_seed(seed, i)``
and its dealer and context follow from the results booked so far, so a list
record can be replayed and re-checked deal by deal.  Games provide their own
session rules (compulsory solos, Mußrunde, bock rounds...) by subclassing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from stich.cards import Card
from stich.core.game import DealResult, Game, State
from stich.core.rng import derive_seed
from stich.errors import StichError


class SessionError(StichError, ValueError):
    """A deal that cannot be booked: not the pending one, unfinished, or a result that breaks a sheet check."""


@dataclass(frozen=True)
class SheetRow:
    """One line of the score sheet: a booked deal and the running totals after it."""

    number: int
    dealer: int
    label: str
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    notes: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "number": self.number,
            "dealer": self.dealer,
            "label": self.label,
            "scores": list(self.scores),
            "totals": list(self.totals),
            "notes": dict(self.notes),
        }


class Session(ABC):
    """A list of deals of one game.

    Use: ``state = session.next_deal()``; play it to the end;
    ``session.book(state)``; repeat until ``next_deal()`` returns ``None``.

    Subclasses implement :meth:`is_over`, :meth:`context` and :meth:`_book`
    (which must also update ``dealer`` and ``totals``), and may override
    :meth:`_before_deal` to settle who deals and who is forced to play before
    a deal is handed out.  ``deal_index`` counts every deal dealt, thrown-in
    deals included, so deal ``i`` always comes from ``deal_seed(i)``.
    """

    def __init__(self, game: Game, seed: int, deals: int | None = None) -> None:
        self.game = game
        self.seed = seed
        self.limit = deals
        self.rows: list[SheetRow] = []
        self.totals: list[int] = [0] * game.num_seats
        self.deal_index = 0
        self.dealer = 0
        self.pending: State | None = None

    def deal_seed(self, index: int) -> int:
        """Seed of the ``index``-th deal dealt in this session (thrown-in deals count)."""
        return derive_seed(self.seed, index)

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the list is complete."""

    @abstractmethod
    def context(self) -> Mapping[str, Any]:
        """The context of the next deal (what the game's ``new_state`` takes)."""

    @abstractmethod
    def _book(self, state: State, result: DealResult) -> SheetRow:
        """Update dealer, totals and session counters for a finished deal; return its sheet row.

        Raise :class:`SessionError` before changing anything if the result
        breaks a check of the score sheet (e.g. zero-sum).
        """

    def _before_deal(self) -> None:
        """Settle the next deal's dealer and forced players (called once per deal, before :meth:`context`).

        The default does nothing; games whose rules can move the deal or force
        a player just before dealing (Doppelkopf's Vorführung) override it.
        """
        return

    def next_deal(self, hands: Sequence[Sequence[Card]] | None = None) -> State | None:
        """The next deal to play, or ``None`` when the list is over.

        Until it is booked, the same pending deal is returned.  ``hands``
        (one list of cards per seat) replaces the seeded shuffle: for keeping
        the sheet of a table dealt by hand and for scenario tests.  The deal
        still takes its place ``deal_index`` in the list.
        """
        if self.pending is not None:
            if hands is not None:
                raise SessionError("a deal is already pending; book it before dealing explicit hands")
            return self.pending
        if self.is_over():
            return None
        dealer = self.dealer
        self._before_deal()
        context = self.context()
        try:
            if hands is None:
                state = self.game.new_state(seed=self.deal_seed(self.deal_index), dealer=self.dealer, context=context)
            else:
                state = self.game.new_state(hands=hands, dealer=self.dealer, context=context)
        except Exception:
            self.dealer = dealer  # rejected hands: leave the list as it was, so the next call settles the deal afresh
            raise
        self.pending = state
        return state

    def book(self, state: State) -> SheetRow:
        """Book the finished pending deal and advance the session."""
        if state is not self.pending:
            raise SessionError("only the deal handed out by next_deal() can be booked")
        if not state.is_terminal():
            raise SessionError("the deal is not finished")
        result = state.result()
        row = self._book(state, result)
        self.rows.append(row)
        self.deal_index += 1
        self.pending = None
        return row

    def sheet(self) -> list[dict[str, Any]]:
        """The score sheet as JSON rows."""
        return [row.to_json() for row in self.rows]
