"""Configurations and random deals the RL tests share."""

from __future__ import annotations

import random
from collections.abc import Iterator

from stich.core.game import Game, State
from stich.rl.ids import game_for, registered_ids

TABLE_SIZES = (
    "doppelkopf(players=5)",
    "dobbm(players=5)",
    "droggn(players=4)",
    "dappen(players=3,deal=jeu_du_tarot)",
    "dappen(players=5,deal=jeu_du_tarot)",
    "dappen(players=7)",
    "dappen(players=8)",
)
"""Table sizes the presets leave out (tapp_tarock's four_players is a preset)."""

CONFIGS = (*registered_ids(), *TABLE_SIZES)
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
