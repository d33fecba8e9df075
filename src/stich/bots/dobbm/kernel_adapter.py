"""Dobbm's kernel :class:`~stich.bots.tarock_family.adapter.Adapter`: its card play as a kernel position, and its scores."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from stich.bots.tarock_family.adapter import SCORE_CACHE, solo_position
from stich.bots.tarock_family.kernel import KernelGame, TrickPosition, TrickRules
from stich.core.game import Game, State
from stich.games.dobbm import pack as dobbm_pack
from stich.games.dobbm.options import DobbmOptions
from stich.games.dobbm.scoring import evaluate
from stich.games.dobbm.state import DobbmState


class DobbmAdapter:
    """Dobbm (dossier §6-§8): the declarer alone against the other active seats, hearts trump, Trumpfzwang."""

    exact = True

    def __init__(self, game: Game) -> None:
        options = game.options
        assert isinstance(options, DobbmOptions)
        self.options = options
        self.rules = TrickRules.of(dobbm_pack.ORDER, dobbm_pack.POINTS)
        self.talon_needs_trick = options.dobb_to_defenders_if_declarer_no_trick
        self._scores: dict[tuple[object, ...], tuple[int, ...]] = {}

    def position(self, state: State) -> TrickPosition:
        """The Dobbm state's card play in kernel seats (the active seats in playing order)."""
        assert isinstance(state, DobbmState)
        return solo_position(state, self.rules, dobbm_pack.TRICKS)

    @staticmethod
    def _before(state: DobbmState) -> tuple[int, int]:
        """The declarer's trick points and tricks in the tricks completed so far."""
        won = tricks = 0
        for _seats, cards, winner in state.tricks:
            if winner == state.declarer:
                tricks += 1
                for card in cards:
                    won |= 1 << card
        return dobbm_pack.points_of(won), tricks

    def bonus(self, state: State) -> tuple[int, int]:
        """The declarer's tricks so far, and the talon when a declarer without a trick loses it (§7.2)."""
        assert isinstance(state, DobbmState)
        _points, tricks = self._before(state)
        return tricks, self._talon(state)

    def _talon(self, state: DobbmState) -> int:
        """The talon's points when a declarer without a trick loses it (§7.2), else 0 (it is his either way)."""
        return dobbm_pack.points_of(state.laid_away) if self.talon_needs_trick else 0

    def _scores_for(self, state: DobbmState, trick_points: int, any_trick: bool) -> tuple[int, ...]:
        """Scores of the deal ending with ``trick_points`` for the declarer (``any_trick``: he took one).

        Cached on what the evaluation reads besides the two (contract,
        declarer, doubles, talon, dealer, Mußrunde), so that a hit costs no
        :meth:`~stich.games.dobbm.state.DobbmState.facts`.
        """
        key = (state.contract, state.declarer, state.doubles, state.laid_away, state.dealer, state.mussrunde, trick_points, any_trick)
        found = self._scores.get(key)
        if found is None:
            if len(self._scores) >= SCORE_CACHE:
                self._scores.clear()
            final = dataclasses.replace(state.facts(), trick_points=trick_points, declarer_tricks=int(any_trick))
            found = self._scores[key] = tuple(evaluate(final, self.options).scores)
        return found

    def played_out(self, state: State, games: Sequence[KernelGame]) -> list[tuple[int, ...]]:
        """Scores per game in which the declarer takes the cards and tricks given from ``state`` on."""
        assert isinstance(state, DobbmState)
        before_points, before_tricks = self._before(state)
        points_of = dobbm_pack.points_of
        return [self._scores_for(state, before_points + points_of(won), before_tricks + tricks > 0) for won, tricks, _last, _cards in games]

    def solved(self, state: State, value: int) -> tuple[int, ...]:
        """Scores for a solver value: the declarer's card points from ``state`` on, plus the talon if it needs and gets a trick."""
        assert isinstance(state, DobbmState)
        before_points, before_tricks = self._before(state)
        talon = self._talon(state)
        any_trick = before_tricks > 0 or value > 0
        future = value - talon if talon and any_trick else value
        return self._scores_for(state, before_points + future, any_trick or not talon)
