"""The compiled Tapp Tarock heuristic's card play (numba).  Import it only through :mod:`stich.search.tapp_tarock_playout`.

A line-by-line twin of the card play of
:class:`stich.bots.tapp_tarock_heuristic.TappTarockHeuristic` (``_play``,
``_lead``, ``_follow``, ``_smear``, ``_cheapest``, ``_risk`` and the
``_View`` estimates they use) on the masks of :mod:`stich.search._tarock_core`:
the same rules, the same probabilities computed in the same order, the same
tie-breaks (``min`` and ``max`` over the ascending cards keep the first, so
a strict comparison over ascending faces keeps the lowest card among
equals).  The differential tests (tests/search/test_tapp_tarock_playout.py)
hold it to the bot's choices.

``ctx`` is the Tarock kernel's table with two tables appended: ``above``
(:data:`C_ABOVE`, so that counting unseen cards stronger than a card is a
mask and a popcount) and the cards' face values (:data:`C_POINTS`: the
kernel's own ``C_PTS`` holds Tapp Tarock's thirds, ``3 f - 2``, while the
bot's rules read the face values, e.g. a partner's trick worth 4 or more).

What a seat may know is passed in, per kernel seat ``s``: ``down[s]``, the
face-down cards (talon halves, discards) it has not seen; ``dead[s]``, how
many hidden cards its estimates reckon with (the bot's
``_View.hidden_out``); ``voids[s]``, the effective suits (bit 0..3,
:data:`TRUMP`) the seat is known to lack, from the tricks so far.  Besides:
the tricks left (the bot keeps the Pagat until the last trick after
announcing ultimo, and a boss king is no smear with two tricks left or
fewer) and whether Pagat ultimo was announced.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stich.search._kernel_core import jit, next_random, nth_face, pick_below
from stich.search._tarock_core import (
    C_EFF,
    C_FOLLOW,
    C_SEATS,
    C_SIDE,
    C_STR,
    CTX_SIZE,
    NO_SUIT,
    TRUMP,
    card_key,
    legal_cards,
    popcount64,
    trick_state,
)

SAFE = 0.6
"""Chance a winning card must have of holding the trick (the bot's ``SAFE``)."""
PAGAT = 0
MOND = 20
SKUES = 21
"""Faces of the Trull (the bot's ``PAGAT_F``, ``MOND_F``, ``SKUES_F``)."""

STRIDE = 32
"""Strengths per effective suit in the ``above`` table (every strength must lie below it; tarocks reach 22)."""

C_ABOVE = CTX_SIZE
"""Offset of the ``above`` table: at ``suit * STRIDE + s`` the mask of the cards of effective suit ``suit`` (0..4)
stronger than strength ``s``."""
C_POINTS = C_ABOVE + 5 * STRIDE
"""Offset of the face values (the bot's ``POINTS``), per card."""
POLICY_CTX_SIZE = C_POINTS + 64


@jit
def comb(n: int, k: int) -> int:
    """The binomial coefficient, exactly (as ``math.comb`` for the small numbers of a hand)."""
    if k < 0 or k > n:
        return 0
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


@jit
def comb_ratio(total: int, hand: int, k: int) -> float:
    """Chance that ``hand`` cards out of ``total`` unseen hold none of ``k`` given cards (the bot's ``_comb_ratio``)."""
    if k <= 0:
        return 1.0
    if total <= 0 or k > total - hand:
        return 0.0
    return comb(total - hand, k) / comb(total, k)


@jit
def unseen_in(ctx: Any, unseen: int, suit: int, strength: int) -> int:
    """Unseen cards of effective suit ``suit`` stronger than ``strength`` (0: all of them; the bot's ``unseen_in``)."""
    return popcount64(unseen & ctx[C_ABOVE + suit * STRIDE + strength])


@jit
def p_none(hands: Any, pool: int, voids: Any, seat: int, suit: int, k: int) -> float:
    """Chance that ``seat`` holds none of ``k`` unseen cards of ``suit`` (the bot's ``_View.p_none``)."""
    if (voids[seat] >> suit) & 1:
        return 1.0
    return comb_ratio(pool, popcount64(hands[seat]), k)


@jit
def p_beat(ctx: Any, hands: Any, pool: int, voids: Any, unseen: int, seat: int, f: int, led: int) -> float:
    """Chance that ``seat``, still to play, beats ``f`` (now winning the trick; the bot's ``_View.p_beat``)."""
    if ctx[C_EFF + f] == TRUMP:
        higher = unseen_in(ctx, unseen, TRUMP, ctx[C_STR + f])
        if higher == 0:
            return 0.0
        p_has = 1.0 - p_none(hands, pool, voids, seat, TRUMP, higher)
        if led == TRUMP:
            return p_has
        return p_has * p_none(hands, pool, voids, seat, led, unseen_in(ctx, unseen, led, 0))
    higher = unseen_in(ctx, unseen, led, ctx[C_STR + f])
    p_higher = 1.0 - p_none(hands, pool, voids, seat, led, higher) if higher else 0.0
    trumps = unseen_in(ctx, unseen, TRUMP, 0)
    p_ruff = 0.0
    if trumps:
        none_led = p_none(hands, pool, voids, seat, led, unseen_in(ctx, unseen, led, 0))
        p_ruff = none_led * (1.0 - p_none(hands, pool, voids, seat, TRUMP, trumps))
    return min(1.0, p_higher + p_ruff)


@jit
def p_hold(
    ctx: Any, hands: Any, m: int, me: int, pool: int, voids: Any, unseen: int, declarer: int, leader: int, n: int, f: int, led: int
) -> float:
    """Chance that ``f``, winning the trick now, is not beaten by a later opponent (the bot's ``_View.p_hold``)."""
    p = 1.0
    for j in range(n + 1, m):
        seat = (leader + j) % m
        if me == declarer or seat == declarer:
            p *= 1.0 - p_beat(ctx, hands, pool, voids, unseen, seat, f, led)
    return p


@jit
def high_face(mask: int) -> int:
    """The highest set bit of ``mask``, -1 for none."""
    f = -1
    while mask:
        f += 1
        mask >>= 1
    return f


@jit
def _lead(ctx: Any, hands: Any, m: int, me: int, pool: int, voids: Any, unseen: int, declarer: int, options: int) -> int:
    """The bot's ``_lead``."""
    trump_mask = ctx[C_FOLLOW + TRUMP]
    tarocks = options & trump_mask
    outside = unseen_in(ctx, unseen, TRUMP, 0)
    if me == declarer and tarocks and tarocks == options:
        top = high_face(unseen & trump_mask)
        high = high_face(tarocks)
        if high > top:
            return high  # a boss tarock draws two of theirs
        count = popcount64(tarocks)
        if count > outside:
            low = nth_face(tarocks, 0)
            if low != PAGAT or count == 1:
                return low
            return nth_face(tarocks, 1)
    # cash a boss king (the richest, the lowest card among equals) while the opponents are likely to follow
    cash = -1
    rest = options & ~trump_mask
    while rest:
        bit = rest & -rest
        rest ^= bit
        f = nth_face(bit, 0)
        if cash >= 0 and ctx[C_POINTS + f] <= ctx[C_POINTS + cash]:
            continue
        suit = ctx[C_EFF + f]
        boss = unseen_in(ctx, unseen, suit, ctx[C_STR + f]) == 0
        if boss and p_hold(ctx, hands, m, me, pool, voids, unseen, declarer, me, 0, f, suit) >= SAFE:
            cash = f
    if cash >= 0:
        return cash
    plain = options & ~trump_mask
    best = -1
    if plain:
        key3 = (0, 0, 0)
        rest = plain
        while rest:
            bit = rest & -rest
            rest ^= bit
            f = nth_face(bit, 0)
            k3 = (int(ctx[C_POINTS + f]), -popcount64(options & ctx[C_FOLLOW + ctx[C_EFF + f]]), f)
            if best < 0 or k3 < key3:
                best, key3 = f, k3
        return best
    key2 = (0, 0)
    rest = tarocks
    while rest:
        bit = rest & -rest
        rest ^= bit
        f = nth_face(bit, 0)
        k2 = (int(ctx[C_POINTS + f]), f)
        if best < 0 or k2 < key2:
            best, key2 = f, k2
    return best


@jit
def _smear(ctx: Any, unseen: int, tricks_left: int, options: int) -> int:
    """The bot's ``_smear``: the most valuable card for a partner's trick, never a needed boss king or the Sküs."""
    best = -1
    best_key = (0, 0)
    rest = options
    while rest:
        bit = rest & -rest
        rest ^= bit
        f = nth_face(bit, 0)
        if f == SKUES:
            k = (-10, 0)
        elif ctx[C_EFF + f] == TRUMP:
            k = (int(ctx[C_POINTS + f]) if f in (PAGAT, MOND) else 0, -f)
        else:
            king_boss = ctx[C_POINTS + f] == 5 and unseen_in(ctx, unseen, ctx[C_EFF + f], ctx[C_STR + f]) == 0 and tricks_left > 2
            k = (1 if king_boss else int(ctx[C_POINTS + f]), -int(ctx[C_STR + f]))
        if best < 0 or k > best_key:
            best, best_key = f, k
    return best


@jit
def _cheapest(ctx: Any, options: int) -> int:
    """The bot's ``_cheapest``: few points, low rank, the Pagat and the Mond only when nothing else goes."""
    best = -1
    best_key = (0, 0)
    rest = options
    while rest:
        bit = rest & -rest
        rest ^= bit
        f = nth_face(bit, 0)
        points = int(ctx[C_POINTS + f])
        if f in (PAGAT, MOND):
            points += 5
        k = (points, int(ctx[C_STR + f]) + (50 if ctx[C_EFF + f] == TRUMP else 0))
        if best < 0 or k < best_key:
            best, best_key = f, k
    return best


@jit
def _follow(
    ctx: Any,
    hands: Any,
    m: int,
    me: int,
    pool: int,
    voids: Any,
    unseen: int,
    declarer: int,
    leader: int,
    trick: Any,
    n: int,
    options: int,
    tricks_left: int,
) -> int:
    """The bot's ``_follow``."""
    led = ctx[C_EFF + trick[0]]
    best_pos = 0
    best_key = card_key(ctx, trick[0], led)
    pot = ctx[C_POINTS + trick[0]]
    for i in range(1, n):
        k = card_key(ctx, trick[i], led)
        if k > best_key:
            best_pos, best_key = i, k
        pot += ctx[C_POINTS + trick[i]]
    winner_seat = (leader + best_pos) % m
    winner_card = trick[best_pos]
    beating = 0
    rest = options
    while rest:
        bit = rest & -rest
        rest ^= bit
        if card_key(ctx, nth_face(bit, 0), led) > best_key:
            beating |= bit
    best = -1
    if me != declarer and winner_seat != declarer:  # the partner's trick
        if p_hold(ctx, hands, m, me, pool, voids, unseen, declarer, leader, n, winner_card, led) >= SAFE:
            return _smear(ctx, unseen, tricks_left, options)
        if pot >= 4:
            key2 = (0, 0)
            rest = beating
            while rest:
                bit = rest & -rest
                rest ^= bit
                f = nth_face(bit, 0)
                if p_hold(ctx, hands, m, me, pool, voids, unseen, declarer, leader, n, f, led) >= SAFE:
                    k2 = (int(ctx[C_POINTS + f]), int(ctx[C_STR + f]))
                    if best < 0 or k2 < key2:
                        best, key2 = f, k2
            if best >= 0:
                return best
        return _cheapest(ctx, options)
    key3 = (0, 0, 0)
    rest = beating
    while rest:
        bit = rest & -rest
        rest ^= bit
        f = nth_face(bit, 0)
        if p_hold(ctx, hands, m, me, pool, voids, unseen, declarer, leader, n, f, led) >= SAFE:
            risk = 1 if f == MOND and (unseen >> SKUES) & 1 else 0
            k3 = (risk, int(ctx[C_POINTS + f]), int(ctx[C_STR + f]))
            if best < 0 or k3 < key3:
                best, key3 = f, k3
    if best >= 0:
        return best
    return _cheapest(ctx, options)


@jit
def heuristic_card(
    ctx: Any,
    hands: Any,
    trick: Any,
    n: int,
    leader: int,
    down: Any,
    dead: Any,
    voids: Any,
    declarer: int,
    tricks_left: int,
    ultimo: int,
) -> int:
    """The card the Tapp Tarock heuristic plays for kernel seat ``(leader + n) % m`` (its legal cards: two or more)."""
    m = ctx[C_SEATS]
    me = (leader + n) % m
    unseen = down[me]
    pool = dead[me]
    for s in range(m):
        if s != me:
            unseen |= hands[s]
            pool += popcount64(hands[s])
    led = NO_SUIT if n == 0 else ctx[C_EFF + trick[0]]
    options = legal_cards(ctx, hands[me], led)
    if ultimo and me == declarer and tricks_left > 1 and (options & 1) and options != 1:
        options ^= 1 << PAGAT  # the Pagat is kept for the last trick after announcing ultimo
    if n == 0:
        return _lead(ctx, hands, m, me, pool, voids, unseen, declarer, options)
    return _follow(ctx, hands, m, me, pool, voids, unseen, declarer, leader, trick, n, options, tricks_left)


@jit
def heuristic_playouts(
    hands0: Any,
    trick0: Any,
    n0: int,
    leader0: int,
    tricks_left0: int,
    ctx: Any,
    count: int,
    seed: Any,
    epsilon: int,
    down: Any,
    dead: Any,
    voids0: Any,
    ultimo: int,
    out: Any,
) -> None:
    """Play ``count`` games to the end by the heuristic's card play; ``out[g]`` as in :func:`~stich.search._tarock_core.playouts`.

    A card with a choice is the heuristic's, except when a draw of the
    splitmix64 stream (seeded by ``seed``) has its top 32 bits below
    ``epsilon`` (a fraction of 2**32): then a uniformly random legal card
    (one more draw).  With ``epsilon`` 0 no draw is made and every game is
    the same.  ``voids0`` grows as seats fail to follow, as the bot reads
    the tricks.
    """
    m = ctx[C_SEATS]
    side = ctx[C_SIDE]
    declarer = 0
    while not (side >> declarer) & 1:
        declarer += 1
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    hands = np.empty(m, dtype=np.int64)
    voids = np.empty(m, dtype=np.int64)
    trick = np.empty(m, dtype=np.int64)
    done = np.empty(4, dtype=np.int64)
    for g in range(count):
        for s in range(m):
            hands[s] = hands0[s]
            voids[s] = voids0[s]
        leader = leader0
        n = n0
        cards = 0
        led = NO_SUIT
        for i in range(n0):
            trick[i] = trick0[i]
            cards |= 1 << trick0[i]
        if n0:
            led = ctx[C_EFF + trick0[0]]
        tricks_left = tricks_left0
        won = 0
        tricks = 0
        last = -1
        while True:
            p = (leader + n) % m
            legal = legal_cards(ctx, hands[p], led)
            size = popcount64(legal)
            if size == 1:
                c = nth_face(legal, 0)
            elif epsilon > 0 and (next_random(state) >> np.uint64(32)) < epsilon:
                c = nth_face(legal, pick_below(next_random(state), size))
            else:
                c = heuristic_card(ctx, hands, trick, n, leader, down, dead, voids, declarer, tricks_left, ultimo)
            bit = 1 << c
            hands[p] ^= bit
            cards |= bit
            e = ctx[C_EFF + c]
            if n == 0:
                led = e
            elif e != led:
                voids[p] |= 1 << led
                if e != TRUMP:
                    voids[p] |= 1 << TRUMP
            trick[n] = c
            n += 1
            if n == m:
                trick_state(ctx, trick, m, done)
                winner = (leader + done[1]) % m
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
                cards = 0
        out[g, 0] = won
        out[g, 1] = tricks
        out[g, 2] = last
        out[g, 3] = cards
