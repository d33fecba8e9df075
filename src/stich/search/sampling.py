"""Sampling full worlds consistent with one seat's observation (determinization for search).

A search bot sees an :class:`~stich.core.game.Observation`, never the state.
To look ahead it draws *worlds*: full states at the same point of the deal
that the seat cannot tell apart from the real one.  ::

    sampler = prepare_sampler(game, observation)   # once per decision
    world = sampler.sample(rng)                    # as often as wanted
    world = sample_world(game, observation, rng)   # the same, in one call

The API takes only the game and the observation, so a sampler cannot read
the real state's hidden cards even by mistake.

**How a world is built.**  A game's sampler (registered in :data:`stich.bots.samplers.SAMPLERS`)

1. derives from the observation where every card may lie *now*: the seat's
   own hand and everything it saw are fixed; each other card goes to a hidden
   place (another seat's hand, a pile nobody has seen) with a known number of
   free slots, subject to the facts the rules let the seat infer (voids shown
   in trick play, what an announcement or a reservation implies...);
2. draws an assignment of the hidden cards **uniformly** among all
   assignments that satisfy those facts, with :class:`Allocation` (exact
   counting by dynamic programming over classes of interchangeable cards,
   then sampling backwards: no rejection at this step);
3. turns it into explicit piles as dealt, fills in the actions the seat did
   not see (a face-down discard, say), creates the deal with
   ``game.new_state(hands=..., dealer=..., context=...)`` and replays the
   observation's event list action by action;
4. **verifies** the result: every replayed action must be legal and the
   world's observation for the seat must equal the given one exactly
   (field by field, hence also its ``to_json()`` form).  A world that fails
   is drawn again.

Step 4 makes every returned world exact-consistent by construction.  Facts
that step 1 models are never rejected; the few rare facts a game leaves to
step 4 (its module lists them) cost some redraws but keep the distribution
uniform: a uniform draw from a superset, conditioned on lying in the set,
is uniform on the set.

**Which distribution.**  Worlds are uniform over the positions consistent
with the observation, i.e. every way the unseen cards can lie *now* is
equally likely.  Where nothing was hidden but the deal itself, this is the
uniform distribution over consistent deals.  Policies are not modelled: an
action is taken as evidence only of what it proves (a card shown, a void, a
queen of clubs held), never of what a player would likely have done.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import factorial, prod
from typing import Any, Protocol

from stich.cards import Card
from stich.core.game import Game, Observation, State, TrickView
from stich.core.tricks import EXCUSE, NO_SUIT, TRUMP, PlayOrder
from stich.errors import IllegalActionError, NotationError, StichError

Predicate = Callable[[tuple[int, ...]], bool]

DEFAULT_MAX_ATTEMPTS = 10_000
"""Redraws before :meth:`WorldSampler.sample` gives up (a rare fact left to verification)."""


class Drawing(Protocol):
    """A world sampler as a search uses it (a :class:`WorldSampler`, or a sampler that also reads the calls)."""

    def draw(self, rng: random.Random, stop: Callable[[], bool] | None = None) -> State | None:
        """A fresh world, or ``None`` when ``stop()`` says so."""
        ...


class SamplingError(StichError, ValueError):
    """No world can be drawn: the observation is inconsistent, or the sampler gave up."""


# --------------------------------------------------------------------------- allocation


@dataclass(frozen=True)
class CountSpec:
    """A quantity the constraints talk about: how many of ``items`` lie in the places of ``places``.

    ``places`` and ``items`` are bitmasks (place indices, item ids).  The
    count is tracked saturated at ``cap`` (values ``>= cap`` read as
    ``cap``), which keeps the counting tables small; a constraint must not
    need to tell values above its counter's cap apart.
    """

    places: int
    items: int
    cap: int


@dataclass
class _Class:
    """Items that are interchangeable for every constraint: same allowed places, same counters."""

    items: list[int]
    places: tuple[int, ...]
    counters: tuple[int, ...]
    forbidden: int
    """Bitmask of places the class may not go to."""


class Allocation:
    """Uniform random assignment of distinct items to places, under constraints.

    * ``capacities[p]``: how many items place ``p`` receives (they add up to
      the number of items);
    * ``allowed[item]``: bitmask of the places ``item`` may go to (default:
      every place);
    * ``counters`` and ``accept``: a predicate over the (saturated) counts of
      :class:`CountSpec`; assignments it rejects are excluded.

    Items with the same allowed places and the same counter memberships form
    a class; an assignment is counted exactly by dynamic programming over the
    classes (how many of each class go to each place, times the multinomial
    number of ways to choose them), and :meth:`sample` walks the same table
    forwards, so each valid assignment is drawn with the same probability.
    The tables are built lazily and kept, so drawing many samples from one
    allocation is cheap.
    """

    def __init__(
        self,
        capacities: Sequence[int],
        items: Sequence[int],
        allowed: dict[int, int] | None = None,
        counters: Sequence[CountSpec] = (),
        accept: Predicate | None = None,
    ) -> None:
        self.capacities = tuple(capacities)
        self.n_places = len(self.capacities)
        self.counters = tuple(counters)
        self.accept = accept
        if sum(self.capacities) != len(items) or min(self.capacities, default=0) < 0:
            raise SamplingError(f"{len(items)} unseen cards do not fit places with room for {list(self.capacities)}")
        full = (1 << self.n_places) - 1
        allowed = allowed or {}
        self._accepted: dict[tuple[int, ...], bool] = {}
        groups: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        for item in sorted(items):
            mask = allowed.get(item, full) & full
            member = tuple(i for i, c in enumerate(self.counters) if c.items >> item & 1 and c.places & mask)
            groups.setdefault((mask, member), []).append(item)
        classes = [
            _Class(members, tuple(p for p in range(self.n_places) if mask >> p & 1), member, full & ~mask)
            for (mask, member), members in sorted(groups.items())
        ]
        # Classes that move a counter come first; once the last of them is placed the predicate is
        # decided and the counters are dropped from the table's keys (far fewer entries).  The last
        # class is placed without enumeration (it fills what is left): make it the largest.
        counted = sorted((c for c in classes if c.counters), key=lambda c: len(c.items))
        free = sorted((c for c in classes if not c.counters), key=lambda c: len(c.items))
        self.classes = counted + free
        self._decide_at = len(counted) - 1
        """Index of the class after which the predicate is decided (-1: it does not depend on any class)."""
        self._always = self._decide_at >= 0 or self._accepts(tuple(0 for _ in self.counters))
        self._ways: dict[tuple[int, tuple[int, ...], tuple[int, ...]], int] = {}
        self._choices: dict[tuple[int, tuple[int, ...], tuple[int, ...]], tuple[list[int], list[tuple[tuple[int, ...], ...]]]] = {}
        self._start = (0, self.capacities, tuple(0 for _ in self.counters))

    # ------------------------------------------------------------- counting
    def _accepts(self, values: tuple[int, ...]) -> bool:
        """The predicate on counter values, memoised."""
        if self.accept is None:
            return True
        ok = self._accepted.get(values)
        if ok is None:
            ok = self._accepted[values] = bool(self.accept(values))
        return ok

    def _bump(self, cls: _Class, vector: Sequence[int], values: tuple[int, ...]) -> tuple[int, ...]:
        """Counter values after ``vector`` items of ``cls`` went to its places."""
        if not cls.counters:
            return values
        out = list(values)
        for i in cls.counters:
            spec = self.counters[i]
            add = sum(vector[k] for k, p in enumerate(cls.places) if spec.places >> p & 1)
            out[i] = min(spec.cap, out[i] + add)
        return tuple(out)

    def _vectors(self, n: int, caps: tuple[int, ...], places: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Ways to split ``n`` items over ``places`` (counts per place, each within its room)."""
        out: list[tuple[int, ...]] = []
        room = [caps[p] for p in places]
        suffix = [0] * (len(places) + 1)
        for k in range(len(places) - 1, -1, -1):
            suffix[k] = suffix[k + 1] + room[k]
        part: list[int] = []

        def rec(k: int, left: int) -> None:
            if k == len(places) - 1:
                if left <= room[k]:
                    out.append((*part, left))
                return
            for x in range(max(0, left - suffix[k + 1]), min(left, room[k]) + 1):
                part.append(x)
                rec(k + 1, left - x)
                part.pop()

        if not places:
            return [()] if n == 0 else []
        if n <= suffix[0]:
            rec(0, n)
        return out

    def _multinomial(self, n: int, vector: Sequence[int]) -> int:
        """Ways to split ``n`` distinct items into groups of the sizes in ``vector``."""
        out = factorial(n)
        for x in vector:
            out //= factorial(x)
        return out

    def _step(self, i: int, caps: tuple[int, ...], values: tuple[int, ...]) -> tuple[list[int], list[tuple[tuple[int, ...], ...]]]:
        """Cumulative weights and (vector, caps, values) of each way to place class ``i``."""
        key = (i, caps, values)
        cached = self._choices.get(key)
        if cached is not None:
            return cached
        cls = self.classes[i]
        n = len(cls.items)
        cums: list[int] = []
        moves: list[tuple[tuple[int, ...], ...]] = []
        total = 0
        if i == len(self.classes) - 1:
            # The last class takes exactly the room that is left.
            if all(caps[p] == 0 for p in range(self.n_places) if cls.forbidden >> p & 1):
                vector = tuple(caps[p] for p in cls.places)
                after = self._decide(i, self._bump(cls, vector, values))
                if after is not None:
                    total = self._multinomial(n, vector)
                    cums.append(total)
                    moves.append((vector, tuple(0 for _ in caps), after))
        else:
            for vector in self._vectors(n, caps, cls.places):
                rest = list(caps)
                for k, p in enumerate(cls.places):
                    rest[p] -= vector[k]
                after_caps = tuple(rest)
                after = self._decide(i, self._bump(cls, vector, values))
                if after is None:
                    continue
                ways = self._count(i + 1, after_caps, after)
                if ways:
                    total += self._multinomial(n, vector) * ways
                    cums.append(total)
                    moves.append((vector, after_caps, after))
        self._choices[key] = (cums, moves)
        return cums, moves

    def _decide(self, i: int, values: tuple[int, ...]) -> tuple[int, ...] | None:
        """Counter values after class ``i``: ``None`` if the predicate fails, ``()`` once it is decided."""
        if i != self._decide_at:
            return values
        return () if self._accepts(values) else None

    def _count(self, i: int, caps: tuple[int, ...], values: tuple[int, ...]) -> int:
        """Valid assignments of classes ``i..`` into the rooms ``caps``, given the counter values so far."""
        if i == len(self.classes):
            return 1 if self._always else 0
        key = (i, caps, values)
        ways = self._ways.get(key)
        if ways is None:
            cums, _moves = self._step(i, caps, values)
            ways = self._ways[key] = cums[-1] if cums else 0
        return ways

    def count(self) -> int:
        """Number of valid assignments (0: the constraints contradict each other)."""
        return self._count(*self._start)

    # ------------------------------------------------------------- sampling
    def sample(self, rng: random.Random) -> list[list[int]]:
        """One valid assignment, uniformly at random: the items of each place."""
        if not self.count():
            raise SamplingError("no assignment of the unseen cards satisfies what the seat knows")
        out: list[list[int]] = [[] for _ in range(self.n_places)]
        i, caps, values = self._start
        while i < len(self.classes):
            cums, moves = self._step(i, caps, values)
            pick = bisect_right(cums, rng.randrange(cums[-1]))
            vector, caps, values = moves[pick]
            items = self.classes[i].items[:]
            rng.shuffle(items)
            start = 0
            for k, p in enumerate(self.classes[i].places):
                out[p] += items[start : start + vector[k]]
                start += vector[k]
            i += 1
        return out

    def admits(self, assignment: Sequence[Sequence[int]]) -> bool:
        """Whether ``assignment`` (items per place) is one of the valid assignments.

        For tests: the real world must always be admitted, or the sampler
        would miss it.
        """
        if len(assignment) != self.n_places or any(len(a) != c for a, c in zip(assignment, self.capacities, strict=True)):
            return False
        place_of: dict[int, int] = {}
        for p, items in enumerate(assignment):
            for item in items:
                place_of[item] = p
        values = [0] * len(self.counters)
        for cls in self.classes:
            for item in cls.items:
                where = place_of.get(item)
                if where is None or cls.forbidden >> where & 1:
                    return False
                for i in cls.counters:
                    if self.counters[i].places >> where & 1:
                        values[i] += 1
        if len(place_of) != sum(len(c.items) for c in self.classes):
            return False
        return self._accepts(tuple(min(v, c.cap) for v, c in zip(values, self.counters, strict=True)))


