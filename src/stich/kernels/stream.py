"""What every compiled kernel's Python side shares: the switch that turns the kernels off, and their random stream.

The kernels draw from a splitmix64 stream; their pure-Python fallbacks step
the same stream with :func:`splitmix`, so a playout gives the same cards
with and without numba.  ``STICH_NO_NUMBA`` (any non-empty value) makes
every adapter take its pure-Python path (tests of the fallbacks, machines
where numba misbehaves).
"""

from __future__ import annotations

import os

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MIX_1 = 0xBF58476D1CE4E5B9
MIX_2 = 0x94D049BB133111EB


def switched_off() -> bool:
    """Whether ``STICH_NO_NUMBA`` asks for the pure-Python paths."""
    return bool(os.environ.get("STICH_NO_NUMBA"))


def splitmix(state: int) -> tuple[int, int]:
    """One step of the kernels' splitmix64 stream in pure Python: the next state and its 64-bit output."""
    state = (state + GAMMA) & MASK64
    z = ((state ^ (state >> 30)) * MIX_1) & MASK64
    z = ((z ^ (z >> 27)) * MIX_2) & MASK64
    return state, z ^ (z >> 31)
