"""Configurations and random deals the RL tests share."""

from __future__ import annotations

import random
from collections.abc import Iterator

from stich.core.game import Game, State
from stich.rl.ids import game_for
from stich.rl.leak_check import leak_configs

CONFIGS = leak_configs()
"""Every preset id and every other table size: what the encoding tests play."""


def random_deal(game: Game, seed: int) -> Iterator[State]:
    """Every state of one deal played by uniformly random legal actions (the last one terminal)."""
    state = game.new_state(seed=seed, dealer=seed % game.num_seats)
    rng = random.Random(seed)
    yield state
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_codes()))
        yield state


def configs_games() -> list[Game]:
    """The configured game of every entry of :data:`CONFIGS`."""
    return [game_for(c) for c in CONFIGS]
