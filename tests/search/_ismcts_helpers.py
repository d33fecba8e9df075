"""Worlds the ISMCTS tests share: a sampler of the true state, card-play decision points, twin deals with one observation."""

from __future__ import annotations

import random
from collections.abc import Callable

from stich.bots.heuristic import make_heuristic
from stich.bots.samplers import prepare_sampler
from stich.core.game import Game, State
from stich.search.perfect_info import in_trick_play


class _OneWorld:
    """A sampler that always draws the true state (so every iteration of a search plays the same world)."""

    def __init__(self, state: State) -> None:
        self.state = state

    def draw(self, rng: random.Random, stop: Callable[[], bool] | None = None) -> State | None:
        return self.state.clone()


def _play_decision(game: Game, seed: int, *, tricks_played: int, next_choices: int = 2) -> State:
    """A card-play state after ``tricks_played`` tricks of heuristic play.

    Its mover has a choice, and after the mover's first legal action the
    next mover has at least ``next_choices``.
    """
    for attempt in range(40):
        state = game.new_state(seed=seed * 100 + attempt)
        bots = [make_heuristic(game, s, s) for s in range(game.num_seats)]
        plays = 0
        while not state.is_terminal():
            seat = state.current_player()
            codes = state.legal_codes()
            if in_trick_play(state) and plays >= tricks_played * game.num_seats and len(codes) > 1:
                after = state.clone()
                after.apply(codes[0])
                if not after.is_terminal() and len(after.legal_codes()) >= next_choices:
                    return state
            if in_trick_play(state):
                plays += 1
            state.apply(bots[seat].choose(state.observation(seat)))
    raise AssertionError("no such decision point")


def _twin_deals(game: Game, seed: int) -> tuple[State, State, int]:
    """Two card-play states whose mover (returned third) sees the same observation, with other hands differing."""
    real = _play_decision(game, seed, tricks_played=2)
    seat = real.current_player()
    obs = real.observation(seat)
    other = prepare_sampler(game, obs).sample(random.Random(5))
    assert other.observation(seat) == obs
    assert any(real.hand_mask(s) != other.hand_mask(s) for s in range(game.num_seats) if s != seat)
    return real, other, seat
