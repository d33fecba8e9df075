"""Search support: tools that bots use to look ahead (the exact solver, the fast kernel, world sampling).

:mod:`stich.search.sampling` draws full worlds (states) consistent with what
one seat knows -- :func:`~stich.search.sampling.sample_world` -- so that a
search bot can play the deal out without ever reading the real hidden cards.
"""

from stich.search.sampling import SamplingError, WorldSampler, prepare_sampler, sample_world

__all__ = ["SamplingError", "WorldSampler", "prepare_sampler", "sample_world"]
