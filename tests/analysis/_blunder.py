"""Deals for the analysis tests: a finished Doppelkopf deal with a known blunder, and twin positions a seat cannot tell apart."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from stich.bots.heuristic import make_heuristic
from stich.bots.samplers import prepare_sampler
from stich.core.game import Game, Observation, State
from stich.core.records import deal_record
from stich.search.perfect_info import AlphaBeta, final_score, in_trick_play, play_codes, teams, tricks_left

BLUNDER_TRICKS = 3
"""Tricks left at the blunder: within the analysis's exact horizon for Doppelkopf."""

CHECK_WORLDS = 16
"""Sampled worlds in which the solver must prove the loss too."""


def _blunder(state: State) -> tuple[int, int] | None:
    """(blunder code, best code) where the mover plays last to a trick it can win and the solver proves that losing it costs score."""
    if not in_trick_play(state) or tricks_left(state) > BLUNDER_TRICKS:
        return None
    seat = state.current_player()
    current = state.observation(seat).tricks
    if not current or current[-1].winner is not None or len(current[-1].cards) != state.game.num_seats - 1:
        return None
    codes = play_codes(state)
    if len(codes) < 2:
        return None
    values = AlphaBeta(seat, final_score).solve(state, codes)
    best = max(codes, key=lambda c: values[c])
    worst = min(codes, key=lambda c: values[c])
    if values[best] - values[worst] < 1 or not _takes_trick(state, best, seat) or _takes_trick(state, worst, seat):
        return None
    # The loss holds in every world the seat cannot rule out (sampled), not only in the true deal.
    sampler = prepare_sampler(state.game, state.observation(seat))
    rng = random.Random(len(state.history))
    for _ in range(CHECK_WORLDS):
        world = sampler.sample(rng)
        in_world = AlphaBeta(seat, final_score).solve(world, [best, worst])
        if in_world[best] - in_world[worst] < 1:
            return None
    return worst, best


def _takes_trick(state: State, code: int, seat: int) -> bool:
    """Whether the last card ``code`` of the trick wins it for ``seat``'s party."""
    child = state.clone()
    child.apply(code)
    winner = child.observation(seat).tricks[-1].winner
    side = teams(child)
    return winner is not None and side[winner] == side[seat]


def blunder_deal(game: Game, seeds: range = range(200)) -> tuple[dict[str, Any], int, int, str, str]:
    """(record, seat, action index, blunder text, solver's best text) of the first seed with a blunder position.

    Heuristic bots play every seat; at the first position found, the mover
    plays the card the solver values lowest in the true deal instead, and the
    bots finish the deal.
    """
    for seed in seeds:
        bots = [make_heuristic(game, seat, seed) for seat in range(game.num_seats)]
        state = game.new_state(seed=seed, dealer=seed % game.num_seats)
        found: tuple[int, int, str, str] | None = None
        while not state.is_terminal():
            mover = state.current_player()
            if found is None and (pair := _blunder(state)) is not None:
                worst, best = pair
                found = (mover, len(state.history), game.actions[worst].text, game.actions[best].text)
                state.apply(worst)
                continue
            state.apply(bots[mover].choose(state.observation(mover)))
        if found is not None:
            seat, index, played, best = found
            return deal_record(state), seat, index, played, best
    raise AssertionError("no seed gave a blunder position")


def twin_deals(game: Game, stop: int, seeds: int) -> Iterator[tuple[State, State, int, Observation]]:
    """``(state, other, seat, observation)``: a position after ``stop`` heuristic decisions, and a deal its mover cannot tell from it."""
    for seed in range(seeds):
        bots = [make_heuristic(game, seat, seed) for seat in range(game.num_seats)]
        state = game.new_state(seed=seed, dealer=seed % game.num_seats)
        for _ in range(stop):
            if state.is_terminal():
                break
            mover = state.current_player()
            state.apply(bots[mover].choose(state.observation(mover)))
        if state.is_terminal() or len(state.legal_codes()) < 2:
            continue
        seat = state.current_player()
        observation = state.observation(seat)
        other = prepare_sampler(game, observation).sample(random.Random(seed))
        if all(other.hand_mask(s) == state.hand_mask(s) for s in range(game.num_seats) if s != seat):
            continue
        assert other.observation(seat) == observation
        yield state, other, seat, observation
