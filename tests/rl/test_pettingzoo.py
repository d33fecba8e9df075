"""The PettingZoo AEC env: PettingZoo's own API and seed tests for every game, rewards, illegal actions."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils import wrappers

from stich.core.registry import game_names
from stich.errors import IllegalActionError
from stich.rl.pettingzoo_env import StichAECEnv, env, raw_env

GAMES = [
    *(f"stich/{name}-{preset}-v1" for name, preset in zip(game_names(), ("ddv", "standard", "pagat", "stubai", "furtwangen"), strict=True))
]
EXTRA = ["stich/doppelkopf(preset=ddv,players=5)-v1", "stich/tapp_tarock-four_players-v1"]


@pytest.mark.parametrize("env_id", GAMES + EXTRA)
def test_pettingzoo_api_test(env_id: str) -> None:
    with warnings.catch_warnings():
        # The two warnings every masked env gets: a Dict observation space, a dict observation.
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(env_id), num_cycles=20)


@pytest.mark.parametrize("env_id", GAMES)
def test_pettingzoo_seed_test(env_id: str) -> None:
    seed_test(lambda: env(env_id), num_cycles=20)


@pytest.mark.parametrize("env_id", GAMES + EXTRA)
def test_pettingzoo_render_test(env_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: env(env_id, render_mode=render_mode))
    assert "phase" in capsys.readouterr().out  # human mode printed the seat's view


def test_env_is_wrapped_the_pettingzoo_way_and_raw_env_is_bare() -> None:
    wrapped = env("stich/dobbm-pagat-v1")
    assert isinstance(wrapped, wrappers.OrderEnforcingWrapper)
    assert isinstance(wrapped.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(wrapped.unwrapped, StichAECEnv)
    assert type(raw_env("stich/dobbm-pagat-v1")) is StichAECEnv
    with pytest.raises(AttributeError, match="before reset"):
        wrapped.agent_selection  # noqa: B018 - the order check is the point
    wrapped.reset(seed=1)
    with pytest.raises(AssertionError):
        wrapped.step(len(wrapped.unwrapped.table.game.actions))  # outside the action space


def test_the_text_render_is_the_seats_view_and_adds_the_rewards_at_the_end() -> None:
    e = raw_env("stich/tapp_tarock-standard-v1", render_mode="ansi")
    assert e.render() == "no deal in progress: call reset() first"
    e.reset(seed=3)
    seat = e.table.to_move()
    assert e.render() == e.table.info_state(seat)
    for _agent in e.agent_iter():
        obs, _reward, terminated, _trunc, _info = e.last()
        e.step(None if terminated else int(np.flatnonzero(obs["action_mask"])[0]))
    text = e.render()
    assert text is not None and text.splitlines()[-1] == "rewards " + " ".join(f"{r:g}" for r in e.table.rewards())
    with pytest.raises(ValueError, match="render_mode must be None, 'human' or 'ansi'"):
        raw_env(render_mode="rgb_array")


def _play(e: StichAECEnv, seed: int) -> tuple[dict[str, float], list[int]]:
    """Play one deal with random legal actions; the total reward of each agent and the actions."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    actions = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        action = rng.choice(list(np.flatnonzero(obs["action_mask"])))
        actions.append(int(action))
        e.step(int(action))
    return totals, actions


def test_rewards_are_the_deal_scores_times_the_scale() -> None:
    e = env("stich/dobbm-pagat-v1", reward_scale=0.5)
    totals, actions = _play(e, seed=11)
    state = e.table.current()
    assert state.is_terminal() and [a for _, a in state.history] == actions
    assert totals == {f"player_{s}": score * 0.5 for s, score in enumerate(state.result().scores)}
    assert e.agents == []


def test_a_seat_that_sits_out_is_never_selected_and_paid_nothing() -> None:
    e = env("doppelkopf(players=5)")
    e.reset(seed=4)
    dealer = e.table.current().dealer
    seen = set()
    for agent in e.agent_iter():
        _obs, _reward, terminated, _trunc, _info = e.last()
        if terminated:
            e.step(None)
            continue
        seen.add(agent)
        e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))
    assert f"player_{dealer}" not in seen and len(seen) == 4
    assert e.table.current().result().scores[dealer] == 0


def test_the_observation_is_the_seats_encoding() -> None:
    e = env("stich/tapp_tarock-standard-v1")
    e.reset(seed=2)
    state = e.table.current()
    for seat in range(3):
        obs = e.observe(f"player_{seat}")
        assert np.array_equal(obs["observation"], e.table.encoding.tensor(state.observation(seat)))
        assert np.array_equal(obs["action_mask"], e.table.encoding.mask(state.observation(seat)))


def test_reset_with_a_seed_repeats_the_series_of_deals() -> None:
    a, b = env("dappen"), env("dappen")
    a.reset(seed=7)
    b.reset(seed=7)
    assert a.table.current().dealt == b.table.current().dealt
    a.reset()
    b.reset()
    assert a.table.current().dealt == b.table.current().dealt
    b.reset(seed=8)
    assert a.table.current().dealt != b.table.current().dealt


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    e = env("stich/doppelkopf-ddv-v1")
    e.reset(seed=1)
    agent = e.agent_selection
    before = e.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    assert e.agent_selection == agent and len(e.table.current().history) == 0
    assert np.array_equal(e.observe(agent)["observation"], before["observation"])


def test_penalty_mode_ends_the_deal_and_pays_the_offender_the_penalty() -> None:
    e = env("stich/doppelkopf-ddv-v1", illegal="penalty", illegal_penalty=-5.0)
    e.reset(seed=1)
    agent = e.agent_selection
    illegal = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert e._cumulative_rewards[agent] == -5.0
    assert sum(e._cumulative_rewards.values()) == -5.0
    assert e.infos[agent]["illegal_action"] == illegal
    assert not e.observe(agent)["action_mask"].any()


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="illegal must be"):
        env(illegal="ignore")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reward_scale"):
        env(reward_scale=0)
    with pytest.raises(ValueError, match="dealer must be a seat"):
        env(dealer=4)
