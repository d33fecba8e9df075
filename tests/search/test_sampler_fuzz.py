"""Every game's world sampler admits the real deal at every decision of mixed random and heuristic play.

The per-game sampler tests check a few positions in depth; this one checks
many positions shallowly.  A sampler that excludes the real world draws from
the wrong distribution, and where its wrong inferences leave no world at all
the ``pimc`` bot has nothing to search (Dappen's Ulti fact did both until a
1,000-deal match met it after 600 deals, docs/strength.md).  Random play
reaches the odd positions search bots reach and the heuristic avoids.
"""

from __future__ import annotations

import random

import pytest

from stich.bots.heuristic import make_heuristic
from stich.core.registry import make_game
from stich.search.sampling import prepare_sampler

DEALS = {"doppelkopf": 80, "tapp_tarock": 80, "dobbm": 80, "droggn": 80, "dappen": 120}
"""Deals per game: a few seconds each; Dappen more, as its inferences are the most numerous."""


@pytest.mark.parametrize("name", sorted(DEALS))
def test_the_real_world_is_always_admitted(name: str) -> None:
    game = make_game(name)
    positions = 0
    for seed in range(DEALS[name]):
        rng = random.Random(seed)
        state = game.new_state(seed=seed, dealer=seed % game.num_seats)
        bots = [make_heuristic(game, seat, seed) for seat in range(game.num_seats)]
        randomness = (1.0, 0.0, 0.5)[seed % 3]  # random play, the heuristic's, or half and half
        step = 0
        while not state.is_terminal():
            seat = state.current_player()
            observation = state.observation(seat)
            sampler = prepare_sampler(game, observation)
            assert sampler.admits(state), f"{name} deal {seed}: seat {seat}'s sampler excludes the real world at action {step}"
            positions += 1
            step += 1
            legal = observation.legal_actions
            state.apply(rng.choice(legal) if rng.random() < randomness else bots[seat].choose(observation))
    assert positions > 20 * DEALS[name]
