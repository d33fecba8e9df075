"""Configurations the RL tests share (random deals: :func:`stich.rl.leak_check.random_points`)."""

from __future__ import annotations

from stich.core.game import Game
from stich.rl.ids import game_for
from stich.rl.leak_check import leak_configs

CONFIGS = leak_configs()
"""Every preset id and every other table size: what the encoding tests play."""


def configs_games() -> list[Game]:
    """The configured game of every entry of :data:`CONFIGS`."""
    return [game_for(c) for c in CONFIGS]
