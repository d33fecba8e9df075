"""The compiled (numba) rules of a whole DDV Doppelkopf deal for the batched environment, one row of ``S`` per deal.

Import it only through :mod:`stich.rl.batched.doppelkopf`, which checks that
numba is importable, deals the hands and scores finished deals.

Every deal is one row of the ``int64`` matrix ``S`` laid out by the column
offsets below; a deal follows :class:`stich.games.doppelkopf.state.DoppelkopfState`
for the DDV preset step by step: the health round (``gesund`` /
``vorbehalt``), the reservation query (compulsory solo before wedding, a
reserver's last question cannot be passed), the silent wedding, the wedding
with its three-trick clarification window and shifted call deadlines, the
announcements with their deadlines and replies, and trick play
(dossier ``../shared/rules/doppelkopf.md`` §3.1, §3.2, §4.2, §4.3, §5, §6.1).
The card rules are those of the search kernel (:mod:`stich.kernels.core`:
count-form hands, the ``ctx`` table per contract).

:func:`encode` writes the observation tensor of :class:`stich.rl.encoding.Encoding`
for one seat from the row alone; the slices it leaves at zero are those the
DDV preset never fills (Schweine, Genscher, poverty, thrown-in hands, a named
wedding suit).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stich.games.doppelkopf import actions as _actions
from stich.kernels.core import C_EFF, C_EYES, TRUMP, card_key, jit, legal_faces, next_random, pick_below, take

# Phases (the engine's numbering, stich.games.doppelkopf.state)
RESERVATION = 0
DECLARE = 1
PLAY = 5
END = 6

# Action codes: the engine's own constants, so that a new action appended there (Schweine, Klopfen) moves
# the ``actions`` slice's columns here too
N_PLAY = _actions.DISCARD
OTHER_BASE = _actions.DISCARD
"""Code of the first non-card action: the ``actions`` slice's column of a code is ``code - OTHER_BASE``."""
GESUND = _actions.GESUND
VORBEHALT = _actions.VORBEHALT
PASS = _actions.PASS
HOCHZEIT = _actions.HOCHZEIT
ANNOUNCE = _actions.ANNOUNCE
SOLO = _actions.SOLO
N_ACTIONS = len(_actions.ACTIONS)
ACTION_COLUMNS = N_ACTIONS - OTHER_BASE + 1

# Kinds (the encoding's vocabulary order) and parties
K_NORMAL = 0
K_SOLO = 1
K_STILLE = 2
K_HOCHZEIT = 3
K_HOCHZEIT_SOLO = 4
RE = 0
KONTRA = 1
CQ = 3
KARO = 1
"""Contract index of the Karo solo (``("normal", *SOLO_NAMES)``)."""

# Query tiers (bits)
T_PFLICHT = 1
T_HOCHZEIT = 2

# Columns of a row of S
PHASE = 0
TO_MOVE = 1
DEALER = 2
LEADER = 3
TN = 4
LED = 5
BEST_KEY = 6
BEST_POS = 7
NT = 8
CONTRACT = 9
KIND = 10
SOLOIST = 11
PFLICHT = 12
HOCHZEITER = 13
CLARIFIED = 14
CLAR_TRICK = 15
ANN_OPEN = 16
CALL_OFFSET = 17
LEVEL = 18
LATE = 20
N_ASKS = 22
ASK_POS = 23
N_SAID = 24
HANDS = 25
PLAYED = 29
TRICK = 33
SAID = 37
PARTY = 41
ANN_SEEN = 45
CQ_PLAYED = 49
VOID = 53
TRICKS_WON = 57
ASK_SEAT = 61
ASK_TIERS = 69
ASK_PASS = 77
LOG = 85
LOG_STRIDE = 7
"""Per finished trick: leader, winner, its four faces in playing order, its eyes."""
N_EVENTS = LOG + 12 * LOG_STRIDE
EVENTS = N_EVENTS + 1
"""Every non-card action so far as ``seat * ACTION_COLUMNS + column`` (at most 4 reservations, 8 answers, 10 calls)."""
MAX_EVENTS = 32
WIDTH = EVENTS + MAX_EVENTS

