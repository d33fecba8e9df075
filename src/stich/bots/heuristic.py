"""The ``heuristic`` bot: a rule-based player per game, chosen by game name.

Each game registers its bot class in :data:`HEURISTICS` (for Doppelkopf
:class:`~stich.bots.doppelkopf.heuristic.DoppelkopfHeuristic`).  A game
without one gets the seeded :class:`~stich.bots.random_bot.RandomBot`, which
reports its own name (``random``), so records never pass random play off as
heuristic play.
"""

from __future__ import annotations

import importlib

from stich.bots.base import Bot
from stich.bots.random_bot import RandomBot
from stich.core.game import Game

HEURISTICS: dict[str, str] = {
    "doppelkopf": "stich.bots.doppelkopf.heuristic:DoppelkopfHeuristic",
    "tapp_tarock": "stich.bots.tapp_tarock.heuristic:TappTarockHeuristic",
    "dobbm": "stich.bots.dobbm.heuristic:DobbmHeuristic",
    "droggn": "stich.bots.droggn.heuristic:DroggnHeuristic",
    "dappen": "stich.bots.dappen.heuristic:DappenHeuristic",
}
"""Game name -> ``module:Class`` of its heuristic bot (constructed as ``Class(game, seat, seed)``)."""


def make_heuristic(game: Game, seat: int, seed: int) -> Bot:
    """A heuristic bot for ``seat`` of ``game`` (the random bot for games without heuristic rules)."""
    target = HEURISTICS.get(game.name)
    if target is None:
        return RandomBot(game, seat, seed)
    module_name, _, class_name = target.partition(":")
    bot: Bot = getattr(importlib.import_module(module_name), class_name)(game, seat, seed)
    return bot
