"""The bot interface: a bot sees only an observation and answers with a legal action.

Bots never receive the full state, so they cannot see cards they are not
entitled to; search bots (a later issue) sample full states consistent with
the observation.
"""

from __future__ import annotations

from typing import Protocol

from stich.core.game import Action, Game, Observation


class Bot(Protocol):
    """Anything that picks an action for a seat from that seat's observation."""

    name: str

    def choose(self, observation: Observation) -> Action:
        """One of ``observation.legal_actions``."""
        ...


class BotFactory(Protocol):
    """Builds a bot for one seat of a game; ``seed`` makes it reproducible."""

    def __call__(self, game: Game, seat: int, seed: int) -> Bot: ...
