"""The compiled Doppelkopf card-play kernel (numba), and the primitives every kernel shares (``jit``, the random stream, bit helpers).

Import it only through its adapter, :mod:`stich.bots.doppelkopf.kernel`
(:mod:`stich.kernels.tarock_core` and :mod:`stich.kernels.policy_core`
import its primitives).

Everything here works on small numpy arrays and is compiled with
``numba.njit(cache=True)``; the first call compiles (or loads the on-disk
cache), later calls run native code.  Importing this module needs numba and
numpy and raises :class:`ImportError` without them.

Conventions (shared with :mod:`stich.bots.doppelkopf.kernel`, which builds the arrays):

* hands are int64 in count form (bit ``f``: one copy or more of face ``f``,
  bit ``f + 24``: both copies); faces 0..23;
* ``ctx`` is an int64 table, laid out by the ``C_*`` offsets below: per face
  the effective suit (``4`` = trump), the trick key base (``100 + strength``
  for trumps, the strength otherwise) and the eyes; per effective suit the
  24-bit face mask; then the Re mask, the Überstechen flag and the Dulle mode;
  per face the index of its run's first face and its own index in its suit's
  order (``C_RUN``, ``C_POS``), the faces sorted by eyes (``C_BY_EYES``) and
  the runs of two or more equal faces (``C_RUNS``: length, then the faces
  strongest first; see :func:`normal_hands`);
* ``order`` is int64 ``[5, 13]``: per effective suit its faces strongest
  first, padded with -1;
* the transposition table ``tt`` is int64 ``[size, 8]`` in two-entry
  buckets: words 0..3 the hands with runs of equal cards compacted
  (:func:`normal_hands`; word 0 with the leader in bits 56..57), word 4 the
  generation, 5 and 6 the lower and upper bound of Re's future eyes, 7 the
  best face (in the compacted faces) plus 32 times the tricks left.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba  # type: ignore[import-untyped,unused-ignore]
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

C_EFF = 0
C_KEY = 24
C_EYES = 48
C_FOLLOW = 72
C_RE = 77
C_OVERTRUMP = 78
C_DULLE = 79
C_RUN = 80
C_POS = 104
C_BY_EYES = 128
C_RUNS = 152
RUN_STRIDE = 8
MAX_RUNS = 6
CTX_SIZE = C_RUNS + MAX_RUNS * RUN_STRIDE

FACES = 0xFFFFFF
TRUMP = 4
H10 = 13
INF = 1 << 20
MAX_MOVES = 12
MOVE_STRIDE = 32
"""Columns of one row of the move buffer: moves in 0..15, their scores in 16..31."""

_TT_WORDS = 8
_HASH_A = 0x1F3D5B79A2C4E687
_HASH_B = 0x2545F4914F6CDD1D
_HASH_C = 0x5851F42D4C957F2D
_HASH_D = 0x14057B7EF767814F

_GAMMA = 0x9E3779B97F4A7C15
_MIX_1 = 0xBF58476D1CE4E5B9
_MIX_2 = 0x94D049BB133111EB


def jit(func: F) -> F:
    """``numba.njit(cache=True)`` with the function's own type kept for mypy."""
    return cast(F, numba.njit(cache=True)(func))


@jit
def popcount24(x: int) -> int:
    """Set bits of a mask below 2**24."""
    x = x - ((x >> 1) & 0x555555)
    x = (x & 0x333333) + ((x >> 2) & 0x333333)
    x = (x + (x >> 4)) & 0x0F0F0F
    return (x * 0x010101) >> 16 & 0xFF


@jit
def next_random(state: Any) -> Any:
    """splitmix64: advance ``state[0]`` (uint64) and return the next 64-bit output."""
    s = state[0] + np.uint64(_GAMMA)
    state[0] = s
    z = (s ^ (s >> np.uint64(30))) * np.uint64(_MIX_1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX_2)
    return z ^ (z >> np.uint64(31))


@jit
def pick_below(r: Any, count: int) -> int:
    """Index 0..count-1 from a 64-bit random output (multiply-high of its top 32 bits)."""
    return int(((r >> np.uint64(32)) * np.uint64(count)) >> np.uint64(32))


