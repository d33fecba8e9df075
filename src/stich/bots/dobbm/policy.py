"""The compiled Dobbm heuristic's card play (numba).  Import it only through :mod:`stich.bots.dobbm.playout`.

A line-by-line twin of the card play of :class:`stich.bots.dobbm.heuristic.DobbmHeuristic`
(``_play``, ``_lead``, ``_follow`` and the ``_View`` estimates they use) on
the masks of :mod:`stich.kernels.tarock_core`: the same rules, the same
probabilities computed in the same order, the same tie-breaks (the lowest
card among equals, as ``min`` and ``max`` over the ascending cards keep the
first).  The differential tests hold it to the bot's choices.

``ctx`` is the Tarock kernel's table with an ``above`` table appended
(:data:`stich.kernels.policy_core.C_ABOVE`), so that counting a seat's
unseen cards stronger than a card is a mask and a popcount.  The play-out
loop around :func:`heuristic_card` is the one all compiled heuristics share
(:func:`stich.kernels.policy_core.make_playouts`), and the odds that a card
holds the trick are the ones both Tarock-family twins read
(:mod:`stich.bots.tarock_family.hold_odds`), here with Dobbm's pools.

What a seat may know is passed in, per kernel seat ``s``: ``down[s]``, the
face-down cards (the Dobb or the discards) it has not seen; ``dead[s]``,
how many such cards its estimates reckon with (the bot's ``_View.dead``);
``voids[s]``, the effective suits (bit 0..3, :data:`TRUMP`) the seat is known
to lack, from the tricks so far.  A seat's unseen cards are the other hands
and its ``down``; the heuristic only reads their number per suit and strength.
"""

from __future__ import annotations

from typing import Any

from stich.bots.tarock_family import hold_odds
from stich.kernels.core import jit, nth_face
from stich.kernels.policy_core import ABOVE_END, make_playouts, unseen_in
from stich.kernels.tarock_core import C_EFF, C_FOLLOW, C_PTS, C_SEATS, C_STR, NO_SUIT, TRUMP, card_key, legal_cards, popcount64

SAFE = 0.6
"""Chance a winning card must have of holding the trick (the bot's ``SAFE``)."""
DRAW_TOP_LIMIT = 3
"""Trumps left out at most for the declarer to draw with its top trump (the bot's ``DRAW_TOP_LIMIT``)."""
TRY_TOP_POINTS = 10
"""Trick points from which a declarer tries its strongest card on an uncertain trick (the bot's ``_follow``)."""
TRY_TOP_HOLD = 0.35
"""Chance of holding the trick that trying the strongest card needs (the bot's ``_follow``)."""

POLICY_CTX_SIZE = ABOVE_END
"""Size of the policy's ``ctx``: the kernel's and the ``above`` table, nothing of its own."""


@jit
def pool(hands: Any, m: int, me: int, dead: int, voids: Any, suit: int) -> int:
    """Places an unseen card of ``suit`` may be: the other hands not void in it, plus the face-down cards."""
    total = dead
    for s in range(m):
        if s != me and not (voids[s] >> suit) & 1:
            total += popcount64(hands[s])
    return total


@jit
def p_hold(
    ctx: Any, hands: Any, m: int, me: int, dead: int, voids: Any, unseen: int, declarer: int, leader: int, n: int, f: int, led: int
) -> float:
    """Chance that ``f``, winning the trick now, is not beaten by a later opponent (partners are trusted).

    :func:`stich.bots.tarock_family.hold_odds.p_hold` with Dobbm's pools: per suit, the other
    hands not void in it plus the face-down cards (:func:`pool`).
    """
    trump_pool = pool(hands, m, me, dead, voids, TRUMP)
    led_pool = pool(hands, m, me, dead, voids, led)
    return hold_odds.p_hold(ctx, hands, m, me, trump_pool, led_pool, voids, unseen, declarer, leader, n, f, led)


@jit
def keep(ctx: Any, unseen: int, f: int) -> float:
    """What holding ``f`` is worth for later tricks (the bot's ``_View.keep``)."""
    suit = ctx[C_EFF + f]
    if suit == TRUMP:
        q: float = (ctx[C_STR + f] - 1) / 8
        return 20.0 * q * q
    if unseen_in(ctx, unseen, suit, ctx[C_STR + f]) == 0:
        return 4.0 if unseen_in(ctx, unseen, suit, 0) >= 2 else 1.5
    return 0.0


