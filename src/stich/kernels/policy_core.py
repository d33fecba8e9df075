"""What the compiled heuristic card plays share (numba).  Import it only through a policy module.

:mod:`stich.bots.dobbm.policy` and :mod:`stich.bots.tapp_tarock.policy`
are line-by-line twins of their games' heuristic bots; their rules differ,
everything around the rules is here once: the play-out loop
(:func:`make_playouts`), the ``above`` table their estimates count unseen
cards with (:func:`unseen_in`) and the exact odds arithmetic (:func:`comb_ratio`).

A policy module supplies its card choice, compiled, with this signature::

    choose(ctx, hands, trick, n, leader, down, dead, voids, declarer, tricks_left, flags) -> card

for kernel seat ``(leader + n) % m`` with two legal cards or more (the
arguments as in :func:`_playouts`; ``flags`` are the game's own bits, e.g.
Tapp Tarock's Pagat ultimo), and gets its play-out loop from
:func:`make_playouts`.

``ctx`` is the Tarock kernel's table (:mod:`stich.kernels.tarock_core`)
with the ``above`` table appended at :data:`C_ABOVE`; a game may append its
own tables from :data:`ABOVE_END` on.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from stich.kernels.core import jit, next_random, nth_face, pick_below
from stich.kernels.tarock_core import C_EFF, C_SEATS, C_SIDE, CTX_SIZE, NO_SUIT, TRUMP, legal_cards, popcount64, trick_state

STRIDE = 32
"""Strengths per effective suit in the ``above`` table (every strength must lie below it; Tapp Tarock's tarocks reach 22)."""

C_ABOVE = CTX_SIZE
"""Offset of the ``above`` table appended to the Tarock kernel's ``ctx``: at ``suit * STRIDE + s`` the mask of the
cards of effective suit ``suit`` (0..4) stronger than strength ``s``."""

ABOVE_END = C_ABOVE + 5 * STRIDE
"""End of the ``above`` table: the size of a policy's ``ctx`` without tables of its own."""


@jit
def unseen_in(ctx: Any, unseen: int, suit: int, strength: int) -> int:
    """Unseen cards of effective suit ``suit`` stronger than ``strength`` (0: all of them; the bots' ``unseen_in``)."""
    return popcount64(unseen & ctx[C_ABOVE + suit * STRIDE + strength])


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
    """Chance that ``hand`` cards drawn from ``total`` unseen hold none of ``k`` given cards (the bots' ``_comb_ratio``)."""
    if k <= 0:
        return 1.0
    if total <= 0 or k > total - hand:
        return 0.0
    return comb(total - hand, k) / comb(total, k)


choose: Any = None
"""Placeholder: in the globals of each loop :func:`make_playouts` builds, the policy's card choice."""


def _playouts(
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
    flags: int,
    out: Any,
) -> None:
    """Play ``count`` games to the end by the heuristic's card play; ``out[g]`` as in :func:`~stich.kernels.tarock_core.playouts`.

    A card with a choice is the heuristic's, except when a draw of the
    splitmix64 stream (seeded by ``seed``) has its top 32 bits below
    ``epsilon`` (a fraction of 2**32): then a uniformly random legal card
    (one more draw).  With ``epsilon`` 0 no draw is made and every game is
    the same.  What each kernel seat ``s`` knows: ``down[s]``, the face-down
    cards it has not seen; ``dead[s]``, how many hidden cards its estimates
    reckon with; ``voids0[s]``, the effective suits (bits 0..3,
    :data:`TRUMP`) it is known to lack, which grow as seats fail to follow,
    as the bots read the tricks.  ``flags`` go to the card choice as they are.
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
                c = choose(ctx, hands, trick, n, leader, down, dead, voids, declarer, tricks_left, flags)
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


def make_playouts(card: Callable[..., int], module: str) -> Callable[..., None]:
    """The compiled play-out loop (:func:`_playouts`) of the policy module named ``module``, whose card choice is ``card``.

    ``card`` is bound as a global of the loop, so numba compiles a direct
    call it may inline, as when each policy wrote the loop out.  For numba's
    on-disk cache the loop is given a home in ``module``'s file (its name
    there: ``heuristic_playouts``): numba reloads a cached function until the
    file that defines it changes, and this loop carries the policy's rules
    compiled in, so it must count as defined where the rules are.  (Changes
    to the loop's bytecode reach the cache through numba's key; a change of
    a constant alone does not, as with any helper in another file.)  A
    closure would not cache at all: numba keys it by pickling its cells, and
    a pickled dispatcher differs in every process.
    """
    name = "heuristic_playouts"
    path = sys.modules[module].__file__
    assert path is not None, module
    code = _playouts.__code__.replace(co_filename=path, co_name=name, co_qualname=name)
    namespace = dict(_playouts.__globals__)
    namespace["choose"] = card
    loop = types.FunctionType(code, namespace, name)
    loop.__module__ = module
    loop.__doc__ = _playouts.__doc__
    return jit(loop)
