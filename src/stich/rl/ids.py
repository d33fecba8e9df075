"""Environment ids: one registry of versioned ids with the rules inside, shared by every framework adapter.

Every preset of every game has an id ``stich/<game>-<preset>-v<N>``, e.g.
``stich/doppelkopf-ddv-v1`` or ``stich/tapp_tarock-four_players-v1``; any
other configuration is reached by its canonical game string, bare
(``doppelkopf(preset=ddv,nines=false)``, ``dobbm``) or wrapped in an id
(``stich/doppelkopf(preset=ddv,nines=false)-v1``).  ``N`` is the version of
the observation encoding (:data:`ENCODING_VERSION`); an id
of another version is refused rather than silently given another layout.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from stich.core.game import Game
from stich.core.registry import game_class, game_from_string, game_names
from stich.errors import OptionError

ENCODING_VERSION = 1
"""Version of the observation encoding (tensor layout); the ``vN`` of every id.  Raise it whenever a slice changes."""

PREFIX = "stich/"
_ID = re.compile(r"^stich/(?P<body>.+)-v(?P<version>\d+)$")
_PRESET_BODY = re.compile(r"^(?P<game>[a-z_]+)-(?P<preset>[a-z0-9_]+)$")


@dataclass(frozen=True)
class EnvSpec:
    """What an environment id stands for: the configured game and the versions that fix its behaviour."""

    id: str
    game: str
    """Canonical game string (rules name, preset and every option that differs from it)."""
    rules_version: int
    """The game's rules version (changes when outcomes change; records carry it)."""
    encoding_version: int


def env_id(game: Game) -> str:
    """The id of a configured game: the preset id where the game is a plain preset, else its canonical string in an id."""
    if game.canonical == f"{game.name}(preset={game.preset})":
        return f"{PREFIX}{game.name}-{game.preset}-v{ENCODING_VERSION}"
    return f"{PREFIX}{game.canonical}-v{ENCODING_VERSION}"


def registered_ids() -> list[str]:
    """The id of every preset of every game, in the project's game order."""
    return [f"{PREFIX}{name}-{preset}-v{ENCODING_VERSION}" for name in game_names() for preset in game_class(name).option_table.presets]


def resolve(name: str) -> EnvSpec:
    """The spec of an environment id or canonical game string; raises :class:`OptionError` naming the problem."""
    game = game_for(name)
    return EnvSpec(env_id(game), game.canonical, game.rules_version, ENCODING_VERSION)


def game_for(name: str) -> Game:
    """The configured game an environment id or canonical game string stands for."""
    text = name.strip()
    match = _ID.match(text)
    if match is None:
        if text.startswith(PREFIX):
            raise OptionError(f"malformed environment id {name!r}: expected stich/<game>-<preset>-v{ENCODING_VERSION}")
        return game_from_string(text)
    version = int(match["version"])
    if version != ENCODING_VERSION:
        raise OptionError(f"environment id {name!r}: version v{version} does not exist; the current encoding is v{ENCODING_VERSION}")
    body = match["body"]
    preset = _PRESET_BODY.match(body)
    if preset is not None and "(" not in body:
        cls = game_class(preset["game"])
        if preset["preset"] not in cls.option_table.presets:
            raise OptionError(f"{preset['game']} has no preset {preset['preset']!r}; presets: {', '.join(cls.option_table.presets)}")
        return cls(preset["preset"])
    return game_from_string(body)
