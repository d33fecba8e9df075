"""What the kernel rollout asks of a Tarock-family game: an :class:`Adapter` between its state and the kernel.

Each game with plain Tarock trick play writes one (``stich.bots.dobbm.kernel_adapter``,
``stich.bots.tapp_tarock.kernel_adapter``); :mod:`stich.bots.tarock_rollout`
lists them by game name.
"""

from __future__ import annotations

from collections.abc import Sequence, Sized
from typing import Protocol

from stich.bots.tarock_family.kernel import KernelGame, TrickPosition, TrickRules
from stich.core.game import State


class Adapter(Protocol):
    """What the rollout needs of a game: its position for the kernel, and scores for the kernel's outcomes.

    ``exact`` says whether the game's score grows with side 0's card points
    (plus the :meth:`bonus` for ending with a trick), so that the solver's
    value is its score; only then are :meth:`bonus` and :meth:`solved` asked.
    """

    exact: bool

    def position(self, state: State) -> TrickPosition:
        """The card play left in ``state`` (in card play, not terminal)."""
        ...

    def bonus(self, state: State) -> tuple[int, int]:
        """(side 0's tricks so far, the points it gains by ending with a trick) for :func:`~stich.bots.tarock_family.kernel.solve`."""
        ...

    def played_out(self, state: State, games: Sequence[KernelGame]) -> list[tuple[int, ...]]:
        """Every seat's score per kernel game (side 0's won cards and tricks from ``state`` on, the last trick's winner)."""
        ...

    def solved(self, state: State, value: int) -> tuple[int, ...]:
        """Every seat's score when the solver's value from ``state`` on is ``value``."""
        ...


class SoloState(Protocol):
    """What :func:`solo_position` reads of a declarer-against-the-rest game's state (Dobbm's, Tapp Tarock's)."""

    @property
    def declarer(self) -> int | None: ...

    @property
    def active(self) -> Sequence[int]: ...

    @property
    def trick_cards(self) -> Sequence[int]: ...

    @property
    def trick_seats(self) -> Sequence[int]: ...

    @property
    def hands(self) -> Sequence[int]: ...

    @property
    def tricks(self) -> Sized: ...

    def current_player(self) -> int: ...


def solo_position(state: SoloState, rules: TrickRules, tricks: int) -> TrickPosition:
    """The card play left in a declarer-against-the-rest game, in kernel seats (the active seats in playing order).

    ``tricks`` is the number of tricks in the deal; side 0 is the declarer alone.
    """
    assert state.declarer is not None
    seats = tuple(state.active)
    trick = tuple(state.trick_cards)
    leader = state.trick_seats[0] if trick else state.current_player()
    return TrickPosition(
        rules=rules,
        seats=seats,
        side=1 << seats.index(state.declarer),
        hands=tuple(state.hands[s] for s in seats),
        trick=trick,
        leader=seats.index(leader),
        tricks_left=tricks - len(state.tricks),
    )


SCORE_CACHE = 100_000
"""Most scores an adapter keeps (a match plays many deals in one process; the cache starts over when full)."""