@jit
def nth_face(mask: int, k: int) -> int:
    """The ``k``-th lowest set bit of ``mask`` (0-based)."""
    for _ in range(k):
        mask &= mask - 1
    low = mask & -mask
    f = 0
    while low > 1:
        low >>= 1
        f += 1
    return f


@jit
def card_key(ctx: Any, f: int, led: int) -> int:
    """Strength of face ``f`` in a trick asking for ``led`` (-1: cannot win)."""
    e = ctx[C_EFF + f]
    if e == TRUMP:
        return int(ctx[C_KEY + f])
    if e == led:
        return int(ctx[C_KEY + f])
    return -1


@jit
def beats(ctx: Any, f: int, k: int, best_key: int, tricks_left: int) -> bool:
    """Whether face ``f`` with key ``k`` takes the lead of the trick from ``best_key``."""
    if k > best_key:
        return True
    if k == best_key and f == H10:
        mode = ctx[C_DULLE]
        return mode == 1 or (mode == 2 and tricks_left != 1)
    return False


@jit
def beating(ctx: Any, faces: int, led: int, best_key: int) -> int:
    """[VAR Überstechen] faces of ``faces`` whose key is above ``best_key``."""
    out = 0
    m = faces
    while m:
        low = m & -m
        m ^= low
        f = 0
        b = low
        while b > 1:
            b >>= 1
            f += 1
        if card_key(ctx, f, led) > best_key:
            out |= low
    return out


@jit
def legal_faces(ctx: Any, hand: int, n: int, led: int, best_key: int) -> int:
    """Faces of count-form ``hand`` that may be played as card ``n`` of a trick (dossier §6.1)."""
    faces = hand & FACES
    if n == 0:
        return faces
    same = faces & ctx[C_FOLLOW + led]
    if ctx[C_OVERTRUMP] == 0:
        return same if same else faces
    if same:
        b = beating(ctx, same, led, best_key)
        return b if b else same
    trumps: int = faces & ctx[C_FOLLOW + TRUMP]
    b = beating(ctx, trumps, led, best_key)
    return (faces & ~trumps) | (b if b else trumps)


@jit
def take(hand: int, f: int) -> int:
    """``hand`` (count form) with one copy of face ``f`` removed."""
    if (hand >> (f + 24)) & 1:
        return hand ^ (1 << (f + 24))
    return hand ^ (1 << f)


# ------------------------------------------------------------- playouts


@jit
def playouts(
    hands0: Any, trick0: Any, n0: int, leader0: int, tricks_left0: int, re_eyes0: int, ctx: Any, count: int, seed: Any, out: Any
) -> None:
    """Play ``count`` random games from the position; ``out[i]`` = Re's final eyes of game ``i``.

    Each card is chosen uniformly among the legal faces with one splitmix64
    stream seeded by ``seed`` (uint64) for all games in turn.
    """
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    hands = np.empty(4, dtype=np.int64)
    re = ctx[C_RE]
    # the part of the current trick already on the table
    root = np.empty(4, dtype=np.int64)
    root_trick(ctx, trick0, n0, tricks_left0, root)
    led0 = root[0]
    bp0 = root[1]
    bk0 = root[2]
    te0 = root[3]
    for g in range(count):
        for s in range(4):
            hands[s] = hands0[s]
        leader = leader0
        n = n0
        led = led0
        best_key = bk0
        best_pos = bp0
        teyes = te0
        tricks_left = tricks_left0
        total = re_eyes0
        while True:
            p = (leader + n) & 3
            legal = legal_faces(ctx, hands[p], n, led, best_key)
            f = nth_face(legal, pick_below(next_random(state), popcount24(legal)))
            hands[p] = take(hands[p], f)
            teyes += ctx[C_EYES + f]
            if n == 0:
                led = ctx[C_EFF + f]
                best_key = ctx[C_KEY + f]
                best_pos = 0
            else:
                k = card_key(ctx, f, led)
                if beats(ctx, f, k, best_key, tricks_left):
                    best_key = k
                    best_pos = n
            n += 1
            if n == 4:
                winner = (leader + best_pos) & 3
                if (re >> winner) & 1:
                    total += teyes
                tricks_left -= 1
                if tricks_left == 0:
                    break
                leader = winner
                n = 0
                teyes = 0
        out[g] = total


