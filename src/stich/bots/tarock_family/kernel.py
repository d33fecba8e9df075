"""Fast card play for the Tarock-family games: random playouts and an exact endgame solver, compiled with numba.

The Doppelkopf kernel (:mod:`stich.bots.doppelkopf.kernel`) made the ISMCTS bot's
playouts cheap enough for a deep tree; this is its counterpart for the
plain trick play the Tarock-family games share (:mod:`stich.core.tricks`):
follow suit, else trump where the game has Trumpfzwang, else anything; an
excuse may always be played and never wins; highest trump, else highest card
of the suit led.  A :class:`TrickPosition` holds the card-play part of a
state (the hands of the seats that play to a trick, in playing order, the
current trick, the tricks left, who is on the declarer's side), and

* :func:`random_playouts` plays ``n`` games to the end with uniformly random
  legal cards and reports, per game, the cards and tricks side 0 (the
  declarer's team) won from the current trick on and who took the last trick;
  :func:`playouts` lets chosen seats follow by the rules of
  :mod:`stich.bots.tarock_family.greedy_playout` instead (smear, take, duck);
* :func:`solve` searches the rest exactly: side 0's card points from the
  current trick on when both sides play their best, plus an optional bonus
  for ending with at least one trick (a Dobbm declarer without a trick loses
  the talon, dossier §7.2).  A game whose score grows with those points
  (every plain Tarock-family contract) is thus solved in score too.

Games' special card-play rules (a laid-out Pagat, Gstieß kept back,
Buchenbach's first tricks) are not modelled: a game with them needs its own
adapter before it may use the kernel.  :mod:`stich.bots.tarock_rollout`
holds the adapters and the ISMCTS rollout built on this module.

numba is optional (``pip install stich[fast]``), as for the Doppelkopf
kernel: without it, or with ``STICH_NO_NUMBA`` set, every function runs a
pure-Python path with identical results (the same splitmix64 stream and
choice rule for playouts; the same alpha-beta for the solver, whose exact
value is unique anyway).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from stich.bots.tarock_family.greedy_playout import EPSILON, TAKE_SHARE
from stich.core.tricks import EXCUSE, NO_SUIT, TRUMP, PlayOrder, legal_cards
from stich.kernels.stream import splitmix, switched_off

__all__ = [
    "MAX_CARDS",
    "KernelGame",
    "TrickPosition",
    "TrickRules",
    "available",
    "backend",
    "kernel_arrays",
    "playouts",
    "random_playouts",
    "solve",
    "solve_counting",
    "warmup",
]

MAX_CARDS = 63
"""Physical card indices must lie below this (hands are signed 64-bit masks in the kernel)."""

_core: Any = None
_np: Any = None
if not switched_off():  # the same conditions as the Doppelkopf kernel's: numba, numpy, no STICH_NO_NUMBA
    try:
        import numpy as _numpy

        from stich.kernels import tarock_core as _tarock_core

        _np, _core = _numpy, _tarock_core
    except ImportError:  # pragma: no cover - depends on the environment
        pass


def available() -> bool:
    """Whether the compiled (numba) kernel is in use."""
    return _core is not None


def backend() -> str:
    """``"numba"`` or ``"python"`` (the fallback)."""
    return "numba" if available() else "python"


@dataclass(frozen=True)
class TrickRules:
    """A game's plain trick play as tables: per physical card its effective suit, strength and points.

    ``points`` must be additive per card (the solver sums them); a game that
    counts in groups (Tapp Tarock) needs per-card values that add up the same.
    """

    eff: tuple[int, ...]
    strength: tuple[int, ...]
    points: tuple[int, ...]
    follow: tuple[int, ...]
    """Per effective suit (0..3, :data:`~stich.core.tricks.TRUMP`, :data:`~stich.core.tricks.EXCUSE`) its card mask."""
    must_trump: bool = True
    order: PlayOrder = field(init=False, repr=False, compare=False)
    """The same tables as a :class:`~stich.core.tricks.PlayOrder` (the Python paths play through it)."""

    @classmethod
    def of(cls, order: PlayOrder, points: tuple[int, ...], must_trump: bool = True) -> TrickRules:
        """The rules of a :class:`~stich.core.tricks.PlayOrder` with the card ``points`` per physical index."""
        if len(order.eff) > MAX_CARDS:
            raise ValueError(f"the kernel holds at most {MAX_CARDS} cards, not {len(order.eff)}")
        return cls(tuple(order.eff), tuple(order.strength), tuple(points), tuple(order.follow), must_trump)

    def __post_init__(self) -> None:
        object.__setattr__(self, "order", PlayOrder(self.eff, self.strength, self.follow))

    def key(self, card: int, led: int) -> int:
        """Comparable strength of ``card`` in a trick asking for ``led`` (-1: cannot win), as :meth:`PlayOrder.key`."""
        return self.order.key(card, led)

    def legal(self, hand: int, led: int) -> int:
        """Cards of ``hand`` playable to a trick asking for ``led`` (:func:`stich.core.tricks.legal_cards`)."""
        return legal_cards(self.order, hand, led, must_trump=self.must_trump)

    def follow_key(self, card: int, led: int) -> int:
        """:meth:`key` of ``card`` played next to a trick asking for ``led`` (``NO_SUIT``: the card would set the suit)."""
        eff = self.eff[card]
        if eff == EXCUSE:
            return -1
        return self.key(card, eff if led == NO_SUIT else led)

    @property
    def take(self) -> int:
        """Trick points from which an earlier greedy player takes the other side's trick: ``TAKE_SHARE`` of the richest card."""
        return math.ceil(TAKE_SHARE * max(self.points, default=0))


