"""Where every environment's deals come from: a seeded stream per deal slot, the dealer, and batch seeding.

Every adapter (PettingZoo, Gymnasium, RLlib, the batches) draws each deal from
a :class:`DealStream`, so the rules below hold alike everywhere (decision 0046).

* **Dealer.** ``dealer="random"`` (the default of every adapter) draws each
  deal's dealer from the seeded stream; ``"rotate"`` draws the first deal's
  dealer after a (re)seed and then passes the deal to the next seat, as at a
  real table (every seat deals equally often); an int fixes the dealer.  A
  fixed dealer gives the seats fixed roles (who speaks first, who leads, who
  sits out at a five-player Doppelkopf table), which a learner would exploit
  or suffer by accident, hence not the default.
* **Seeds.** ``DealStream.seed(s)`` seeds the stream with ``s``; each deal then
  takes its engine seed (63 bits) and, unless fixed, its dealer from it, so
  ``reset(seed=s)`` followed by ``reset()`` ... is one reproducible series.
* **Batches** keep one stream per deal slot.  An int seed ``s`` gives slot
  ``i`` the seed :func:`spawn_seed` ``(s, i)``, made from the ``i``-th child of
  ``numpy.random.SeedSequence(s)`` (``SeedSequence(s).spawn(n)[i]``): the
  streams of ``(s, i)`` and ``(s', i')`` are independent whenever the pairs
  differ, so batches seeded ``s`` and ``s + 1`` share no stream (with
  ``s + i`` they shared all but one).  Deal slot ``i`` of a batch reset with
  ``s`` is therefore the single env's ``reset(seed=spawn_seed(s, i))``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

import numpy as np

Dealer = int | Literal["random", "rotate"]
"""A fixed seat, a dealer drawn per deal, or a dealer that rotates like at a table."""

DEFAULT_DEALER: Dealer = "random"
"""The dealer of every adapter unless one is given (decision 0046)."""

DEALER_MODES = ("random", "rotate")


def check_dealer(dealer: object, seats: int) -> Dealer:
    """``dealer`` as a :data:`Dealer` (an int-like seat is made an int), or a ValueError naming the choices."""
    if dealer in DEALER_MODES:
        return dealer  # type: ignore[return-value]  # one of the two literals
    if isinstance(dealer, bool) or not isinstance(dealer, int | np.integer) or not 0 <= int(dealer) < seats:
        raise ValueError(f"dealer must be a seat 0..{seats - 1}, 'random' or 'rotate', not {dealer!r}")
    return int(dealer)


def spawn_seed(seed: int, index: int) -> int:
    """The seed of stream ``index`` of a batch reset with ``seed``: 128 bits of ``SeedSequence(seed).spawn(...)[index]``."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"a batch seed must be a non-negative int (numpy's SeedSequence entropy), not {seed!r}")
    words = np.random.SeedSequence(int(seed), spawn_key=(index,)).generate_state(2, dtype=np.uint64)
    return int(words[0]) << 64 | int(words[1])


class DealStream:
    """The seeded stream of one deal slot: each deal's engine seed and dealer."""

    def __init__(self, seats: int, dealer: Dealer = DEFAULT_DEALER) -> None:
        self.seats = seats
        self.dealer = check_dealer(dealer, seats)
        self.rng = random.Random()
        """The stream itself (adapters draw their bots' seeds from it too)."""
        self._last: int | None = None

    def seed(self, seed: int) -> None:
        """Restart the stream (a rotating dealer starts anew from a drawn seat)."""
        self.rng.seed(seed)
        self._last = None

    def next_deal(self) -> tuple[int, int]:
        """``(engine seed, dealer)`` of the next deal."""
        deal_seed = self.rng.getrandbits(63)
        if self.dealer == "random" or (self.dealer == "rotate" and self._last is None):
            dealer = self.rng.randrange(self.seats)
        elif self.dealer == "rotate":
            dealer = (self._last + 1) % self.seats  # type: ignore[operator]  # not None here
        else:
            dealer = int(self.dealer)
        self._last = dealer
        return deal_seed, dealer


def reseed(streams: Sequence[DealStream], seed: int | Sequence[int]) -> None:
    """Reseed a batch's streams: an int ``s`` gives slot ``i`` :func:`spawn_seed` ``(s, i)``, a sequence one seed per slot.

    The sequence's seeds are used as given (as the single env's ``reset(seed=...)`` uses its seed).
    """
    seeds = [spawn_seed(seed, i) for i in range(len(streams))] if isinstance(seed, int | np.integer) else list(seed)
    if len(seeds) != len(streams):
        raise ValueError(f"reset needs {len(streams)} seeds, got {len(seeds)}")
    for stream, value in zip(streams, seeds, strict=True):
        stream.seed(value)