# ---------------------------------------------------------------- search


@jit
def normal_hands(ctx: Any, order: Any, hands: Any, out: Any) -> None:
    """The table key of a trick-start position: ``hands`` with each run of equal cards compacted to its top.

    A *run* is a stretch of one effective suit's faces, adjacent in rank, with
    the same eyes (the hearts ten always alone).  Within each run the faces
    still held by somebody are moved, in their order, onto the run's
    strongest faces; every hand moves with them.  Two positions with the same
    key are the same game under that relabelling: suits, the order of all
    remaining cards, their eyes and the two copies of a face stay, and
    played cards take no further part.  So positions that differ only in
    which queens (or jacks, ...) are gone share one table entry.
    """
    rest = (hands[0] | hands[1] | hands[2] | hands[3]) & FACES
    for q in range(4):
        out[q] = hands[q]
    # only runs of two faces or more can change; ``ctx[C_RUNS:]`` lists them: length, then the faces strongest first
    for r in range(MAX_RUNS):
        base = C_RUNS + r * RUN_STRIDE
        length = ctx[base]
        if length == 0:
            break
        slot = 0
        for i in range(length):
            f = ctx[base + 1 + i]
            if (rest >> f) & 1:
                g = ctx[base + 1 + slot]
                slot += 1
                if g != f:
                    # the faces from g down to f are gone: move f's bits onto g in every hand
                    for q in range(4):
                        h = out[q]
                        one = (h >> f) & 1
                        two = (h >> (f + 24)) & 1
                        out[q] = (h & ~((1 << f) | (1 << (f + 24)))) | (one << g) | (two << (g + 24))


@jit
def normal_face(ctx: Any, order: Any, rest: int, f: int) -> int:
    """The face that remaining face ``f`` becomes in :func:`normal_hands`' key (``rest``: the faces still held)."""
    s = ctx[C_EFF + f]
    j0 = ctx[C_RUN + f]
    k = 0
    for j in range(j0, ctx[C_POS + f]):
        if (rest >> order[s, j]) & 1:
            k += 1
    return int(order[s, j0 + k])


@jit
def actual_face(ctx: Any, order: Any, rest: int, g: int) -> int:
    """The remaining face that key face ``g`` stands for (the inverse of :func:`normal_face`); -1 if none."""
    s = ctx[C_EFF + g]
    j0 = ctx[C_RUN + g]
    k = ctx[C_POS + g] - j0
    for j in range(j0, 13):
        f = order[s, j]
        if f < 0 or ctx[C_RUN + f] != j0:
            break
        if (rest >> f) & 1:
            if k == 0:
                return int(f)
            k -= 1
    return -1


@jit
def tt_slot(tt: Any, key: Any) -> int:
    """First slot of the bucket of a trick-start position's key (word 0 carries the leader).

    The products are mixed once more (multiply, fold the high bits down)
    before the low bits are taken: without that, a key bit from 49 up (the
    leader's, bits 56..57) never reached the slot, so the four positions
    that differ only in the leader shared one two-entry bucket and drove
    each other out (decision 0070: a third fewer nodes with it).
    """
    h = key[0] * _HASH_A
    h ^= key[1] * _HASH_B
    h ^= key[2] * _HASH_C
    h ^= key[3] * _HASH_D
    h ^= h >> 31
    h *= _HASH_C
    h ^= h >> 29
    return int(h & (tt.shape[0] - 2))


@jit
def tt_find(tt: Any, slot: int, key: Any, gen: int) -> int:
    """Slot holding this key in the bucket at ``slot``, or -1."""
    for s in range(slot, slot + 2):
        if tt[s, 4] == gen and tt[s, 0] == key[0] and tt[s, 1] == key[1] and tt[s, 2] == key[2] and tt[s, 3] == key[3]:
            return s
    return -1


