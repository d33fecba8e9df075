"""PettingZoo AEC environment for every game: ``stich.rl.pettingzoo_env.env("stich/doppelkopf-ddv-v1")``.

Agents ``player_0`` ... ``player_{n-1}`` are the seats (a dealer who sits out
is an agent that is never selected and is paid 0).  Each observation is
``{"observation": float32 tensor, "action_mask": int8 mask}`` from
:mod:`stich.rl.encoding`; the action is an action code of the game
(``Discrete(len(game.actions))``).  Rewards, illegal actions and seeding follow
:mod:`stich.rl.table`.

There is no parallel-API variant: in a trick-taking game exactly one seat acts
at a time, so a ``ParallelEnv`` would be this env with every other seat's
action thrown away each step (PettingZoo's own ``aec_to_parallel`` refuses
such envs for the same reason).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from stich.rl.table import OBSERVATION_HIGH, IllegalMode, Table, TableConfig

Observation = dict[str, npt.NDArray[Any]]


def agent_name(seat: int) -> str:
    """PettingZoo's name of a seat."""
    return f"player_{seat}"


class StichAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]  # pettingzoo ships no type information
    """One deal at a time of a stich game, seat by seat."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "stich_v1", "is_parallelizable": False}

    def __init__(
        self,
        env_id: str = "stich/doppelkopf-ddv-v1",
        *,
        reward_scale: float = 1.0,
        illegal: IllegalMode = "raise",
        illegal_penalty: float = -1.0,
        dealer: int | str = 0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.table = Table(TableConfig(env_id, reward_scale, illegal, illegal_penalty, dealer if dealer == "random" else int(dealer)))  # type: ignore[arg-type]
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(self.table.seats)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        size, n_actions = self.table.encoding.size, len(self.table.game.actions)
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, OBSERVATION_HIGH, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.deal(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self.table.to_move())

    def observe(self, agent: str) -> Observation:
        return self.table.observe(self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is an action only for a finished agent")
        self._cumulative_rewards[agent] = 0.0
        self.table.act(action)
        if self.table.finished():
            for seat, reward in enumerate(self.table.rewards()):
                self.rewards[agent_name(seat)] = reward
            self.terminations = dict.fromkeys(self.agents, True)
            if self.table.penalised is not None:
                self.infos[agent]["illegal_action"] = int(action)
            self._accumulate_rewards()
            self._deads_step_first()
        else:
            self._clear_rewards()
            self.agent_selection = agent_name(self.table.to_move())

    def render(self) -> str | None:
        """The deal as the seat to act sees it (``ansi``): never a hidden card."""
        if self.render_mode is None:
            return None
        seat = self._seat.get(self.agent_selection, 0)
        return self.table.info_state(seat)

    def close(self) -> None:
        """Nothing to release (the deal lives in memory)."""


def env(env_id: str = "stich/doppelkopf-ddv-v1", **kwargs: Any) -> StichAECEnv:
    """The AEC environment of an id or canonical game string (see :class:`StichAECEnv` for the options)."""
    return StichAECEnv(env_id, **kwargs)
