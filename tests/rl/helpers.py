"""Configurations the RL tests share (random deals: :func:`stich.rl.leak_check.random_points`)."""

from __future__ import annotations

import numpy as np

from stich.core.game import Game
from stich.rl.ids import game_for
from stich.rl.leak_check import leak_configs

CONFIGS = leak_configs()
"""Every preset id and every other table size: what the encoding tests play."""


def configs_games() -> list[Game]:
    """The configured game of every entry of :data:`CONFIGS`."""
    return [game_for(c) for c in CONFIGS]


def same_aec_view(kernel: object, engine: object, agents: list[str]) -> None:
    """Two PettingZoo envs of one game agree: every agent's observation and mask, the agent to act, rewards and terminations."""
    k, e = kernel, engine
    assert k.agent_selection == e.agent_selection  # type: ignore[attr-defined]
    assert k.rewards == e.rewards and k.terminations == e.terminations  # type: ignore[attr-defined]
    assert k._cumulative_rewards == e._cumulative_rewards  # type: ignore[attr-defined]
    for agent in agents:
        a, b = k.observe(agent), e.observe(agent)  # type: ignore[attr-defined]
        assert a["observation"].dtype == b["observation"].dtype and a["action_mask"].dtype == b["action_mask"].dtype
        assert np.array_equal(a["observation"], b["observation"]), agent
        assert np.array_equal(a["action_mask"], b["action_mask"]), agent


def same_illegal_error(kernel: object, engine: object) -> int:
    """The first code the acting agent's mask forbids raises the same error in both envs, which stay as they were; the code."""
    import pytest

    from stich.errors import IllegalActionError

    k, e = kernel, engine
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError) as expected:
        e.step(illegal)  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError) as got:
        k.step(illegal)  # type: ignore[attr-defined]
    assert str(got.value) == str(expected.value) and got.value.rule == expected.value.rule  # type: ignore[attr-defined]
    same_aec_view(k, e, list(e.possible_agents))  # type: ignore[attr-defined]
    return illegal
