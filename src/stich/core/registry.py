"""The registry of games: the CLI, bots and adapters find games by name here.

Games register themselves by module path, so importing the registry stays
cheap and a game module is loaded only when it is used.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from stich.core.game import Game
from stich.core.options import parse_game_string
from stich.core.session import Session
from stich.errors import OptionError

# name -> "module:Class" of every game, in the order the project lists them.
GAMES: dict[str, str] = {
    "doppelkopf": "stich.games.doppelkopf.game:Doppelkopf",
    "tapp_tarock": "stich.games.tapp_tarock.game:TappTarock",
    "dobbm": "stich.games.dobbm.game:Dobbm",
    "droggn": "stich.games.droggn.game:Droggn",
    "dappen": "stich.games.dappen.game:Dappen",
}
# name -> "module:Class" of the game's session (list) rules.
SESSIONS: dict[str, str] = {
    "doppelkopf": "stich.games.doppelkopf.session:DoppelkopfSession",
    "tapp_tarock": "stich.games.tapp_tarock.session:TappTarockSession",
    "dobbm": "stich.games.dobbm.session:DobbmSession",
    "droggn": "stich.games.droggn.session:DroggnSession",
    "dappen": "stich.games.dappen.session:DappenSession",
}


def game_names() -> list[str]:
    """Names of the implemented games."""
    return list(GAMES)


def _load(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def game_class(name: str) -> type[Game]:
    """The Game class registered under ``name``."""
    target = GAMES.get(name)
    if target is None:
        raise OptionError(f"unknown game {name!r}; available: {', '.join(GAMES)}")
    cls = _load(target)
    if not (isinstance(cls, type) and issubclass(cls, Game)):  # pragma: no cover - registry misconfigured
        raise TypeError(f"{target} is not a Game class")
    return cls


def make_game(name: str, preset: str | None = None, options: Mapping[str, Any] | None = None) -> Game:
    """A configured game from its name, a preset and option overrides."""
    return game_class(name)(preset, options)


def game_from_string(text: str) -> Game:
    """A configured game from its canonical string, e.g. ``doppelkopf(preset=ddv,nines=false)``."""
    name, pairs = parse_game_string(text)
    preset = pairs.pop("preset", None)
    return make_game(name, preset, pairs)


def session_class(name: str) -> type[Session]:
    """The session (list) rules of game ``name``."""
    game_class(name)  # unknown game -> the usual error
    target = SESSIONS.get(name)
    if target is None:
        raise OptionError(f"{name} has no session (list) rules yet")
    cls = _load(target)
    if not (isinstance(cls, type) and issubclass(cls, Session)):  # pragma: no cover - registry misconfigured
        raise TypeError(f"{target} is not a Session class")
    return cls
