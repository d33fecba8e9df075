"""Gymnasium single-agent environment: one seat learns, the other seats are bots from any bot spec.

``StichGymEnv("stich/doppelkopf-ddv-v1", opponents="pimc:level=1")``, or after
``import stich.rl.gymnasium_env``: ``gymnasium.make("stich/doppelkopf-ddv-v1",
opponents="heuristic")`` (every preset id is registered with Gymnasium).

An episode is one deal.  The learner's observation is the PettingZoo one,
``{"observation", "action_mask"}``; ``step(action)`` applies the learner's
action, then lets the bots act until the learner is to act again or the deal
is over.  The reward is the learner's score change (scaled), paid at the end;
a deal in which the learner's seat sits out (the dealer at a five-player
Doppelkopf table, say) is skipped at reset.  Bots see only their seat's
observation, like at any table.

``backend`` picks where the deal runs, as in the PettingZoo env:
``"auto"`` (the default) steps the DDV preset in the compiled kernel when
numba is there (:class:`stich.rl.kernel_table.KernelTable`: the learner's
tensor and mask come from the kernel; the bots still read their seat's
engine observation, replayed one action at a time), every other
configuration in the engine (the Tarock family too: with bots reading the
engine state at every step its kernel table would be slower, decision
0069); ``"engine"`` always uses the engine, ``"kernel"`` insists on the
kernel (:class:`~stich.rl.kernel_table.TarockKernelTable` for the Tarock
family).  Both give the same deals, observations and rewards for the same
seeds.

:func:`make_vector` gives a ``SyncVectorEnv`` with
``AutoresetMode.NEXT_STEP``: the step after a deal ends returns the first
observation of the next deal (with reward 0, not terminated) and ignores the
action given for that slot.  ``reset(seed=s)`` seeds copy ``i`` with
:func:`stich.rl.deals.spawn_seed` ``(s, i)`` (Gymnasium's own ``s + i`` would
make vectors seeded ``s`` and ``s + 1`` share all copies but one, decision 0046).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.core.extras import missing_extra
from stich.core.game import Action, Observation
from stich.rl.deals import DEFAULT_DEALER, Dealer, spawn_seed
from stich.rl.ids import registered_ids
from stich.rl.kernel_table import Backend, table_for
from stich.rl.table import OBSERVATION_HIGH, IllegalMode, TableConfig

try:  # the 'rl' extra
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, SyncVectorEnv
except ModuleNotFoundError as exc:
    raise missing_extra(exc.name or "gymnasium", __name__) from exc

ObsDict = dict[str, npt.NDArray[Any]]

MAX_SKIPPED_DEALS = 1000
"""Deals reset may skip because the learner sits out, before it gives up (a misconfigured seat)."""


class _Bot(Protocol):
    """What build_bot returns: a bot that answers an observation with an action."""

    def choose(self, observation: Observation) -> Action: ...


class StichGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a stich game against bots."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium declares it an instance attribute

    def __init__(
        self,
        env_id: str = "stich/doppelkopf-ddv-v1",
        *,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        reward_scale: float = 1.0,
        illegal: IllegalMode = "raise",
        illegal_penalty: float = -1.0,
        dealer: Dealer = DEFAULT_DEALER,
        render_mode: str | None = None,
        backend: Backend = "auto",
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.table = table_for(TableConfig(env_id, reward_scale, illegal, illegal_penalty, dealer), backend, bots=True)
        seats = self.table.seats
        if not 0 <= seat < seats:
            raise ValueError(f"seat must be 0..{seats - 1}, not {seat}")
        self.seat = seat
        texts = [opponents] * (seats - 1) if isinstance(opponents, str) else list(opponents)
        if len(texts) != seats - 1:
            raise ValueError(f"{seats - 1} opponent bot specs needed (one per other seat), got {len(texts)}")
        self.specs = [parse_bot_spec(t) for t in texts]
        self.bots: dict[int, _Bot] = {}
        size, n_actions = self.table.encoding.size, len(self.table.game.actions)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, OBSERVATION_HIGH, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(n_actions)

    def _new_bots(self) -> None:
        others = [s for s in range(self.table.seats) if s != self.seat]
        game = self.table.game
        self.bots = {s: build_bot(spec, game, s, self.table.rng.getrandbits(63)) for s, spec in zip(others, self.specs, strict=True)}

    def _bots_play(self) -> None:
        """Let the bots act until the learner is to act or the deal is over.

        Through the table, not the engine state, so that a kernel table steps its deal too; a bot's
        action is legal, so the table's illegal-action handling never applies here.
        """
        table = self.table
        mover = table.to_move()
        while mover not in (-1, self.seat):
            table.act(self.bots[mover].choose(table.current().observation(mover)).code)
            mover = table.to_move()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        for skipped in range(MAX_SKIPPED_DEALS):
            self.table.deal(seed if skipped == 0 else None)
            self._new_bots()
            self._bots_play()
            if not self.table.finished():
                return self.table.observe(self.seat), {}
        raise RuntimeError(f"seat {self.seat} did not act in {MAX_SKIPPED_DEALS} deals")

    def step(self, action: np.int64 | int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        self.table.act(int(action))
        info: dict[str, Any] = {}
        if self.table.penalised is None:
            self._bots_play()
        else:
            info["illegal_action"] = int(action)
        done = self.table.finished()
        reward = self.table.rewards()[self.seat] if done else 0.0
        if done and self.table.penalised is None:
            info["scores"] = list(self.table.current().result().scores)
        return self.table.observe(self.seat), float(reward), done, False, info

    def render(self) -> str | None:
        """The deal as the learner sees it (``ansi``)."""
        return self.table.info_state(self.seat) if self.render_mode == "ansi" else None


class SpawnSeededSyncVectorEnv(SyncVectorEnv):
    """Gymnasium's ``SyncVectorEnv`` whose int reset seed gives copy ``i`` ``spawn_seed(seed, i)``, not ``seed + i``."""

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        if isinstance(seed, int):
            seed = [spawn_seed(seed, i) for i in range(self.num_envs)]
        return super().reset(seed=seed, options=options)


def make_vector(env_id: str, num_envs: int, **kwargs: Any) -> SyncVectorEnv:
    """``num_envs`` copies in a ``SyncVectorEnv`` with ``AutoresetMode.NEXT_STEP`` (see the module docstring)."""
    return SpawnSeededSyncVectorEnv(
        [lambda: StichGymEnv(env_id, **kwargs) for _ in range(num_envs)],
        autoreset_mode=AutoresetMode.NEXT_STEP,
    )


def register_envs() -> None:
    """Register every preset id with Gymnasium (``gymnasium.make("stich/dobbm-pagat-v1")``)."""
    for env_id in registered_ids():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point="stich.rl.gymnasium_env:StichGymEnv", kwargs={"env_id": env_id}, disable_env_checker=True
            )


register_envs()