class Constraints:
    """Builds the counters and the predicate of an :class:`Allocation` from simple facts.

    ``bound(places, items, offset, lo, hi)`` says: the hidden items of
    ``items`` in ``places``, plus ``offset`` known ones, number between
    ``lo`` and ``hi``.  ``rule(counters, fn)`` adds any predicate over raw
    counter values (it must respect the caps it asked for with
    :meth:`counter`).
    """

    def __init__(self) -> None:
        self._index: dict[tuple[int, int], int] = {}
        self._caps: list[int] = []
        self._specs: list[tuple[int, int]] = []
        self._rules: list[Predicate] = []

    def counter(self, places: int, items: int, cap: int) -> int:
        """Index of the counter of ``items`` in ``places``, saturating at ``cap`` or more."""
        key = (places, items)
        i = self._index.get(key)
        if i is None:
            i = self._index[key] = len(self._specs)
            self._specs.append(key)
            self._caps.append(0)
        self._caps[i] = max(self._caps[i], cap)
        return i

    def bound(self, places: int, items: int, offset: int, lo: int = 0, hi: int | None = None) -> None:
        """``lo <= hidden count + offset <= hi`` (``hi=None``: no upper bound)."""
        if not places or not items:
            # Nothing hidden can change the count: the fact is decided already.
            if offset < lo or (hi is not None and offset > hi):
                self._rules.append(lambda values: False)
            return
        cap = (hi - offset + 1) if hi is not None else max(lo - offset, 0)
        i = self.counter(places, items, max(cap, 0))
        self._rules.append(lambda values: lo <= values[i] + offset and (hi is None or values[i] + offset <= hi))

    def size(self) -> int:
        """Product of the counters' ranges: a bound on the counter combinations the table may hold."""
        return prod(cap + 1 for cap in self._caps)

    def rule(self, fn: Predicate) -> None:
        """Add a predicate over the counter values (indices from :meth:`counter`)."""
        self._rules.append(fn)

    def specs(self) -> list[CountSpec]:
        """The counters, for :class:`Allocation`."""
        return [CountSpec(places, items, cap) for (places, items), cap in zip(self._specs, self._caps, strict=True)]

    def predicate(self) -> Predicate | None:
        """All rules together (``None`` when there are none)."""
        rules = tuple(self._rules)
        if not rules:
            return None
        return lambda values: all(rule(values) for rule in rules)


