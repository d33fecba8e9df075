"""Deterministic, portable shuffling from a seed.

The rules core draws no random numbers of its own: dealing takes a seed.  The
permutation is defined here, independently of Python's ``random`` module, with
SplitMix64 and an unbiased Fisher–Yates shuffle, so that any implementation
can check a deal against its seed (``stich verify`` relies on this).
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1


class SplitMix64:
    """The SplitMix64 generator (Steele, Lea, Flood 2014): tiny, fast, portable."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """Next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` by rejection (no modulo bias)."""
        limit = MASK64 - (MASK64 + 1) % n
        while True:
            x = self.next()
            if x <= limit:
                return x % n


def shuffled(items: list[int] | tuple[int, ...], seed: int) -> list[int]:
    """A seeded Fisher–Yates shuffle of ``items`` (a new list).

    Equivalent to ``j = SplitMix64(seed).below(i + 1)`` for ``i`` from the
    last index down to 1, with the generator steps written out inline because
    dealing is on the simulation hot path (tests check the two agree).
    """
    out = list(items)
    state = seed & MASK64
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = MASK64 - (MASK64 + 1) % n
        while True:
            state = (state + 0x9E3779B97F4A7C15) & MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            if z <= limit:
                break
        j = z % n
        out[i], out[j] = out[j], out[i]
    return out


def derive_seed(seed: int, index: int) -> int:
    """Seed of deal ``index`` in a series started from ``seed`` (for lists and sims)."""
    gen = SplitMix64(seed ^ ((index * 0xD1B54A32D192ED03) & MASK64))
    return gen.next()
