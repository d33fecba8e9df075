"""Which world sampler each game has: :func:`prepare_sampler` and :func:`sample_world` by game name.

The sampler framework (:mod:`stich.search.sampling`) knows no game; each
game's players bring their own :class:`~stich.search.sampling.WorldSampler`
(``stich.bots.<game>.sampling``), registered here by game name and loaded on
first use.
"""

from __future__ import annotations

import importlib
import random

from stich.core.game import Game, Observation, State
from stich.search.sampling import WorldSampler

SAMPLERS: dict[str, str] = {
    "doppelkopf": "stich.bots.doppelkopf.sampling:DoppelkopfWorldSampler",
    "tapp_tarock": "stich.bots.tapp_tarock.sampling:TappTarockWorldSampler",
    "dobbm": "stich.bots.dobbm.sampling:DobbmWorldSampler",
    "droggn": "stich.bots.droggn.sampling:DroggnWorldSampler",
    "dappen": "stich.bots.dappen.sampling:DappenWorldSampler",
}
"""Game name -> ``"module:Class"`` of its :class:`WorldSampler` (loaded on first use)."""


def _load(target: str) -> type[WorldSampler]:
    """The sampler class registered as ``"module:Class"``."""
    module_name, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    if not (isinstance(cls, type) and issubclass(cls, WorldSampler)):  # pragma: no cover - registry misconfigured
        raise TypeError(f"{target} is not a WorldSampler")
    return cls


def prepare_sampler(game: Game, observation: Observation) -> WorldSampler:
    """A reusable sampler for one observation (the constraint tables are built once)."""
    target = SAMPLERS.get(game.name)
    if target is None:
        raise NotImplementedError(
            f"world sampling is not implemented for {game.name} yet (available: {', '.join(SAMPLERS)}); see docs/search.md"
        )
    return _load(target)(game, observation)


def sample_world(game: Game, observation: Observation, rng: random.Random) -> State:
    """A full state at the observation's point of the deal, consistent with everything the seat knows.

    The world is drawn uniformly among the consistent positions (see the
    module docstring); for many draws from one observation, keep the sampler
    of :func:`prepare_sampler` instead.
    """
    return prepare_sampler(game, observation).sample(rng)
