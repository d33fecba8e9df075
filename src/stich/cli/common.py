"""Helpers the commands share: configuring a game, naming bots, sessions and seeds.

Everything here turns command-line text into engine objects and raises a
:class:`~stich.errors.StichError` subclass with a one-line message when
the text is wrong, so that ``main`` can print ``stich: error: ...`` and exit 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stich.bots.base import Bot
from stich.bots.registry import bot_names
from stich.bots.spec import build_bot, parse_bot_spec, parse_bot_specs
from stich.core import registry
from stich.core.game import Game
from stich.core.options import parse_assignments
from stich.core.registry import make_game
from stich.core.rng import MASK64, derive_seed
from stich.core.session import Session
from stich.errors import StichError

BOT_SALT = 0xB07_5EED_0000_0001
"""Mixed into bot seeds so that a bot never draws from the same stream as the deal."""


class UsageError(StichError, ValueError):
    """A command line that does not make sense (a wrong count of bots, conflicting flags...)."""


def build_game(name: str, preset: str | None, assignments: Sequence[str], players: int | None) -> Game:
    """The configured game of ``--preset``, ``--option KEY=VALUE`` and ``--players N``."""
    overrides: dict[str, Any] = dict(parse_assignments(list(assignments)))
    if players is not None:
        if "players" in overrides and str(overrides["players"]) != str(players):
            raise UsageError(f"--players {players} contradicts --option players={overrides['players']}; give the number once")
        overrides["players"] = players
    return make_game(name, preset, overrides)


def parse_bot_list(text: str, count: int, what: str = "seat") -> list[str]:
    """Bot specs from ``--bots``, read as ``stich arena`` reads them: one for all ``count`` seats, or one per seat.

    :func:`stich.bots.spec.parse_bot_specs` parses; this returns the specs'
    canonical texts (a bare name stays the name), so
    ``--bots pimc:level=3,worlds=20,heuristic`` gives two bots.
    """
    if any(not part.strip() for part in text.split(",")):
        raise UsageError(f"empty bot name in --bots {text!r}; available: {', '.join(bot_names())}")
    names = [spec.text for spec in parse_bot_specs(text)]
    if len(names) == 1:
        return names * count
    if len(names) != count:
        raise UsageError(f"--bots names {len(names)} bots, but there are {count} {what}s: give one name for all or one per {what}")
    return names


def make_seat_bot(spec: str, game: Game, seat: int, seed: int) -> Bot:
    """The bot of spec text ``spec`` (see :func:`parse_bot_list`) for ``seat`` of ``game``."""
    return build_bot(parse_bot_spec(spec), game, seat, seed)


def bot_seed(seed: int, game_index: int, seat: int, deal_index: int = 0) -> int:
    """Seed of the bot in ``seat`` for deal ``deal_index`` of game ``game_index`` of a run started from ``seed``."""
    inner = derive_seed((seed ^ BOT_SALT) & MASK64, game_index)
    return derive_seed(derive_seed(inner, deal_index), seat)


def make_bots(game: Game, names: Sequence[str], seed: int, game_index: int, deal_index: int = 0) -> list[Bot]:
    """One seeded bot per seat, from the spec texts of :func:`parse_bot_list`."""
    return [make_seat_bot(name, game, seat, bot_seed(seed, game_index, seat, deal_index)) for seat, name in enumerate(names)]


def session_class(game_name: str) -> type[Session]:
    """The session class (a list of deals) of a game, if the game has one."""
    return registry.session_class(game_name)