# Indices into the slice-offset array ``off`` (filled from Encoding.slices() by name)
SLICE_NAMES = (
    "phase",
    "to_move",
    "dealer",
    "active",
    "hand",
    "hand_sizes",
    "played",
    "trick",
    "trick_leader",
    "tricks_won",
    "points_won",
    "actions",
    "kind",
    "contract",
    "soloist",
    "pflichtsolo",
    "hochzeiter",
    "clarification_trick",
    "reservations",
    "calls_re",
    "calls_kontra",
    "parties",
    "own_party",
    "owes_solo",
)
O_PHASE, O_TO_MOVE, O_DEALER, O_ACTIVE, O_HAND, O_HAND_SIZES, O_PLAYED, O_TRICK = range(8)
O_TRICK_LEADER, O_TRICKS_WON, O_POINTS_WON, O_ACTIONS, O_KIND, O_CONTRACT, O_SOLOIST, O_PFLICHT = range(8, 16)
O_HOCHZEITER, O_CLAR, O_RESERVATIONS, O_CALLS_RE, O_CALLS_KONTRA, O_PARTIES, O_OWN_PARTY, O_OWES = range(16, 24)

HAND_SCALE = 16.0
POINTS_SCALE = 240.0


@jit
def popcount48(x: int) -> int:
    """Set bits of a mask below 2**48 (a count-form hand: its number of cards), SWAR-counted without a loop."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return int(((x * 0x0101010101010101) >> 56) & 0xFF)


@jit
def new_deal(S: Any, b: int, hands: Any, dealer: int) -> None:
    """Row ``b`` := a fresh deal of the count-form ``hands`` (seat order) dealt by ``dealer``."""
    for c in range(WIDTH):
        S[b, c] = 0
    S[b, PHASE] = RESERVATION
    S[b, DEALER] = dealer
    S[b, TO_MOVE] = (dealer + 1) & 3
    S[b, LEADER] = (dealer + 1) & 3
    S[b, SOLOIST] = -1
    S[b, HOCHZEITER] = -1
    S[b, CLARIFIED] = 1
    for s in range(4):
        S[b, HANDS + s] = hands[s]
        S[b, SAID + s] = -1
        S[b, PARTY + s] = KONTRA


# ------------------------------------------------------------- legality


@jit
def announce_range(S: Any, b: int, p: int, deadlines: Any) -> Any:
    """Levels ``p`` may call now as ``(low, high)`` (empty when low > high) [§5.2, §5.3; DDV options]."""
    party = S[b, PARTY + p]
    own = S[b, LEVEL + party]
    if own == 5:
        return 1, 0
    h = popcount48(S[b, HANDS + p])
    opp = S[b, LEVEL + 1 - party]
    top = 5 if S[b, CLARIFIED] else 1
    off = S[b, CALL_OFFSET]
    if own == 0:
        if h >= deadlines[1] - off:
            return 1, top
        if opp >= 1 and h >= deadlines[opp] - off - 1:
            return 1, 1
        return 1, 0
    if S[b, LATE + party] or h < deadlines[own + 1] - off:
        return 1, 0
    return own + 1, top


@jit
def announce_code(party: int, level: int) -> int:
    """The code of a call: Re/Kontra by party, an absage by level."""
    if level == 1:
        return ANNOUNCE + party
    return ANNOUNCE + level


@jit
def legal_mask(S: Any, b: int, ctxs: Any, deadlines: Any, solo_codes: Any, m: Any) -> None:
    """``m`` (int8, zeroed by the caller) := the legal-action mask of the seat to move in deal ``b``."""
    ph = S[b, PHASE]
    if ph == RESERVATION:
        m[GESUND] = 1
        m[VORBEHALT] = 1
    elif ph == DECLARE:
        k = S[b, ASK_POS]
        tiers = S[b, ASK_TIERS + k]
        if tiers & T_PFLICHT:
            for c in solo_codes:
                m[c] = 1
        if tiers & T_HOCHZEIT:
            m[HOCHZEIT] = 1
        if S[b, ASK_PASS + k]:
            m[PASS] = 1
    elif ph == PLAY:
        p = S[b, TO_MOVE]
        legal = legal_faces(ctxs[S[b, CONTRACT]], S[b, HANDS + p], S[b, TN], S[b, LED], S[b, BEST_KEY])
        for f in range(N_PLAY):
            if (legal >> f) & 1:
                m[f] = 1
        if S[b, ANN_OPEN]:
            lo, hi = announce_range(S, b, p, deadlines)
            party = S[b, PARTY + p]
            for level in range(lo, hi + 1):
                m[announce_code(party, level)] = 1


# ------------------------------------------------------------------ apply


@jit
def start_play(S: Any, b: int, leader: int) -> None:
    S[b, PHASE] = PLAY
    S[b, LEADER] = leader
    S[b, TO_MOVE] = leader
    S[b, ANN_OPEN] = S[b, CLARIFIED]  # hochzeit_announcement_timing=shifted: a wedding opens calls once clarified


@jit
def eligible(S: Any, b: int, s: int) -> int:
    """Tiers seat ``s`` may name: every seat owes a Pflichtsolo; a wedding with both queens of clubs [§3.2]."""
    tiers = T_PFLICHT
    if (S[b, HANDS + s] >> (CQ + 24)) & 1:
        tiers |= T_HOCHZEIT
    return tiers


@jit
def start_query(S: Any, b: int) -> None:
    """After the health round: a normal game, or the questions of the reservation query [§3.1, §3.2]."""
    dealer = S[b, DEALER]
    reservers = 0
    first = -1
    for i in range(4):
        s = (dealer + 1 + i) & 3
        if S[b, SAID + s] == 1:
            reservers += 1
            if first < 0:
                first = s
    if reservers == 0:
        holders = 0
        holder = -1
        for s in range(4):
            if S[b, HANDS + s] & (1 << CQ):
                S[b, PARTY + s] = RE
                holders += 1
                holder = s
        if holders == 1:
            S[b, KIND] = K_STILLE
            S[b, CONTRACT] = KARO
            S[b, SOLOIST] = holder
        start_play(S, b, (dealer + 1) & 3)
        return
    n = 0
    if reservers == 1:
        S[b, ASK_SEAT] = first
        S[b, ASK_TIERS] = eligible(S, b, first)
        S[b, ASK_PASS] = 0
        n = 1
    else:
        for tier in (T_PFLICHT, T_HOCHZEIT):
            for i in range(4):
                s = (dealer + 1 + i) & 3
                if S[b, SAID + s] == 1 and eligible(S, b, s) & tier:
                    S[b, ASK_SEAT + n] = s
                    S[b, ASK_TIERS + n] = tier
                    S[b, ASK_PASS + n] = 1
                    n += 1
        for s in range(4):
            if S[b, SAID + s] == 1:
                last = -1
                for k in range(n):
                    if S[b, ASK_SEAT + k] == s:
                        last = k
                S[b, ASK_PASS + last] = 0
    S[b, N_ASKS] = n
    S[b, ASK_POS] = 0
    S[b, PHASE] = DECLARE
    S[b, TO_MOVE] = S[b, ASK_SEAT]


@jit
def set_parties(S: Any, b: int, re_seat: int) -> None:
    for s in range(4):
        S[b, PARTY + s] = RE if s == re_seat else KONTRA


@jit
def declare(S: Any, b: int, p: int, code: int) -> None:
    """A reserver's answer in the query: pass, a wedding, or a (compulsory) solo, which its soloist leads [§2.1, §3.2]."""
    if code == PASS:
        S[b, ASK_POS] += 1
        S[b, TO_MOVE] = S[b, ASK_SEAT + S[b, ASK_POS]]
    elif code == HOCHZEIT:
        S[b, KIND] = K_HOCHZEIT
        S[b, HOCHZEITER] = p
        S[b, CLARIFIED] = 0
        set_parties(S, b, p)
        start_play(S, b, (S[b, DEALER] + 1) & 3)
    else:
        S[b, CONTRACT] = code - SOLO + 1
        S[b, KIND] = K_SOLO
        S[b, SOLOIST] = p
        S[b, PFLICHT] = 1
        set_parties(S, b, p)
        start_play(S, b, p)


