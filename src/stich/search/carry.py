"""Worlds carried from one decision to the next of the same deal (a particle filter over the seat's worlds).

A search draws its worlds afresh at every decision, although most worlds of
the seat's previous decision still fit: the cards played since were in the
hands that world gave their players, and nobody revoked.  Drawing is the
dear part where a world must explain the other seats' calls (Dobbm's
:class:`~stich.search.call_reading.CallReadingSampler`: about 2.4 ms a world,
while an ISMCTS iteration costs 0.1-0.2 ms), so at a short budget a search
cycles through a handful of worlds and its tree learns *those* deals.

:class:`CarriedWorlds` hands out the earlier worlds first, each brought up to
the present by an ``advance`` function (:func:`~stich.search.sampling.advance_world`,
or :func:`~stich.search.call_reading.advance_explained` where the calls are
read: apply the actions since, then the same exact check as a fresh world;
a few tens of microseconds), and draws fresh worlds once they are used up.
The distribution stays the sampler's: worlds drawn uniformly among those
that fit an earlier observation, kept only when they fit the present one,
are uniform among those that fit the present one.

The worlds depend only on the seat's own earlier observations, which its
present observation implies; no hidden card enters.  The ``ismcts`` bot uses
this with ``carry=true``; measured, it is off by default
(:data:`stich.bots.ismcts.CARRY_DEFAULT`): few worlds survive a trick.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from stich.core.game import Observation, State
from stich.search.sampling import SamplingError

CARRY_LIMIT = 64
"""Most worlds kept from one decision for the next (the size of an ISMCTS world pool)."""


class Drawing(Protocol):
    """A world sampler as a search uses it."""

    def draw(self, rng: random.Random, stop: Callable[[], bool] | None = None) -> State | None:
        """A fresh world, or ``None`` when ``stop()`` says so."""
        ...


Advance = Callable[[State], "State | None"]
"""Brings a world of an earlier decision up to the present observation, or ``None`` if it no longer fits."""


class CarriedWorlds:
    """A world source: the ``carried`` worlds that still fit, advanced, then fresh draws of the sampler ``prepare`` makes.

    The sampler is prepared only when the carried worlds run out (preparing
    Dobbm's takes a few milliseconds of a decision), and ``stop()`` is asked
    right after, as the bot asks it after preparing; ``prepare`` returning
    ``None`` (no sampler for this game or observation) ends the worlds with
    :class:`~stich.search.sampling.SamplingError`.  ``advanced`` and
    ``dropped`` count the carried worlds that fitted and that did not;
    :meth:`unused` are those not handed out yet (still as they were
    carried, to be advanced later).
    """

    def __init__(self, advance: Advance, prepare: Callable[[], Drawing | None], carried: Sequence[State]) -> None:
        self.advance = advance
        self.prepare = prepare
        self.sampler: Drawing | None = None
        self._queue = list(reversed(carried))
        self.advanced = 0
        self.dropped = 0

    def draw(self, rng: random.Random, stop: Callable[[], bool] | None = None) -> State | None:
        """The next carried world that still fits, else a fresh draw (``None`` when ``stop()`` says so)."""
        while self._queue:
            world = self.advance(self._queue.pop())
            if world is not None:
                self.advanced += 1
                return world
            self.dropped += 1
        if self.sampler is None:
            self.sampler = self.prepare()
            if self.sampler is None:
                raise SamplingError("no world sampler for this observation, and no carried world fits it")
            if stop is not None and stop():
                return None  # preparing used up the budget
        return self.sampler.draw(rng, stop)

    def pending(self) -> bool:
        """Whether carried worlds are still waiting (the next draw is cheap)."""
        return bool(self._queue)

    def unused(self) -> list[State]:
        """The carried worlds not handed out, in their original order."""
        return list(reversed(self._queue))


class WorldCarry:
    """What one seat keeps between its decisions: the worlds of its last search and the events they were drawn at.

    :meth:`source` makes the world source of a new decision; :meth:`keep`
    stores the worlds a search used (and those it did not get to).  A
    decision of another deal (its events do not continue the kept ones)
    starts afresh, without trying the stale worlds.
    """

    def __init__(self, limit: int = CARRY_LIMIT) -> None:
        if limit < 0:
            raise ValueError(f"limit must be at least 0, got {limit}")
        self.limit = limit
        self.events: tuple[tuple[int, str], ...] = ()
        self.seat = -1
        self.worlds: list[State] = []
        self._source: CarriedWorlds | None = None

    def source(self, observation: Observation, advance: Advance, prepare: Callable[[], Drawing | None]) -> CarriedWorlds:
        """The world source of a decision at ``observation``: the kept worlds if they are of this deal, then ``prepare()``'s sampler."""
        same_deal = observation.seat == self.seat and observation.events[: len(self.events)] == self.events
        carried = self.worlds if same_deal else []
        self.events = observation.events
        self.seat = observation.seat
        self.worlds = []
        self._source = CarriedWorlds(advance, prepare, carried)
        return self._source

    def keep(self, used: Sequence[State]) -> None:
        """After the search: keep the worlds it used, then those it did not reach, at most :attr:`limit`."""
        rest = self._source.unused() if self._source is not None else []
        self.worlds = [*used, *rest][: self.limit]
        self._source = None
