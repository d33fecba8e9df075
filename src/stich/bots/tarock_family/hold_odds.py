"""The odds the compiled Tarock-family heuristics read (numba).  Import it only through a policy module.

:mod:`stich.bots.dobbm.policy` and :mod:`stich.bots.tapp_tarock.policy`
estimate alike whether a card winning the trick now will hold it: the
chance that a seat holds none of ``k`` unseen cards of a suit
(:func:`p_none`), that a seat still to play beats the card, by a higher
card of the suit led or by a ruff (:func:`p_beat`), and that no opponent
after it does (:func:`p_hold`).  These are the twins of the bots'
``_View.p_none``, ``_View.p_beat`` and ``_View.p_hold`` (the same float
operations in the same order), written once here for both games.

The games differ only in the *pool*: the places an unseen card of a suit
may lie in.  Dobbm's bot counts, per suit, the other hands not known to be
void in it plus the face-down cards it reckons with; Tapp Tarock's counts
every other hand plus the hidden piles, whatever the suit (each bot's
``_View.pool``).  So each function takes the pools of the two suits
a trick's odds can ask about, trumps and the suit led, and the caller
computes them (Tapp Tarock passes the same pool twice).

The arguments are the policies' (see :mod:`stich.kernels.policy_core`):
``ctx`` the Tarock kernel's table with the ``above`` table appended,
``hands`` the kernel seats' hands, ``voids[s]`` the effective suits seat
``s`` is known to lack (bit 0..3, :data:`TRUMP`), ``unseen`` the cards the
seat to move has not seen.
"""

from __future__ import annotations

from typing import Any

from stich.kernels.core import jit
from stich.kernels.policy_core import comb_ratio, unseen_in
from stich.kernels.tarock_core import C_EFF, C_STR, TRUMP, popcount64

__all__ = ["p_beat", "p_hold", "p_none"]


@jit
def p_none(hands: Any, pool: int, voids: Any, seat: int, suit: int, k: int) -> float:
    """Chance that ``seat`` holds none of ``k`` unseen cards of ``suit`` lying in ``pool`` places (the bots' ``_View.p_none``)."""
    if (voids[seat] >> suit) & 1:
        return 1.0
    return comb_ratio(pool, popcount64(hands[seat]), k)


@jit
def p_beat(ctx: Any, hands: Any, trump_pool: int, led_pool: int, voids: Any, unseen: int, seat: int, f: int, led: int) -> float:
    """Chance that ``seat``, still to play, beats ``f`` (now winning a trick asking for ``led``; the bots' ``_View.p_beat``)."""
    if ctx[C_EFF + f] == TRUMP:
        higher = unseen_in(ctx, unseen, TRUMP, ctx[C_STR + f])
        if higher == 0:
            return 0.0
        p_has = 1.0 - p_none(hands, trump_pool, voids, seat, TRUMP, higher)
        if led == TRUMP:
            return p_has
        return p_has * p_none(hands, led_pool, voids, seat, led, unseen_in(ctx, unseen, led, 0))
    higher = unseen_in(ctx, unseen, led, ctx[C_STR + f])
    p_higher = 1.0 - p_none(hands, led_pool, voids, seat, led, higher) if higher else 0.0
    trumps = unseen_in(ctx, unseen, TRUMP, 0)
    p_ruff = 0.0
    if trumps:
        none_led = p_none(hands, led_pool, voids, seat, led, unseen_in(ctx, unseen, led, 0))
        p_ruff = none_led * (1.0 - p_none(hands, trump_pool, voids, seat, TRUMP, trumps))
    return min(1.0, p_higher + p_ruff)


@jit
def p_hold(
    ctx: Any,
    hands: Any,
    m: int,
    me: int,
    trump_pool: int,
    led_pool: int,
    voids: Any,
    unseen: int,
    declarer: int,
    leader: int,
    n: int,
    f: int,
    led: int,
) -> float:
    """Chance that ``f``, winning the trick now, is not beaten by a later opponent (partners are trusted; ``_View.p_hold``).

    ``me`` is the seat to move, ``leader`` led the trick and ``n`` cards lie in it; only the
    declarer's opponents count for the declarer, and only the declarer for everybody else.
    """
    p = 1.0
    for j in range(n + 1, m):
        seat = (leader + j) % m
        if me == declarer or seat == declarer:
            p *= 1.0 - p_beat(ctx, hands, trump_pool, led_pool, voids, unseen, seat, f, led)
    return p