@jit
def tt_store(tt: Any, slot: int, found: int, key: Any, gen: int, lo: int, hi: int, move: int, tricks_left: int) -> None:
    """Store bounds: in place when found, else in the stale or shallower slot of the bucket (the second slot otherwise)."""
    s = found
    if s < 0:
        s = slot + 1
        if tt[slot, 4] != gen or (tt[slot, 7] >> 5) <= tricks_left:
            s = slot
    tt[s, 0] = key[0]
    tt[s, 1] = key[1]
    tt[s, 2] = key[2]
    tt[s, 3] = key[3]
    tt[s, 4] = gen
    tt[s, 5] = lo
    tt[s, 6] = hi
    tt[s, 7] = move + (tricks_left << 5)


@jit
def gen_moves(ctx: Any, order: Any, legal: int, foreign: int, row: Any) -> int:
    """Write one face per class of equivalent legal faces into ``row``; return how many.

    Same rule as :func:`stich.bots.doppelkopf.solver.equivalent_moves`.
    """
    m = 0
    for suit in range(5):
        if legal & ctx[C_FOLLOW + suit] == 0:
            continue
        prev = -1
        blocked = True
        for j in range(13):
            f = order[suit, j]
            if f < 0:
                break
            bit = 1 << f
            is_foreign = (foreign & bit) != 0
            if legal & bit:
                if prev < 0 or blocked or is_foreign or ctx[C_EYES + f] != ctx[C_EYES + prev]:
                    row[m] = f
                    m += 1
                prev = f
                blocked = is_foreign
            elif is_foreign:
                blocked = True
    return m


@jit
def order_moves(ctx: Any, row: Any, m: int, n: int, led: int, best_key: int, partner_wins: bool, first: int) -> None:
    """Sort ``row[:m]`` by the heuristic of :meth:`stich.bots.doppelkopf.solver.Solver._ordered`; ``first`` (if there) leads."""
    for i in range(m):
        f = row[i]
        if n == 0:
            score = ctx[C_KEY + f]
        else:
            k = card_key(ctx, f, led)
            eyes = ctx[C_EYES + f]
            if partner_wins:
                score = eyes * 64 - k
            elif k > best_key:
                score = 10_000 - k if n < 3 else 10_000 + eyes * 64 - k
            else:
                score = -eyes * 64 - k
        if f == first:
            score = 1 << 30
        row[16 + i] = score
    for i in range(1, m):
        f = row[i]
        s = row[16 + i]
        j = i - 1
        while j >= 0 and row[16 + j] < s:
            row[j + 1] = row[j]
            row[17 + j] = row[16 + j]
            j -= 1
        row[j + 1] = f
        row[17 + j] = s


@jit
def last_trick(ctx: Any, hands: Any, leader: int) -> int:
    """Re's eyes from the last trick, each player holding one card and ``leader`` to lead."""
    re = ctx[C_RE]
    led = -1
    best_key = -1
    best_pos = 0
    eyes = 0
    for i in range(4):
        h = hands[(leader + i) & 3] & FACES
        f = 0
        while (h >> f) & 1 == 0:
            f += 1
        eyes += ctx[C_EYES + f]
        if i == 0:
            led = ctx[C_EFF + f]
            best_key = ctx[C_KEY + f]
        else:
            k = card_key(ctx, f, led)
            if beats(ctx, f, k, best_key, 1):
                best_key = k
                best_pos = i
    return eyes if (re >> ((leader + best_pos) & 3)) & 1 else 0


@jit
def lowest_eyes(ctx: Any, hand: int, k: int) -> int:
    """The eyes of the ``k`` cheapest cards of count-form ``hand``."""
    total = 0
    for i in range(24):
        if k == 0:
            break
        f = ctx[C_BY_EYES + i]
        c = ((hand >> f) & 1) + ((hand >> (f + 24)) & 1)
        if c > k:
            c = k
        total += c * ctx[C_EYES + f]
        k -= c
    return total