@jit
def held_in(ctx: Any, hand: int, suit: int) -> int:
    """Cards of effective suit ``suit`` in ``hand``."""
    return popcount64(hand & ctx[C_FOLLOW + suit])


@jit
def _lead(ctx: Any, hands: Any, m: int, me: int, dead: int, voids: Any, unseen: int, declarer: int, options: int) -> int:
    """The bot's ``_lead``."""
    hand = hands[me]
    trump_mask = ctx[C_FOLLOW + TRUMP]
    if me == declarer:
        trumps = options & trump_mask
        outside = unseen_in(ctx, unseen, TRUMP, 0)
        if trumps and outside:
            top = -1
            rest = trumps
            while rest:
                bit = rest & -rest
                rest ^= bit
                f = nth_face(bit, 0)
                if top < 0 or ctx[C_STR + f] > ctx[C_STR + top]:
                    top = f
            if outside <= DRAW_TOP_LIMIT and unseen_in(ctx, unseen, TRUMP, ctx[C_STR + top]) == 0:
                return top
            low = -1
            rest = trumps
            while rest:
                bit = rest & -rest
                rest ^= bit
                f = nth_face(bit, 0)
                if low < 0 or (ctx[C_PTS + f], ctx[C_STR + f]) < (ctx[C_PTS + low], ctx[C_STR + low]):
                    low = f
            return low
    boss = -1
    rest = options & ~trump_mask
    while rest:
        bit = rest & -rest
        rest ^= bit
        f = nth_face(bit, 0)
        holds = p_hold(ctx, hands, m, me, dead, voids, unseen, declarer, me, 0, f, ctx[C_EFF + f]) >= SAFE
        if holds and (boss < 0 or (ctx[C_PTS + f], ctx[C_STR + f]) > (ctx[C_PTS + boss], ctx[C_STR + boss])):
            boss = f
    if boss >= 0:
        return boss
    plain = options & ~trump_mask
    best = -1
    if me == declarer:
        if not plain:
            plain = options
        best_key = (0, 0, 0)
        rest = plain
        while rest:
            bit = rest & -rest
            rest ^= bit
            f = nth_face(bit, 0)
            key = (held_in(ctx, hand, ctx[C_EFF + f]), int(ctx[C_PTS + f]), int(ctx[C_STR + f]))
            if best < 0 or key < best_key:
                best, best_key = f, key
        return best
    if plain:
        declarer_void = voids[declarer]
        key4 = (0, 0, 0.0, 0)
        rest = plain
        while rest:
            bit = rest & -rest
            rest ^= bit
            f = nth_face(bit, 0)
            e = ctx[C_EFF + f]
            k4 = (int((declarer_void >> e) & 1), -held_in(ctx, hand, e), ctx[C_PTS + f] + keep(ctx, unseen, f), int(ctx[C_STR + f]))
            if best < 0 or k4 < key4:
                best, key4 = f, k4
        return best
    key2 = (0.0, 0)
    rest = options
    while rest:
        bit = rest & -rest
        rest ^= bit
        f = nth_face(bit, 0)
        k2 = (ctx[C_PTS + f] + keep(ctx, unseen, f), int(ctx[C_STR + f]))
        if best < 0 or k2 < key2:
            best, key2 = f, k2
    return best


