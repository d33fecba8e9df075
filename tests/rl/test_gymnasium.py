"""The Gymnasium env: Gymnasium's env checker for every game, one seat against bots, the vector env's autoreset."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

from stich.errors import IllegalActionError, OptionError
from stich.rl.gymnasium_env import StichGymEnv, make_vector

from .test_pettingzoo import GAMES


@pytest.mark.parametrize("env_id", GAMES)
def test_gymnasium_check_env(env_id: str) -> None:
    # The checker steps unmasked random actions, so it runs in penalty mode (raise mode raises on them, as it should).
    env = StichGymEnv(env_id, opponents="random", illegal="penalty")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "no spec" (render modes through gymnasium.make)
        check_env(env, skip_render_check=False)


def _play(env: StichGymEnv, seed: int) -> tuple[float, dict[str, object]]:
    obs, _ = env.reset(seed=seed)
    total, rng = 0.0, np.random.default_rng(seed)
    while True:
        assert env.table.current().current_player() == env.seat
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, _truncated, info = env.step(action)
        total += reward
        if terminated:
            return total, info


def test_the_learner_is_paid_its_score_against_heuristic_bots() -> None:
    env = StichGymEnv("stich/doppelkopf-ddv-v1", opponents="heuristic", seat=2, reward_scale=0.1)
    total, info = _play(env, seed=3)
    state = env.table.current()
    assert state.is_terminal()
    assert total == pytest.approx(state.result().scores[2] * 0.1)
    assert info["scores"] == list(state.result().scores)


def test_one_bot_spec_per_opponent_and_bad_specs_are_refused() -> None:
    env = StichGymEnv("stich/droggn-stubai-v1", opponents=["random", "heuristic"], seat=1)
    assert [spec.name for spec in env.specs] == ["random", "heuristic"]
    _play(env, seed=1)
    with pytest.raises(OptionError, match="unknown bot"):
        StichGymEnv("stich/droggn-stubai-v1", opponents="nobody")
    with pytest.raises(ValueError, match="2 opponent bot specs"):
        StichGymEnv("stich/droggn-stubai-v1", opponents=["random"])


def test_a_deal_where_the_learner_sits_out_is_skipped() -> None:
    env = StichGymEnv("doppelkopf(players=5)", opponents="random", seat=0, dealer=0)
    with pytest.raises(RuntimeError, match="did not act"):
        env.reset(seed=1)  # seat 0 deals every deal and always sits out
    env = StichGymEnv("doppelkopf(players=5)", opponents="random", seat=0, dealer="random")
    for seed in range(5):
        env.reset(seed=seed)
        assert env.table.current().dealer != 0


def test_an_illegal_action_raises_in_raise_mode() -> None:
    env = StichGymEnv("stich/dobbm-pagat-v1")
    obs, _ = env.reset(seed=0)
    before = len(env.table.current().history)
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert len(env.table.current().history) == before


def test_every_preset_id_is_registered_with_gymnasium() -> None:
    env = gymnasium.make("stich/tapp_tarock-four_players-v1", opponents="random")
    obs, _ = env.reset(seed=5)
    assert obs["action_mask"].any()
    env.close()


def test_vector_env_resets_a_finished_deal_on_the_next_step() -> None:
    vec = make_vector("stich/tapp_tarock-standard-v1", 2, opponents="random")
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, _ = vec.reset(seed=9)
    rng = np.random.default_rng(0)
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, _trunc, _info = vec.step(actions)
        if terminated.any():
            i = int(np.flatnonzero(terminated)[0])
            obs, rewards, terminated, _trunc, _info = vec.step(
                np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])
            )
            assert rewards[i] == 0.0 and not terminated[i] and obs["action_mask"][i].any()
            break
    else:
        pytest.fail("no deal ended in 200 steps")
    vec.close()