@jit
def sure_eyes(ctx: Any, order: Any, hands: Any) -> int:
    """Eyes one party is sure to win from a trick start: > 0 for Re, < 0 (negated) for Kontra, 0 if none known.

    The trumps that rank above every trump of the other party (no copy of
    the same face with it) win each trick they are played to, for their
    party, whatever else falls.  A player holding ``k`` of them takes ``k``
    different tricks, each with one card of every player: at least the eyes
    of those ``k`` cards and of the ``k`` cheapest cards of each other player.
    """
    re = ctx[C_RE]
    held = (hands[0] | hands[1] | hands[2] | hands[3]) & FACES
    re_held = 0
    kontra_held = 0
    for q in range(4):
        if (re >> q) & 1:
            re_held |= hands[q]
        else:
            kontra_held |= hands[q]
    re_faces = re_held & ~kontra_held & FACES
    kontra_faces = kontra_held & ~re_held & FACES
    # the top trumps held by one party only (faces held by both stop the run)
    sure = 0
    side = -1
    for j in range(13):
        f = order[TRUMP, j]
        if f < 0:
            break
        bit = 1 << f
        if held & bit == 0:
            continue
        s = 1 if re_faces & bit else (0 if kontra_faces & bit else -1)
        if s < 0 or (side >= 0 and s != side):
            break
        side = s
        sure |= bit
    if side < 0:
        return 0
    best = 0
    for p in range(4):
        h = hands[p]
        mine = h & sure
        if mine == 0:
            continue
        k = popcount24(mine) + popcount24((h >> 24) & sure)
        total = 0
        m = mine
        while m:
            low = m & -m
            m ^= low
            f = 0
            while low > 1:
                low >>= 1
                f += 1
            total += ctx[C_EYES + f] * (1 + ((h >> (f + 24)) & 1))
        for q in range(4):
            if q != p:
                total += lowest_eyes(ctx, hands[q], k)
        if total > best:
            best = total
    return best if side == 1 else -best


# Fields of one search frame (one row of ``frames``).
_N, _LEADER, _LED, _BP, _BK, _TE, _TL, _REM = 0, 1, 2, 3, 4, 5, 6, 7
_A, _B, _A0, _B0, _LO, _HI, _SLOT, _FOUND = 8, 9, 10, 11, 12, 13, 14, 15
_USE_TT, _P, _HAND, _MAX, _BEST, _BEST_MOVE, _M = 17, 18, 19, 20, 21, 22, 23
_I, _GAIN, _KEY = 24, 25, 26
FRAME_FIELDS = 32
MAX_DEPTH = 52
"""Rows of ``frames`` and ``buf``: one per card still to play, plus the root."""