@dataclass(frozen=True)
class TrickPosition:
    """The card play left in a deal, in *kernel seats*: the seats that play to a trick, in playing order.

    Kernel seat ``i`` is the engine seat ``seats[i]``; the one after ``i``
    is ``(i + 1) % len(seats)``.  ``side`` is the mask of the kernel seats on
    side 0 (the declarer's team); ``trick`` the cards of the current trick,
    led by kernel seat ``leader``; ``tricks_left`` counts the current trick.
    """

    rules: TrickRules
    seats: tuple[int, ...]
    side: int
    hands: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    tricks_left: int

    def __post_init__(self) -> None:
        m = len(self.seats)
        if len(self.hands) != m:
            raise ValueError(f"{len(self.hands)} hands for {m} seats")
        if not 0 <= self.leader < m or len(self.trick) >= m:
            raise ValueError("the leader must be a kernel seat and the current trick unfinished")
        if self.tricks_left < 1:
            raise ValueError("a position needs a trick left to play")

    def trick_state(self) -> tuple[int, int, int, int]:
        """(suit led, position of the card in the lead, its key, card points) of the current trick."""
        led, best_pos, best_key, points = NO_SUIT, 0, -2, 0
        for pos, card in enumerate(self.trick):
            eff = self.rules.eff[card]
            if led == NO_SUIT and eff != EXCUSE:
                led = eff
            key = self.rules.key(card, led)
            if key > best_key:
                best_pos, best_key = pos, key
            points += self.rules.points[card]
        return led, best_pos, best_key, points


class KernelGame(NamedTuple):
    """What a kernel game reports: side 0's won cards and tricks from the position on, and the last trick."""

    won: int
    """Mask of the cards side 0 won, the current trick's cards already played included."""
    tricks: int
    """Tricks side 0 won."""
    last: int
    """Kernel seat that won the last trick."""
    last_cards: int
    """Mask of the last trick's cards (Tapp Tarock's Pagat ultimo reads it)."""


@dataclass
class _Arrays:
    ctx: Any
    hands: Any
    trick: Any


_CTX_CACHE: dict[tuple[TrickRules, int, int], Any] = {}


def _arrays(pos: TrickPosition) -> _Arrays:
    core, np = _core, _np
    key = (pos.rules, len(pos.seats), pos.side)
    ctx = _CTX_CACHE.get(key)
    if ctx is None:
        rules = pos.rules
        ctx = np.zeros(core.CTX_SIZE, dtype=np.int64)
        for card in range(len(rules.eff)):
            ctx[core.C_EFF + card] = rules.eff[card]
            ctx[core.C_STR + card] = rules.strength[card]
            ctx[core.C_PTS + card] = rules.points[card]
        for suit in range(EXCUSE + 1):
            ctx[core.C_FOLLOW + suit] = rules.follow[suit]
        ctx[core.C_MUST_TRUMP] = int(rules.must_trump)
        ctx[core.C_SEATS] = len(pos.seats)
        ctx[core.C_SIDE] = pos.side
        ctx[core.C_TAKE] = rules.take
        _CTX_CACHE[key] = ctx
    trick = np.zeros(max(len(pos.seats), 1), dtype=np.int64)
    trick[: len(pos.trick)] = pos.trick
    return _Arrays(ctx, np.array(pos.hands, dtype=np.int64), trick)


def kernel_arrays(pos: TrickPosition) -> Any:
    """The compiled kernel's arrays of ``pos`` (``ctx``, ``hands``, ``trick``), for game-specific policies built on it.

    Only with the compiled kernel (:func:`available`); see :mod:`stich.bots.dobbm.playout`.
    """
    if _core is None:
        raise RuntimeError("the kernel arrays exist only with the compiled kernel (numba)")
    return _arrays(pos)