@jit
def announce(S: Any, b: int, p: int, code: int, deadlines: Any) -> None:
    party = S[b, PARTY + p]
    idx = code - ANNOUNCE
    level = 1 if idx < 2 else idx
    if S[b, LEVEL + party] == 0 and popcount48(S[b, HANDS + p]) < deadlines[1] - S[b, CALL_OFFSET]:
        S[b, LATE + party] = 1
    S[b, LEVEL + party] = level
    S[b, ANN_SEEN + p] = 1


@jit
def clarify(S: Any, b: int, winner: int) -> None:
    """The wedding partner is the first other winner of a trick, within three tricks; else a Karo solo [§4.2, §5.4]."""
    number = S[b, NT]
    if winner != S[b, HOCHZEITER]:
        S[b, PARTY + winner] = RE
        S[b, CLARIFIED] = 1
    elif number >= 3:
        S[b, KIND] = K_HOCHZEIT_SOLO
        S[b, CONTRACT] = KARO
        S[b, SOLOIST] = S[b, HOCHZEITER]
        S[b, CLARIFIED] = 1
    if S[b, CLARIFIED]:
        S[b, CLAR_TRICK] = number
        S[b, CALL_OFFSET] += number - 1
        S[b, ANN_OPEN] = 1


@jit
def play(S: Any, b: int, p: int, f: int, ctxs: Any) -> None:
    """Play face ``f`` for ``p`` [§6.1]; a full trick goes to its winner, who leads the next."""
    ctx = ctxs[S[b, CONTRACT]]
    S[b, HANDS + p] = take(S[b, HANDS + p], f)
    played = S[b, PLAYED + p]
    S[b, PLAYED + p] = played | (1 << (f + 24)) if (played >> f) & 1 else played | (1 << f)
    n = S[b, TN]
    if n == 0:
        S[b, LED] = ctx[C_EFF + f]
        S[b, BEST_KEY] = card_key(ctx, f, ctx[C_EFF + f])
        S[b, BEST_POS] = 0
    else:
        k = card_key(ctx, f, S[b, LED])
        if k > S[b, BEST_KEY]:
            S[b, BEST_KEY] = k
            S[b, BEST_POS] = n
    S[b, TRICK + n] = f
    S[b, TN] = n + 1
    if f == CQ:
        S[b, CQ_PLAYED + p] += 1
    if n + 1 < 4:
        S[b, TO_MOVE] = (p + 1) & 3
        return
    leader = S[b, LEADER]
    winner = (leader + S[b, BEST_POS]) & 3
    log = LOG + S[b, NT] * LOG_STRIDE
    S[b, log] = leader
    S[b, log + 1] = winner
    trump_led = ctx[C_EFF + S[b, TRICK]] == TRUMP
    eyes = 0
    for i in range(4):
        g = S[b, TRICK + i]
        S[b, log + 2 + i] = g
        eyes += ctx[C_EYES + g]
        if i > 0 and trump_led and ctx[C_EFF + g] != TRUMP:
            S[b, VOID + ((leader + i) & 3)] = 1
    S[b, log + 6] = eyes
    S[b, TRICKS_WON + winner] += 1
    S[b, NT] += 1
    S[b, TN] = 0
    if not S[b, CLARIFIED]:
        clarify(S, b, winner)
    if S[b, NT] == 12:
        S[b, PHASE] = END
        S[b, TO_MOVE] = -1
        return
    S[b, LEADER] = winner
    S[b, TO_MOVE] = winner


