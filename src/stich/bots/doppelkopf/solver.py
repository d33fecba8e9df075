"""Exact full-information solver for the Doppelkopf play phase (pure-Python reference).

With every hand known, the rest of a deal's trick play is a two-party game
of perfect information: the Re party wants as many eyes (card points) as it
can get, the Kontra party as few for Re (the two always share the 240
eyes).  :func:`solve` gives, for each card the player to move may play, the
eyes Re ends the deal with when both parties play perfectly from there on;
:func:`value` gives the value of the position; :func:`reaches` answers the
null-window question "does Re reach at least X eyes?".  Announcements are
not part of the search: calls already made stay as they are and no new ones
are considered (they change the score, never the eyes).

The search is alpha-beta (fail-soft) over single cards, with

* a transposition table keyed on (remaining hands, leader, trick so far)
  holding a lower and an upper bound of Re's future eyes;
* twin merging: the two copies of a face are one move (the engine plays a
  face, too), and hands are kept in a *count form* (bit ``f`` = at least
  one copy of face ``f``, bit ``f + 24`` = both copies) so that positions
  that differ only in which copy is where share one table entry;
* equivalent-card merging: two cards of the mover with the same effective
  suit and the same eyes are one move when no card held by another player or
  lying in the current trick ranks between them or equal to either of them
  (see :func:`equivalent_moves` for why that is exact);
* move ordering: high trumps first when leading; when following, cheap
  winners first against an opponent and fat cards first onto a partner.

:func:`minimax` is the slow, obviously correct check: it drives the engine
itself (``clone`` + ``apply``) through every line of play without pruning
and reads Re's eyes from the engine's own evaluation.  Use it on small
endgames (three tricks or fewer).

Positions come from a :class:`~stich.games.doppelkopf.state.DoppelkopfState`
in phase ``play`` through :func:`position_of`; the compiled kernel
(:mod:`stich.bots.doppelkopf.kernel`) reads the same :class:`PlayPosition`.
Weddings whose partner is not found yet are refused (the parties, and with
them the objective of each player, are not known until the clarification
trick).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from stich.games.doppelkopf import actions as A
from stich.games.doppelkopf.contracts import EYES, FACE_MASK, H10, N_FACES, TRUMP
from stich.games.doppelkopf.state import PLAY, RE, DoppelkopfState

if TYPE_CHECKING:
    from stich.games.doppelkopf.game import Doppelkopf

__all__ = [
    "DULLE_ALWAYS",
    "DULLE_EXCEPT_LAST",
    "DULLE_OFF",
    "PlayPosition",
    "Solver",
    "canonical_hand",
    "equivalent_moves",
    "minimax",
    "position_of",
    "random_play_position",
    "reaches",
    "solve",
    "value",
]

DULLE_OFF, DULLE_ALWAYS, DULLE_EXCEPT_LAST = 0, 1, 2
"""How a second hearts ten fares against the first in one trick: it never wins
(DDV), it always wins, or it wins except in the last trick."""

_SOLO_KINDS = ("solo", "stille_hochzeit", "hochzeit_solo")
_SEATS = 4
_INF = 1 << 20


def canonical_hand(mask: int) -> int:
    """Count form of a physical hand mask: bit ``f`` = one copy or more of face ``f``, bit ``f + 24`` = both.

    >>> canonical_hand(1 << 24 | 1 << 3) == (1 << 0 | 1 << 3)
    True
    """
    low = mask & FACE_MASK
    high = mask >> N_FACES
    return low | high | (low & high) << N_FACES


@dataclass(frozen=True)
class PlayPosition:
    """A play-phase position with full information, in the solver's terms.

    Seats are renumbered 0..3 in playing order (``seats[i]`` is the table
    seat of player ``i``; at a five-player table the idle dealer is left
    out).  ``hands`` are in count form (:func:`canonical_hand`).  ``trick``
    lists the faces played so far to the current trick, starting with
    ``leader``'s.  ``tricks_left`` counts the tricks still to finish,
    the current one included.  ``re_eyes`` is what Re has already won.
    ``eff`` and ``strength`` are the card order of the game type (per face:
    effective suit 0..3 or :data:`TRUMP`, strength within it).
    """

    seats: tuple[int, ...]
    hands: tuple[int, ...]
    re: int
    """Bit ``i`` set when player ``i`` belongs to the Re party."""
    leader: int
    trick: tuple[int, ...]
    tricks_left: int
    re_eyes: int
    eff: tuple[int, ...]
    strength: tuple[int, ...]
    must_overtrump: bool = False
    dulle: int = DULLE_OFF

    def __post_init__(self) -> None:
        if len(self.hands) != _SEATS or len(self.seats) != _SEATS:
            raise ValueError("a position has four active players")
        if not 0 <= self.leader < _SEATS or len(self.trick) >= _SEATS or not 1 <= self.tricks_left <= 12:
            raise ValueError(f"bad leader {self.leader}, trick {self.trick} or tricks_left {self.tricks_left}")
        if len(self.eff) != N_FACES or len(self.strength) != N_FACES or self.dulle not in (DULLE_OFF, DULLE_ALWAYS, DULLE_EXCEPT_LAST):
            raise ValueError("eff and strength need one entry per face; dulle is DULLE_OFF, DULLE_ALWAYS or DULLE_EXCEPT_LAST")

    @property
    def to_move(self) -> int:
        """Player (0..3) to play the next card."""
        return (self.leader + len(self.trick)) % _SEATS

    @property
    def remaining_eyes(self) -> int:
        """Eyes still to be won: the hands plus the cards of the current trick."""
        total = sum(EYES[f] for f in self.trick)
        for hand in self.hands:
            total += sum(EYES[f] * ((hand >> f & 1) + (hand >> (f + N_FACES) & 1)) for f in range(N_FACES))
        return total

    def key(self, f: int, led: int) -> int:
        """Strength of face ``f`` in a trick asking for ``led``: trumps above the suit led; other suits -1."""
        e = self.eff[f]
        if e == TRUMP:
            return 100 + self.strength[f]
        return self.strength[f] if e == led else -1

    def dulle_wins(self, tricks_left: int) -> bool:
        """Whether a second hearts ten beats the first when ``tricks_left`` tricks remain (this one included)."""
        return self.dulle == DULLE_ALWAYS or (self.dulle == DULLE_EXCEPT_LAST and tricks_left != 1)

    def trick_state(self, trick: tuple[int, ...], tricks_left: int) -> tuple[int, int, int]:
        """``(led, best position, best key)`` of a trick that is not empty."""
        led = self.eff[trick[0]]
        best_pos, best_key = 0, self.key(trick[0], led)
        for pos in range(1, len(trick)):
            f = trick[pos]
            k = self.key(f, led)
            if k > best_key or (k == best_key and f == H10 and self.dulle_wins(tricks_left)):
                best_pos, best_key = pos, k
        return led, best_pos, best_key

    def legal(self, hand: int, trick: tuple[int, ...], tricks_left: int) -> int:
        """Faces (24-bit mask) of count-form ``hand`` that may be played to ``trick`` (dossier §6.1)."""
        if not trick:
            return hand & FACE_MASK
        led, _pos, best_key = self.trick_state(trick, tricks_left)
        follow = self.follow_faces(led)
        faces = hand & FACE_MASK
        same = faces & follow
        if not self.must_overtrump:
            return same or faces
        if same:
            return self._beating(same, led, best_key) or same
        trumps = faces & self.follow_faces(TRUMP)
        return (faces & ~trumps) | (self._beating(trumps, led, best_key) or trumps)

    def follow_faces(self, suit: int) -> int:
        """Faces of effective suit ``suit``."""
        return self._follow[suit]

    @cached_property
    def _follow(self) -> tuple[int, ...]:
        return tuple(sum(1 << f for f in range(N_FACES) if self.eff[f] == s) for s in range(5))

    def _beating(self, faces: int, led: int, best_key: int) -> int:
        """[VAR Überstechen] the faces that beat ``best_key`` strictly."""
        return sum(1 << f for f in range(N_FACES) if faces >> f & 1 and self.key(f, led) > best_key)


def position_of(state: DoppelkopfState) -> PlayPosition:
    """The :class:`PlayPosition` of a deal in phase ``play``.

    Raises :class:`ValueError` outside the play phase and in a wedding whose
    partner is not known yet.
    """
    if state.phase != PLAY:
        raise ValueError(f"the solver needs a deal in the play phase, not in {state.phase_name}")
    if not state.clarified:
        raise ValueError("the wedding partner is not known yet: the parties are open until the clarification trick")
    opts = state.game.options
    seats = tuple(state.active)
    index = {seat: i for i, seat in enumerate(seats)}
    leader_seat = state.trick_seats[0] if state.trick_seats else state.to_move
    re_eyes = 0
    for _seats, cards, winner in state.tricks:
        if state.party[winner] == RE:
            re_eyes += sum(EYES[c % N_FACES] for c in cards)
    order = state.order
    dulle = DULLE_OFF
    solo = state.kind in _SOLO_KINDS
    # The solver and its kernels know the second-Dulle rule for the hearts tens only; a colour solo whose Dullen
    # moved to the short suit (decision 0027) is searched with the first Dulle winning (a bot approximation).
    if opts.second_dulle_beats_first and order.dulle == H10 and order.eff[H10] == TRUMP and (not solo or opts.second_dulle_in_solo):
        dulle = DULLE_EXCEPT_LAST if opts.second_dulle_except_last_trick else DULLE_ALWAYS
    return PlayPosition(
        seats=seats,
        hands=tuple(canonical_hand(state.hands[s]) for s in seats),
        re=sum(1 << i for i, s in enumerate(seats) if state.party[s] == RE),
        leader=index[leader_seat],
        trick=tuple(c % N_FACES for c in state.trick_cards),
        tricks_left=state.n_tricks - len(state.tricks),
        re_eyes=re_eyes,
        eff=tuple(order.eff),
        strength=tuple(order.strength),
        must_overtrump=opts.must_overtrump,
        dulle=dulle,
    )


def _as_position(position: PlayPosition | DoppelkopfState) -> PlayPosition:
    return position if isinstance(position, PlayPosition) else position_of(position)


def suit_orders(pos: PlayPosition) -> tuple[tuple[int, ...], ...]:
    """Per effective suit 0..4: its faces, strongest first."""
    return tuple(tuple(sorted((f for f in range(N_FACES) if pos.eff[f] == s), key=lambda f: -pos.strength[f])) for s in range(5))


def equivalent_moves(pos: PlayPosition, legal: int, foreign: int, orders: tuple[tuple[int, ...], ...] | None = None) -> list[int]:
    """The legal faces worth trying: one per class of equivalent cards, strongest first per suit.

    ``legal`` is the mover's legal faces, ``foreign`` the faces held by the
    other players or lying in the current trick.  Going down one effective
    suit, a legal face is merged into the mover's next stronger legal face
    when both have the same eyes and no foreign face lies between them or on
    either of them.  Why that is exact: swap the two cards in the mover's
    hand for the rest of the deal.  Every card another player can ever play
    against them ranks above both or below both, so every comparison, every
    duty to follow or to overtrump and every trick winner come out the same,
    and the eyes are equal; the swap maps each line of play onto one with the
    same outcome.  (A second copy of either face elsewhere counts as foreign,
    so ties and the Dulle rule never see the difference.)
    """
    if orders is None:
        orders = suit_orders(pos)
    moves: list[int] = []
    for suit in range(5):
        faces = orders[suit]
        prev = -1
        blocked = True
        for f in faces:
            bit = 1 << f
            is_foreign = bool(foreign & bit)
            if legal & bit:
                if prev < 0 or blocked or is_foreign or EYES[f] != EYES[prev]:
                    moves.append(f)
                prev = f
                blocked = is_foreign
            elif is_foreign:
                blocked = True
    return moves


class Solver:
    """Alpha-beta with a transposition table over one :class:`PlayPosition`.

    The table is kept between calls on the same solver, so asking
    :meth:`reaches` several times or :meth:`solve` after :meth:`value` reuses
    earlier work.  ``nodes`` counts the positions the search entered.
    ``merge=False`` switches equivalent-card merging off (twins stay merged:
    the engine's moves are faces).
    """

    def __init__(self, position: PlayPosition | DoppelkopfState, *, merge: bool = True) -> None:
        self.position = pos = _as_position(position)
        self.merge = merge
        self.nodes = 0
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self._orders = suit_orders(pos)
        self._rem = pos.remaining_eyes

    # --------------------------------------------------------------- public
    def legal_faces(self) -> list[int]:
        """Faces the player to move may play, ascending."""
        pos = self.position
        legal = pos.legal(pos.hands[pos.to_move], pos.trick, pos.tricks_left)
        return [f for f in range(N_FACES) if legal >> f & 1]

    def solve(self) -> dict[int, int]:
        """Re's final eyes after each legal face (the engine's ``play`` code) with perfect play afterwards."""
        pos = self.position
        hands = list(pos.hands)
        p = pos.to_move
        legal = pos.legal(hands[p], pos.trick, pos.tricks_left)
        results: dict[int, int] = {}
        for f in self._moves(hands, p, legal, pos.trick):
            v = self._child(hands, p, f, pos.leader, pos.trick, pos.tricks_left, self._rem, -1, self._rem + 1)
            results[f] = pos.re_eyes + v
        if self.merge:
            self._fill_merged(results, legal)
        return dict(sorted(results.items()))

    def value(self) -> int:
        """Re's final eyes with perfect play by both parties."""
        pos = self.position
        return pos.re_eyes + self._search(list(pos.hands), pos.leader, pos.trick, pos.tricks_left, self._rem, -1, self._rem + 1)

    def reaches(self, target: int) -> bool:
        """Whether Re ends with at least ``target`` eyes against perfect play (a null-window search)."""
        pos = self.position
        need = target - pos.re_eyes
        if need <= 0:
            return True
        if need > self._rem:
            return False
        return self._search(list(pos.hands), pos.leader, pos.trick, pos.tricks_left, self._rem, need - 1, need) >= need

    # -------------------------------------------------------------- search
    def _fill_merged(self, results: dict[int, int], legal: int) -> None:
        """Give each merged face the value of the stronger face it was merged into."""
        for suit in range(5):
            last = -1
            for f in self._orders[suit]:
                if legal >> f & 1:
                    if f not in results:
                        results[f] = results[last]
                    last = f

    def _moves(self, hands: list[int], p: int, legal: int, trick: tuple[int, ...]) -> list[int]:
        pos = self.position
        if self.merge:
            foreign = 0
            for q in range(_SEATS):
                if q != p:
                    foreign |= hands[q]
            foreign &= FACE_MASK
            for f in trick:
                foreign |= 1 << f
            moves = equivalent_moves(pos, legal, foreign, self._orders)
        else:
            moves = [f for f in range(N_FACES) if legal >> f & 1]
        return self._ordered(moves, p, trick)

    def _ordered(self, moves: list[int], p: int, trick: tuple[int, ...]) -> list[int]:
        """Move ordering (see the module docstring); ties keep face order."""
        pos = self.position
        if not trick:
            return sorted(moves, key=lambda f: -pos.key(f, pos.eff[f]))
        led, best_pos, best_key = pos.trick_state(trick, 0)
        winner = (p - len(trick) + best_pos) % _SEATS
        partner_wins = (pos.re >> winner & 1) == (pos.re >> p & 1)

        def score(f: int) -> int:
            k = pos.key(f, led)
            if partner_wins:
                return EYES[f] * 64 - k
            if k > best_key:
                return 10_000 - k if len(trick) < 3 else 10_000 + EYES[f] * 64 - k
            return -EYES[f] * 64 - k

        return sorted(moves, key=lambda f: -score(f))

    def _child(
        self, hands: list[int], p: int, f: int, leader: int, trick: tuple[int, ...], tricks_left: int, rem: int, alpha: int, beta: int
    ) -> int:
        """Play face ``f`` for player ``p`` and search on: Re's future eyes, this trick included."""
        hand = hands[p]
        bit = 1 << (f + N_FACES) if hand >> (f + N_FACES) & 1 else 1 << f
        hands[p] = hand ^ bit
        try:
            new_trick = (*trick, f)
            if len(new_trick) < _SEATS:
                return self._search(hands, leader, new_trick, tricks_left, rem, alpha, beta)
            pos = self.position
            _led, best_pos, _key = pos.trick_state(new_trick, tricks_left)
            winner = (leader + best_pos) % _SEATS
            eyes = EYES[new_trick[0]] + EYES[new_trick[1]] + EYES[new_trick[2]] + EYES[new_trick[3]]
            gain = eyes if pos.re >> winner & 1 else 0
            if tricks_left == 1:
                return gain
            return gain + self._search(hands, winner, (), tricks_left - 1, rem - eyes, alpha - gain, beta - gain)
        finally:
            hands[p] = hand

    def _search(self, hands: list[int], leader: int, trick: tuple[int, ...], tricks_left: int, rem: int, alpha: int, beta: int) -> int:
        """Re's future eyes (fail-soft within ``alpha``, ``beta``); ``rem`` = eyes still in play."""
        self.nodes += 1
        if alpha >= rem:
            return rem
        if beta <= 0:
            return 0
        key = (hands[0], hands[1], hands[2], hands[3], leader, *trick)
        entry = self.table.get(key)
        lo, hi = 0, rem
        if entry is not None:
            lo, hi = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        pos = self.position
        p = (leader + len(trick)) % _SEATS
        legal = pos.legal(hands[p], trick, tricks_left)
        maximise = bool(pos.re >> p & 1)
        a, b = alpha, beta
        best = -_INF if maximise else _INF
        for f in self._moves(hands, p, legal, trick):
            v = self._child(hands, p, f, leader, trick, tricks_left, rem, a, b)
            if maximise:
                if v > best:
                    best = v
                    a = max(a, v)
            elif v < best:
                best = v
                b = min(b, v)
            if a >= b:
                break
        if best <= alpha:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.table[key] = (lo, hi)
        return best