# ------------------------------------------------------------------ playouts


def random_playouts(pos: TrickPosition, n: int, seed: int) -> list[KernelGame]:
    """``n`` random games from ``pos``: per game side 0's won cards and tricks, and the last trick (:class:`KernelGame`).

    Cards and tricks count from the current trick on (its cards already
    played included).  ``seed`` (any int, used modulo 2**64) fixes the games.
    """
    return playouts(pos, n, seed)


def playouts(pos: TrickPosition, n: int, seed: int, *, greedy: int = 0, epsilon: float = EPSILON) -> list[KernelGame]:
    """:func:`random_playouts` in which the kernel seats of the mask ``greedy`` follow by the greedy rules.

    A seat in ``greedy`` that follows to a trick with a choice of cards
    plays, with probability ``1 - epsilon``, the card of the rules of
    :mod:`stich.bots.tarock_family.greedy_playout` (smear on its own side's trick, take
    the other side's trick when it is last or the trick is rich, else add
    its poorest card); otherwise, and when leading, a uniformly random card.
    ``greedy=0`` plays the games of :func:`random_playouts`.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must lie in [0, 1], got {epsilon}")
    if not 0 <= greedy < 1 << len(pos.seats):
        raise ValueError(f"greedy must be a mask of the {len(pos.seats)} kernel seats, got {greedy}")
    threshold = min(int(epsilon * (1 << 32)), 1 << 32)
    if _core is None:
        return _py_playouts(pos, n, seed, greedy=greedy, epsilon=threshold)
    arrays = _arrays(pos)
    out = _np.zeros((n, 4), dtype=_np.int64)
    _core.playouts(
        arrays.hands,
        arrays.trick,
        len(pos.trick),
        pos.leader,
        pos.tricks_left,
        arrays.ctx,
        n,
        _np.uint64(seed % (1 << 64)),
        greedy,
        threshold,
        out,
    )
    return [KernelGame(int(row[0]), int(row[1]), int(row[2]), int(row[3])) for row in out]


def _py_greedy_card(rules: TrickRules, legal: int, led: int, best_key: int, mine: bool, last: bool, points: int) -> int:
    """Pure-Python twin of the compiled ``greedy_card``: the rule's card among ``legal`` (see :func:`playouts`)."""
    pts = rules.points
    cards = [c for c in range(legal.bit_length()) if legal >> c & 1]
    keys = {c: rules.follow_key(c, led) for c in cards}
    # min/max keep the first (lowest) card among equals, as the compiled loop does.
    rich = min(cards, key=lambda c: (-pts[c], keys[c]))
    poor = min(cards, key=lambda c: (pts[c], keys[c]))
    if mine:
        return rich if last else poor
    winners = [c for c in cards if keys[c] > best_key]
    if not winners:
        return poor
    if last:
        return min(winners, key=lambda c: (-pts[c], keys[c]))
    if points >= rules.take:
        return max(winners, key=lambda c: keys[c])
    return poor


def _py_playouts(
    pos: TrickPosition, n: int, seed: int, trace: list[list[int]] | None = None, *, greedy: int = 0, epsilon: int = 0
) -> list[KernelGame]:
    """Pure-Python :func:`playouts` (``epsilon`` as a fraction of 2**32): the same stream, the same choices.

    With ``trace``, each game's cards in the order played are appended to it
    (the tests replay them through the engine).
    """
    rules = pos.rules
    m = len(pos.seats)
    state = seed % (1 << 64)
    led0, best_pos0, best_key0, points0 = pos.trick_state()
    cards0 = 0
    for card in pos.trick:
        cards0 |= 1 << card
    games: list[KernelGame] = []
    for _ in range(n):
        hands = list(pos.hands)
        leader, count, tricks_left = pos.leader, len(pos.trick), pos.tricks_left
        led, best_pos, best_key, cards, points = led0, best_pos0, best_key0, cards0, points0
        won = tricks = 0
        played: list[int] = []
        if trace is not None:
            trace.append(played)
        while True:
            p = (leader + count) % m
            legal = rules.legal(hands[p], led)
            size = legal.bit_count()
            chosen = -1
            if count and size > 1 and greedy >> p & 1:
                state, r = splitmix(state)
                if r >> 32 >= epsilon:
                    mine = (pos.side >> p & 1) == (pos.side >> ((leader + best_pos) % m) & 1)
                    chosen = _py_greedy_card(rules, legal, led, best_key, mine, count == m - 1, points)
            if chosen < 0:
                state, r = splitmix(state)
                k = ((r >> 32) * size) >> 32
                for _ in range(k):
                    legal &= legal - 1
                chosen = (legal & -legal).bit_length() - 1
            card = chosen
            hands[p] ^= 1 << card
            cards |= 1 << card
            points += rules.points[card]
            played.append(card)
            if led == NO_SUIT and rules.eff[card] != EXCUSE:
                led = rules.eff[card]
            key = rules.key(card, led)
            if key > best_key:
                best_key, best_pos = key, count
            count += 1
            if count < m:
                continue
            winner = (leader + best_pos) % m
            if pos.side >> winner & 1:
                won |= cards
                tricks += 1
            tricks_left -= 1
            if tricks_left == 0:
                games.append(KernelGame(won, tricks, winner, cards))
                break
            leader, count, led, best_pos, best_key, cards, points = winner, 0, NO_SUIT, 0, -2, 0, 0
    return games