@jit
def apply(S: Any, b: int, code: int, ctxs: Any, deadlines: Any) -> None:
    """Apply a legal ``code`` of the seat to move in deal ``b`` (legality is the caller's check, against the mask)."""
    p = S[b, TO_MOVE]
    ph = S[b, PHASE]
    if code >= OTHER_BASE:
        S[b, EVENTS + S[b, N_EVENTS]] = p * ACTION_COLUMNS + code - OTHER_BASE
        S[b, N_EVENTS] += 1
    if ph == PLAY:
        if code < N_PLAY:
            play(S, b, p, code, ctxs)
        else:
            announce(S, b, p, code, deadlines)
    elif ph == RESERVATION:
        S[b, SAID + p] = 1 if code == VORBEHALT else 0
        S[b, N_SAID] += 1
        if S[b, N_SAID] == 4:
            start_query(S, b)
        else:
            S[b, TO_MOVE] = (p + 1) & 3
    elif ph == DECLARE:
        declare(S, b, p, code)


# ---------------------------------------------------------------- encode


@jit
def public_kind(S: Any, b: int) -> int:
    """The kind as the table knows it: a silent wedding looks normal until its holder played both queens of clubs (A-21)."""
    kind: int = S[b, KIND]
    if kind == K_STILLE and S[b, CQ_PLAYED + S[b, SOLOIST]] < 2:
        return K_NORMAL
    return kind


