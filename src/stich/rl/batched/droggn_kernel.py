"""The compiled (numba) card play of Droggn for the Tarock-family batch: one row of ``S`` and one hand array per deal.

Import it only through :mod:`stich.rl.batched.tarock`, which checks that numba
is importable.  Droggn's pack holds 66 or 78 cards, more than the one-int64
hand masks of :mod:`stich.rl.batched.tarock_kernel`, so a hand here is a
``uint8`` flag per physical card (``H[b, seat, card]``, by table seat) and the
cards each seat has played are kept the same way (``P``).  The rules are those
of :class:`stich.games.droggn.state.DroggnState` (dossier
``../shared/rules/droggn.md``):

* follow suit, else trump, else any card; the Gstieß (an excuse) may always be
  played and wins no trick [§6.1, §6.2];
* a laid-out Pagat is played only when nothing else is legal [§5.1, §6.3];
* a laid-out Gstieß (Super Mord) is bound to the last trick, which it wins
  [§5.2]; with ``gstiess_last_trick_illegal`` a Gstieß may not go to the last
  trick, so it goes with the last but one card [§6.2 VAR];
* the Gstieß is never captured: it goes to the pile of the side that played it
  [§6.2] (the ``declarer_pile``/``defenders_pile`` counts and ``gstiess_to``);
* a Super Mord ends at the first trick the declarer loses [§8.3].

:func:`encode` writes a seat's tensor as the seat's tensor at the hand-over
with the slices card play changes written anew (see :data:`DYNAMIC`).
Droggn counts no card points per trick, so ``points_won`` stays zero as in the
single env.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stich.kernels.core import jit
from stich.rl.batched.trick_common import EXCUSE, NO_SUIT, TRUMP, begin_tensor, best_position, first_illegal, led_suit, mark_trick

MAX_SEATS = 4
N_FACES = 78
TRICK_SIZE = 3
PAGAT = 0
GSTIESS = 21

# Columns of a row of S
TO_MOVE = 0
LEADER = 1
"""Table seat that leads the current trick."""
TN = 2
"""Cards in the current trick."""
NT = 3
"""Tricks finished."""
N_TRICKS = 4
DECLARER = 5
MORD = 6
"""1 in a Super Mord: the card play ends at the first trick the declarer loses [§8.3]."""
LAID = 7
"""The laid-out card (Pagat 0, Gstieß 21; -1 none) [§5.1, §5.2]."""
LAID_BY = 8
G_LAST = 9
"""1 with ``gstiess_last_trick_illegal`` [§6.2 VAR]."""
DECL_PILE = 10
"""Cards in the declarer's pile (tricks won, the Gstieß back to its side) [§6.2]."""
DEF_PILE = 11
G_TO = 12
"""Side the Gstieß went back to once its trick is done: 0 declarer, 1 defenders, -1 not yet."""
N_PLAYED = 13
SUCC = 14
"""Table seat -> the next active seat (-1 for an idle dealer)."""
TRICK = SUCC + MAX_SEATS
TRICK_SEATS = TRICK + TRICK_SIZE
WON = TRICK_SEATS + TRICK_SIZE
"""Tricks won, by table seat."""
HAND_SIZE = WON + MAX_SEATS
"""Cards in hand, by table seat."""
CARDS = HAND_SIZE + MAX_SEATS
"""Every card played in order (physical indices), for the reference engine to replay at the end."""
WIDTH = CARDS + N_FACES

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
    "declarer_pile",
    "defenders_pile",
    "gstiess_to",
)
D_TO_MOVE, D_HAND, D_HAND_SIZES, D_PLAYED, D_TRICK, D_LEADER, D_TRICKS_WON, D_POINTS_WON, D_DECL_PILE, D_DEF_PILE, D_G_TO = range(11)
PILE_SCALE = 54.0
"""The ``declarer_pile`` / ``defenders_pile`` slices' divisor (:mod:`stich.rl.game_slices`)."""


@jit
def legal(S: Any, H: Any, b: int, eff: Any, out: Any) -> None:
    """``out[card]`` := 1 for each card the seat to move may play [§6.1, §6.2, §5.1, §5.2, §6.3]."""
    seat = S[b, TO_MOVE]
    led = led_suit(S[b, TRICK : TRICK + TRICK_SIZE], S[b, TN], eff, -1)
    want = NO_SUIT
    if led != NO_SUIT:
        follow = False
        trumps = False
        for c in range(N_FACES):
            if H[b, seat, c]:
                if eff[c] == led:
                    follow = True
                elif eff[c] == TRUMP:
                    trumps = True
        want = led if follow else (TRUMP if trumps else NO_SUIT)
    count = 0
    for c in range(N_FACES):
        ok = H[b, seat, c] != 0 and (want == NO_SUIT or eff[c] == want or eff[c] == EXCUSE)
        out[c] = 1 if ok else 0
        count += ok
    if H[b, seat, GSTIESS]:
        if S[b, LAID] == GSTIESS and S[b, LAID_BY] == seat:
            if S[b, HAND_SIZE + seat] != 1 and out[GSTIESS]:
                out[GSTIESS] = 0  # a laid-out Gstieß is bound to the last trick [§5.2]
                count -= 1
        elif S[b, G_LAST] and S[b, HAND_SIZE + seat] == 2:
            out[:] = 0
            out[GSTIESS] = 1  # it may not go to the last trick, so it goes now [§6.2 VAR]
            count = 1
    if S[b, LAID] == PAGAT and S[b, LAID_BY] == seat and out[PAGAT] and count > 1:
        out[PAGAT] = 0  # a laid-out Pagat only when nothing else is legal [§5.1, §6.3]


