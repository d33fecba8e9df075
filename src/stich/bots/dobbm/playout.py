"""Dobbm card play by the heuristic bot's rules, compiled: rollouts as sensible as the ``pimc`` bot's, at kernel speed.

The ``pimc`` bot values a card by letting the heuristic bots play the deal
out in each sampled world, the ISMCTS bot by random or greedy kernel games.
Through the engine a heuristic play-out costs an observation and a decision
per card (2-3 ms a deal), so a tree would get a dozen of them per decision;
compiled, it costs about 14 µs (bench/bench_tarock_kernel.py), and a tree
may value every leaf as ``pimc`` values a world (``rollout=kernel-heuristic``;
against ``pimc`` it did not pay, docs/strength.md run ``14-others-eager``).
:mod:`stich.bots.dobbm.policy` is a line-by-line twin of the card play of
:class:`~stich.bots.dobbm.heuristic.DobbmHeuristic` on the masks of the
Tarock kernel (:mod:`stich.bots.tarock_family.kernel`), and the differential
tests hold it to the bot's choices in every position they reach.

What each seat may know is read from the state once per position
(:func:`knowledge`): the face-down cards it has not seen (the Dobb, or a
Dobbm declarer's discards to everybody but him) and the suits each seat is
known to lack from the tricks so far; a seat's unseen cards are then the
other hands plus its face-down ones, exactly the bot's ``_View``.
What every compiled heuristic does alike (the voids and face-down cards
of the knowledge, the policy's ``ctx``, the checked calls) is in
:mod:`stich.bots.tarock_family.policy_playout`.

numba is optional: without it :func:`available` is false, and the
``kernel-heuristic`` rollout (:func:`stich.bots.rollouts.make_rollout`)
plays through the engine with the heuristic bots instead (the same cards).
"""

from __future__ import annotations

from typing import Any

from stich.bots.tarock_family import kernel as tarock_kernel
from stich.bots.tarock_family import policy_playout
from stich.bots.tarock_family.kernel import KernelGame, TrickPosition, TrickRules
from stich.bots.tarock_family.policy_playout import SeatKnowledge
from stich.core.tricks import TRUMP
from stich.games.dobbm.pack import CONTRACTS, N_FACES, ORDER
from stich.games.dobbm.state import DobbmState

__all__ = ["SeatKnowledge", "available", "heuristic_card", "heuristic_playouts", "knowledge", "warmup"]

_core: Any = None
if tarock_kernel.available():
    from stich.bots.dobbm import policy as _dobbm_policy

    _core = _dobbm_policy

ALL_CARDS = (1 << N_FACES) - 1


def available() -> bool:
    """Whether the compiled heuristic card play is in use (numba present and not switched off)."""
    return _core is not None


def knowledge(state: DobbmState, pos: TrickPosition) -> SeatKnowledge:
    """What each kernel seat of ``pos`` (the card play of ``state``) knows, as the bot's ``build_view`` reads its observation."""
    down_all = policy_playout.face_down(state, ALL_CARDS)
    contract = state.contract
    exchanged = contract is not None and CONTRACTS[contract].exchanges
    down, dead = [], []
    for seat in pos.seats:
        known = state.discards if exchanged and seat == state.declarer else 0
        down.append(down_all & ~known)
        dead.append(4 if state.talon or (state.discards and not known) else 0)
    return SeatKnowledge(tuple(down), tuple(dead), policy_playout.known_voids(state, pos.seats, ORDER.eff))


_CTX: policy_playout.CtxCache = {}


def _ctx(pos: TrickPosition, base: Any) -> Any:
    """The kernel's ``ctx`` of ``pos`` with the policy's ``above`` table appended (cached per rules, seats and side)."""
    return policy_playout.policy_ctx(_CTX, pos, base, _core.POLICY_CTX_SIZE)


def _declarer(pos: TrickPosition) -> int:
    if pos.side.bit_count() != 1:
        raise ValueError(f"Dobbm has one declarer: side mask {pos.side:#b}")
    return pos.side.bit_length() - 1


def heuristic_card(pos: TrickPosition, know: SeatKnowledge) -> int:
    """The card the heuristic plays for the kernel seat to move in ``pos`` (which must have a choice).

    Raises :class:`RuntimeError` without the compiled kernel (:func:`available`).
    """
    policy = policy_playout.require(_core, "Dobbm")
    return policy_playout.compiled_card(policy, _ctx, pos, know, _declarer(pos), 0)


def heuristic_playouts(pos: TrickPosition, n: int, seed: int, know: SeatKnowledge, *, epsilon: float = 0.0) -> list[KernelGame]:
    """``n`` games from ``pos`` played out by the heuristic's card play (:class:`~stich.bots.tarock_family.kernel.KernelGame` each).

    With ``epsilon`` above 0 each card with a choice is, with that
    probability, a uniformly random legal one instead (``seed`` fixes the
    draws); with 0 every game is the same.  Raises :class:`RuntimeError`
    without the compiled kernel.
    """
    policy = policy_playout.require(_core, "Dobbm")
    _declarer(pos)
    return policy_playout.compiled_playouts(policy, _ctx, pos, n, seed, know, epsilon, 0)


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
