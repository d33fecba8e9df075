"""The generic search algorithms: they know no game and no bot.

* :mod:`stich.search.sampling` -- the world-sampler framework: worlds (full
  states) consistent with what one seat knows; each game's sampler lives
  with its players (``stich.bots.<game>.sampling``, found by
  :func:`stich.bots.samplers.prepare_sampler`);
* :mod:`stich.search.ismcts` -- single-observer ISMCTS and its generic rollouts;
* :mod:`stich.search.perfect_info` -- valuing actions in one fully known
  world (alpha-beta endgames, rollouts);
* :mod:`stich.search.call_reading` -- worlds that explain the other seats' calls;
* :mod:`stich.search.budget`, :mod:`stich.search.voting`,
  :mod:`stich.search.scores` -- thinking time, robust votes over worlds,
  scores as floats.

Where a search lets seats play on, the bot running it hands in policies
(:mod:`stich.search.policy`).
"""

from stich.search.sampling import SamplingError, WorldSampler

__all__ = ["SamplingError", "WorldSampler"]
