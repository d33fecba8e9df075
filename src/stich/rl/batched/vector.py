"""The batches as a ``gymnasium.vector.VectorEnv`` with autoreset: ``BatchVectorEnv("stich/doppelkopf-ddv-v1", 1024)``.

A self-play view: each of the ``num_envs`` deals is one sub-environment, and
each step acts for the seat to move in every deal (one shared policy plays
every seat; the tensor is relative to the seat, :mod:`stich.rl.encoding`).

* ``observation``: ``{"observation": (N, size) float32, "action_mask": (N,
  actions) int8}`` of the seat to act (as the single envs' Dict), copied, so
  a rollout buffer may keep it;
* ``reward`` ``(N,)``: the reward of the seat that acted in this step (the
  score change times ``reward_scale`` when its deal ended, else 0);
  ``info["rewards"]`` ``(N, seats)`` is every seat's, which a self-play
  learner needs since rewards are paid only at a deal's end;
  ``info["current_player"]`` ``(N,)`` is the seat to act in the observation
  returned, ``info["actor"]`` the seat that acted (-1 for a slot that reset);
* ``terminated`` when the deal ended, ``truncated`` never (a deal is finite).

**Autoreset** is Gymnasium's ``AutoresetMode.NEXT_STEP`` (its default): the
step that ends a deal returns its final observation (all-zero mask) with
``terminated``; the next step ignores that slot's action, deals its next deal
from the slot's stream and returns that deal's first observation (reward 0,
not terminated).

``reset(seed=s)`` seeds slot ``i`` with :func:`stich.rl.deals.spawn_seed`
``(s, i)`` (a list: one seed per slot); the batch's options (``dealer``,
``reward_scale``, a Tarock batch's ``bidding``, a Doppelkopf batch's
``compiled``) are passed through.  A Tarock batch steps card play only unless
``bidding="learner"``, which gives the learner the bidding, talon and
discards too (:class:`~stich.rl.batched.tarock.TarockBatch`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from stich.rl.batched.doppelkopf import DoppelkopfBatch
from stich.rl.batched.tarock import TarockBatch
from stich.rl.ids import game_for
from stich.rl.table import OBSERVATION_HIGH

ObsDict = dict[str, npt.NDArray[Any]]


def make_batch(env_id: str, num_envs: int, **kwargs: Any) -> DoppelkopfBatch | TarockBatch:
    """The batch of an id: Doppelkopf's or the Tarock family's (a Droggn id builds a Droggn batch)."""
    if game_for(env_id).name == "doppelkopf":
        return DoppelkopfBatch(num_envs, env_id, **kwargs)
    return TarockBatch(num_envs, env_id, **kwargs)


class BatchVectorEnv(VectorEnv[ObsDict, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """A batch of deals as a Gymnasium vector env with next-step autoreset (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 - Gymnasium declares it an instance attribute

    def __init__(self, env_id: str, num_envs: int, **kwargs: Any) -> None:
        self.batch = make_batch(env_id, num_envs, **kwargs)
        self.num_envs = num_envs
        size, n_actions = self.batch.observation_size, self.batch.num_actions
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, OBSERVATION_HIGH, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(n_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._autoreset = np.zeros(num_envs, dtype=bool)
        self._dealt = False

    def _observation(self) -> ObsDict:
        return {"observation": self.batch.observation.copy(), "action_mask": self.batch.legal_action_mask.copy()}

    def _info(self, actor: npt.NDArray[np.int64]) -> dict[str, Any]:
        every = np.ones(self.num_envs, dtype=bool)
        return {
            "rewards": self.batch.rewards.copy(),
            "_rewards": every,
            "current_player": self.batch.current_player.copy(),
            "_current_player": every,
            "actor": actor,
            "_actor": every,
        }

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None) -> tuple[ObsDict, dict[str, Any]]:
        """Deal every slot anew (``seed`` reseeds the slots' streams first); the first observations."""
        self.batch.reset(seed=seed)
        self._autoreset[:] = False
        self._dealt = True
        return self._observation(), self._info(np.full(self.num_envs, -1, dtype=np.int64))

    def step(self, actions: npt.ArrayLike) -> tuple[ObsDict, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """One action per slot (ignored for a slot that resets now); see the module docstring for what comes back."""
        if not self._dealt:
            raise RuntimeError("no deals in progress: call reset() first")
        codes = np.asarray(actions, dtype=np.int64).reshape(-1)
        if codes.shape != (self.num_envs,):
            raise ValueError(f"step needs {self.num_envs} actions, got shape {np.shape(actions)}")
        resetting = self._autoreset.copy()
        actor = np.where(resetting, -1, self.batch.current_player)
        self.batch.step(np.where(resetting, 0, codes))  # a resetting slot is finished: the batch ignores its action
        reward = np.zeros(self.num_envs, dtype=np.float32)
        acted = np.flatnonzero(actor >= 0)
        reward[acted] = self.batch.rewards[acted, actor[acted]]
        terminated = self.batch.terminated & ~resetting
        info = self._info(actor)
        if resetting.any():
            self.batch.reset_rows(np.flatnonzero(resetting))
            info["rewards"][resetting] = 0.0
            info["current_player"][resetting] = self.batch.current_player[resetting]
        self._autoreset = terminated.copy()
        return self._observation(), reward, terminated, np.zeros(self.num_envs, dtype=bool), info

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release (the deals live in arrays)."""
