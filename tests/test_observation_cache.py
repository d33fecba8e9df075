"""Observations built from a state's kept texts and trick views equal freshly built ones.

Rollouts observe the state at every card, so the games keep the rendered
events per seat (:func:`stich.core.game.seen_events`, once no earlier
action's text can change) and the views of finished tricks
(:func:`stich.core.game.trick_views` with an ``owner``) on the state.  These
tests play seeded random deals of every preset of every game, branch clones
off along the way and play them on differently, and compare every seat's
observation at every step with one built on a copy that keeps nothing.
A hidden discard revealed later (Tapp Tarock's shown tarocks, a Droggn
card bought from a defender, a Doppelkopf poverty exchange) is exactly what
a stale text would get wrong.
"""

from __future__ import annotations

import random

import pytest

from stich.bots.base import Bot
from stich.bots.heuristic import make_heuristic
from stich.core.game import _EVENTS_KEY, _VIEWS_KEY, Observation, State
from stich.core.registry import game_class, game_names, make_game


def fresh_observation(state: State, seat: int) -> Observation:
    """``seat``'s observation built from nothing kept: a clone with the kept texts and views removed."""
    bare = state.clone()
    bare.__dict__.pop(_EVENTS_KEY, None)
    bare.__dict__.pop(_VIEWS_KEY, None)
    return bare.observation(seat)


def check_all_seats(state: State) -> None:
    for seat in range(state.game.num_seats):
        kept = state.observation(seat)
        assert kept == fresh_observation(state, seat), f"seat {seat} after {len(state.history)} actions"


def play_on(state: State, rng: random.Random, bots: list[Bot], branches: list[State]) -> None:
    """Play ``state`` to its end, checking every step; sometimes leave a clone in ``branches``.

    Mostly the heuristic bots choose, so that the deals reach the contracts
    with hidden cards revealed later (random bidding rarely does); every
    fifth action is random, so that the play strays from their habits.
    """
    while not state.is_terminal():
        check_all_seats(state)
        if rng.random() < 0.08:
            branches.append(state.clone())
        if rng.random() < 0.2:
            state.apply(rng.choice(state.legal_codes()))
        else:
            seat = state.current_player()
            state.apply(bots[seat].choose(state.observation(seat)).code)
    check_all_seats(state)


CASES = [(name, preset) for name in game_names() for preset in game_class(name).option_table.presets]


@pytest.mark.parametrize(("name", "preset"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_kept_observation_parts_equal_fresh_ones(name: str, preset: str) -> None:
    game = make_game(name, preset)
    rng = random.Random(f"{name}:{preset}")
    bots = [make_heuristic(game, seat, seat) for seat in range(game.num_seats)]
    for deal in range(6):
        state = game.new_state(seed=rng.getrandbits(32), dealer=deal % game.num_seats)
        branches: list[State] = []
        play_on(state, rng, bots, branches)
        for branch in branches[:4]:  # a clone shares what its original kept, then goes its own way
            play_on(branch, rng, bots, [])


def test_a_clone_keeps_its_own_texts() -> None:
    """Two clones of one trick-play state, played on differently, each see their own history."""
    game = make_game("dobbm")
    rng = random.Random(3)
    state = game.new_state(seed=11, dealer=0)
    while state.phase_name != "play":
        state.apply(rng.choice(state.legal_codes()))
    state.apply(state.legal_codes()[0])
    while len(state.legal_codes()) < 2:
        state.apply(state.legal_codes()[0])
    seat = state.current_player()
    state.observation(seat)  # the original keeps its texts
    a, b = state.clone(), state.clone()
    a.apply(a.legal_codes()[0])
    b.apply(b.legal_codes()[-1])
    assert a.observation(seat).events[-1] != b.observation(seat).events[-1]
    assert a.observation(seat) == fresh_observation(a, seat)
    assert b.observation(seat) == fresh_observation(b, seat)
    assert len(state.observation(seat).events) == len(a.history) - 1