def interchangeable_places(n: int, items: list[int], allowed: dict[int, int], counters: list[CountSpec]) -> list[list[int]]:
    """Places grouped by what may go there: the same unseen cards allowed, the same counters."""
    signature: dict[tuple[tuple[int, ...], tuple[bool, ...]], list[int]] = {}
    for p in range(n):
        column = tuple(i for i in items if allowed.get(i, (1 << n) - 1) >> p & 1)
        counted = tuple(bool(spec.places >> p & 1) for spec in counters)
        signature.setdefault((column, counted), []).append(p)
    return list(signature.values())


class GroupedAllocation:
    """An :class:`Allocation` with interchangeable places merged, split again after the draw.

    The exact counting table grows fast with the number of places (Dappen
    has up to eight: six other hands, the Dapp, the discards).  Two
    places are interchangeable when every unseen card may go to both or to
    neither and every counter counts both or neither: early in the play most
    hands are (and Dappen's Dapp).  Such places are counted as one place of their
    joint size; after the draw its cards are shared out among them as a
    uniformly random split.  Each assignment of the merged problem stands for
    the same number of assignments of the original one (a multinomial of the
    sizes), so the draw stays uniform.
    """

    def __init__(
        self, capacities: list[int], items: list[int], allowed: dict[int, int], counters: list[CountSpec], accept: Predicate | None
    ) -> None:
        self.capacities = list(capacities)
        n = len(capacities)
        self.groups = interchangeable_places(n, items, allowed, counters)
        group_of = {p: g for g, members in enumerate(self.groups) for p in members}

        def remap(mask: int) -> int:
            out = 0
            for p in range(n):
                if mask >> p & 1:
                    out |= 1 << group_of[p]
            return out

        self.inner = Allocation(
            [sum(capacities[p] for p in members) for members in self.groups],
            items,
            {i: remap(mask) for i, mask in allowed.items()},
            [CountSpec(remap(spec.places), spec.items, spec.cap) for spec in counters],
            accept,
        )

    def count(self) -> int:
        """Number of valid assignments of the merged problem (0: none; each stands for the same number of original ones)."""
        return self.inner.count()

    def sample(self, rng: random.Random) -> list[list[int]]:
        """One valid assignment, uniformly at random: the items of each original place."""
        out: list[list[int]] = [[] for _ in self.capacities]
        for members, items in zip(self.groups, self.inner.sample(rng), strict=True):
            rng.shuffle(items)
            start = 0
            for p in members:
                out[p] = items[start : start + self.capacities[p]]
                start += self.capacities[p]
        return out

    def admits(self, assignment: list[list[int]]) -> bool:
        """Whether ``assignment`` (items per original place) is one of the valid assignments (a test hook)."""
        if any(len(a) != c for a, c in zip(assignment, self.capacities, strict=True)):
            return False
        return self.inner.admits([[i for p in members for i in assignment[p]] for members in self.groups])


