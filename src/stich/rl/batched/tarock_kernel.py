"""The compiled (numba) card play of the Tarock-family batch: one row of ``S`` per deal, plain Tarock trick play.

Import it only through :mod:`stich.rl.batched.tarock`, which checks that numba
is importable.  The rules are those of the Tarock search kernel
(:mod:`stich.kernels.tarock_core`: follow suit, else trump, an excuse may always
be played and never wins), with its ``ctx`` table built by the game's kernel
adapter; hands are masks of physical card indices.

:func:`encode` writes the observation tensor of one seat as the snapshot of
that seat's tensor taken at the hand-over (everything the card play does not
change: contract, bidding, talon ...) with the slices card play changes written
anew: whose turn, the hand, hand sizes, the cards played, the current trick and
its leader, tricks and card points won, and a game's public trick count.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stich.kernels.core import jit
from stich.kernels.tarock_core import C_EFF, C_STR, EXCUSE, NO_KEY, NO_SUIT, card_key, legal_cards, popcount64
from stich.rl.batched.trick_common import begin_tensor, best_position, first_illegal, mark_trick

MAX_SEATS = 8
MAX_TRICKS = 27
MAX_CARDS = 64

# Columns of a row of S
TO_MOVE = 0
LEADER = 1
"""Kernel seat that leads the current trick."""
TN = 2
NT = 3
N_TRICKS = 4
M = 5
LED = 6
BEST_KEY = 7
BEST_POS = 8
N_PLAYED = 9
SEATS = 10
"""Kernel seat -> table seat."""
KSEAT = SEATS + MAX_SEATS
"""Table seat -> kernel seat (-1: plays no card)."""
HANDS = KSEAT + MAX_SEATS
"""By kernel seat."""
PLAYED = HANDS + MAX_SEATS
"""By table seat."""
TRICK = PLAYED + MAX_SEATS
WON = TRICK + MAX_SEATS
"""Tricks won, by table seat."""
LOG = WON + MAX_SEATS
"""Per finished trick: its winner (table seat) and card points."""
CARDS = LOG + 2 * MAX_TRICKS
"""Every card played in order (physical indices), for the reference engine to replay at the end."""
LONE = CARDS + MAX_CARDS
"""Dappen: the lone player (-1 in the other games)."""
ULTI = LONE + 1
"""Dappen: the cards the lone player laid out as Ulti (they are bound, dossier dappen.md §5.1)."""
GSTIESS = ULTI + 1
"""Dappen with gstiesieren: the Gstieß's index (-1: no keeping back in this game)."""
KEPT = GSTIESS + 1
"""Dappen: the table seat that kept the Gstieß back (-1 none, dossier dappen.md §6.2)."""
FIRST = KEPT + 1
"""Dappen's first_three_tricks (Buchenbach, §6.3): the bound cards of tricks 1..3, the trumps allowed in tricks 1 and 2,
every trump, the empty suit cards and every suit card (7 columns); FIRST holds 0 when the option is off."""
WIDTH = FIRST + 8

# Indices into ``off``: (start, stop) of each dynamic slice
DYNAMIC = (
    "to_move",
    "hand",
    "hand_sizes",
    "played",
    "trick",
    "trick_leader",
    "tricks_won",
    "points_won",
    "tricks_won_public",
    "gstiess_kept_back",
)
D_TO_MOVE, D_HAND, D_HAND_SIZES, D_PLAYED, D_TRICK, D_LEADER, D_TRICKS_WON, D_POINTS_WON, D_PUBLIC_TRICKS, D_KEPT = range(10)

# Ways a game counts a trick's card points for the points_won slice
SUM = 0
THIRDS = 1
"""Tapp Tarock: a trick of three cards is worth its face values minus 2, any other trick nothing counted."""


@jit
def trick_points(S: Any, b: int, pts: Any, mode: int, n: int) -> int:
    """Card points of the first ``n`` cards of the current trick, as the game's ``trick_points`` counts them."""
    total = 0
    for i in range(n):
        total += pts[S[b, TRICK + i]]
    if mode == THIRDS:
        return (3 * total - 2 * n) // 3 if n == 3 else 0
    return total


@jit
def base_legal(S: Any, b: int, ctx: Any, seat: int, hand: int) -> int:
    """Follow suit, else trump; a kept-back Gstieß set aside until it is the last card (Dappen §6.2)."""
    g = S[b, GSTIESS]
    if g >= 0 and S[b, KEPT] == seat:
        rest = hand & ~(1 << g)
        if rest:
            hand = rest
    return int(legal_cards(ctx, hand, S[b, LED]))


