"""Bots by name, as the command line and the arena name them."""

from __future__ import annotations

import importlib

from stich.bots.base import Bot
from stich.core.errors import OptionError
from stich.core.game import Game

BOTS: dict[str, str] = {
    "random": "stich.bots.random_bot:RandomBot",
    "heuristic": "stich.bots.heuristic:make_heuristic",
    "pimc": "stich.bots.pimc:make_pimc",
    "ismcts": "stich.bots.ismcts:make_ismcts",
}


def bot_names() -> list[str]:
    """Names of the available bots."""
    return list(BOTS)


def make_bot(name: str, game: Game, seat: int, seed: int) -> Bot:
    """A bot by name for ``seat`` of ``game``, seeded."""
    target = BOTS.get(name)
    if target is None:
        raise OptionError(f"unknown bot {name!r}; available: {', '.join(BOTS)}")
    module_name, _, attr = target.partition(":")
    factory = getattr(importlib.import_module(module_name), attr)
    bot: Bot = factory(game, seat, seed)
    return bot
