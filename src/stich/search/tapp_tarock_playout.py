"""Tapp Tarock card play by the heuristic bot's rules, compiled: rollouts as sensible as the ``pimc`` bot's, at kernel speed.

The counterpart of :mod:`stich.search.dobbm_playout` for Tapp Tarock.  The
``pimc`` bot values a card by letting the heuristic bots play the deal out in
each sampled world; through the engine that costs an observation and a
decision per card (about a millisecond a deal from the first card), so at
0.05 s a decision ``pimc`` and the ISMCTS tree get a few dozen play-outs
(docs/decisions/0020-ismcts-rung.md).  :mod:`stich.search._tapp_tarock_policy`
is a line-by-line twin of the card play of
:class:`~stich.bots.tapp_tarock_heuristic.TappTarockHeuristic` on the masks of
the Tarock kernel (:mod:`stich.search.tarock_kernel`), and the differential
tests (tests/search/test_tapp_tarock_playout.py) hold it to the bot's choices
in every position they reach, for every preset the kernel adapter plays.

What each seat may know is read from the state once per position
(:func:`knowledge`), as the bot's ``_view`` reads its observation: the
face-down cards it has not seen (the talon halves and discards, less an
exposed talon's unused half, tarocks shown on discarding, and to the
declarer his own discards; the bot does not count the exposed half the
declarer took as seen), how many hidden cards its odds reckon with (the
bot's ``hidden_out``, which it derives from the contract and the shown
tarocks), and the suits each seat is known to lack from the tricks so far.
A seat's unseen cards are the other hands plus its face-down ones, exactly
the bot's ``_View.unseen``.  Besides the cards, the bot reads whether Pagat
ultimo was announced (the declarer then keeps the Pagat for the last trick)
and the tricks left.

The bot's tie-breaking generator (seeded by the bot's seed and the
decision's position) is never drawn from in card play: every card-play rule
returns a card, so the bot's card is a function of the observation alone.

numba is optional: without it :func:`available` is false, and the
``kernel-heuristic`` rollouts (:class:`~stich.search.tarock_rollout.HeuristicFinish`,
:func:`stich.search.ismcts.make_rollout`) play through the engine with the
heuristic bots instead (the same cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stich.core.tricks import TRUMP
from stich.games.tapp_tarock.pack import N_FACES, ORDER, POINTS
from stich.games.tapp_tarock.state import TappTarockState
from stich.search import tarock_kernel
from stich.search.tarock_kernel import KernelGame, TrickPosition, TrickRules

__all__ = ["SeatKnowledge", "available", "heuristic_card", "heuristic_playouts", "knowledge", "warmup"]

_core: Any = None
_np: Any = None
_shared: Any = None
if tarock_kernel.available():
    import numpy as _numpy

    from stich.search import _policy_core, _tapp_tarock_policy

    _np, _core, _shared = _numpy, _tapp_tarock_policy, _policy_core

ALL_CARDS = (1 << N_FACES) - 1
DISCARDS = 3
"""Cards a talon contract's declarer lays away (§4.1)."""
TALON = 6
"""Cards of the whole talon, which a Solo leaves face down (§4.2)."""


def available() -> bool:
    """Whether the compiled heuristic card play is in use (numba present and not switched off)."""
    return _core is not None


@dataclass(frozen=True)
class SeatKnowledge:
    """Per kernel seat what the heuristic's estimates read besides the hands: see :mod:`stich.search._tapp_tarock_policy`."""

    down: tuple[int, ...]
    """Face-down cards the seat has not seen."""
    dead: tuple[int, ...]
    """Hidden cards its odds reckon with (the bot's ``_View.hidden_out``)."""
    voids: tuple[int, ...]
    """Effective suits (bits 0..3 and :data:`~stich.core.tricks.TRUMP`) the seat is known to lack."""
    ultimo: bool
    """Whether Pagat ultimo was announced (the declarer keeps the Pagat for the last trick)."""


def knowledge(state: TappTarockState, pos: TrickPosition) -> SeatKnowledge:
    """What each kernel seat of ``pos`` (the card play of ``state``) knows, as the bot's ``_view`` reads its observation."""
    in_hands = 0
    for hand in state.hands:
        in_hands |= hand
    played = state.played_mask()
    face_down = ALL_CARDS & ~in_hands & ~played
    seen_by_all = state.shown
    exposed = state.exposed and state.taken >= 0
    if exposed:
        seen_by_all |= state.talon[1 - state.taken]  # the half left lying, seen by everybody
    contract = state.contract
    solo = contract is not None and not contract.talon
    voids = {seat: 0 for seat in pos.seats}
    tricks = [(seats, cards) for seats, cards, _winner in state.tricks]
    if state.trick_cards:
        tricks.append((tuple(state.trick_seats), tuple(state.trick_cards)))
    for seats, cards in tricks:
        led = ORDER.eff[cards[0]]
        for seat, card in zip(seats[1:], cards[1:], strict=False):
            eff = ORDER.eff[card]
            if eff != led:
                voids[seat] |= 1 << led
                if eff != TRUMP:
                    voids[seat] |= 1 << TRUMP
    down, dead = [], []
    for seat in pos.seats:
        known = seen_by_all | (state.discards if seat == state.declarer else 0)
        down.append(face_down & ~known)
        hidden = 0 if exposed else TALON if solo else DISCARDS if contract is not None else 0
        if contract is not None and not solo and seat != state.declarer:
            hidden += DISCARDS - state.shown.bit_count()
        dead.append(hidden)
    return SeatKnowledge(tuple(down), tuple(dead), tuple(voids[seat] for seat in pos.seats), state.announced[0])


