"""What the compiled heuristic card plays share on the Python side: the seats' knowledge, the policy ``ctx``, the calls.

:mod:`stich.bots.dobbm.playout` and :mod:`stich.bots.tapp_tarock.playout`
read each game's knowledge from its state and call its compiled policy
(:mod:`stich.bots.dobbm.policy`, :mod:`stich.bots.tapp_tarock.policy`,
both built on :mod:`stich.kernels.policy_core`); what is the same for every
game is here: the suits a seat is known to lack, the face-down cards, the
``above`` table of the policy's ``ctx``, and the checked calls of the
compiled ``heuristic_card`` and ``heuristic_playouts``.

Without numba (:func:`stich.bots.tarock_family.kernel.available` false) the module
still imports; only the functions that build arrays need numpy, and the game
modules call them only with their compiled policy present.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from stich.bots.tarock_family import kernel as tarock_kernel
from stich.bots.tarock_family.kernel import KernelGame, TrickPosition, TrickRules
from stich.core.tricks import TRUMP

__all__ = [
    "CardPlay",
    "CtxCache",
    "CtxOf",
    "SeatKnowledge",
    "compiled_card",
    "compiled_playouts",
    "face_down",
    "known_voids",
    "policy_ctx",
    "require",
]

_np: Any = None
_shared: Any = None
if tarock_kernel.available():
    import numpy as _numpy

    from stich.kernels import policy_core as _policy_core

    _np, _shared = _numpy, _policy_core


class CardPlay(Protocol):
    """The parts of a Tarock-family state in card play that the knowledge reads."""

    @property
    def hands(self) -> Sequence[int]: ...

    @property
    def tricks(self) -> Sequence[tuple[Sequence[int], Sequence[int], int]]: ...

    @property
    def trick_seats(self) -> Sequence[int]: ...

    @property
    def trick_cards(self) -> Sequence[int]: ...

    def played_mask(self) -> int: ...


@dataclass(frozen=True)
class SeatKnowledge:
    """Per kernel seat what a heuristic's estimates read besides the hands (see the game's compiled policy module)."""

    down: tuple[int, ...]
    """Face-down cards the seat has not seen."""
    dead: tuple[int, ...]
    """Hidden cards its estimates reckon with (Dobbm: the bot's ``_View.dead``, 0 or 4; Tapp Tarock: ``_View.hidden_out``)."""
    voids: tuple[int, ...]
    """Effective suits (bits 0..3 and :data:`~stich.core.tricks.TRUMP`) the seat is known to lack."""


def face_down(state: CardPlay, all_cards: int) -> int:
    """Cards of the pack (mask ``all_cards``) neither in a hand nor played: the talon, the discards."""
    in_hands = 0
    for hand in state.hands:
        in_hands |= hand
    return all_cards & ~in_hands & ~state.played_mask()


def known_voids(state: CardPlay, seats: Sequence[int], eff: Sequence[int]) -> tuple[int, ...]:
    """Per kernel seat (game seats ``seats``) the effective suits it failed to follow in the tricks so far, as the bots read them.

    A seat that did not follow the suit led lacks it; one that did not trump
    either lacks trumps.  ``eff`` is the game's effective suit per card.
    """
    voids = {seat: 0 for seat in seats}
    tricks = [(seats_, cards) for seats_, cards, _winner in state.tricks]
    if state.trick_cards:
        tricks.append((tuple(state.trick_seats), tuple(state.trick_cards)))
    for played_by, cards in tricks:
        led = eff[cards[0]]
        for seat, card in zip(played_by[1:], cards[1:], strict=False):
            suit = eff[card]
            if suit != led:
                voids[seat] |= 1 << led
                if suit != TRUMP:
                    voids[seat] |= 1 << TRUMP
    return tuple(voids[seat] for seat in seats)


CtxCache = dict[tuple[object, ...], Any]
"""A game's policy ``ctx`` arrays, per rules, number of seats and side."""


def policy_ctx(cache: CtxCache, pos: TrickPosition, base: Any, size: int, fill: Callable[[Any, TrickRules], None] | None = None) -> Any:
    """The kernel's ``ctx`` ``base`` of ``pos`` in an array of ``size`` with the ``above`` table; ``fill(ctx, rules)`` adds the game's own.

    Built once per rules, seats and side, and kept in ``cache``.  Raises
    :class:`ValueError` for a card strength the table cannot hold.
    """
    key = (pos.rules, len(pos.seats), pos.side)
    found = cache.get(key)
    if found is None:
        np, shared = _np, _shared
        rules = pos.rules
        if max(rules.strength, default=0) >= shared.STRIDE:
            raise ValueError(f"card strengths must lie below {shared.STRIDE}")
        found = np.zeros(size, dtype=np.int64)
        found[: len(base)] = base
        for suit in range(TRUMP + 1):
            for strength in range(shared.STRIDE):
                mask = 0
                for card, (eff, s) in enumerate(zip(rules.eff, rules.strength, strict=True)):
                    if eff == suit and s > strength:
                        mask |= 1 << card
                found[shared.C_ABOVE + suit * shared.STRIDE + strength] = mask
        if fill is not None:
            fill(found, rules)
        cache[key] = found
    return found


def require(policy: Any, game: str) -> Any:
    """``policy``, the game's compiled policy module; :class:`RuntimeError` where it is ``None`` (no numba, or switched off)."""
    if policy is None:
        raise RuntimeError(f"the compiled {game} heuristic needs numba (pip install stich[fast]) and STICH_NO_NUMBA unset")
    return policy


def _arrays(know: SeatKnowledge) -> tuple[Any, Any, Any]:
    np = _np
    return np.array(know.down, dtype=np.int64), np.array(know.dead, dtype=np.int64), np.array(know.voids, dtype=np.int64)


CtxOf = Callable[[TrickPosition, Any], Any]
"""A game's policy ``ctx`` of a position, from the kernel's ``ctx`` of it."""


def compiled_card(policy: Any, ctx_of: CtxOf, pos: TrickPosition, know: SeatKnowledge, declarer: int, flags: int) -> int:
    """``policy.heuristic_card``: the card of the kernel seat to move in ``pos``, which must have a choice."""
    arrays = tarock_kernel.kernel_arrays(pos)
    down, dead, voids = _arrays(know)
    ctx = ctx_of(pos, arrays.ctx)
    hands, trick = arrays.hands, arrays.trick
    return int(policy.heuristic_card(ctx, hands, trick, len(pos.trick), pos.leader, down, dead, voids, declarer, pos.tricks_left, flags))


def compiled_playouts(
    policy: Any, ctx_of: CtxOf, pos: TrickPosition, n: int, seed: int, know: SeatKnowledge, epsilon: float, flags: int
) -> list[KernelGame]:
    """``n`` games of ``policy.heuristic_playouts`` from ``pos`` (``epsilon``: the share of random cards), checked and converted."""
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must lie in [0, 1], got {epsilon}")
    np = _np
    arrays = tarock_kernel.kernel_arrays(pos)
    down, dead, voids = _arrays(know)
    out = np.zeros((n, 4), dtype=np.int64)
    threshold = min(int(epsilon * (1 << 32)), 1 << 32)
    policy.heuristic_playouts(
        arrays.hands,
        arrays.trick,
        len(pos.trick),
        pos.leader,
        pos.tricks_left,
        ctx_of(pos, arrays.ctx),
        n,
        np.uint64(seed % (1 << 64)),
        threshold,
        down,
        dead,
        voids,
        flags,
        out,
    )
    return [KernelGame(int(row[0]), int(row[1]), int(row[2]), int(row[3])) for row in out]
