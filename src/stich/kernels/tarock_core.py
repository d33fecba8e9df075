"""The compiled part of :mod:`stich.bots.tarock_family.kernel` (numba).  Import it only through ``tarock_kernel``.

Plain Tarock-family trick play (:mod:`stich.core.tricks`): follow suit, else
trump when the game has Trumpfzwang, else anything; an excuse may always be
played and never wins; the highest trump, else the highest card of the suit
led takes the trick.  Hands are ``int64`` masks of physical card indices
(below 63), one per *kernel seat*: the seats that play to a trick, in
playing order, so the seat after ``p`` is ``(p + 1) % m``.

``ctx`` is an ``int64`` table laid out by the ``C_*`` offsets: per card its
effective suit, strength and points; per effective suit its card mask; then
the Trumpfzwang flag, the number ``m`` of kernel seats, the mask of the
kernel seats on *side 0* (the declarer's team), whose won cards and tricks
the playouts report and whose card points the solver maximises, and the
trick points from which an earlier player takes an opponent's trick in
greedy card play (:func:`greedy_card`).

The random stream and the choice rule are those of the Doppelkopf kernel
(:mod:`stich.kernels.core`: splitmix64, one legal card chosen
uniformly by a multiply-high of the top 32 bits), so the pure-Python path of
``tarock_kernel`` plays exactly the same games.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stich.kernels.core import jit, next_random, nth_face, pick_below

C_EFF = 0
C_STR = 64
C_PTS = 128
C_FOLLOW = 192
C_MUST_TRUMP = 198
C_SEATS = 199
C_SIDE = 200
C_TAKE = 201
CTX_SIZE = 202

TRUMP = 4
EXCUSE = 5
NO_SUIT = -1
NO_KEY = -2
"""Key of an empty trick: any card, even an excuse (key -1), takes the lead of it."""
INF = 1 << 30


@jit
def popcount64(x: int) -> int:
    """Set bits of a non-negative mask (a hand has few)."""
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@jit
def card_key(ctx: Any, c: int, led: int) -> int:
    """Strength of card ``c`` in a trick asking for ``led``: trumps above the suit led, anything else -1."""
    e = ctx[C_EFF + c]
    if e == TRUMP:
        return 1000 + int(ctx[C_STR + c])
    if e == led:
        return int(ctx[C_STR + c])
    return -1


@jit
def legal_cards(ctx: Any, hand: int, led: int) -> int:
    """Cards of ``hand`` playable to a trick asking for ``led`` (``NO_SUIT``: leading, or after a led excuse)."""
    if led == NO_SUIT:
        return hand
    excuses: int = hand & ctx[C_FOLLOW + EXCUSE]
    follow: int = hand & ctx[C_FOLLOW + led]
    if follow:
        return follow | excuses
    if ctx[C_MUST_TRUMP]:
        trumps: int = hand & ctx[C_FOLLOW + TRUMP]
        if trumps:
            return trumps | excuses
    return hand


@jit
def trick_state(ctx: Any, trick: Any, n: int, out: Any) -> None:
    """``out`` = (suit led, position of the card in the lead, its key, card points) of the first ``n`` cards of ``trick``."""
    led = NO_SUIT
    best_key = NO_KEY
    best_pos = 0
    points = 0
    for i in range(n):
        c = trick[i]
        e = ctx[C_EFF + c]
        if led == NO_SUIT and e != EXCUSE:
            led = e
        k = card_key(ctx, c, led)
        if k > best_key:
            best_key = k
            best_pos = i
        points += ctx[C_PTS + c]
    out[0] = led
    out[1] = best_pos
    out[2] = best_key
    out[3] = points


@jit
def follow_key(ctx: Any, c: int, led: int) -> int:
    """:func:`card_key` of ``c`` played next to a trick asking for ``led`` (``NO_SUIT``: ``c`` would set the suit)."""
    e = ctx[C_EFF + c]
    if e == EXCUSE:
        return -1
    if led == NO_SUIT:
        return card_key(ctx, c, e)
    return card_key(ctx, c, led)


@jit
def greedy_card(ctx: Any, legal: int, led: int, best_key: int, mine: bool, last: bool, points: int) -> int:
    """The rule-based card among ``legal`` (a mask of two or more) for a seat following to a trick.

    ``best_key`` is the key of the card taking the trick so far, ``mine``
    whether it belongs to the seat's own side, ``last`` whether the seat
    plays the trick's last card and ``points`` the trick's card points so
    far.  The rules of :mod:`stich.bots.tarock_family.greedy_playout`: on its own side's
    trick the last player smears its richest card, an earlier one adds its
    poorest; on the other side's trick the last player takes it with its
    richest winning card, an earlier one with its strongest winning card
    once the trick holds ``ctx[C_TAKE]`` points, else (and whoever cannot
    win) adds its poorest card.  Richest: most points, then the weakest;
    poorest: fewest points, then the weakest; ties go to the lowest index.
    """
    rich = -1
    rich_pts = -1
    rich_key = 0
    poor = -1
    poor_pts = 0
    poor_key = 0
    win_rich = -1
    win_rich_pts = -1
    win_rich_key = 0
    win_strong = -1
    win_strong_key = -1
    rest = legal
    while rest:
        bit = rest & -rest
        rest ^= bit
        c = nth_face(bit, 0)
        pts = int(ctx[C_PTS + c])
        k = follow_key(ctx, c, led)
        if pts > rich_pts or (pts == rich_pts and k < rich_key):
            rich, rich_pts, rich_key = c, pts, k
        if poor < 0 or pts < poor_pts or (pts == poor_pts and k < poor_key):
            poor, poor_pts, poor_key = c, pts, k
        if k > best_key:
            if pts > win_rich_pts or (pts == win_rich_pts and k < win_rich_key):
                win_rich, win_rich_pts, win_rich_key = c, pts, k
            if k > win_strong_key:
                win_strong, win_strong_key = c, k
    if mine:
        return rich if last else poor
    if win_rich < 0:
        return poor
    if last:
        return win_rich
    if points >= ctx[C_TAKE]:
        return win_strong
    return poor


@jit
def playouts(
    hands0: Any,
    trick0: Any,
    n0: int,
    leader0: int,
    tricks_left0: int,
    ctx: Any,
    count: int,
    seed: Any,
    greedy: int,
    epsilon: int,
    out: Any,
) -> None:
    """Play ``count`` games to the end; ``out[g]`` = (side 0's won cards, its tricks, the last trick's winner and cards).

    The position: kernel-seat hands ``hands0``, the first ``n0`` cards of
    the current trick in ``trick0`` led by kernel seat ``leader0``, and
    ``tricks_left0`` tricks to finish, the current one included.  Won cards
    and tricks count from the current trick on.  One splitmix64 stream seeded
    by ``seed`` (uint64) serves all games in turn.

    Every card is chosen uniformly among the legal ones, except for the
    kernel seats in the mask ``greedy`` when they follow with a choice: one
    draw decides whether the card is random (its top 32 bits below
    ``epsilon``, a fraction of 2**32) or :func:`greedy_card` (no further draw).
    """
    m = ctx[C_SEATS]
    side = ctx[C_SIDE]
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    hands = np.empty(m, dtype=np.int64)
    root = np.empty(4, dtype=np.int64)
    trick_state(ctx, trick0, n0, root)
    cards0 = 0
    for i in range(n0):
        cards0 |= 1 << trick0[i]
    for g in range(count):
        for s in range(m):
            hands[s] = hands0[s]
        leader = leader0
        n = n0
        led = root[0]
        best_pos = root[1]
        best_key = root[2]
        cards = cards0
        points = root[3]
        tricks_left = tricks_left0
        won = 0
        tricks = 0
        last = -1
        while True:
            p = (leader + n) % m
            legal = legal_cards(ctx, hands[p], led)
            size = popcount64(legal)
            if n > 0 and size > 1 and (greedy >> p) & 1 and (next_random(state) >> np.uint64(32)) >= epsilon:
                mine = ((side >> p) & 1) == ((side >> ((leader + best_pos) % m)) & 1)
                c = greedy_card(ctx, legal, led, best_key, mine, n == m - 1, points)
            else:
                c = nth_face(legal, pick_below(next_random(state), size))
            bit = 1 << c
            hands[p] ^= bit
            cards |= bit
            points += ctx[C_PTS + c]
            if led == NO_SUIT and ctx[C_EFF + c] != EXCUSE:
                led = ctx[C_EFF + c]
            k = card_key(ctx, c, led)
            if k > best_key:
                best_key = k
                best_pos = n
            n += 1
            if n == m:
                winner = (leader + best_pos) % m
                if (side >> winner) & 1:
                    won |= cards
                    tricks += 1
                tricks_left -= 1
                if tricks_left == 0:
                    last = winner
                    break
                leader = winner
                n = 0
                led = NO_SUIT
                best_key = NO_KEY
                best_pos = 0
                cards = 0
                points = 0
        out[g, 0] = won
        out[g, 1] = tricks
        out[g, 2] = last
        out[g, 3] = cards


@jit
def solve(hands0: Any, trick0: Any, n0: int, leader0: int, tricks_left0: int, tricks0: int, bonus: int, ctx: Any, nodes: Any) -> int:
    """Side 0's card points from the current trick on under best play of both sides, plus ``bonus`` if it ends with a trick.

    The position is given as for :func:`playouts`; ``tricks0`` counts side
    0's tricks before it (the bonus needs at least one at the end: Dobbm's
    talon, which a declarer without a trick loses).  Plain alpha-beta,
    written with an explicit stack of plies, since numba's on-disk cache
    crashes on recursive functions (numba issue 6061); ``nodes[0]`` counts
    the cards tried.
    """
    m = ctx[C_SEATS]
    side = ctx[C_SIDE]
    depth = tricks_left0 * m + 1
    hands = hands0.copy()
    leader = np.empty(depth, dtype=np.int64)
    pos = np.empty(depth, dtype=np.int64)
    left = np.empty(depth, dtype=np.int64)
    led = np.empty(depth, dtype=np.int64)
    best_pos = np.empty(depth, dtype=np.int64)
    best_key = np.empty(depth, dtype=np.int64)
    points = np.empty(depth, dtype=np.int64)
    acc = np.empty(depth, dtype=np.int64)
    tricks = np.empty(depth, dtype=np.int64)
    rest = np.empty(depth, dtype=np.int64)
    played = np.empty(depth, dtype=np.int64)
    alpha = np.empty(depth, dtype=np.int64)
    beta = np.empty(depth, dtype=np.int64)
    best = np.empty(depth, dtype=np.int64)
    root = np.empty(4, dtype=np.int64)
    trick_state(ctx, trick0, n0, root)
    leader[0] = leader0
    pos[0] = n0
    left[0] = tricks_left0
    led[0] = root[0]
    best_pos[0] = root[1]
    best_key[0] = root[2]
    points[0] = root[3]
    acc[0] = 0
    tricks[0] = tricks0
    alpha[0] = -INF
    beta[0] = INF
    d = 0
    p = (leader0 + n0) % m
    rest[0] = legal_cards(ctx, hands[p], led[0])
    best[0] = -INF if (side >> p) & 1 else INF
    while True:
        p = (leader[d] + pos[d]) % m
        if rest[d] == 0:
            value = best[d]
            if d == 0:
                return int(value)
            d -= 1
            p = (leader[d] + pos[d]) % m
            hands[p] ^= played[d]
        else:
            bit = rest[d] & -rest[d]
            rest[d] ^= bit
            c = nth_face(bit, 0)
            nodes[0] += 1
            hands[p] ^= bit
            led2 = led[d]
            if led2 == NO_SUIT and ctx[C_EFF + c] != EXCUSE:
                led2 = ctx[C_EFF + c]
            k = card_key(ctx, c, led2)
            bp2 = best_pos[d]
            bk2 = best_key[d]
            if k > bk2:
                bk2 = k
                bp2 = pos[d]
            pts2 = points[d] + ctx[C_PTS + c]
            n2 = pos[d] + 1
            if n2 < m:
                child_leader = leader[d]
                child_left = left[d]
                child_acc = acc[d]
                child_tricks = tricks[d]
            else:
                winner = (leader[d] + bp2) % m
                mine = (side >> winner) & 1
                child_acc = acc[d] + (pts2 if mine else 0)
                child_tricks = tricks[d] + mine
                child_leader = winner
                child_left = left[d] - 1
                n2 = 0
                led2 = NO_SUIT
                bp2 = 0
                bk2 = NO_KEY
                pts2 = 0
            if child_left == 0:
                value = child_acc + (bonus if child_tricks > 0 else 0)
                hands[p] ^= bit
            else:
                played[d] = bit
                e = d + 1
                leader[e] = child_leader
                pos[e] = n2
                left[e] = child_left
                led[e] = led2
                best_pos[e] = bp2
                best_key[e] = bk2
                points[e] = pts2
                acc[e] = child_acc
                tricks[e] = child_tricks
                alpha[e] = alpha[d]
                beta[e] = beta[d]
                q = (child_leader + n2) % m
                rest[e] = legal_cards(ctx, hands[q], led2)
                best[e] = -INF if (side >> q) & 1 else INF
                d = e
                continue
        # a child of ply d is valued: fold it in
        if (side >> p) & 1:
            if value > best[d]:
                best[d] = value
            if best[d] > alpha[d]:
                alpha[d] = best[d]
        else:
            if value < best[d]:
                best[d] = value
            if best[d] < beta[d]:
                beta[d] = best[d]
        if alpha[d] >= beta[d]:
            rest[d] = 0
