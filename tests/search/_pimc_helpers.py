"""Deals for the pimc tests: a deal played part-way by heuristic bots, and twin deals a seat cannot tell apart."""

from __future__ import annotations

import random
from collections.abc import Iterator

from stich.bots.heuristic import make_heuristic
from stich.bots.samplers import prepare_sampler
from stich.core.game import Game, Observation, State


def play_until(game: Game, seed: int, stop: int) -> State:
    """A deal after ``stop`` decisions of heuristic bots (or earlier, at its end)."""
    bots = [make_heuristic(game, seat, seed) for seat in range(game.num_seats)]
    state = game.new_state(seed=seed, dealer=seed % game.num_seats)
    for _ in range(stop):
        if state.is_terminal():
            break
        mover = state.current_player()
        state.apply(bots[mover].choose(state.observation(mover)))
    return state


def twin_deals(game: Game, stop: int, seeds: int = 40) -> Iterator[tuple[State, State, int, Observation]]:
    """``(state, other, seat, observation)``: two different true deals in which the seat to move sees the same.

    ``other`` is a world the game's sampler draws for that seat's observation, kept only where it
    differs from the real deal in some other seat's hand; positions without a choice are skipped.
    """
    for seed in range(seeds):
        state = play_until(game, seed, stop)
        if state.is_terminal() or len(state.legal_codes()) < 2:
            continue
        seat = state.current_player()
        observation = state.observation(seat)
        other = prepare_sampler(game, observation).sample(random.Random(seed))
        if all(other.hand_mask(s) == state.hand_mask(s) for s in range(game.num_seats) if s != seat):
            continue  # the sampler happened to draw the real deal
        assert other.observation(seat) == observation
        yield state, other, seat, observation
