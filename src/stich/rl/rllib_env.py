"""RLlib ``MultiAgentEnv`` for every game: ``StichMultiAgentEnv({"env_id": "stich/doppelkopf-ddv-v1"})``.

RLlib's own OpenSpiel wrapper hands a policy no action mask, so a trick-taking
game there is learnt by trial and penalty.  This env gives each observation as
RLlib's masked Dict, with the key names RLlib's action-masking example module
reads (``ray.rllib.examples.rl_modules.classes.action_masking_rlm``):

* ``"observations"``: the ``float32`` tensor of :mod:`stich.rl.encoding`;
* ``"action_mask"``: ``float32`` 0/1 over the game's whole action space (float,
  as RLlib's example takes the log of it; index = action code, as everywhere in
  :mod:`stich.rl`).

It is **turn-based**: ``reset`` and every ``step`` return an observation only
for the agent to act (agents are ``player_0`` ... as in PettingZoo), and
``step`` expects exactly that agent's action.  Every step pays the acting agent
0; when the deal ends, every agent that took part gets its last observation
(all-zero mask), its reward (the score change, see :mod:`stich.rl.table`) and
``terminated``, with ``"__all__": True``, as RLlib's PettingZoo wrapper does.
A dealer who sits out never acts and is paid 0, so it never appears.

The config (RLlib's ``env_config``) takes the options of the other adapters:
``env_id``, ``reward_scale``, ``illegal`` (``"raise"``/``"penalty"``),
``illegal_penalty``, ``dealer`` (default ``"random"``, decision 0046) and
``backend`` (default ``"auto"``: DDV Doppelkopf and the Tarock family's card
play in the compiled kernels, as the PettingZoo env, decisions 0065 and
0069); an unknown key is refused by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from stich.core.extras import missing_extra
from stich.rl.deals import DEFAULT_DEALER
from stich.rl.ids import registered_ids
from stich.rl.kernel_table import table_for
from stich.rl.pettingzoo_env import agent_name
from stich.rl.table import OBSERVATION_HIGH, TableConfig

try:  # the 'rl' and 'rllib' extras
    from gymnasium import spaces
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
    from ray.rllib.utils.typing import AgentID, MultiAgentDict
except ModuleNotFoundError as exc:
    raise missing_extra(exc.name or "ray", __name__) from exc

CONFIG_KEYS = ("env_id", "reward_scale", "illegal", "illegal_penalty", "dealer", "backend")
"""The keys an ``env_config`` may hold."""


class StichMultiAgentEnv(MultiAgentEnv):
    """One deal at a time of a stich game, one acting agent per step, masked Dict observations."""

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        # ray annotates this constructor in some releases only: calling it through Any passes mypy with all of them
        cast(Any, super()).__init__()
        options = dict(config or {})
        unknown = sorted(set(options) - set(CONFIG_KEYS))
        if unknown:
            raise ValueError(f"unknown env_config key {unknown[0]!r}; known: {', '.join(CONFIG_KEYS)}")
        self.table = table_for(
            TableConfig(
                str(options.get("env_id", "stich/doppelkopf-ddv-v1")),
                float(options.get("reward_scale", 1.0)),
                options.get("illegal", "raise"),
                float(options.get("illegal_penalty", -1.0)),
                options.get("dealer", DEFAULT_DEALER),
            ),
            options.get("backend", "auto"),  # the compiled kernels (DDV, Tarock family), as the PettingZoo env (stich.rl.kernel_table)
        )
        self.possible_agents: list[AgentID] = [agent_name(s) for s in range(self.table.seats)]
        self.agents = list(self.possible_agents)
        self._seat: dict[AgentID, int] = {a: s for s, a in enumerate(self.possible_agents)}
        n_actions = len(self.table.game.actions)
        space = spaces.Dict(
            {
                "observations": spaces.Box(0.0, OBSERVATION_HIGH, shape=(self.table.encoding.size,), dtype=np.float32),
                "action_mask": spaces.Box(0.0, 1.0, shape=(n_actions,), dtype=np.float32),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._acted: set[AgentID] = set()

    def _observe(self, agent: AgentID) -> dict[str, npt.NDArray[np.float32]]:
        view = self.table.observe(self._seat[agent])
        return {"observations": view["observation"].astype(np.float32), "action_mask": view["action_mask"].astype(np.float32)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[MultiAgentDict, MultiAgentDict]:  # type: ignore[override]  # RLlib's signature, not gymnasium.Env's
        """Deal the next deal (``seed`` restarts the reproducible series); the observation of the agent to act."""
        self.table.deal(seed)
        self._acted = set()
        agent = agent_name(self.table.to_move())
        return {agent: self._observe(agent)}, {}

    def step(self, action_dict: MultiAgentDict) -> tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:  # type: ignore[override]  # RLlib's
        """Apply the acting agent's action; the next agent's observation, or everyone's last one when the deal ends."""
        if self.table.finished():
            raise ValueError("the deal is over: call reset()")
        agent = agent_name(self.table.to_move())
        others = set(action_dict) - {agent}
        if agent not in action_dict or others:
            raise ValueError(f"{agent} is to act: expected an action for {agent} only, got {sorted(map(str, action_dict))}")
        action = action_dict[agent]
        self._acted.add(agent)
        self.table.act(int(action))
        if not self.table.finished():
            following = agent_name(self.table.to_move())
            return {following: self._observe(following)}, {agent: 0.0}, {"__all__": False}, {"__all__": False}, {}
        rewards = self.table.rewards()
        takers = [a for a in self.possible_agents if a in self._acted or rewards[self._seat[a]] != 0.0]
        observations = {a: self._observe(a) for a in takers}
        infos: MultiAgentDict = {}
        if self.table.penalised is not None:
            infos[agent] = {"illegal_action": int(action)}
        terminateds: MultiAgentDict = dict.fromkeys(takers, True)
        terminateds["__all__"] = True
        truncateds: MultiAgentDict = dict.fromkeys(takers, False)
        truncateds["__all__"] = False
        return observations, {a: rewards[self._seat[a]] for a in takers}, terminateds, truncateds, infos

    def info_state(self, agent: AgentID) -> str:
        """The information-state string of ``agent`` (:meth:`stich.rl.encoding.Encoding.info_state`): never a hidden card."""
        return self.table.info_state(self._seat[agent])


def register_rllib_envs() -> list[str]:
    """Register every preset id with RLlib (Tune's env registry), so ``config.environment("stich/dobbm-pagat-v1")`` works.

    The env config's own ``env_id`` is ignored for a registered id (the id
    names the rules); any other configuration is reached by passing the class
    with ``env_config={"env_id": "doppelkopf(players=5)"}``.  Needs no running
    Ray cluster.  Returns the ids registered.
    """
    from ray.tune.registry import register_env

    ids = registered_ids()
    for env_id in ids:

        def create(config: Mapping[str, Any] | None, env_id: str = env_id) -> StichMultiAgentEnv:
            return StichMultiAgentEnv({**dict(config or {}), "env_id": env_id})

        register_env(env_id, create)
    return ids