@jit
def encode(S: Any, b: int, seat: int, ctxs: Any, off: Any, out: Any) -> None:
    """``out`` (float32, zeroed by the caller) := the observation tensor of ``seat`` in deal ``b``."""
    ph = S[b, PHASE]
    out[off[O_PHASE] + ph] = 1.0
    tm = S[b, TO_MOVE]
    out[off[O_TO_MOVE] + (4 if tm < 0 else (tm - seat) & 3)] = 1.0
    out[off[O_DEALER] + ((S[b, DEALER] - seat) & 3)] = 1.0
    hand = S[b, HANDS + seat]
    while hand:
        low = hand & -hand
        hand ^= low
        out[off[O_HAND] + popcount48(low - 1)] = 1.0
    for q in range(4):
        rel = (q - seat) & 3
        out[off[O_ACTIVE] + rel] = 1.0
        out[off[O_OWES] + rel] = 1.0
        size = popcount48(S[b, HANDS + q])
        if size:
            out[off[O_HAND_SIZES] + rel] = size / HAND_SCALE
        played = S[b, PLAYED + q]
        base = off[O_PLAYED] + rel * 48
        while played:
            low = played & -played
            played ^= low
            out[base + popcount48(low - 1)] = 1.0
        won = S[b, TRICKS_WON + q]
        if won:
            out[off[O_TRICKS_WON] + rel] = won / HAND_SCALE
        said = S[b, SAID + q]
        if said >= 0:
            out[off[O_RESERVATIONS] + rel * 2 + said] = 1.0
    for k in range(S[b, N_EVENTS]):
        event = S[b, EVENTS + k]
        q = event // ACTION_COLUMNS
        out[off[O_ACTIONS] + ((q - seat) & 3) * ACTION_COLUMNS + event % ACTION_COLUMNS] += 1.0
    n = S[b, TN]
    leader = S[b, LEADER]
    for i in range(n):
        out[off[O_TRICK] + ((leader + i - seat) & 3) * 48 + S[b, TRICK + i]] = 1.0
    if n:
        out[off[O_TRICK_LEADER] + ((leader - seat) & 3)] = 1.0
    # card points won: summed trick by trick as the reference encoding does (the same float rounding)
    for r in range(4):
        points = 0.0
        for t in range(S[b, NT]):
            log = LOG + t * LOG_STRIDE
            if ((S[b, log + 1] - seat) & 3) == r and S[b, log + 6]:
                points += S[b, log + 6] / POINTS_SCALE
        if points:
            out[off[O_POINTS_WON] + r] = points
    pk = public_kind(S, b)
    out[off[O_KIND] + pk] = 1.0
    out[off[O_CONTRACT] + (S[b, CONTRACT] if pk != K_NORMAL else 0)] = 1.0
    if pk in (K_SOLO, K_STILLE, K_HOCHZEIT_SOLO):
        out[off[O_SOLOIST] + ((S[b, SOLOIST] - seat) & 3)] = 1.0
    if S[b, PFLICHT]:
        out[off[O_PFLICHT]] = 1.0
    hz = S[b, HOCHZEITER]
    if hz >= 0:
        out[off[O_HOCHZEITER] + ((hz - seat) & 3)] = 1.0
    if S[b, CLAR_TRICK]:
        out[off[O_CLAR]] = S[b, CLAR_TRICK] / 12.0
    out[off[O_CALLS_RE] + S[b, LEVEL]] = 1.0
    out[off[O_CALLS_KONTRA] + S[b, LEVEL + 1]] = 1.0
    # parties the table knows [§4.1]
    all_known = pk in (K_SOLO, K_STILLE, K_HOCHZEIT_SOLO) or (pk == K_HOCHZEIT and S[b, CLARIFIED])
    for q in range(4):
        known = -1
        if all_known:
            known = S[b, PARTY + q]
        elif pk == K_HOCHZEIT:
            if q == hz:
                known = RE
        elif S[b, CQ_PLAYED + q]:
            known = RE
        elif S[b, ANN_SEEN + q]:
            known = S[b, PARTY + q]
        elif S[b, VOID + q]:
            known = KONTRA
        if known >= 0:
            out[off[O_PARTIES] + ((q - seat) & 3) * 2 + known] = 1.0
    if ph >= PLAY and (S[b, CLARIFIED] or seat == hz):
        out[off[O_OWN_PARTY] + S[b, PARTY + seat]] = 1.0


