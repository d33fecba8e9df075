"""Dobbm card play by the heuristic bot's rules, compiled: rollouts as sensible as the ``pimc`` bot's, at kernel speed.

The ``pimc`` bot values a card by letting the heuristic bots play the deal
out in each sampled world, the ISMCTS bot by random or greedy kernel games.
Through the engine a heuristic play-out costs an observation and a decision
per card (2-3 ms a deal), so a tree would get a dozen of them per decision;
compiled, it costs about 14 µs (bench/bench_tarock_kernel.py), and a tree
may value every leaf as ``pimc`` values a world (``rollout=kernel-heuristic``;
against ``pimc`` it did not pay, docs/strength.md run ``14-others-eager``).
:mod:`stich.search._dobbm_policy` is a line-by-line twin of the card play of
:class:`~stich.bots.dobbm_heuristic.DobbmHeuristic` on the masks of the
Tarock kernel (:mod:`stich.search.tarock_kernel`), and the differential
tests hold it to the bot's choices in every position they reach.

What each seat may know is read from the state once per position
(:func:`knowledge`): the face-down cards it has not seen (the Dobb, or a
Dobbm declarer's discards to everybody but him) and the suits each seat is
known to lack from the tricks so far; a seat's unseen cards are then the
other hands plus its face-down ones, exactly the bot's ``_View``.

numba is optional: without it :func:`available` is false, and the
``kernel-heuristic`` rollout (:func:`stich.search.ismcts.make_rollout`)
plays through the engine with the heuristic bots instead (the same cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stich.core.tricks import TRUMP
from stich.games.dobbm.pack import CONTRACTS, N_FACES, ORDER
from stich.games.dobbm.state import DobbmState
from stich.search import tarock_kernel
from stich.search.tarock_kernel import KernelGame, TrickPosition, TrickRules

__all__ = ["SeatKnowledge", "available", "heuristic_card", "heuristic_playouts", "knowledge", "warmup"]

_core: Any = None
_np: Any = None
_shared: Any = None
if tarock_kernel.available():
    import numpy as _numpy

    from stich.search import _dobbm_policy, _policy_core

    _np, _core, _shared = _numpy, _dobbm_policy, _policy_core

ALL_CARDS = (1 << N_FACES) - 1


def available() -> bool:
    """Whether the compiled heuristic card play is in use (numba present and not switched off)."""
    return _core is not None


@dataclass(frozen=True)
class SeatKnowledge:
    """Per kernel seat what the heuristic's estimates read besides the hands: see :mod:`stich.search._dobbm_policy`."""

    down: tuple[int, ...]
    """Face-down cards the seat has not seen."""
    dead: tuple[int, ...]
    """Face-down cards its estimates reckon with (0 or 4, the bot's ``_View.dead``)."""
    voids: tuple[int, ...]
    """Effective suits (bits 0..3 and :data:`~stich.core.tricks.TRUMP`) the seat is known to lack."""


def knowledge(state: DobbmState, pos: TrickPosition) -> SeatKnowledge:
    """What each kernel seat of ``pos`` (the card play of ``state``) knows, as the bot's ``build_view`` reads its observation."""
    in_hands = 0
    for hand in state.hands:
        in_hands |= hand
    played = 0
    for _seats, cards, _winner in state.tricks:
        for card in cards:
            played |= 1 << card
    for card in state.trick_cards:
        played |= 1 << card
    face_down = ALL_CARDS & ~in_hands & ~played
    contract = state.contract
    exchanged = contract is not None and CONTRACTS[contract].exchanges
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
        known = state.discards if exchanged and seat == state.declarer else 0
        down.append(face_down & ~known)
        dead.append(4 if state.talon or (state.discards and not known) else 0)
    return SeatKnowledge(tuple(down), tuple(dead), tuple(voids[seat] for seat in pos.seats))


_CTX: dict[tuple[object, ...], Any] = {}


