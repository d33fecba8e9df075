"""Tapp Tarock card play by the heuristic bot's rules, compiled: rollouts as sensible as the ``pimc`` bot's, at kernel speed.

The counterpart of :mod:`stich.bots.dobbm.playout` for Tapp Tarock.  The
``pimc`` bot values a card by letting the heuristic bots play the deal out in
each sampled world; through the engine that costs an observation and a
decision per card (about a millisecond a deal from the first card), so at
0.05 s a decision ``pimc`` and the ISMCTS tree get a few dozen play-outs
(docs/decisions/0020-ismcts-rung.md).  :mod:`stich.bots.tapp_tarock.policy`
is a line-by-line twin of the card play of
:class:`~stich.bots.tapp_tarock.heuristic.TappTarockHeuristic` on the masks of
the Tarock kernel (:mod:`stich.bots.tarock_family.kernel`), and the differential
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
What every compiled heuristic does alike (the voids and face-down cards
of the knowledge, the policy's ``ctx``, the checked calls) is in
:mod:`stich.bots.tarock_family.policy_playout`.

numba is optional: without it :func:`available` is false, and the
``kernel-heuristic`` rollouts (:class:`~stich.bots.tarock_rollout.HeuristicFinish`,
:func:`stich.bots.rollouts.make_rollout`) play through the engine with the
heuristic bots instead (the same cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stich.bots.tarock_family import kernel as tarock_kernel
from stich.bots.tarock_family import policy_playout
from stich.bots.tarock_family.kernel import KernelGame, TrickPosition, TrickRules
from stich.games.tapp_tarock.pack import N_FACES, ORDER, POINTS
from stich.games.tapp_tarock.state import TappTarockState

__all__ = ["SeatKnowledge", "available", "heuristic_card", "heuristic_playouts", "knowledge", "warmup"]

_core: Any = None
if tarock_kernel.available():
    from stich.bots.tapp_tarock import policy as _tapp_tarock_policy

    _core = _tapp_tarock_policy

ALL_CARDS = (1 << N_FACES) - 1
DISCARDS = 3
"""Cards a talon contract's declarer lays away (§4.1)."""
TALON = 6
"""Cards of the whole talon, which a Solo leaves face down (§4.2)."""


def available() -> bool:
    """Whether the compiled heuristic card play is in use (numba present and not switched off)."""
    return _core is not None


@dataclass(frozen=True)
class SeatKnowledge(policy_playout.SeatKnowledge):
    """Per kernel seat what the heuristic's estimates read besides the hands (``dead``: the bot's ``_View.hidden_out``).

    See :mod:`stich.bots.tapp_tarock.policy`; besides the seats' knowledge, the announcement the bot reads.
    """

    ultimo: bool
    """Whether Pagat ultimo was announced (the declarer keeps the Pagat for the last trick)."""


def knowledge(state: TappTarockState, pos: TrickPosition) -> SeatKnowledge:
    """What each kernel seat of ``pos`` (the card play of ``state``) knows, as the bot's ``_view`` reads its observation."""
    down_all = policy_playout.face_down(state, ALL_CARDS)
    seen_by_all = state.shown
    exposed = state.exposed and state.taken >= 0
    if exposed:
        seen_by_all |= state.talon[1 - state.taken]  # the half left lying, seen by everybody
    contract = state.contract
    solo = contract is not None and not contract.talon
    down, dead = [], []
    for seat in pos.seats:
        known = seen_by_all | (state.discards if seat == state.declarer else 0)
        down.append(down_all & ~known)
        hidden = 0 if exposed else TALON if solo else DISCARDS if contract is not None else 0
        if contract is not None and not solo and seat != state.declarer:
            hidden += DISCARDS - state.shown.bit_count()
        dead.append(hidden)
    voids = policy_playout.known_voids(state, pos.seats, ORDER.eff)
    return SeatKnowledge(tuple(down), tuple(dead), voids, state.announced[0])


_CTX: policy_playout.CtxCache = {}


def _face_values(ctx: Any, rules: TrickRules) -> None:
    """Write the cards' face values (the bot's ``POINTS``) into a policy ``ctx`` of ``rules``."""
    if len(rules.eff) != len(POINTS):
        raise ValueError(f"the Tapp Tarock policy needs the {len(POINTS)} cards of its pack, not {len(rules.eff)}")
    for card, points in enumerate(POINTS):
        ctx[_core.C_POINTS + card] = points


def _ctx(pos: TrickPosition, base: Any) -> Any:
    """The kernel's ``ctx`` of ``pos`` with the policy's ``above`` and face-value tables appended (cached)."""
    return policy_playout.policy_ctx(_CTX, pos, base, _core.POLICY_CTX_SIZE, _face_values)


def _declarer(pos: TrickPosition) -> int:
    if pos.side.bit_count() != 1 or len(pos.seats) != 3:
        raise ValueError(f"Tapp Tarock has one declarer among three active seats: side mask {pos.side:#b}, {len(pos.seats)} seats")
    return pos.side.bit_length() - 1


def heuristic_card(pos: TrickPosition, know: SeatKnowledge) -> int:
    """The card the heuristic plays for the kernel seat to move in ``pos`` (which must have a choice).

    Raises :class:`RuntimeError` without the compiled kernel (:func:`available`).
    """
    policy = policy_playout.require(_core, "Tapp Tarock")
    return policy_playout.compiled_card(policy, _ctx, pos, know, _declarer(pos), int(know.ultimo))


def heuristic_playouts(pos: TrickPosition, n: int, seed: int, know: SeatKnowledge, *, epsilon: float = 0.0) -> list[KernelGame]:
    """``n`` games from ``pos`` played out by the heuristic's card play (:class:`~stich.bots.tarock_family.kernel.KernelGame` each).

    With ``epsilon`` above 0 each card with a choice is, with that
    probability, a uniformly random legal one instead (``seed`` fixes the
    draws); with 0 every game is the same.  Raises :class:`RuntimeError`
    without the compiled kernel.
    """
    policy = policy_playout.require(_core, "Tapp Tarock")
    _declarer(pos)
    return policy_playout.compiled_playouts(policy, _ctx, pos, n, seed, know, epsilon, int(know.ultimo))


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