@jit
def refresh(S: Any, rows: Any, ctxs: Any, deadlines: Any, solo_codes: Any, off: Any, obs: Any, mask: Any, current: Any) -> None:
    """For each deal in ``rows``: the current player (-1 once over), its observation and legal mask (seat 0's tensor once over)."""
    for b in rows:
        tm = S[b, TO_MOVE]
        current[b] = tm
        obs[b, :] = 0.0
        mask[b, :] = 0
        encode(S, b, tm if tm >= 0 else 0, ctxs, off, obs[b])
        if tm >= 0:
            legal_mask(S, b, ctxs, deadlines, solo_codes, mask[b])


@jit
def step(
    S: Any,
    actions: Any,
    ctxs: Any,
    deadlines: Any,
    solo_codes: Any,
    off: Any,
    obs: Any,
    mask: Any,
    current: Any,
    terminated: Any,
    rewards: Any,
    scale: float,
) -> int:
    """Apply ``actions[b]`` to every deal not yet over, score the deals that end, :func:`refresh` the rest.

    First every action is checked against the mask; on an illegal one nothing changes and its deal's index is
    returned (-1: all were legal).  ``rewards`` is zero except in the rows of the deals this step ended.
    """
    n_actions = mask.shape[1]
    for b in range(S.shape[0]):
        if not terminated[b]:
            a = actions[b]
            if a < 0 or a >= n_actions or mask[b, a] == 0:
                return b
    scores = np.zeros(4, dtype=np.int64)
    rows = np.empty(1, dtype=np.int64)
    for b in range(S.shape[0]):
        rewards[b, :] = 0.0
        if terminated[b]:
            continue
        apply(S, b, actions[b], ctxs, deadlines)
        if S[b, PHASE] == END:
            score(S, b, ctxs, scores)
            for s in range(4):
                rewards[b, s] = scores[s] * scale
            terminated[b] = True
        rows[0] = b
        refresh(S, rows, ctxs, deadlines, solo_codes, off, obs, mask, current)
    return -1


