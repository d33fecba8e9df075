"""The compiled Tapp Tarock heuristic's card play (numba).  Import it only through :mod:`stich.bots.tapp_tarock.playout`.

A line-by-line twin of the card play of
:class:`stich.bots.tapp_tarock.heuristic.TappTarockHeuristic` (``_play``,
``_lead``, ``_follow``, ``_smear``, ``_cheapest``, ``_risk`` and the
``_View`` estimates they use) on the masks of :mod:`stich.kernels.tarock_core`:
the same rules, the same probabilities computed in the same order, the same
tie-breaks (``min`` and ``max`` over the ascending cards keep the first, so
a strict comparison over ascending faces keeps the lowest card among
equals).  The differential tests (tests/search/test_tapp_tarock_playout.py)
hold it to the bot's choices.

``ctx`` is the Tarock kernel's table with two tables appended: ``above``
(:data:`stich.kernels.policy_core.C_ABOVE`, so that counting unseen cards
stronger than a card is a mask and a popcount) and the cards' face values
(:data:`C_POINTS`: the kernel's own ``C_PTS`` holds Tapp Tarock's thirds,
``3 f - 2``, while the bot's rules read the face values, e.g. a partner's
trick worth 4 or more).  The play-out loop around :func:`heuristic_card`
is the one all compiled heuristics share
(:func:`stich.kernels.policy_core.make_playouts`), and the odds that a card
holds the trick are the ones both Tarock-family twins read
(:mod:`stich.bots.tarock_family.hold_odds`), here with one pool for every
suit (the bot's ``_View.pool``: the other hands and the hidden piles).

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

from stich.bots.tarock_family.hold_odds import p_hold
from stich.kernels.core import jit, nth_face
from stich.kernels.policy_core import ABOVE_END, make_playouts, unseen_in
from stich.kernels.tarock_core import C_EFF, C_FOLLOW, C_SEATS, C_STR, NO_SUIT, TRUMP, card_key, legal_cards, popcount64

SAFE = 0.6
"""Chance a winning card must have of holding the trick (the bot's ``SAFE``)."""
PAGAT = 0
MOND = 20
SKUES = 21
"""Faces of the Trull (the bot's ``PAGAT_F``, ``MOND_F``, ``SKUES_F``)."""

C_POINTS = ABOVE_END
"""Offset of the face values (the bot's ``POINTS``), per card, after the ``above`` table."""
POLICY_CTX_SIZE = C_POINTS + 64
"""Size of the policy's ``ctx``: the kernel's, the ``above`` table and the face values."""


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
        if boss and p_hold(ctx, hands, m, me, pool, pool, voids, unseen, declarer, me, 0, f, suit) >= SAFE:
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
        if p_hold(ctx, hands, m, me, pool, pool, voids, unseen, declarer, leader, n, winner_card, led) >= SAFE:
            return _smear(ctx, unseen, tricks_left, options)
        if pot >= 4:
            key2 = (0, 0)
            rest = beating
            while rest:
                bit = rest & -rest
                rest ^= bit
                f = nth_face(bit, 0)
                if p_hold(ctx, hands, m, me, pool, pool, voids, unseen, declarer, leader, n, f, led) >= SAFE:
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
        if p_hold(ctx, hands, m, me, pool, pool, voids, unseen, declarer, leader, n, f, led) >= SAFE:
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
    """The card the Tapp Tarock heuristic plays for kernel seat ``(leader + n) % m`` (its legal cards: two or more).

    The card choice of :func:`stich.kernels.policy_core.make_playouts`,
    whose ``flags`` are ``ultimo``: whether Pagat ultimo was announced.
    """
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


heuristic_playouts = make_playouts(heuristic_card, __name__)
"""``heuristic_playouts(hands0, trick0, n0, leader0, tricks_left0, ctx, count, seed, epsilon, down, dead, voids0, ultimo, out)``:
games played out by :func:`heuristic_card` (:func:`stich.kernels.policy_core._playouts`; ``flags``: ``ultimo``)."""