@jit
def winner_position(S: Any, b: int, eff: Any, strength: Any) -> int:
    """Position of the card that wins the full trick: the highest trump, else the highest of the suit led [§6.1].

    The laid-out Gstieß wins the last trick [§5.2]; otherwise the Gstieß wins nothing.
    """
    if S[b, NT] == S[b, N_TRICKS] - 1 and S[b, LAID] == GSTIESS:
        for i in range(TRICK_SIZE):
            if S[b, TRICK + i] == GSTIESS:
                return i
    return best_position(S[b, TRICK : TRICK + TRICK_SIZE], TRICK_SIZE, eff, strength, -1)


@jit
def play(S: Any, H: Any, P: Any, b: int, card: int, eff: Any, strength: Any) -> bool:
    """Play ``card`` for the seat to move; a full trick goes to its winner.  True when the card play is over."""
    seat = S[b, TO_MOVE]
    n = S[b, TN]
    H[b, seat, card] = 0
    P[b, seat, card] = 1
    S[b, HAND_SIZE + seat] -= 1
    S[b, CARDS + S[b, N_PLAYED]] = card
    S[b, N_PLAYED] += 1
    S[b, TRICK + n] = card
    S[b, TRICK_SEATS + n] = seat
    S[b, TN] = n + 1
    if n + 1 < TRICK_SIZE:
        S[b, TO_MOVE] = S[b, SUCC + seat]
        return False
    pos = winner_position(S, b, eff, strength)
    winner = S[b, TRICK_SEATS + pos]
    declarer = S[b, DECLARER]
    if winner == declarer:
        S[b, DECL_PILE] += TRICK_SIZE
    else:
        S[b, DEF_PILE] += TRICK_SIZE
    for k in range(TRICK_SIZE):
        if S[b, TRICK + k] == GSTIESS:
            by_declarer = S[b, TRICK_SEATS + k] == declarer
            if k != pos and by_declarer != (winner == declarer):
                # the Gstieß is never captured: it goes back to the pile of the side that played it [§6.2]
                S[b, DECL_PILE] += 1 if by_declarer else -1
                S[b, DEF_PILE] += -1 if by_declarer else 1
            S[b, G_TO] = 0 if by_declarer else 1
    S[b, WON + winner] += 1
    S[b, NT] += 1
    S[b, TN] = 0
    if winner != declarer and S[b, MORD]:
        return True  # a Super Mord is lost at the first trick the declarer loses [§8.3]
    if S[b, NT] == S[b, N_TRICKS]:
        return True
    S[b, LEADER] = winner
    S[b, TO_MOVE] = winner
    return False


@jit
def encode(
    S: Any, H: Any, P: Any, b: int, seat: int, base: Any, off: Any, flag: Any, n_seats: int, n_cards: int, hand_scale: float, out: Any
) -> None:
    """``out`` := ``base`` (the seat's tensor at the hand-over) with the slices card play changes written anew."""
    begin_tensor(out, base, off, off[D_TO_MOVE, 0] + (S[b, TO_MOVE] - seat) % n_seats)
    for c in range(N_FACES):
        if H[b, seat, c]:
            out[off[D_HAND, 0] + flag[c]] = 1.0
    tricks = np.zeros(MAX_SEATS, dtype=np.float64)
    for q in range(n_seats):
        rel = (q - seat) % n_seats
        for _ in range(S[b, WON + q]):
            tricks[rel] += 1.0 / hand_scale
        size = S[b, HAND_SIZE + q]
        if size:
            out[off[D_HAND_SIZES, 0] + rel] = size / hand_scale
        for c in range(N_FACES):
            if P[b, q, c]:
                out[off[D_PLAYED, 0] + rel * n_cards + flag[c]] = 1.0
    for rel in range(n_seats):
        if tricks[rel]:
            out[off[D_TRICKS_WON, 0] + rel] = tricks[rel]
    out[off[D_DECL_PILE, 0]] = S[b, DECL_PILE] / PILE_SCALE
    out[off[D_DEF_PILE, 0]] = S[b, DEF_PILE] / PILE_SCALE
    if S[b, G_TO] >= 0:
        out[off[D_G_TO, 0] + S[b, G_TO]] = 1.0
    mark_trick(out, off[D_TRICK, 0], off[D_LEADER, 0], seat, n_seats, n_cards, flag, S, b, TRICK, S[b, TN], TRICK_SEATS, TRICK_SIZE, 0)


@jit
def refresh(
    S: Any,
    H: Any,
    P: Any,
    b: int,
    card_code: Any,
    eff: Any,
    base: Any,
    off: Any,
    flag: Any,
    n_seats: int,
    n_cards: int,
    hand_scale: float,
    obs: Any,
    mask: Any,
    current: Any,
) -> None:
    """Deal ``b``'s current player, its tensor and its legal mask."""
    seat = S[b, TO_MOVE]
    current[b] = seat
    encode(S, H, P, b, seat, base[b, seat], off, flag, n_seats, n_cards, hand_scale, obs[b])
    mask[b, :] = 0
    ok = np.zeros(N_FACES, dtype=np.uint8)
    legal(S, H, b, eff, ok)
    for c in range(N_FACES):
        if ok[c]:
            mask[b, card_code[c]] = 1


@jit
def step(
    S: Any,
    H: Any,
    P: Any,
    actions: Any,
    live: Any,
    code_card: Any,
    card_code: Any,
    eff: Any,
    strength: Any,
    base: Any,
    off: Any,
    flag: Any,
    n_seats: int,
    n_cards: int,
    hand_scale: float,
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
        if play(S, H, P, b, code_card[actions[b]], eff, strength):
            ended[b] = True
            continue
        refresh(S, H, P, b, card_code, eff, base, off, flag, n_seats, n_cards, hand_scale, obs, mask, current)
    return -1
