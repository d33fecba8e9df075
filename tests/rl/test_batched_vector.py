"""The batches as a gymnasium.vector.VectorEnv with next-step autoreset (stich.rl.batched.vector, issue 41)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv

from stich.rl.deals import spawn_seed
from stich.rl.table import Table, TableConfig

vector = pytest.importorskip("stich.rl.batched.vector")


def test_it_is_a_gymnasium_vector_env_with_batched_spaces() -> None:
    env = vector.BatchVectorEnv("stich/doppelkopf-ddv-v1", 3)
    assert isinstance(env, VectorEnv) and env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs) and obs["observation"].shape == (3, env.batch.observation_size)
    assert env.action_space.shape == (3,) and env.single_action_space.n == env.batch.num_actions
    assert (info["actor"] == -1).all() and (info["current_player"] >= 0).all()
    with pytest.raises(ValueError, match="step needs 3 actions"):
        env.step([0, 0])


def test_slots_play_the_single_envs_deals_and_reset_on_the_next_step() -> None:
    """Differential: slot i is the single env seeded spawn_seed(s, i); the step after a deal ends deals the next one."""
    n, seed = 4, 21
    env = vector.BatchVectorEnv("stich/doppelkopf-ddv-v1", n)
    obs, _info = env.reset(seed=seed)
    tables = [Table(TableConfig()) for _ in range(n)]
    for i, table in enumerate(tables):
        table.deal(spawn_seed(seed, i))
    rng = random.Random(seed)
    pending = np.zeros(n, dtype=bool)
    ends = resets = 0
    while resets < 2 * n:
        actions = np.zeros(n, dtype=np.int64)
        for i, table in enumerate(tables):
            if pending[i]:
                actions[i] = 10**6  # ignored: the slot resets
                continue
            view = table.observe(table.to_move())
            np.testing.assert_array_equal(obs["observation"][i], view["observation"])
            np.testing.assert_array_equal(obs["action_mask"][i], view["action_mask"])
            actions[i] = rng.choice(np.flatnonzero(view["action_mask"]).tolist())
        actors = [table.to_move() for table in tables]
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, table in enumerate(tables):
            if pending[i]:
                table.deal()
                assert reward[i] == 0 and not terminated[i] and info["actor"][i] == -1
                assert info["current_player"][i] == table.to_move() and not info["rewards"][i].any()
                resets += 1
                continue
            table.act(int(actions[i]))
            assert terminated[i] == table.finished() and info["actor"][i] == actors[i]
            expected = table.rewards() if table.finished() else [0.0] * 4
            np.testing.assert_array_equal(info["rewards"][i], np.asarray(expected, dtype=np.float32))
            assert reward[i] == np.float32(expected[actors[i]])
            if terminated[i]:
                ends += 1
                assert not obs["action_mask"][i].any()
        pending = terminated.copy()
    assert ends >= 2 * n


def test_a_tarock_batch_autoresets_too() -> None:
    """Card play of Tapp Tarock: a finished slot pays its seats, then ignores its action and deals anew."""
    env = vector.BatchVectorEnv("stich/tapp_tarock-standard-v1", 2, bidding="random")
    obs, _info = env.reset(seed=[3, 4])
    rng = np.random.default_rng(0)
    pending = np.zeros(2, dtype=bool)
    resets = 0
    while resets < 3:
        noise = rng.random(obs["action_mask"].shape)
        actions = np.where(pending, 10**6, np.argmax(noise * obs["action_mask"], axis=1))
        obs, reward, terminated, _truncated, info = env.step(actions)
        for i in range(2):
            if pending[i]:
                resets += 1
                assert not terminated[i] and reward[i] == 0 and info["actor"][i] == -1 and obs["action_mask"][i].any()
            elif terminated[i]:
                assert info["rewards"][i].any() and reward[i] == info["rewards"][i][info["actor"][i]]
        pending = terminated.copy()