@jit
def may_keep_back(S: Any, b: int, ctx: Any, seat: int, hand: int) -> bool:
    """Gstiesieren: an opponent whose only legal card is the Gstieß (a trump is required) may keep it back [Dappen §6.2]."""
    g = S[b, GSTIESS]
    if g < 0 or seat == S[b, LONE] or S[b, KEPT] >= 0 or S[b, TN] == 0 or hand == (1 << g):
        return False
    return bool(base_legal(S, b, ctx, seat, hand) == (1 << g))


@jit
def legal(S: Any, b: int, ctx: Any) -> int:
    """Mask of the cards the seat to move may play (Dappen: bound Ulti cards §5.1, a kept-back Gstieß §6.2)."""
    k = (S[b, LEADER] + S[b, TN]) % S[b, M]
    seat = S[b, SEATS + k]
    hand: int = S[b, HANDS + k]
    t = S[b, NT]
    if S[b, FIRST] and t < 3:
        # Buchenbach's tricks 1-3: the bound five-point trump, else an allowed trump, else an empty card [§6.3]
        bound: int = hand & S[b, FIRST + 1 + t]
        if bound:
            return bound
        allowed: int = hand & (S[b, FIRST + 4] if t < 2 else S[b, FIRST + 5])
        if allowed:
            return allowed
        empty: int = hand & S[b, FIRST + 6]
        if empty:
            return empty
        suits: int = hand & S[b, FIRST + 7]
        return suits if suits else hand
    out = base_legal(S, b, ctx, seat, hand)
    laid: int = S[b, ULTI] & hand
    if laid and seat == S[b, LONE]:
        free = out & ~laid
        if free:
            return free
        top = out & laid
        while top & (top - 1):
            top &= top - 1
        return top
    if S[b, GSTIESS] >= 0 and out == (1 << S[b, GSTIESS]) and may_keep_back(S, b, ctx, seat, hand):
        return hand
    return out


@jit
def kept_back_winner(S: Any, b: int, ctx: Any, m: int) -> int:
    """Winning position of a full trick holding a kept-back Gstieß, which takes no part [Dappen §6.1, §6.2]."""
    skip = -1
    for i in range(m):
        if S[b, TRICK + i] == S[b, GSTIESS]:
            skip = i
    if skip < 0:
        return int(S[b, BEST_POS])
    return best_position(S[b, TRICK : TRICK + m], m, ctx[C_EFF : C_EFF + MAX_CARDS], ctx[C_STR : C_STR + MAX_CARDS], skip)


@jit
def play(S: Any, b: int, card: int, ctx: Any, pts: Any, mode: int) -> bool:
    """Play ``card`` for the seat to move; a full trick goes to its winner.  True when the card play is over."""
    m = S[b, M]
    n = S[b, TN]
    k = (S[b, LEADER] + n) % m
    seat = S[b, SEATS + k]
    bit = 1 << card
    hand = S[b, HANDS + k]
    g = S[b, GSTIESS]
    if g >= 0 and card != g and (hand >> g) & 1 and may_keep_back(S, b, ctx, seat, hand):
        S[b, KEPT] = seat  # the Gstieß loses its power and waits for the last trick
    S[b, HANDS + k] ^= bit
    S[b, PLAYED + seat] |= bit
    S[b, CARDS + S[b, N_PLAYED]] = card
    S[b, N_PLAYED] += 1
    e = ctx[C_EFF + card]
    if S[b, LED] == NO_SUIT and e != EXCUSE:
        S[b, LED] = e
    key = card_key(ctx, card, S[b, LED])
    if key > S[b, BEST_KEY]:
        S[b, BEST_KEY] = key
        S[b, BEST_POS] = n
    S[b, TRICK + n] = card
    S[b, TN] = n + 1
    if n + 1 < m:
        S[b, TO_MOVE] = S[b, SEATS + (k + 1) % m]
        return False
    pos = S[b, BEST_POS] if S[b, KEPT] < 0 else kept_back_winner(S, b, ctx, m)
    wk = (S[b, LEADER] + pos) % m
    winner = S[b, SEATS + wk]
    t = S[b, NT]
    S[b, LOG + 2 * t] = winner
    S[b, LOG + 2 * t + 1] = trick_points(S, b, pts, mode, m)
    S[b, WON + winner] += 1
    S[b, NT] = t + 1
    S[b, TN] = 0
    S[b, LED] = NO_SUIT
    S[b, BEST_KEY] = NO_KEY
    S[b, BEST_POS] = 0
    if S[b, NT] == S[b, N_TRICKS]:
        return True
    if S[b, NT] == S[b, N_TRICKS] - 1 and S[b, KEPT] == winner:
        wk = (wk + 1) % m  # the keeper does not lead the last trick; they play last
    S[b, LEADER] = wk
    S[b, TO_MOVE] = S[b, SEATS + wk]
    return False