def _ctx(pos: TrickPosition, base: Any) -> Any:
    """The kernel's ``ctx`` of ``pos`` with the policy's ``above`` table appended (cached per rules, seats and side)."""
    key = (pos.rules, len(pos.seats), pos.side)
    found = _CTX.get(key)
    if found is None:
        core, np, shared = _core, _np, _shared
        rules = pos.rules
        if max(rules.strength, default=0) >= shared.STRIDE:
            raise ValueError(f"card strengths must lie below {shared.STRIDE}")
        found = np.zeros(core.POLICY_CTX_SIZE, dtype=np.int64)
        found[: len(base)] = base
        for suit in range(TRUMP + 1):
            for strength in range(shared.STRIDE):
                mask = 0
                for card, (eff, s) in enumerate(zip(rules.eff, rules.strength, strict=True)):
                    if eff == suit and s > strength:
                        mask |= 1 << card
                found[shared.C_ABOVE + suit * shared.STRIDE + strength] = mask
        _CTX[key] = found
    return found


def _arrays(know: SeatKnowledge) -> tuple[Any, Any, Any]:
    np = _np
    return np.array(know.down, dtype=np.int64), np.array(know.dead, dtype=np.int64), np.array(know.voids, dtype=np.int64)


def _declarer(pos: TrickPosition) -> int:
    if pos.side.bit_count() != 1:
        raise ValueError(f"Dobbm has one declarer: side mask {pos.side:#b}")
    return pos.side.bit_length() - 1


def heuristic_card(pos: TrickPosition, know: SeatKnowledge) -> int:
    """The card the heuristic plays for the kernel seat to move in ``pos`` (which must have a choice).

    Raises :class:`RuntimeError` without the compiled kernel (:func:`available`).
    """
    if _core is None:
        raise RuntimeError("the compiled Dobbm heuristic needs numba (pip install stich[fast]) and STICH_NO_NUMBA unset")
    arrays = tarock_kernel.kernel_arrays(pos)
    down, dead, voids = _arrays(know)
    ctx = _ctx(pos, arrays.ctx)
    return int(
        _core.heuristic_card(
            ctx, arrays.hands, arrays.trick, len(pos.trick), pos.leader, down, dead, voids, _declarer(pos), pos.tricks_left, 0
        )
    )


def heuristic_playouts(pos: TrickPosition, n: int, seed: int, know: SeatKnowledge, *, epsilon: float = 0.0) -> list[KernelGame]:
    """``n`` games from ``pos`` played out by the heuristic's card play (:class:`~stich.search.tarock_kernel.KernelGame` each).

    With ``epsilon`` above 0 each card with a choice is, with that
    probability, a uniformly random legal one instead (``seed`` fixes the
    draws); with 0 every game is the same.  Raises :class:`RuntimeError`
    without the compiled kernel.
    """
    if _core is None:
        raise RuntimeError("the compiled Dobbm heuristic needs numba (pip install stich[fast]) and STICH_NO_NUMBA unset")
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
        0,
        out,
    )
    return [KernelGame(int(row[0]), int(row[1]), int(row[2]), int(row[3])) for row in out]


def warmup() -> bool:
    """Compile (or load from numba's cache) the policy now, not in a timed decision; ``False`` without numba.

    The first call in a process otherwise compiles during a search: 7.9 s
    for one decision of a 0.025 s match (run ``14-others-eager``,
    docs/strength.md).
    """
    if _core is None:
        return False
    tarock_kernel.warmup()
    follow = (0b11, 0b1100, 0, 0, 0b110000, 0)
    rules = TrickRules((0, 0, 1, 1, TRUMP, TRUMP), (2, 1, 2, 1, 2, 1), (3, 0, 3, 0, 1, 1), follow)
    pos = TrickPosition(rules, (0, 1), 0b01, (0b010101, 0b101010), (), 0, 3)
    know = SeatKnowledge((0, 0), (0, 0), (0, 0))
    heuristic_card(pos, know)
    heuristic_playouts(pos, 1, 0, know, epsilon=0.5)
    return True