# ------------------------------------------------------------------ helpers


def solve(position: PlayPosition | DoppelkopfState) -> dict[int, int]:
    """Re's final eyes after each legal card of the player to move, with best play by both parties.

    Keys are faces, i.e. the engine's ``play`` action codes.
    """
    return Solver(position).solve()


def value(position: PlayPosition | DoppelkopfState) -> int:
    """Re's final eyes with best play by both parties."""
    return Solver(position).value()


def reaches(position: PlayPosition | DoppelkopfState, target: int) -> bool:
    """Whether Re ends with at least ``target`` eyes against best play."""
    return Solver(position).reaches(target)


# ------------------------------------------------------------ slow check


def _engine_value(state: DoppelkopfState) -> int:
    if state.is_terminal():
        return int(state.result().breakdown["eyes"]["re"])
    values = []
    for code in state.legal_codes():
        if code < N_FACES:
            child = state.clone()
            child.apply(code)
            values.append(_engine_value(child))
    return max(values) if state.party[state.to_move] == RE else min(values)


def minimax(state: DoppelkopfState) -> dict[int, int]:
    """Slow, obviously correct :func:`solve`: full minimax through the engine, no pruning, no tables.

    Every line of play is played with ``clone()`` and ``apply()``; leaves are
    read from the engine's own evaluation (``result().breakdown["eyes"]``).
    Announcements are skipped.  Exponential: keep it to three tricks or fewer.
    """
    position_of(state)  # same preconditions as the solver
    results: dict[int, int] = {}
    for code in state.legal_codes():
        if code < N_FACES:
            child = state.clone()
            child.apply(code)
            results[code] = _engine_value(child)
    return results


