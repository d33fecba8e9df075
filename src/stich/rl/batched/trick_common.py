"""The compiled (numba) pieces the Tarock-family card-play kernels share, whatever their hands look like.

Import it only through :mod:`stich.rl.batched.tarock`, which checks that numba
is importable.  :mod:`stich.rl.batched.tarock_kernel` keeps hands as int64
bitmasks, :mod:`stich.rl.batched.droggn_kernel` (66 or 78 cards) as a flag per
card; what does not depend on that lives here once: checking a step's actions,
the trick's winner (follow suit, else trump; an excuse never wins), and the
parts of the observation tensor written the same way (the snapshot taken at the
hand-over with the dynamic slices cleared, whose turn, the current trick and its
leader).  Cards are physical indices; a card's effective suit ``eff[card]`` uses
:mod:`stich.kernels.tarock_core`'s coding (suits 0..3, :data:`TRUMP`,
:data:`EXCUSE`) and ``strength[card]`` orders the cards within their suit.
"""

from __future__ import annotations

from typing import Any

from stich.kernels.core import jit
from stich.kernels.tarock_core import EXCUSE, NO_KEY, NO_SUIT, TRUMP

__all__ = ["EXCUSE", "NO_KEY", "NO_SUIT", "TRUMP", "begin_tensor", "best_position", "first_illegal", "led_suit", "mark_trick"]


@jit
def first_illegal(actions: Any, live: Any, code_card: Any, mask: Any) -> int:
    """Index of the first live deal whose action is no legal card of its mask (-1: every action is legal)."""
    for b in range(len(actions)):
        if live[b]:
            a = actions[b]
            if a < 0 or a >= len(code_card) or code_card[a] < 0 or mask[b, a] == 0:
                return b
    return -1


@jit
def led_suit(cards: Any, n: int, eff: Any, skip: int) -> int:
    """The suit the first ``n`` trick ``cards`` ask for: that of the first one that is no excuse (position ``skip`` left out)."""
    for i in range(n):
        if i != skip:
            e = eff[cards[i]]
            if e != EXCUSE:
                return int(e)
    return NO_SUIT


@jit
def best_position(cards: Any, n: int, eff: Any, strength: Any, skip: int) -> int:
    """Position of the winning card among the first ``n`` trick ``cards``: the highest trump, else the highest of the suit led.

    The card at position ``skip`` takes no part (-1: every card does).
    """
    led = led_suit(cards, n, eff, skip)
    best = 0
    best_key = NO_KEY
    for i in range(n):
        if i != skip:
            c = cards[i]
            e = eff[c]
            key = 1000 + strength[c] if e == TRUMP else (strength[c] if e == led else -1)
            if key > best_key:
                best = i
                best_key = key
    return best


@jit
def begin_tensor(out: Any, base: Any, off: Any, hot: int) -> None:
    """``out`` := ``base`` (the seat's tensor at the hand-over) with every dynamic slice of ``off`` cleared, then ``out[hot]`` = 1."""
    out[:] = base
    for d in range(off.shape[0]):
        for i in range(off[d, 0], off[d, 1]):
            out[i] = 0.0
    out[hot] = 1.0


@jit
def mark_trick(
    out: Any,
    trick_at: int,
    leader_at: int,
    seat: int,
    n_seats: int,
    n_cards: int,
    flag: Any,
    S: Any,
    b: int,
    cards: int,
    n: int,
    order: int,
    m: int,
    first: int,
) -> None:
    """Write deal ``b``'s current trick as ``seat`` sees it, from its row of ``S``.

    The trick's ``n`` cards stand from column ``cards`` on; card ``i`` was played by the table seat in column
    ``order + (first + i) % m``.  The ``trick`` slice (at ``trick_at``) holds a block of ``n_cards`` flags per seat
    relative to ``seat``, the ``trick_leader`` slice (at ``leader_at``) the relative seat of the first card's player.
    """
    for i in range(n):
        q = S[b, order + (first + i) % m]
        out[trick_at + ((q - seat) % n_seats) * n_cards + flag[S[b, cards + i]]] = 1.0
    if n:
        out[leader_at + (S[b, order + first] - seat) % n_seats] = 1.0