@jit
def deal_rows(
    S: Any,
    rows: Any,
    seeds: Any,
    dealers: Any,
    physical: Any,
    ctxs: Any,
    deadlines: Any,
    solo_codes: Any,
    off: Any,
    obs: Any,
    mask: Any,
    current: Any,
) -> None:
    """Deal row ``rows[k]`` with engine seed ``seeds[k]`` (uint64) and dealer ``dealers[k]``, then :func:`refresh` the rows."""
    for k in range(len(rows)):
        deal(S, rows[k], seeds[k], dealers[k], physical)
    refresh(S, rows, ctxs, deadlines, solo_codes, off, obs, mask, current)


@jit
def observe_seats(S: Any, seats: Any, ctxs: Any, off: Any, out: Any) -> None:
    """``out[b]`` := the observation tensor of ``seats[b]`` in deal ``b``."""
    for b in range(S.shape[0]):
        out[b, :] = 0.0
        encode(S, b, seats[b], ctxs, off, out[b])


# ------------------------------------------------------------------ deal

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)


@jit
def shuffle(cards: Any, seed: Any) -> None:
    """Shuffle ``cards`` in place exactly as :func:`stich.core.rng.shuffled` (SplitMix64, unbiased Fisher–Yates)."""
    state = seed
    one = np.uint64(1)
    for i in range(len(cards) - 1, 0, -1):
        n = np.uint64(i + 1)
        limit = _MASK64 - ((_MASK64 % n) + one) % n
        z = np.uint64(0)
        while True:
            state = state + _GAMMA
            z = (state ^ (state >> np.uint64(30))) * _MIX_1
            z = (z ^ (z >> np.uint64(27))) * _MIX_2
            z = z ^ (z >> np.uint64(31))
            if z <= limit:
                break
        j = int(z % n)
        cards[i], cards[j] = cards[j], cards[i]


@jit
def deal(S: Any, b: int, seed: Any, dealer: int, physical: Any) -> None:
    """Row ``b`` := the deal :meth:`stich.games.doppelkopf.game.Doppelkopf.deal` gives for ``seed`` and ``dealer`` (12 cards each)."""
    cards = physical.copy()
    shuffle(cards, seed)
    hands = np.zeros(4, dtype=np.int64)
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        hand = 0
        for index in cards[k * 12 : (k + 1) * 12]:
            f = index % 24
            hand |= (1 << (f + 24)) if (hand >> f) & 1 else (1 << f)
        hands[seat] = hand
    new_deal(S, b, hands, dealer)


# ----------------------------------------------------------------- score

# Eyes a party needs after its own absage, and against the other side's, by level (§7.1); the (e)/(f) marks (§7.2).
_OWN_GOAL = (0, 0, 151, 181, 211)
_AGAINST_GOAL = (0, 0, 90, 60, 30)
_AGAINST_MARK = (0, 0, 120, 90, 60, 30)
DA = 18
CJ = 4


@jit
def goal_reached(party: int, eyes: Any, tricks: Any, level: Any) -> bool:
    """Whether ``party`` reached its goal (§7.1; DDV: Re needs 120 when only Kontra was called)."""
    own = level[party]
    opp = level[1 - party]
    if own >= 2:
        return bool(tricks[1 - party] == 0) if own == 5 else bool(eyes[party] >= _OWN_GOAL[own])
    if opp >= 2:
        return bool(tricks[party] >= 1) if opp == 5 else bool(eyes[party] >= _AGAINST_GOAL[opp])
    if level[RE] == 0 and level[KONTRA] != 0:
        return bool(eyes[party] >= (120 if party == RE else 121))
    return bool(eyes[party] >= (121 if party == RE else 120))


