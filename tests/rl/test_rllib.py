"""The RLlib MultiAgentEnv: RLlib's own env check for every game, turn-based masked Dict observations, full deals in RLlib's episode."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="RLlib needs the 'rllib' extra")

from ray.rllib.env.multi_agent_episode import MultiAgentEpisode
from ray.rllib.utils.pre_checks.env import check_multiagent_environments

from stich.errors import IllegalActionError
from stich.rl.rllib_env import StichMultiAgentEnv

from .test_pettingzoo import EXTRA, GAMES


@pytest.mark.parametrize("env_id", GAMES + EXTRA)
def test_rllib_check_multiagent_environments(env_id: str) -> None:
    # RLlib's checker steps a random sample of the action space, so it runs in penalty mode (raise mode raises, as it should).
    check_multiagent_environments(StichMultiAgentEnv({"env_id": env_id, "illegal": "penalty"}))


def _deal(env: StichMultiAgentEnv, seed: int) -> MultiAgentEpisode:
    """One deal with masked random actions, recorded in RLlib's own episode bookkeeping (which validates each step)."""
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    episode = MultiAgentEpisode(observation_space=env.observation_spaces, action_space=env.action_spaces, agent_module_ids=None)
    episode.add_env_reset(observations=obs, infos=infos)
    while not episode.is_done:
        (agent,) = obs
        assert obs[agent] in env.observation_spaces[agent]
        assert agent == f"player_{env.table.to_move()}"
        mask = obs[agent]["action_mask"]
        assert mask.dtype == np.float32 and set(np.unique(mask)) <= {0.0, 1.0}
        legal = {a.code for a in env.table.current().legal_actions()}
        assert set(np.flatnonzero(mask).tolist()) == legal
        action = {agent: int(rng.choice(np.flatnonzero(mask)))}
        obs, rewards, terminateds, truncateds, infos = env.step(action)
        episode.add_env_step(obs, action, rewards, infos, terminateds=terminateds, truncateds=truncateds)
        if not terminateds["__all__"]:
            assert len(obs) == 1 and rewards == {agent: 0.0}
    episode.validate()
    return episode


@pytest.mark.parametrize("env_id", GAMES + EXTRA)
def test_a_full_deal_pays_each_agent_its_score_through_rllibs_episode(env_id: str) -> None:
    env = StichMultiAgentEnv({"env_id": env_id, "reward_scale": 0.5, "dealer": 0})
    episode = _deal(env, seed=7)
    state = env.table.current()
    assert state.is_terminal()
    scores = state.result().scores
    for seat, score in enumerate(scores):
        agent = f"player_{seat}"
        if agent in episode.agent_episodes:
            assert episode.agent_episodes[agent].get_return() == pytest.approx(score * 0.5)
        else:
            assert score == 0  # only a dealer who sits out never appears, and it is paid nothing


def test_only_the_acting_agent_may_act_and_illegal_actions_raise_unchanged() -> None:
    env = StichMultiAgentEnv({"env_id": "stich/dobbm-pagat-v1"})
    obs, _ = env.reset(seed=3)
    (agent,) = obs
    other = next(a for a in env.possible_agents if a != agent)
    with pytest.raises(ValueError, match=f"{agent} is to act"):
        env.step({other: 0})
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    before = env.table.info_state(0)
    with pytest.raises(IllegalActionError):
        env.step({agent: illegal})
    assert env.table.info_state(0) == before


def test_penalty_mode_ends_the_deal_and_names_the_action() -> None:
    env = StichMultiAgentEnv({"env_id": "stich/tapp_tarock-standard-v1", "illegal": "penalty", "illegal_penalty": -5.0})
    obs, _ = env.reset(seed=1)
    (agent,) = obs
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    _obs, rewards, terminateds, _truncateds, infos = env.step({agent: illegal})
    assert terminateds["__all__"] and rewards[agent] == -5.0
    assert infos[agent] == {"illegal_action": illegal}


def test_unknown_config_keys_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'rewardscale'"):
        StichMultiAgentEnv({"rewardscale": 2})


def test_every_preset_id_is_registered_with_rllib_by_name() -> None:
    from ray.tune.registry import ENV_CREATOR, _global_registry

    from stich.rl.ids import registered_ids
    from stich.rl.rllib_env import register_rllib_envs

    assert register_rllib_envs() == registered_ids()
    env = _global_registry.get(ENV_CREATOR, "stich/dobbm-pagat_5-v1")({"reward_scale": 0.5, "env_id": "ignored"})
    assert isinstance(env, StichMultiAgentEnv) and env.table.game.canonical == "dobbm(preset=pagat_5)"
    assert env.table.config.reward_scale == 0.5 and len(env.possible_agents) == 5