# ------------------------------------------------------------------ solver


def solve(pos: TrickPosition, *, tricks: int = 0, bonus: int = 0) -> int:
    """Side 0's card points from the current trick on when both sides play their best.

    ``bonus`` is added when side 0 ends the deal with at least one trick,
    ``tricks`` counting those it won before ``pos``.  Plain alpha-beta: meant
    for the last three or four tricks.
    """
    value, _nodes = solve_counting(pos, tricks=tricks, bonus=bonus)
    return value


def solve_counting(pos: TrickPosition, *, tricks: int = 0, bonus: int = 0) -> tuple[int, int]:
    """:func:`solve` and the number of cards it tried (for benchmarks)."""
    if _core is None:
        counter = [0]
        led, best_pos, best_key, points = pos.trick_state()
        value = _py_search(
            pos,
            list(pos.hands),
            pos.leader,
            len(pos.trick),
            pos.tricks_left,
            led,
            best_pos,
            best_key,
            points,
            tricks,
            bonus,
            -(1 << 30),
            1 << 30,
            counter,
        )
        return value, counter[0]
    arrays = _arrays(pos)
    nodes = _np.zeros(1, dtype=_np.int64)
    value = _core.solve(arrays.hands, arrays.trick, len(pos.trick), pos.leader, pos.tricks_left, tricks, bonus, arrays.ctx, nodes)
    return int(value), int(nodes[0])


def _py_search(
    pos: TrickPosition,
    hands: list[int],
    leader: int,
    n: int,
    tricks_left: int,
    led: int,
    best_pos: int,
    best_key: int,
    points: int,
    tricks: int,
    bonus: int,
    alpha: int,
    beta: int,
    counter: list[int],
) -> int:
    """Pure-Python twin of the compiled ``search`` (see :func:`solve`)."""
    rules = pos.rules
    m = len(pos.seats)
    p = (leader + n) % m
    maximising = bool(pos.side >> p & 1)
    best = -(1 << 30) if maximising else 1 << 30
    rest = rules.legal(hands[p], led)
    while rest:
        bit = rest & -rest
        rest ^= bit
        card = bit.bit_length() - 1
        counter[0] += 1
        hands[p] ^= bit
        led2 = rules.eff[card] if led == NO_SUIT and rules.eff[card] != EXCUSE else led
        key = rules.key(card, led2)
        bp2, bk2 = (n, key) if key > best_key else (best_pos, best_key)
        pts2 = points + rules.points[card]
        if n + 1 == m:
            winner = (leader + bp2) % m
            mine = pos.side >> winner & 1
            gain = pts2 if mine else 0
            if tricks_left == 1:
                value = gain + (bonus if tricks + mine > 0 else 0)
            else:
                value = gain + _py_search(
                    pos, hands, winner, 0, tricks_left - 1, NO_SUIT, 0, -2, 0, tricks + mine, bonus, alpha - gain, beta - gain, counter
                )
        else:
            value = _py_search(pos, hands, leader, n + 1, tricks_left, led2, bp2, bk2, pts2, tricks, bonus, alpha, beta, counter)
        hands[p] ^= bit
        if maximising:
            best = max(best, value)
            alpha = max(alpha, best)
        else:
            best = min(best, value)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def warmup() -> bool:
    """Compile (or load from numba's cache) the kernel functions now; ``False`` without numba."""
    if _core is None:
        return False
    follow = (0b11, 0b1100, 0, 0, 0b110000, 0)
    rules = TrickRules((0, 0, 1, 1, TRUMP, TRUMP), (2, 1, 2, 1, 2, 1), (3, 0, 3, 0, 1, 1), follow)
    pos = TrickPosition(rules, (0, 1), 0b01, (0b010101, 0b101010), (), 0, 3)
    random_playouts(pos, 1, 0)
    solve(pos, bonus=1)
    return True