@jit
def own_items(party: int, eyes: Any, tricks: Any, level: Any) -> int:
    """(a) under 90/60/30 and schwarz of the other party, (e)/(f) eyes against its absagen (§7.2)."""
    opp = 1 - party
    points = 0
    for mark in (90, 60, 30):
        if eyes[opp] < mark:
            points += 1
    if tricks[opp] == 0:
        points += 1
    for lv in range(2, 6):
        if level[opp] >= lv and eyes[party] >= _AGAINST_MARK[lv]:
            points += 1
    return points


@jit
def score(S: Any, b: int, ctxs: Any, out: Any) -> None:
    """``out[seat]`` := the score change of finished deal ``b``, as :func:`stich.games.doppelkopf.scoring.evaluate` gives it for DDV.

    Game value (§7.2: won, under 90/60/30, schwarz, Re/Kontra +2 each, every absage level, eyes against absagen) for
    the winner, or each party's own items netted without a winner (A-15); special points (§7.3: gegen die Alten,
    Doppelkopf, Fuchs gefangen, Karlchen) outside solo-scored games; the soloist scores three times (§7.4).
    """
    ctx = ctxs[S[b, CONTRACT]]
    eyes = np.zeros(2, dtype=np.int64)
    tricks = np.zeros(2, dtype=np.int64)
    level = np.zeros(2, dtype=np.int64)
    level[RE] = S[b, LEVEL]
    level[KONTRA] = S[b, LEVEL + 1]
    kind = S[b, KIND]
    solo = kind in (K_SOLO, K_STILLE, K_HOCHZEIT_SOLO)
    specials = 0
    for t in range(S[b, NT]):
        log = LOG + t * LOG_STRIDE
        leader = S[b, log]
        winner = S[b, log + 1]
        taker = S[b, PARTY + winner]
        te = 0
        for i in range(4):
            te += ctx[C_EYES + S[b, log + 2 + i]]
        eyes[taker] += te
        tricks[taker] += 1
        if solo:
            continue
        sign = 1 if taker == RE else -1
        if te >= 40:
            specials += sign
        for i in range(4):
            if S[b, log + 2 + i] == DA and S[b, PARTY + ((leader + i) & 3)] != taker:
                specials += sign
        if t == 11 and S[b, log + 2 + ((winner - leader) & 3)] == CJ:
            specials += sign
    re_won = goal_reached(RE, eyes, tricks, level)
    kontra_won = goal_reached(KONTRA, eyes, tricks, level)
    if re_won or kontra_won:
        w = RE if re_won else KONTRA
        points = 1 + own_items(w, eyes, tricks, level)
        for caller in range(2):
            for lv in range(2, 6):
                if level[caller] >= lv:
                    points += 1
            if level[caller] != 0:
                points += 2
        value = points if w == RE else -points
        if w == KONTRA and not solo:
            specials -= 1  # gegen die Alten
    else:
        value = own_items(RE, eyes, tricks, level) - own_items(KONTRA, eyes, tricks, level)
    value += specials
    factor = 3 if solo else 1
    for s in range(4):
        out[s] = factor * value if S[b, PARTY + s] == RE else -value


@jit
def sample_legal(mask: Any, terminated: Any, state: Any, out: Any) -> None:
    """``out[b]`` := a uniformly random legal action of deal ``b`` (0 for a finished deal), from the splitmix64 ``state``."""
    for b in range(mask.shape[0]):
        out[b] = 0
        if terminated[b]:
            continue
        count = 0
        for a in range(mask.shape[1]):
            count += mask[b, a]
        k = pick_below(next_random(state), count)
        for a in range(mask.shape[1]):
            if mask[b, a]:
                if k == 0:
                    out[b] = a
                    break
                k -= 1