# --------------------------------------------------------------------------- trick play


def trick_plays(tricks: Sequence[TrickView], seats: Sequence[int]) -> list[list[tuple[int, Card]]]:
    """``(seat, card)`` of every card of the observed tricks; ``seats`` is the playing order (cyclic)."""
    out = []
    for trick in tricks:
        start = seats.index(trick.leader)
        out.append([(seats[(start + k) % len(seats)], card) for k, card in enumerate(trick.cards)])
    return out


def follow_exclusions(order: PlayOrder, plays: Sequence[tuple[int, int]], *, must_trump: bool) -> dict[int, int]:
    """Cards each player of one trick showed it does not hold, under :func:`stich.core.tricks.legal_cards`.

    ``plays`` are ``(seat, card index)`` in order.  A player who did not
    follow the suit asked for holds none of it; with ``must_trump``, one who
    neither followed nor trumped holds no trump either.  An excuse tells
    nothing.  Only for games whose trick play is exactly that rule (a game
    with exceptions must not use it for the tricks they touch).
    """
    out: dict[int, int] = {}
    led = NO_SUIT
    for seat, index in plays:
        eff = order.eff[index]
        if led != NO_SUIT and eff not in (led, EXCUSE):
            gone = order.follow[led]
            if must_trump and eff != TRUMP:
                gone |= order.follow[TRUMP]
            out[seat] = out.get(seat, 0) | gone
        if led == NO_SUIT and eff != EXCUSE:
            led = eff
    return out