@jit
def encode(
    S: Any, b: int, seat: int, base: Any, off: Any, flag: Any, n_seats: int, n_cards: int, hand_scale: float, points_scale: float, out: Any
) -> None:
    """``out`` := ``base`` (the seat's tensor at the hand-over) with the slices card play changes written anew."""
    begin_tensor(out, base, off, off[D_TO_MOVE, 0] + (S[b, TO_MOVE] - seat) % n_seats)
    k = S[b, KSEAT + seat]
    if k >= 0:
        hand = S[b, HANDS + k]
        while hand:
            low = hand & -hand
            hand ^= low
            out[off[D_HAND, 0] + flag[popcount64(low - 1)]] = 1.0
    tricks = np.zeros(MAX_SEATS, dtype=np.float64)
    points = np.zeros(MAX_SEATS, dtype=np.float64)
    for t in range(S[b, NT]):
        rel = (S[b, LOG + 2 * t] - seat) % n_seats
        tricks[rel] += 1.0 / hand_scale
        p = S[b, LOG + 2 * t + 1]
        if p:
            points[rel] += p / points_scale
    for q in range(n_seats):
        rel = (q - seat) % n_seats
        kq = S[b, KSEAT + q]
        if kq >= 0:
            size = popcount64(S[b, HANDS + kq])
            if size:
                out[off[D_HAND_SIZES, 0] + rel] = size / hand_scale
        played = S[b, PLAYED + q]
        while played:
            low = played & -played
            played ^= low
            out[off[D_PLAYED, 0] + rel * n_cards + flag[popcount64(low - 1)]] = 1.0
        if tricks[q]:
            out[off[D_TRICKS_WON, 0] + q] = tricks[q]
        if points[q]:
            out[off[D_POINTS_WON, 0] + q] = points[q]
        won = S[b, WON + q]
        if won and off[D_PUBLIC_TRICKS, 1] > off[D_PUBLIC_TRICKS, 0]:
            out[off[D_PUBLIC_TRICKS, 0] + rel] = won / 16.0
    if S[b, KEPT] == seat and off[D_KEPT, 1] > off[D_KEPT, 0]:
        out[off[D_KEPT, 0]] = 1.0
    mark_trick(out, off[D_TRICK, 0], off[D_LEADER, 0], seat, n_seats, n_cards, flag, S, b, TRICK, S[b, TN], SEATS, S[b, M], S[b, LEADER])


@jit
def step(
    S: Any,
    actions: Any,
    live: Any,
    code_card: Any,
    card_code: Any,
    ctx: Any,
    pts: Any,
    mode: int,
    base: Any,
    off: Any,
    flag: Any,
    n_seats: int,
    n_cards: int,
    hand_scale: float,
    points_scale: float,
    obs: Any,
    mask: Any,
    current: Any,
    ended: Any,
) -> int:
    """Play ``actions[b]`` in every live deal; refresh the fields of those still in card play, flag in ``ended`` those that ended.

    Every action is checked first; on an illegal one nothing changes and its deal's index is returned (else -1).
    """
    illegal = first_illegal(actions, live, code_card, mask)
    if illegal >= 0:
        return illegal
    for b in range(S.shape[0]):
        ended[b] = False
        if not live[b]:
            continue
        if play(S, b, code_card[actions[b]], ctx, pts, mode):
            ended[b] = True
            continue
        refresh(S, b, card_code, ctx, base, off, flag, n_seats, n_cards, hand_scale, points_scale, obs, mask, current)
    return -1


@jit
def refresh(
    S: Any,
    b: int,
    card_code: Any,
    ctx: Any,
    base: Any,
    off: Any,
    flag: Any,
    n_seats: int,
    n_cards: int,
    hand_scale: float,
    points_scale: float,
    obs: Any,
    mask: Any,
    current: Any,
) -> None:
    """Deal ``b``'s current player, its tensor and its legal mask."""
    seat = S[b, TO_MOVE]
    current[b] = seat
    encode(S, b, seat, base[b, seat], off, flag, n_seats, n_cards, hand_scale, points_scale, obs[b])
    mask[b, :] = 0
    cards = legal(S, b, ctx)
    while cards:
        low = cards & -cards
        cards ^= low
        mask[b, card_code[popcount64(low - 1)]] = 1
