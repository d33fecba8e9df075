"""The Tarock-family card-play batch against the reference engine, step for step (issue 32, decision 0030).

Each deal's bidding and talon phases are played by random bots through the
engine; the test replays them on a fresh reference state
(:meth:`TarockBatch.handed_over`) and then plays random legal cards on both,
comparing current player, tensors, masks, rewards and termination at every
step.  Card play: ``../shared/rules/tapp_tarock.md`` §6, ``../shared/rules/dobbm.md``
§6 and ``../shared/rules/dappen.md`` §5.1, §6.1, §6.2, §6.3 (follow suit, else
trump; Ulti cards bound; the Gstieß kept back; Buchenbach's first three
tricks); scores are the engine's (§7, §8 of each dossier).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from stich.errors import IllegalActionError
from stich.rl.encoding import Encoding

tarock = pytest.importorskip("stich.rl.batched.tarock")
from stich.rl.batched import NotSupportedError  # noqa: E402

from .batched_compare import EngineReference, compare_step_for_step  # noqa: E402

DEALS = 200


def _play_both(env_id: str, deals: int, seed: int, every_seat: int) -> tuple[int, tarock.TarockBatch]:
    """Play ``deals`` deals on the batch and on reference states; fail on the first difference.

    Returns the deals finished and the batch (its rows still hold the finished deals).
    """
    batch = tarock.TarockBatch(deals, env_id, dealer="random")
    batch.reset(seed=seed)
    encoding = Encoding(batch.game)
    references = [EngineReference(batch.handed_over(i), encoding) for i in range(deals)]
    rngs = [random.Random(seed + i) for i in range(deals)]
    return compare_step_for_step(batch, references, rngs, every_seat), batch


@pytest.mark.parametrize(
    ("env_id", "deals"),
    [
        ("stich/tapp_tarock-standard-v1", DEALS),
        ("stich/dobbm-pagat-v1", DEALS),
        ("stich/tapp_tarock-four_players-v1", 40),
        ("stich/dobbm-pagat_5-v1", 40),
        ("stich/dappen-breitnau-v1", DEALS),
        ("stich/dappen-jeu_du_tarot-v1", 40),
        ("stich/dappen-buchenbach-v1", 60),
    ],
)
def test_card_play_equals_the_reference_step_for_step(env_id: str, deals: int) -> None:
    """Seeded deals: tensors (every seat's in 10 of them), masks, players, rewards and ends equal the engine's at every step."""
    assert _play_both(env_id, deals, seed=300, every_seat=10)[0] == deals


def test_ulti_cards_and_a_kept_back_gstiess_as_in_the_engine() -> None:
    """dappen.md §5.1 and §6.2 (Furtwangen): bound Ulti cards, and the Gstieß kept back, powerless, to the last trick.

    The lone player's laid-out Ulti cards go only when nothing else is allowed, the highest first; an opponent whose
    only legal card is the Gstieß may play any card instead and keep it for the last trick, which it does not lead.
    Random bots and cards make both happen in some of these deals (counted, so the test cannot pass without them).
    """
    from stich.rl.batched import tarock_kernel as K

    finished, batch = _play_both("stich/dappen-furtwangen-v1", 150, seed=300, every_seat=10)
    assert finished == 150
    assert (batch._state[:, K.ULTI] != 0).sum() >= 10
    assert (batch._state[:, K.KEPT] >= 0).sum() >= 5
    # every trick's winner in the kernel's log is the engine's, the last trick with the kept-back Gstieß included
    for b in range(150):
        winners = [winner for *_trick, winner in batch._deals[b].tricks]  # type: ignore[union-attr]
        assert batch._state[b, K.LOG : K.LOG + 2 * len(winners) : 2].tolist() == winners, b


def test_illegal_card_raises_and_changes_nothing() -> None:
    batch = tarock.TarockBatch(2, "stich/dobbm-pagat-v1")
    batch.reset(seed=1)
    illegal = int(np.flatnonzero(batch.legal_action_mask[1] == 0)[0])
    before = batch.observation.copy()
    legal = int(np.flatnonzero(batch.legal_action_mask[0])[0])
    with pytest.raises(IllegalActionError, match="deal 1"):
        batch.step([legal, illegal])
    np.testing.assert_array_equal(before, batch.observation)


def test_a_bot_spec_plays_the_bidding_and_reset_done_deals_on() -> None:
    """The bidding is played by the chosen bots; finished deals are dealt anew from their streams."""
    batch = tarock.TarockBatch(2, "stich/tapp_tarock-standard-v1", bidding="heuristic")
    batch.reset(seed=[8, 9])
    assert all(batch.preludes)
    first = batch.deal_seeds.copy()
    while not batch.terminated.all():
        batch.step([np.flatnonzero(m)[0] if m.any() else 0 for m in batch.legal_action_mask])
    assert (batch.rewards != 0).any()
    assert list(batch.reset_done()) == [0, 1]
    assert not batch.terminated.any() and (batch.deal_seeds != first).all()


def test_a_game_outside_the_tarock_family_is_refused_by_name() -> None:
    """Doppelkopf has its own batch (DoppelkopfBatch); Droggn's card play is in tests/rl/test_batched_droggn.py."""
    with pytest.raises(NotSupportedError, match="tapp_tarock, dobbm, dappen, droggn"):
        tarock.TarockBatch(1, "stich/doppelkopf-ddv-v1")


def test_step_before_reset_says_so() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        tarock.TarockBatch(1, "stich/tapp_tarock-standard-v1").step([0])