@jit
def search(
    hands: Any,
    tricks: Any,
    n: int,
    leader: int,
    led: int,
    best_pos: int,
    best_key: int,
    teyes: int,
    tricks_left: int,
    rem: int,
    alpha: int,
    beta: int,
    only: int,
    ctx: Any,
    order: Any,
    tt: Any,
    gen: int,
    buf: Any,
    fr: Any,
    stats: Any,
) -> int:
    """Re's future eyes (this trick included), fail-soft alpha-beta within ``alpha``, ``beta``.

    ``tricks[tricks_left, :n]`` holds the current trick, with ``led``,
    ``best_pos``, ``best_key`` and its eyes ``teyes`` so far; ``rem`` is the
    eyes still in play (hands plus trick).  ``only >= 0`` searches that one
    face at the root and leaves the root's table entry alone (for
    :func:`solve_root`).

    The recursion is unrolled into an explicit stack (``fr``: one row of
    ``FRAME_FIELDS`` per depth, ``buf``: the move list of each depth), which
    lets numba cache the compiled code (recursive functions crash its cache)
    and keeps every frame in one small array.
    """
    re = ctx[C_RE]
    fr[0, _N] = n
    fr[0, _LEADER] = leader
    fr[0, _LED] = led
    fr[0, _BP] = best_pos
    fr[0, _BK] = best_key
    fr[0, _TE] = teyes
    fr[0, _TL] = tricks_left
    fr[0, _REM] = rem
    fr[0, _A] = alpha
    fr[0, _B] = beta
    d = 0
    v = 0
    mode = 0  # 0: enter frame d, 1: next move of frame d, 2: frame d returns v, 3: frame d's child returned v
    while True:
        if mode == 0:
            stats[0] += 1
            a = fr[d, _A]
            b = fr[d, _B]
            rem = fr[d, _REM]
            if a >= rem:
                v = rem
                mode = 2
                continue
            if b <= 0:
                v = 0
                mode = 2
                continue
            n = fr[d, _N]
            leader = fr[d, _LEADER]
            tricks_left = fr[d, _TL]
            if n == 0 and tricks_left == 1 and (d > 0 or only < 0):
                v = last_trick(ctx, hands, leader)
                mode = 2
                continue
            led = fr[d, _LED]
            best_key = fr[d, _BK]
            p = (leader + n) & 3
            lo = 0
            hi = rem
            slot = -1
            found = -1
            tt_move = -1
            use_tt = n == 0 and (d > 0 or only < 0)
            if use_tt:
                key = fr[d, _KEY : _KEY + 4]
                normal_hands(ctx, order, hands, key)
                key[0] |= leader << 56
                slot = tt_slot(tt, key)
                found = tt_find(tt, slot, key, gen)
                if found >= 0:
                    lo = tt[found, 5]
                    hi = tt[found, 6]
                    if lo >= b:
                        v = lo
                        mode = 2
                        continue
                    if hi <= a:
                        v = hi
                        mode = 2
                        continue
                    if lo == hi:
                        v = lo
                        mode = 2
                        continue
                    if lo > a:
                        a = lo
                    if hi < b:
                        b = hi
                    rest = (hands[0] | hands[1] | hands[2] | hands[3]) & FACES
                    tt_move = actual_face(ctx, order, rest, tt[found, 7] & 31)
                else:
                    sure = sure_eyes(ctx, order, hands)
                    if sure > 0:
                        lo = sure
                    elif sure < 0:
                        hi = rem + sure
                    if lo >= b:
                        v = lo
                        mode = 2
                        continue
                    if hi <= a:
                        v = hi
                        mode = 2
                        continue
                    if lo == hi:
                        # the bound leaves one value: with a window wider than null it can lie inside (a, b),
                        # and narrowing to a == b would end the move loop before any move (value -INF / INF)
                        v = lo
                        mode = 2
                        continue
                    if lo > a:
                        a = lo
                    if hi < b:
                        b = hi
            hand = hands[p]
            row = buf[d]
            if d == 0 and only >= 0:
                row[0] = only
                m = 1
            else:
                legal = legal_faces(ctx, hand, n, led, best_key)
                foreign = (hands[(p + 1) & 3] | hands[(p + 2) & 3] | hands[(p + 3) & 3]) & FACES
                for i in range(n):
                    foreign |= 1 << tricks[tricks_left, i]
                m = gen_moves(ctx, order, legal, foreign, row)
                if m > 1:
                    partner_wins = False
                    if n > 0:
                        winner = (leader + fr[d, _BP]) & 3
                        partner_wins = ((re >> winner) & 1) == ((re >> p) & 1)
                    order_moves(ctx, row, m, n, led, best_key, partner_wins, tt_move)
            maximise = (re >> p) & 1
            fr[d, _A] = a
            fr[d, _B] = b
            fr[d, _A0] = a
            fr[d, _B0] = b
            fr[d, _LO] = lo
            fr[d, _HI] = hi
            fr[d, _SLOT] = slot
            fr[d, _FOUND] = found
            fr[d, _USE_TT] = use_tt
            fr[d, _P] = p
            fr[d, _HAND] = hand
            fr[d, _MAX] = maximise
            fr[d, _BEST] = -INF if maximise else INF
            fr[d, _BEST_MOVE] = 0
            fr[d, _M] = m
            fr[d, _I] = 0
            mode = 1
        elif mode == 1:
            i = fr[d, _I]
            a = fr[d, _A]
            b = fr[d, _B]
            if i >= fr[d, _M] or a >= b:
                best = fr[d, _BEST]
                if fr[d, _USE_TT]:
                    lo = fr[d, _LO]
                    hi = fr[d, _HI]
                    if best <= fr[d, _A0]:
                        if best < hi:
                            hi = best
                    elif best >= fr[d, _B0]:
                        if best > lo:
                            lo = best
                    else:
                        lo = best
                        hi = best
                    rest = (hands[0] | hands[1] | hands[2] | hands[3]) & FACES
                    move = normal_face(ctx, order, rest, fr[d, _BEST_MOVE])
                    tt_store(tt, fr[d, _SLOT], fr[d, _FOUND], fr[d, _KEY : _KEY + 4], gen, lo, hi, move, fr[d, _TL])
                v = best
                mode = 2
                continue
            f = buf[d, i]
            fr[d, _I] = i + 1
            p = fr[d, _P]
            hands[p] = take(fr[d, _HAND], f)
            n = fr[d, _N]
            tricks_left = fr[d, _TL]
            tricks[tricks_left, n] = f
            te = fr[d, _TE] + ctx[C_EYES + f]
            if n == 0:
                nled = ctx[C_EFF + f]
                nbk = ctx[C_KEY + f]
                nbp = 0
            else:
                nled = fr[d, _LED]
                nbk = fr[d, _BK]
                nbp = fr[d, _BP]
                k = card_key(ctx, f, nled)
                if beats(ctx, f, k, nbk, tricks_left):
                    nbk = k
                    nbp = n
            if n < 3:
                fr[d, _GAIN] = 0
                c = d + 1
                fr[c, _N] = n + 1
                fr[c, _LEADER] = fr[d, _LEADER]
                fr[c, _LED] = nled
                fr[c, _BP] = nbp
                fr[c, _BK] = nbk
                fr[c, _TE] = te
                fr[c, _TL] = tricks_left
                fr[c, _REM] = fr[d, _REM]
                fr[c, _A] = a
                fr[c, _B] = b
                d = c
                mode = 0
            else:
                winner = (fr[d, _LEADER] + nbp) & 3
                gain = te if (re >> winner) & 1 else 0
                if tricks_left == 1:
                    v = gain
                    mode = 3
                else:
                    fr[d, _GAIN] = gain
                    c = d + 1
                    fr[c, _N] = 0
                    fr[c, _LEADER] = winner
                    fr[c, _LED] = -1
                    fr[c, _BP] = 0
                    fr[c, _BK] = -1
                    fr[c, _TE] = 0
                    fr[c, _TL] = tricks_left - 1
                    fr[c, _REM] = fr[d, _REM] - te
                    fr[c, _A] = a - gain
                    fr[c, _B] = b - gain
                    d = c
                    mode = 0
        elif mode == 2:
            if d == 0:
                return v
            d -= 1
            v += fr[d, _GAIN]
            mode = 3
        else:
            p = fr[d, _P]
            hands[p] = fr[d, _HAND]
            f = buf[d, fr[d, _I] - 1]
            if fr[d, _MAX]:
                if v > fr[d, _BEST]:
                    fr[d, _BEST] = v
                    fr[d, _BEST_MOVE] = f
                    if v > fr[d, _A]:
                        fr[d, _A] = v
            elif v < fr[d, _BEST]:
                fr[d, _BEST] = v
                fr[d, _BEST_MOVE] = f
                if v < fr[d, _B]:
                    fr[d, _B] = v
            mode = 1


