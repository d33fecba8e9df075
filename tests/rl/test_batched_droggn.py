"""Droggn's card play in the batch against the reference engine, step for step (issue 32, decision 0030).

As in ``test_batched_tarock.py``: each deal's bidding, exchange, buying,
laying out and doubling are played by random bots through the engine, the
test replays them on a fresh reference state and plays random legal cards on
both, comparing current player, tensors (every seat's in some deals), masks,
rewards and termination at every step.  Rules: ``../shared/rules/droggn.md``
§6.1 (follow suit, else trump), §6.2 (the Gstieß, never captured; the VAR that
keeps it out of the last trick), §5.1 and §6.3 (a laid-out Pagat only when
nothing else is legal), §5.2 (a laid-out Gstieß bound to the last trick, which
it wins), §8.3 (a Super Mord ends at the first trick the declarer loses);
scores are the engine's (§7, §8).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
import pytest

from stich.core.game import State
from stich.rl.encoding import Encoding

tarock = pytest.importorskip("stich.rl.batched.tarock")
from stich.games.droggn import actions as A  # noqa: E402
from stich.games.droggn.pack import GSTIESS, PAGAT, mask_of  # noqa: E402
from stich.rl.batched.tarock import DroggnBatch  # noqa: E402

from .batched_compare import EngineReference, compare_step_for_step  # noqa: E402

DEALS = 200


@dataclass
class Seen:
    """Special cases met in the deals played (so a test can require that they happened)."""

    finished: int = 0
    bound: dict[int, set[int]] = field(default_factory=lambda: {PAGAT: set(), GSTIESS: set()})
    """Laid-out card -> deals in which it was held back by its rule at least once (masked out while in hand)."""
    gstiess_forced: set[int] = field(default_factory=set)
    """Deals in which the Gstieß was the only legal card by ``gstiess_last_trick_illegal``."""
    stopped: set[int] = field(default_factory=set)
    """Super Mords ended early."""
    laid_out_gstiess_last: set[int] = field(default_factory=set)
    """Deals whose laid-out Gstieß won the last trick."""


def _compare(batch: tarock.TarockBatch, states: list[State], rngs: list[random.Random], every_seat: int) -> Seen:
    """Step ``batch`` and ``states`` with the same random legal cards; fail on the first difference; count the special cases."""
    seen = Seen()
    encoding = Encoding(batch.game)

    def on_turn(i: int) -> None:
        state = states[i]
        seat = state.current_player()
        laid = state.laid_out  # type: ignore[attr-defined]
        hand = state.hands[seat]  # type: ignore[attr-defined]
        if laid >= 0 and state.laid_out_by == seat and hand >> laid & 1 and not batch.legal_action_mask[i, A.PLAY + laid]:  # type: ignore[attr-defined]
            seen.bound[laid].add(i)
        if laid != GSTIESS and hand >> GSTIESS & 1 and hand.bit_count() == 2 and batch.game.options.gstiess_last_trick_illegal:  # type: ignore[attr-defined]
            assert batch.legal_action_mask[i].sum() == 1
            seen.gstiess_forced.add(i)

    def on_end(i: int) -> None:
        state = states[i]
        if state.stopped:  # type: ignore[attr-defined]
            seen.stopped.add(i)
        seats_, cards, winner = state.tricks[-1]  # type: ignore[attr-defined]
        if state.laid_out == GSTIESS and len(state.tricks) == state.n_tricks and GSTIESS in cards:  # type: ignore[attr-defined]
            assert winner == seats_[cards.index(GSTIESS)]
            seen.laid_out_gstiess_last.add(i)

    references = [EngineReference(state, encoding) for state in states]
    seen.finished = compare_step_for_step(batch, references, rngs, every_seat, on_turn=on_turn, on_end=on_end)
    return seen


def _play_deals(env_id: str, deals: int, seed: int, every_seat: int, bidding: str = "random") -> Seen:
    batch = tarock.TarockBatch(deals, env_id, dealer="random", bidding=bidding)
    batch.reset(seed=seed)
    references = [batch.handed_over(i) for i in range(deals)]
    rngs = [random.Random(seed + i) for i in range(deals)]
    return _compare(batch, references, rngs, every_seat)


def test_a_droggn_id_builds_the_droggn_batch() -> None:
    assert isinstance(tarock.TarockBatch(1, "stich/droggn-stubai-v1"), DroggnBatch)


def test_stubai_card_play_equals_the_reference_with_its_special_cases() -> None:
    """200 seeded deals (tensors of every seat in 10): the laid-out Pagat and Gstieß held back and Super Mords ended
    early (§5.1, §5.2, §6.3, §8.3) happen in them (counted, so the test cannot pass without them)."""
    seen = _play_deals("stich/droggn-stubai-v1", DEALS, seed=300, every_seat=10)
    assert seen.finished == DEALS
    assert len(seen.bound[PAGAT]) >= 5
    assert len(seen.bound[GSTIESS]) >= 5
    assert len(seen.stopped) >= 10


@pytest.mark.parametrize(
    ("env_id", "deals", "bidding"),
    [
        ("stich/droggn-kroesbacher-v1", 80, "heuristic"),
        ("stich/droggn-pack78-v1", 40, "random"),
        ("droggn(players=4)", 40, "random"),
        ("droggn(preset=pack78,players=4)", 30, "heuristic"),
        ("droggn(preset=kroesbacher,players=4)", 30, "heuristic"),
    ],
)
def test_other_presets_and_tables_equal_the_reference(env_id: str, deals: int, bidding: str) -> None:
    """The 78-card pack (25 tricks), four at the table (the dealer sits out), and Kröbacher's Gstieß rule (§6.2 VAR).

    Random bids are mostly Super Mords, which end early; the heuristic bots' Ansager and Solo deals play to the
    last tricks, where the Kröbacher rule forces the Gstieß out (counted in the three-player deals).
    """
    seen = _play_deals(env_id, deals, seed=500, every_seat=5, bidding=bidding)
    assert seen.finished == deals
    if env_id == "stich/droggn-kroesbacher-v1":
        assert seen.gstiess_forced


def _super_mord_with_gstiess_laid_out() -> State:
    """A constructed Super Mord: seat 0 holds the Gstieß and the trumps II-XXI, bids Super Mord and lays out the Gstieß (§5.2)."""
    from stich.games.droggn.game import Droggn

    droggn = Droggn("stubai")
    deck = droggn.deck
    strong = mask_of("T22 " + " ".join(f"T{n}" for n in range(21, 1, -1)))
    rest = [c for c in deck.physical if not strong >> c & 1]
    hands = [deck.cards(strong), deck.cards(sum(1 << c for c in rest[:21])), deck.cards(sum(1 << c for c in rest[21:42]))]
    hands.append(deck.cards(sum(1 << c for c in rest[42:])))
    state = droggn.new_state(hands=hands, dealer=2)
    # seat 0 speaks first (the dealer's left): super_mord; the others pass; it lays out the Gstieß; no doubling
    for code in (A.BID + 3, A.PASS, A.PASS, A.LAY_OUT + 1, A.PASS, A.PASS):
        state.apply(code)
    assert state.phase_name == "play" and state.laid_out == GSTIESS  # type: ignore[attr-defined]
    return state


def test_a_laid_out_gstiess_wins_the_last_trick_of_a_super_mord() -> None:
    """droggn.md §5.2: a declarer who takes every trick keeps the laid-out Gstieß for the last trick, which it wins.

    Random cards never take 21 tricks, so the deal is constructed and loaded (``TarockBatch.load``): the declarer's
    trumps beat everything the defenders hold, so every trick is his whatever the random cards; 8 deals of a batch
    play it with different cards.
    """
    state = _super_mord_with_gstiess_laid_out()
    batch = tarock.TarockBatch(8, "stich/droggn-stubai-v1")
    batch.reset(seed=1)
    for i in range(8):
        batch.load(i, state)
    references = [batch.handed_over(i) for i in range(8)]
    assert references[0] is not state and state.tricks == []  # type: ignore[attr-defined]
    seen = _compare(batch, references, [random.Random(i) for i in range(8)], every_seat=8)
    assert seen.finished == 8
    assert seen.laid_out_gstiess_last == set(range(8))
    assert seen.bound[GSTIESS] == set(range(8))


def test_an_illegal_card_raises_and_changes_nothing() -> None:
    """droggn.md §6.1: a card the seat may not play is refused by the batch as by the engine; no deal moves."""
    from stich.errors import IllegalActionError

    batch = tarock.TarockBatch(2, "stich/droggn-stubai-v1")
    batch.reset(seed=3)
    state = batch._state.copy()
    before = batch.observation.copy()
    legal = int(np.flatnonzero(batch.legal_action_mask[0])[0])
    illegal = int(np.flatnonzero(batch.legal_action_mask[1] == 0)[0])
    with pytest.raises(IllegalActionError, match="deal 1"):
        batch.step([legal, illegal])
    np.testing.assert_array_equal(before, batch.observation)
    np.testing.assert_array_equal(state, batch._state)


def test_load_takes_only_a_state_of_the_batch_game_at_its_first_card() -> None:
    from stich.games.droggn.game import Droggn

    batch = tarock.TarockBatch(1, "stich/droggn-stubai-v1")
    with pytest.raises(ValueError, match="start of its card play"):
        batch.load(0, Droggn("stubai").new_state(seed=1))
    with pytest.raises(ValueError, match="cannot be loaded"):
        batch.load(0, Droggn("pack78").new_state(seed=1))
    with pytest.raises(ValueError, match="deal index"):
        batch.load(1, _super_mord_with_gstiess_laid_out())