_CTX: dict[tuple[object, ...], Any] = {}


def _ctx(pos: TrickPosition, base: Any) -> Any:
    """The kernel's ``ctx`` of ``pos`` with the policy's ``above`` and face-value tables appended (cached)."""
    key = (pos.rules, len(pos.seats), pos.side)
    found = _CTX.get(key)
    if found is None:
        core, np, shared = _core, _np, _shared
        rules = pos.rules
        if max(rules.strength, default=0) >= shared.STRIDE:
            raise ValueError(f"card strengths must lie below {shared.STRIDE}")
        if len(rules.eff) != len(POINTS):
            raise ValueError(f"the Tapp Tarock policy needs the {len(POINTS)} cards of its pack, not {len(rules.eff)}")
        found = np.zeros(core.POLICY_CTX_SIZE, dtype=np.int64)
        found[: len(base)] = base
        for suit in range(TRUMP + 1):
            for strength in range(shared.STRIDE):
                mask = 0
                for card, (eff, s) in enumerate(zip(rules.eff, rules.strength, strict=True)):
                    if eff == suit and s > strength:
                        mask |= 1 << card
                found[shared.C_ABOVE + suit * shared.STRIDE + strength] = mask
        for card, points in enumerate(POINTS):
            found[core.C_POINTS + card] = points
        _CTX[key] = found
    return found


def _arrays(know: SeatKnowledge) -> tuple[Any, Any, Any]:
    np = _np
    return np.array(know.down, dtype=np.int64), np.array(know.dead, dtype=np.int64), np.array(know.voids, dtype=np.int64)


def _declarer(pos: TrickPosition) -> int:
    if pos.side.bit_count() != 1 or len(pos.seats) != 3:
        raise ValueError(f"Tapp Tarock has one declarer among three active seats: side mask {pos.side:#b}, {len(pos.seats)} seats")
    return pos.side.bit_length() - 1


def _need_core() -> None:
    if _core is None:
        raise RuntimeError("the compiled Tapp Tarock heuristic needs numba (pip install stich[fast]) and STICH_NO_NUMBA unset")


def heuristic_card(pos: TrickPosition, know: SeatKnowledge) -> int:
    """The card the heuristic plays for the kernel seat to move in ``pos`` (which must have a choice).

    Raises :class:`RuntimeError` without the compiled kernel (:func:`available`).
    """
    _need_core()
    arrays = tarock_kernel.kernel_arrays(pos)
    down, dead, voids = _arrays(know)
    ctx = _ctx(pos, arrays.ctx)
    return int(
        _core.heuristic_card(
            ctx,
            arrays.hands,
            arrays.trick,
            len(pos.trick),
            pos.leader,
            down,
            dead,
            voids,
            _declarer(pos),
            pos.tricks_left,
            int(know.ultimo),
        )
    )


def heuristic_playouts(pos: TrickPosition, n: int, seed: int, know: SeatKnowledge, *, epsilon: float = 0.0) -> list[KernelGame]:
    """``n`` games from ``pos`` played out by the heuristic's card play (:class:`~stich.search.tarock_kernel.KernelGame` each).

    With ``epsilon`` above 0 each card with a choice is, with that
    probability, a uniformly random legal one instead (``seed`` fixes the
    draws); with 0 every game is the same.  Raises :class:`RuntimeError`
    without the compiled kernel.
    """
    _need_core()
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must lie in [0, 1], got {epsilon}")
    _declarer(pos)
    arrays = tarock_kernel.kernel_arrays(pos)
    down, dead, voids = _arrays(know)
    out = _np.zeros((n, 4), dtype=_np.int64)
    threshold = min(int(epsilon * (1 << 32)), 1 << 32)
    _core.heuristic_playouts(
        arrays.hands,
        arrays.trick,
        len(pos.trick),
        pos.leader,
        pos.tricks_left,
        _ctx(pos, arrays.ctx),
        n,
        _np.uint64(seed % (1 << 64)),
        threshold,
        down,
        dead,
        voids,
        int(know.ultimo),
        out,
    )
    return [KernelGame(int(row[0]), int(row[1]), int(row[2]), int(row[3])) for row in out]


def warmup() -> bool:
    """Compile (or load from numba's cache) the policy now, not in a timed decision; ``False`` without numba."""
    if _core is None:
        return False
    tarock_kernel.warmup()
    rules = TrickRules.of(ORDER, tuple(3 * p - 2 for p in POINTS))
    # Three tricks left: the Pagat, Mond and Sküs against clubs and spades (faces 22.. and 30..).
    hands = ((1 << 0) | (1 << 20) | (1 << 21), (1 << 22) | (1 << 23) | (1 << 30), (1 << 24) | (1 << 31) | (1 << 32))
    pos = TrickPosition(rules, (0, 1, 2), 0b001, hands, (), 0, 3)
    know = SeatKnowledge((0, 0, 0), (0, 0, 0), (0, 0, 0), True)
    heuristic_card(pos, know)
    heuristic_playouts(pos, 1, 0, know, epsilon=0.5)
    return True
