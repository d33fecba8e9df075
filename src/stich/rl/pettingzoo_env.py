"""PettingZoo AEC environment for every game: ``stich.rl.pettingzoo_env.env("stich/doppelkopf-ddv-v1")``.

As in PettingZoo's own games, :func:`env` is the env wrapped in PettingZoo's
conventional wrappers (``AssertOutOfBoundsWrapper``: an action outside the
action space is refused; ``OrderEnforcingWrapper``: ``step``/``observe``/
``render`` before ``reset`` are refused) and :func:`raw_env` is the bare
:class:`StichAECEnv`.  Attributes of the env (``table`` ...) are reached
through the wrappers; ``env(...).unwrapped`` is the bare env.

Rendering is text: ``render_mode="ansi"`` returns the deal as the seat to act
sees it (its information-state string, plus every seat's reward once the deal is over),
``render_mode="human"`` prints that text and returns ``None``.  Neither shows a
card the seat cannot see.

Agents ``player_0`` ... ``player_{n-1}`` are the seats (a dealer who sits out
is an agent that is never selected and is paid 0).  Each observation is
``{"observation": float32 tensor, "action_mask": int8 mask}`` from
:mod:`stich.rl.encoding`; the action is an action code of the game
(``Discrete(len(game.actions))``).  Rewards, illegal actions and seeding follow
:mod:`stich.rl.table`.

``backend`` picks where the deal runs: ``"auto"`` (the default) steps the
DDV preset in the compiled kernel of the batched env when numba is there
(:class:`stich.rl.kernel_table.KernelTable`: the same deals, tensors, masks,
rewards and errors, several times faster), and the Tarock family's card play
in its batch's kernel (:class:`~stich.rl.kernel_table.TarockKernelTable`, the
bidding and talon in the engine: about twice the engine path), the other
Doppelkopf option sets in the engine; ``"engine"`` always uses the engine,
``"kernel"`` insists on the kernel.

There is no parallel-API variant: in a trick-taking game exactly one seat acts
at a time, so a ``ParallelEnv`` would be this env with every other seat's
action thrown away each step (PettingZoo's own ``aec_to_parallel`` refuses
such envs for the same reason).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from stich.core.extras import missing_extra
from stich.rl.deals import DEFAULT_DEALER, Dealer
from stich.rl.kernel_table import Backend, table_for
from stich.rl.table import OBSERVATION_HIGH, IllegalMode, TableConfig

try:  # the 'rl' extra
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as exc:
    raise missing_extra(exc.name or "pettingzoo", __name__) from exc

Observation = dict[str, npt.NDArray[Any]]

RENDER_MODES = ("human", "ansi")
"""Text renders: ``ansi`` returns the text, ``human`` prints it."""


def agent_name(seat: int) -> str:
    """PettingZoo's name of a seat."""
    return f"player_{seat}"


class StichAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]  # pettingzoo ships no type information
    """One deal at a time of a stich game, seat by seat."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "stich_v1", "is_parallelizable": False}

    def __init__(
        self,
        env_id: str = "stich/doppelkopf-ddv-v1",
        *,
        reward_scale: float = 1.0,
        illegal: IllegalMode = "raise",
        illegal_penalty: float = -1.0,
        dealer: Dealer = DEFAULT_DEALER,
        render_mode: str | None = None,
        backend: Backend = "auto",
    ) -> None:
        super().__init__()
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.table = table_for(TableConfig(env_id, reward_scale, illegal, illegal_penalty, dealer), backend)
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
        """The deal as the seat to act sees it, never a hidden card: returned (``ansi``) or printed (``human``)."""
        if self.render_mode is None:
            return None
        if self.table.state is None:
            text = "no deal in progress: call reset() first"
        else:
            seat = self._seat.get(self.agent_selection, 0)
            text = self.table.info_state(seat)
            if self.table.finished():
                text += "\nrewards " + " ".join(f"{r:g}" for r in self.table.rewards())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (the deal lives in memory)."""


def raw_env(env_id: str = "stich/doppelkopf-ddv-v1", **kwargs: Any) -> StichAECEnv:
    """The bare AEC environment of an id or canonical game string (see :class:`StichAECEnv` for the options)."""
    return StichAECEnv(env_id, **kwargs)


def env(env_id: str = "stich/doppelkopf-ddv-v1", **kwargs: Any) -> AECEnv[str, Observation, int]:
    """The AEC environment in PettingZoo's conventional wrappers (out-of-bounds actions and call order checked).

    Takes the options of :class:`StichAECEnv`; ``.unwrapped`` is the bare env.
    """
    wrapped = wrappers.AssertOutOfBoundsWrapper(raw_env(env_id, **kwargs))
    return wrappers.OrderEnforcingWrapper(wrapped)