def _random_deal_to_play(game: Doppelkopf, rng: random.Random, seed: int, healthy: bool) -> DoppelkopfState | None:
    state = game.new_state(seed=seed, dealer=seed % game.num_seats)
    while state.phase != PLAY and not state.is_terminal():
        codes = state.legal_codes()
        state.apply(A.GESUND if healthy and A.GESUND in codes else rng.choice(codes))
    return state if state.phase == PLAY else None


def random_play_position(
    game: Doppelkopf, seed: int, *, tricks_left: int, cards_in_trick: int = 0, announce: float = 0.1, healthy: bool = False
) -> DoppelkopfState:
    """A seeded play-phase position for tests and benchmarks.

    Deals with ``seed``, plays the game finding at random (so solos,
    weddings and, where enabled, poverty all occur; most random game findings
    end in a solo) or, with ``healthy``, has every player say "gesund" (a
    normal game, or a silent wedding), then plays random cards (and, with
    probability ``announce``, an announcement when one is open) until
    ``tricks_left`` tricks remain and ``cards_in_trick`` cards lie in the
    current trick.  Deals that are thrown in or whose wedding is not yet
    clarified at that point are skipped for the next seed in a fixed sequence.
    """
    for attempt in _attempts(seed):
        rng = random.Random(attempt)
        state = _random_deal_to_play(game, rng, attempt, healthy)
        if state is None:
            continue
        target = state.n_tricks - tricks_left
        while state.phase == PLAY and (len(state.tricks) < target or len(state.trick_cards) < cards_in_trick):
            codes = state.legal_codes()
            cards = [c for c in codes if c < N_FACES]
            calls = [c for c in codes if c >= N_FACES]
            state.apply(rng.choice(calls) if calls and rng.random() < announce else rng.choice(cards))
        if state.phase == PLAY and state.clarified:
            return state
    raise AssertionError("unreachable")  # pragma: no cover


def _attempts(seed: int) -> Iterator[int]:
    k = 0
    while True:
        yield seed * 1_000_003 + k
        k += 1