@jit
def root_trick(ctx: Any, trick: Any, n: int, tricks_left: int, out: Any) -> None:
    """``out[:4]`` = led, best position, best key and eyes of the first ``n`` cards of a trick."""
    led = -1
    bk = -1
    bp = 0
    te = 0
    for i in range(n):
        f = trick[i]
        te += ctx[C_EYES + f]
        if i == 0:
            led = ctx[C_EFF + f]
            bk = ctx[C_KEY + f]
        else:
            k = card_key(ctx, f, led)
            if beats(ctx, f, k, bk, tricks_left):
                bk = k
                bp = i
    out[0] = led
    out[1] = bp
    out[2] = bk
    out[3] = te


@jit
def run_search(
    hands: Any,
    tricks: Any,
    n: int,
    leader: int,
    tricks_left: int,
    rem: int,
    alpha: int,
    beta: int,
    only: int,
    ctx: Any,
    order: Any,
    tt: Any,
    gen: int,
    buf: Any,
    fr: Any,
    stats: Any,
) -> int:
    """:func:`search` from a root position whose current trick is ``tricks[tricks_left, :n]``."""
    st = np.empty(4, dtype=np.int64)
    root_trick(ctx, tricks[tricks_left], n, tricks_left, st)
    return search(
        hands, tricks, n, leader, st[0], st[1], st[2], st[3], tricks_left, rem, alpha, beta, only, ctx, order, tt, gen, buf, fr, stats
    )