@jit
def _follow(
    ctx: Any, hands: Any, m: int, me: int, dead: int, voids: Any, unseen: int, declarer: int, leader: int, trick: Any, n: int, options: int
) -> int:
    """The bot's ``_follow``."""
    hand = hands[me]
    led = ctx[C_EFF + trick[0]]
    best_pos = 0
    trick_points = ctx[C_PTS + trick[0]]
    for i in range(1, n):
        if card_key(ctx, trick[i], led) > card_key(ctx, trick[best_pos], led):
            best_pos = i
        trick_points += ctx[C_PTS + trick[i]]
    best_face = trick[best_pos]
    best_seat = (leader + best_pos) % m
    ours = me != declarer and best_seat != declarer
    last = n == m - 1
    best = -1
    if ours:
        holds = 1.0 if last else p_hold(ctx, hands, m, me, dead, voids, unseen, declarer, leader, n, best_face, led)
        rest = options
        if holds >= SAFE:
            smear = (0.0, 0)
            while rest:
                bit = rest & -rest
                rest ^= bit
                f = nth_face(bit, 0)
                k = (ctx[C_PTS + f] - keep(ctx, unseen, f), -int(ctx[C_STR + f]))
                if best < 0 or k > smear:
                    best, smear = f, k
            return best
        low = (0.0, 0)
        while rest:
            bit = rest & -rest
            rest ^= bit
            f = nth_face(bit, 0)
            k = (ctx[C_PTS + f] + keep(ctx, unseen, f), int(ctx[C_STR + f]))
            if best < 0 or k < low:
                best, low = f, k
        return best
    to_beat = card_key(ctx, best_face, led)
    winners = 0
    rest = options
    while rest:
        bit = rest & -rest
        rest ^= bit
        if card_key(ctx, nth_face(bit, 0), led) > to_beat:
            winners |= bit
    if winners:
        cheapest = -1
        cheap = (0.0, 0)
        rest = winners
        while rest:
            bit = rest & -rest
            rest ^= bit
            f = nth_face(bit, 0)
            if last or p_hold(ctx, hands, m, me, dead, voids, unseen, declarer, leader, n, f, led) >= SAFE:
                extra = 0.0 if ctx[C_EFF + f] == TRUMP else ctx[C_PTS + f] * 0.2
                k = (keep(ctx, unseen, f) + extra, int(ctx[C_STR + f]))
                if cheapest < 0 or k < cheap:
                    cheapest, cheap = f, k
        if cheapest >= 0:
            if trick_points + ctx[C_PTS + cheapest] > 0 or me == declarer or ctx[C_EFF + cheapest] != TRUMP:
                return cheapest
        elif me == declarer:
            top = -1
            rest = winners
            while rest:
                bit = rest & -rest
                rest ^= bit
                f = nth_face(bit, 0)
                if top < 0 or card_key(ctx, f, led) > card_key(ctx, top, led):
                    top = f
            if (
                trick_points >= TRY_TOP_POINTS
                and p_hold(ctx, hands, m, me, dead, voids, unseen, declarer, leader, n, top, led) >= TRY_TOP_HOLD
            ):
                return top
    fallback = (0.0, 0, 0)
    rest = options
    while rest:
        bit = rest & -rest
        rest ^= bit
        f = nth_face(bit, 0)
        k3 = (ctx[C_PTS + f] + keep(ctx, unseen, f), held_in(ctx, hand, ctx[C_EFF + f]), int(ctx[C_STR + f]))
        if best < 0 or k3 < fallback:
            best, fallback = f, k3
    return best


@jit
def heuristic_card(
    ctx: Any, hands: Any, trick: Any, n: int, leader: int, down: Any, dead: Any, voids: Any, declarer: int, tricks_left: int, flags: int
) -> int:
    """The card the Dobbm heuristic plays for kernel seat ``(leader + n) % m`` (its legal cards: two or more).

    The card choice of :func:`stich.kernels.policy_core.make_playouts`; the
    Dobbm bot reads neither the tricks left nor any ``flags``.
    """
    m = ctx[C_SEATS]
    me = (leader + n) % m
    unseen = down[me]
    for s in range(m):
        if s != me:
            unseen |= hands[s]
    led = NO_SUIT if n == 0 else ctx[C_EFF + trick[0]]
    options = legal_cards(ctx, hands[me], led)
    if n == 0:
        return _lead(ctx, hands, m, me, dead[me], voids, unseen, declarer, options)
    return _follow(ctx, hands, m, me, dead[me], voids, unseen, declarer, leader, trick, n, options)


heuristic_playouts = make_playouts(heuristic_card, __name__)
"""``heuristic_playouts(hands0, trick0, n0, leader0, tricks_left0, ctx, count, seed, epsilon, down, dead, voids0, flags, out)``:
games played out by :func:`heuristic_card` (:func:`stich.kernels.policy_core._playouts`; ``flags`` 0)."""
