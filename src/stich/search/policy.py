"""What a search asks of the players it simulates: a policy that picks an action from an observation.

The search algorithms here know no game and no bot.  Where a search lets
the seats play on (a heuristic rollout, reading the other seats' calls,
guiding or playing the other seats in the ISMCTS tree), the bot that runs
the search hands it policies or a :class:`PolicyFactory` that makes them;
every bot (:class:`stich.bots.base.Bot`) is a :class:`Policy`.
"""

from __future__ import annotations

from typing import Protocol

from stich.core.game import Action, Game, Observation


class Policy(Protocol):
    """Picks one of ``observation.legal_actions`` for the seat that sees ``observation``."""

    def choose(self, observation: Observation) -> Action:
        """One of ``observation.legal_actions``."""
        ...


class PolicyFactory(Protocol):
    """Makes the policy of ``seat`` of ``game``, seeded (the games' heuristic bots, say)."""

    def __call__(self, game: Game, seat: int, seed: int) -> Policy: ...