@jit
def mtdf(
    hands: Any,
    tricks: Any,
    n: int,
    leader: int,
    tricks_left: int,
    rem: int,
    only: int,
    guess: int,
    ctx: Any,
    order: Any,
    tt: Any,
    gen: int,
    buf: Any,
    fr: Any,
    stats: Any,
) -> int:
    """Exact future Re eyes (after face ``only`` when ``only >= 0``) by null-window probes from ``guess`` (MTD(f)).

    Each probe moves the lower or the upper bound; the table keeps what the
    earlier probes proved, so later ones are cheap.
    """
    lower = 0
    upper = rem
    g = guess
    if g < lower:
        g = lower
    if g > upper:
        g = upper
    while lower < upper:
        beta = g if g > lower else lower + 1
        g = run_search(hands, tricks, n, leader, tricks_left, rem, beta - 1, beta, only, ctx, order, tt, gen, buf, fr, stats)
        if g < beta:
            upper = g
        else:
            lower = g
    return g


@jit
def solve_root(
    hands: Any,
    tricks: Any,
    n: int,
    leader: int,
    tricks_left: int,
    rem: int,
    ctx: Any,
    order: Any,
    tt: Any,
    gen: int,
    buf: Any,
    fr: Any,
    stats: Any,
    out: Any,
) -> None:
    """Exact future Re eyes after each legal face of the player to move: ``out[f]`` (-1 for faces not legal).

    One face per class of equivalent faces is searched (:func:`mtdf`, the
    cards in the order of the move heuristic, each starting from the value
    of the card before); the other faces of a class copy the value of the
    next stronger legal face of their suit.
    """
    row = np.empty(MOVE_STRIDE, dtype=np.int64)
    legal = root_moves(hands, tricks, n, leader, tricks_left, ctx, order, row)
    m = row[MOVE_STRIDE - 1]
    for f in range(24):
        out[f] = -1
    guess = rem // 2
    for i in range(m):
        f = row[i]
        guess = mtdf(hands, tricks, n, leader, tricks_left, rem, f, guess, ctx, order, tt, gen, buf, fr, stats)
        out[f] = guess
    for suit in range(5):
        last = -1
        for j in range(13):
            f = order[suit, j]
            if f < 0:
                break
            if (legal >> f) & 1:
                if out[f] < 0:
                    out[f] = out[last]
                last = f


@jit
def root_moves(hands: Any, tricks: Any, n: int, leader: int, tricks_left: int, ctx: Any, order: Any, row: Any) -> int:
    """The legal faces of the player to move (returned as a mask); ``row[:row[31]]``: one face per class of equivalent faces, best first."""
    st = np.empty(4, dtype=np.int64)
    root_trick(ctx, tricks[tricks_left], n, tricks_left, st)
    led = st[0]
    best_key = st[2]
    p = (leader + n) & 3
    legal = legal_faces(ctx, hands[p], n, led, best_key)
    foreign = (hands[(p + 1) & 3] | hands[(p + 2) & 3] | hands[(p + 3) & 3]) & FACES
    for i in range(n):
        foreign |= 1 << tricks[tricks_left, i]
    m = gen_moves(ctx, order, legal, foreign, row)
    partner_wins = False
    if n > 0:
        re = ctx[C_RE]
        winner = (leader + st[1]) & 3
        partner_wins = ((re >> winner) & 1) == ((re >> p) & 1)
    order_moves(ctx, row, m, n, led, best_key, partner_wins, -1)
    row[MOVE_STRIDE - 1] = m
    return int(legal)