# --------------------------------------------------------------------------- worlds


@dataclass
class World:
    """A proposed world: the piles as dealt, the session context and every action so far."""

    piles: list[list[Card]]
    dealer: int
    context: dict[str, Any]
    codes: list[int]


@dataclass
class SamplerStats:
    """How many worlds were proposed and how many passed verification."""

    proposed: int = 0
    accepted: int = 0
    rejected_reasons: dict[str, int] = field(default_factory=dict)

    @property
    def acceptance(self) -> float:
        """Share of proposals that passed (1.0 before the first one)."""
        return self.accepted / self.proposed if self.proposed else 1.0


def replay(game: Game, world: World) -> State:
    """The state a world describes: its deal with its actions applied (raises on an illegal one)."""
    state = game.new_state(hands=world.piles, dealer=world.dealer, context=world.context)
    for code in world.codes:
        state.apply(code)
    return state


class WorldSampler(ABC):
    """Draws worlds consistent with one observation; built by :func:`stich.bots.samplers.prepare_sampler`.

    Subclasses implement :meth:`propose`; :meth:`sample` replays and
    verifies each proposal (see the module docstring).
    """

    def __init__(self, game: Game, observation: Observation, *, max_attempts: int = DEFAULT_MAX_ATTEMPTS) -> None:
        if observation.game != game.canonical:
            raise SamplingError(f"the observation is of {observation.game}, not of {game.canonical}")
        self.game = game
        self.observation = observation
        self.target = observation.to_json()
        self.max_attempts = max_attempts
        self.stats = SamplerStats()

    @abstractmethod
    def propose(self, rng: random.Random) -> World | None:
        """A candidate world (``None``: this draw is known to be inconsistent, draw again)."""

    def admits(self, state: State) -> bool:
        """Whether the real ``state``'s unseen cards are among the assignments this sampler draws from.

        A test hook (it reads the state, which :meth:`sample` never does):
        a sampler that excluded the real world would be biased.
        """
        raise NotImplementedError(f"{type(self).__name__} has no admits() check")

    def _reject(self, reason: str) -> None:
        """Count a rejected draw under ``reason``."""
        self.stats.rejected_reasons[reason] = self.stats.rejected_reasons.get(reason, 0) + 1

    def check(self, world: World) -> State | None:
        """The world's state if it reproduces the observation exactly, else ``None``."""
        try:
            state = replay(self.game, world)
        except (IllegalActionError, NotationError):
            self._reject("illegal replay")
            return None
        if not _shows(state, self.observation, self.target):
            self._reject("observation differs")
            return None
        return state

    def sample(self, rng: random.Random) -> State:
        """One world: a full state the seat cannot tell from the real one."""
        world = self.draw(rng)
        assert world is not None  # without a stop, draw ends with a world or raises
        return world

    def draw(self, rng: random.Random, stop: Callable[[], bool] | None = None) -> State | None:
        """:meth:`sample`, asking ``stop()`` (when given) before every redraw of a rejected proposal; ``None`` when it says so.

        A search with a deadline draws through this, so a rare observation
        whose worlds are often rejected cannot hold a decision past its budget.
        """
        for attempt in range(self.max_attempts):
            if attempt and stop is not None and stop():
                return None
            self.stats.proposed += 1
            world = self.propose(rng)
            if world is None:
                self._reject("proposal")
                continue
            state = self.check(world)
            if state is not None:
                self.stats.accepted += 1
                return state
        raise SamplingError(
            f"no consistent world found in {self.max_attempts} draws for seat {self.observation.seat} "
            f"({self.stats.rejected_reasons}); the observation may be inconsistent"
        )


def _shows(state: State, observation: Observation, target: dict[str, Any] | None) -> bool:
    """Whether ``state`` gives the observation's seat exactly ``observation`` (``target``: its JSON form, made when needed)."""
    seen = state.observation(observation.seat)
    # Equal fields give an equal JSON form; the JSON comparison only catches a representation
    # that differs while meaning the same (e.g. a tuple for a list).
    return seen == observation or seen.to_json() == (target if target is not None else observation.to_json())
