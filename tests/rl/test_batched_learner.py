"""The batches beyond their kernels (issue 41): the learner steps a Tarock deal's bidding, talon and discards, and
``DoppelkopfBatch`` takes every option set of the engine.

Both run those parts in the reference engine (:mod:`stich.rl.batched.engine_rows`); the tests replay them step for
step against fresh engine states (Tarock, from the deal's seed and dealer) or single-env tables (Doppelkopf), as
the other differential tests do: termination, current player, tensors (every seat's in the first deals), masks
and rewards at every step, 0 differences allowed.  The phases compared are each dossier's bidding, talon,
discard, announcement and doubling sections (``../shared/rules/tapp_tarock.md`` §3-§5, ``dobbm.md`` §3-§5,
``droggn.md`` §3-§5, ``dappen.md`` §3-§5) and Doppelkopf's options (``doppelkopf.md`` §2-§7, options table).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from stich.errors import IllegalActionError
from stich.rl.deals import spawn_seed
from stich.rl.encoding import Encoding
from stich.rl.ids import registered_ids
from stich.rl.leak_check import TABLE_SIZES
from stich.rl.table import Table, TableConfig

tarock = pytest.importorskip("stich.rl.batched.tarock")
from stich.rl.batched import NotSupportedError  # noqa: E402
from stich.rl.batched.doppelkopf import DoppelkopfBatch, DoppelkopfEngineBatch  # noqa: E402

from .batched_compare import EngineReference, compare_step_for_step, uniform  # noqa: E402

TAROCK_IDS = [c for c in (*registered_ids(), *TABLE_SIZES) if "doppelkopf" not in c]
DOPPELKOPF_IDS = [c for c in (*registered_ids(), *TABLE_SIZES) if "doppelkopf" in c]


def _leaning_to_pass(pass_code: int) -> Callable[[random.Random, list[int]], int]:
    """Random legal actions, ``pass`` three times in four where it is legal: Dappen's Solo round then seldom ends the
    bidding at once, so Dapp rounds, overcalls, discards and all-pass deals occur in a few deals."""

    def choose(rng: random.Random, legal: list[int]) -> int:
        return pass_code if pass_code in legal and rng.random() < 0.75 else rng.choice(legal)

    return choose


def _learner_batch(env_id: str, deals: int, seed: int) -> tuple[int, tarock.TarockBatch, int]:
    """Play ``deals`` deals with the learner bidding against engine references; (finished, batch, engine steps)."""
    batch = tarock.TarockBatch(deals, env_id, bidding="learner", dealer="random")
    batch.reset(seed=seed)
    assert not any(batch.preludes)  # a fresh deal waits at its first decision
    encoding = Encoding(batch.game)
    references = [EngineReference(batch.handed_over(i), encoding) for i in range(deals)]
    assert all(r.state.phase_name != "play" for r in references)  # type: ignore[attr-defined]
    rngs = [random.Random(seed + i) for i in range(deals)]
    choose = _leaning_to_pass(batch.game.actions.by_text["pass"].code) if batch.game.name == "dappen" else uniform
    finished = compare_step_for_step(batch, references, rngs, 3, choose=choose, finished_seat=0)
    return finished, batch, sum(len(p) for p in batch.preludes)


@pytest.mark.parametrize("env_id", TAROCK_IDS)
def test_the_learner_steps_the_bidding_talon_and_discards_as_the_engine(env_id: str) -> None:
    """Every Tarock preset and table size: whole deals from the first bid, 0 differences from the engine."""
    finished, batch, _steps = _learner_batch(env_id, 12, seed=41)
    assert finished == 12 and batch.skipped == 0
    assert all(batch.preludes)  # the learner made every deal's first decision
    actions = batch.game.actions.actions
    kinds = {actions[code].kind for prelude in batch.preludes for code in prelude}
    assert "discard" in kinds, kinds  # past the bidding: the learner laid cards away


def test_a_deal_thrown_in_before_card_play_ends_for_the_learner() -> None:
    """Breitnau (dappen.md §3.3): when everybody passes the deal is void; the learner sees it end (reward 0), not skipped."""
    finished, batch, _steps = _learner_batch("stich/dappen-breitnau-v1", 40, seed=7)
    assert finished == 40 and batch.skipped == 0
    before_play = [b for b in range(40) if len(batch.preludes[b]) == len(batch._deals[b].history)]  # type: ignore[union-attr]
    assert before_play, "no deal ended before card play: pick another seed"
    for b in before_play:
        assert batch._deals[b].result().breakdown["kind"] == "thrown"  # type: ignore[union-attr]


def test_a_mixed_step_checks_every_action_before_changing_any() -> None:
    """One deal in card play, one in the bidding: an illegal bid raises naming its deal, and neither deal moves."""
    batch = tarock.TarockBatch(2, "stich/dobbm-pagat-v1", bidding="learner")
    batch.reset(seed=[3, 4])
    rng = np.random.default_rng(0)
    for _ in range(200):
        if batch.terminated[0] or batch._in_engine[0]:
            batch.reset_rows([0]) if batch.terminated[0] else None
        if batch.terminated[1] or not batch._in_engine[1]:
            batch.reset_rows([1])
        if not batch._in_engine[0] and not batch.terminated[0]:
            break
        batch.step([rng.choice(np.flatnonzero(m)) for m in batch.legal_action_mask])
    assert not batch._in_engine[0] and batch._in_engine[1] and not batch.terminated.any()
    before = (batch.observation.copy(), batch.legal_action_mask.copy(), list(batch.preludes[1]))
    illegal = int(np.flatnonzero(batch.legal_action_mask[1] == 0)[0])
    card = int(np.flatnonzero(batch.legal_action_mask[0])[0])
    with pytest.raises(IllegalActionError, match="deal 1"):
        batch.step([card, illegal])
    np.testing.assert_array_equal(before[0], batch.observation)
    np.testing.assert_array_equal(before[1], batch.legal_action_mask)
    assert batch.preludes[1] == before[2]


def test_the_vector_env_steps_the_learners_bidding() -> None:
    from stich.rl.batched.vector import BatchVectorEnv

    env = BatchVectorEnv("stich/tapp_tarock-standard-v1", 3, bidding="learner")
    obs, _info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]]
        obs, _reward, terminated, _truncated, _info = env.step(actions)
        ended += int(terminated.sum())
    assert ended >= 3


@pytest.mark.parametrize("env_id", DOPPELKOPF_IDS)
def test_doppelkopf_batch_takes_every_option_set_of_the_engine(env_id: str) -> None:
    """Every Doppelkopf preset and five players: the batch equals the single env step for step (DDV on the engine path too)."""
    deals = 16
    batch = DoppelkopfBatch(deals, env_id, dealer="random", compiled=False if env_id.endswith("ddv-v1") else None)
    assert isinstance(batch, DoppelkopfEngineBatch) and not batch.compiled
    batch.reset(seed=77)
    tables = [Table(TableConfig(env_id=env_id, dealer="random")) for _ in range(deals)]
    for i, table in enumerate(tables):
        table.deal(spawn_seed(77, i))
        assert batch.deal_seeds[i] == table.current().seed
    rngs = [random.Random(i) for i in range(deals)]
    assert compare_step_for_step(batch, tables, rngs, 3, finished_seat=0) == deals
    for i, table in enumerate(tables):
        assert batch.facts(i) == table.current().facts()  # type: ignore[attr-defined]


def test_the_compiled_and_the_engine_ddv_batches_agree() -> None:
    """The kernel and the engine path step the same deals to the same fields (same streams, same random actions)."""
    compiled, engine = DoppelkopfBatch(12, compiled=True), DoppelkopfBatch(12, compiled=False)
    assert type(compiled) is DoppelkopfBatch and compiled.compiled and not engine.compiled
    compiled.reset(seed=5)
    engine.reset(seed=5)
    compiled.random_actions(seed=1)
    for _round in range(2):
        while not compiled.terminated.all():
            for name in ("current_player", "observation", "legal_action_mask", "rewards", "terminated"):
                np.testing.assert_array_equal(getattr(compiled, name), getattr(engine, name), err_msg=name)
            actions = compiled.random_actions()
            compiled.step(actions)
            engine.step(actions)
        np.testing.assert_array_equal(compiled.rewards, engine.rewards)
        np.testing.assert_array_equal(compiled.observe(np.full(12, 2)), engine.observe(np.full(12, 2)))
        assert (compiled.reset_done() == engine.reset_done()).all()
        np.testing.assert_array_equal(compiled.deal_seeds, engine.deal_seeds)


def test_compiled_true_refuses_other_option_sets_by_name() -> None:
    with pytest.raises(NotSupportedError, match="genscher=True"):
        DoppelkopfBatch(1, "doppelkopf(preset=ddv,genscher=true)", compiled=True)
    with pytest.raises(NotSupportedError, match="Doppelkopf only"):
        DoppelkopfBatch(1, "stich/dobbm-pagat-v1")


def test_an_illegal_action_in_the_engine_batch_raises_and_changes_nothing() -> None:
    batch = DoppelkopfBatch(2, "stich/doppelkopf-freedoko_standard-v1")
    batch.reset(seed=1)
    before = batch.observation.copy(), batch.current_player.copy()
    illegal = int(np.flatnonzero(batch.legal_action_mask[1] == 0)[0])
    with pytest.raises(IllegalActionError, match="deal 1"):
        batch.step([int(np.flatnonzero(batch.legal_action_mask[0])[0]), illegal])
    np.testing.assert_array_equal(before[0], batch.observation)
    np.testing.assert_array_equal(before[1], batch.current_player)
