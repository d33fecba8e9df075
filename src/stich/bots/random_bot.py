"""The seeded random bot: uniform over the legal actions."""

from __future__ import annotations

import random

from stich.core.game import Action, Game, Observation


class RandomBot:
    """Chooses uniformly among the legal actions with its own seeded generator."""

    name = "random"

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        """A uniformly random legal action."""
        if not observation.legal_actions:
            raise ValueError(f"seat {self.seat} has no legal action to choose from")
        return self.rng.choice(observation.legal_actions)
