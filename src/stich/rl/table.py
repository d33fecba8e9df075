"""One deal behind an environment: seeded deals, observations as tensors, rewards, illegal actions.

The framework adapters (PettingZoo, Gymnasium, OpenSpiel) all keep a
:class:`Table`; it holds the rules that every adapter must apply alike.

* **Deals.** ``reset(seed)`` seeds a private :class:`stich.rl.deals.DealStream`;
  each deal takes its engine seed and its dealer from that stream, so
  ``reset(seed=s)`` followed by ``reset()`` ``reset()`` ... is one
  reproducible series of deals.  The dealer is drawn per deal by default
  (``dealer="random"``); ``"rotate"`` passes the deal on like at a table, an
  int fixes it (decision 0046).
* **Rewards** are the score change of the finished deal in the game's own unit
  (``game.score_unit``: Doppelkopf points, Tapp Tarock game points, Dobbm
  units, Droggn points, Dappen cents) times ``reward_scale``; every step
  before the end pays 0.
* **Illegal actions** raise the engine's :class:`IllegalActionError` (naming
  the rule) and change nothing.  ``illegal="penalty"`` is for training instead:
  the offender is paid ``illegal_penalty`` (not scaled), every other seat 0,
  and the deal ends.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from stich.core.game import Game, State
from stich.errors import IllegalActionError, NotationError
from stich.rl.deals import DEFAULT_DEALER, Dealer, DealStream, check_dealer
from stich.rl.encoding import Encoding
from stich.rl.ids import game_for

OBSERVATION_HIGH = 64.0
"""Upper bound of every tensor value (counts of repeated actions are the largest; most values lie in 0..1)."""

IllegalMode = Literal["raise", "penalty"]


@dataclass(frozen=True)
class TableConfig:
    """The options every environment takes."""

    env_id: str = "stich/doppelkopf-ddv-v1"
    reward_scale: float = 1.0
    """Rewards are the score change in the game's unit times this."""
    illegal: IllegalMode = "raise"
    illegal_penalty: float = -1.0
    dealer: Dealer = DEFAULT_DEALER
    """The dealer of every deal: drawn per deal from the seeded stream (default), rotating, or a fixed seat."""

    def __post_init__(self) -> None:
        if self.illegal not in ("raise", "penalty"):
            raise ValueError(f"illegal must be 'raise' or 'penalty', not {self.illegal!r}")
        if self.reward_scale <= 0:
            raise ValueError(f"reward_scale must be positive, not {self.reward_scale}")


def engine_act(state: State, action: int | str, illegal: IllegalMode) -> bool:
    """Apply ``action`` (a code or a text) to ``state``; an illegal one raises (``illegal="raise"``) or returns False."""
    try:
        state.apply(int(action) if not isinstance(action, str) else action)
    except (IllegalActionError, NotationError):
        if illegal == "raise":
            raise
        return False
    return True


class BaseTable(ABC):
    """What every table of an env shares: its configuration, game, stream of deals, encoding, and the penalty.

    :class:`Table` plays a deal in the engine, :class:`~stich.rl.kernel_table.KernelTable`
    in the compiled kernel; each says how to reach the engine state
    (:meth:`current`) and the finished deal's scores (:meth:`final_scores`).
    """

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self.game: Game = game_for(config.env_id)
        self.stream = DealStream(self.game.num_seats, check_dealer(config.dealer, self.game.num_seats))
        self.rng = self.stream.rng
        """The seeded stream of deals (the Gymnasium env draws its bots' seeds from it too)."""
        self.encoding = Encoding(self.game)  # its own: an encoding keeps each seat's last scan of the events
        self.penalised: int | None = None
        """The seat that made an illegal action in penalty mode (the deal ended there)."""

    @property
    def seats(self) -> int:
        return self.game.num_seats

    @abstractmethod
    def current(self) -> State:
        """The engine state of the deal in progress (a :class:`RuntimeError` before the first deal)."""

    @abstractmethod
    def final_scores(self) -> Sequence[int] | None:
        """The engine's scores of the finished deal in the game's unit; ``None`` while it runs."""

    def info_state(self, seat: int) -> str:
        return self.encoding.info_state(self.current().observation(seat))

    def rewards(self) -> list[float]:
        """Per seat: 0 until the deal ends, then the scaled score change (or the penalty)."""
        if self.penalised is not None:
            return [self.config.illegal_penalty if s == self.penalised else 0.0 for s in range(self.seats)]
        scores = self.final_scores()
        if scores is None:
            return [0.0] * self.seats
        return [score * self.config.reward_scale for score in scores]


class Table(BaseTable):
    """A configured game, its encoding, and the deal in progress, played in the engine."""

    def __init__(self, config: TableConfig) -> None:
        super().__init__(config)
        self.state: State | None = None

    def deal(self, seed: int | None = None) -> State:
        """Start the next deal (``seed`` reseeds the stream of deals first)."""
        if seed is not None:
            self.stream.seed(seed)
        deal_seed, dealer = self.stream.next_deal()
        self.state = self.game.new_state(seed=deal_seed, dealer=dealer)
        self.penalised = None
        return self.state

    def current(self) -> State:
        if self.state is None:
            raise RuntimeError("no deal in progress: call reset() first")
        return self.state

    def finished(self) -> bool:
        return self.penalised is not None or self.current().is_terminal()

    def to_move(self) -> int:
        """The seat to act (-1 when the deal is over)."""
        return -1 if self.finished() else self.current().current_player()

    def observe(self, seat: int) -> dict[str, npt.NDArray[np.float32] | npt.NDArray[np.int8]]:
        """``{"observation": tensor, "action_mask": mask}`` of ``seat`` (mask all zero unless it is to act)."""
        obs = self.current().observation(seat)
        mask = self.encoding.mask(obs) if self.penalised is None else np.zeros(len(self.game.actions), dtype=np.int8)
        return {"observation": self.encoding.tensor(obs), "action_mask": mask}

    def act(self, action: int | str) -> None:
        """Apply the action of the seat to move; illegal: raise, or end the deal with the penalty."""
        state = self.current()
        if self.finished():
            raise IllegalActionError("the deal is over", "deal over")
        seat = state.current_player()
        if not engine_act(state, action, self.config.illegal):
            self.penalised = seat

    def final_scores(self) -> Sequence[int] | None:
        state = self.current()
        return state.result().scores if state.is_terminal() else None
