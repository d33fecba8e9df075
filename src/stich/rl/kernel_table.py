"""A :class:`~stich.rl.table.Table` whose deal runs in a compiled kernel (DDV, the Tarock card play): the per-step env's fast path.

Issue 41 asks the single (per-step) env for at least half of OpenSpiel skat's
per-step rate with its observation tensor.  The engine path cannot get there:
building a seat's :class:`~stich.core.game.Observation` alone costs about as
much as that whole budget, and the tensor is read from it (decision 0065).
For the DDV preset the batched env's kernel (:mod:`stich.rl.batched.doppelkopf`)
already steps a deal and writes the seat's tensor and mask in compiled code,
exactly the engine encoding's (its differential tests and
``bench/check_batches.py``); :class:`KernelTable` runs one deal there.
:class:`TarockKernelTable` does the same for Tapp Tarock, Dobbm, Droggn and
Dappen in a ``TarockBatch`` of one with the learner bidding: the phases
before the first card in the engine (with the engine's tensors and masks),
the card play, most of a deal's steps, in the kernel (decision 0069).

Everything else about the table is :class:`~stich.rl.table.Table`'s, so the
envs built on it cannot tell the difference:

* the deals: its own :class:`~stich.rl.deals.DealStream` (the same seeds and
  dealers as the engine table's), dealt into the kernel by engine seed;
* rewards: the engine's integer scores times ``reward_scale``;
* illegal actions: the engine's own error (or the penalty), found by asking
  the engine state; a legal action in any form the engine accepts;
* the engine state itself (``current()``, ``state``, ``info_state``): replayed
  from the deal's seed and the actions taken, lazily, and only the actions
  taken since the last call, so a caller that reads it every step (the
  self-play bots) pays one engine step per step.

:func:`table_for` picks them for DDV and every Tarock-family configuration
when numba is available (``backend="auto"``); ``backend="engine"`` keeps the
reference path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, cast, get_args

import numpy as np
import numpy.typing as npt

from stich.core.game import State
from stich.errors import IllegalActionError
from stich.games.doppelkopf.game import Doppelkopf
from stich.rl.batched import require_numba
from stich.rl.ids import game_for
from stich.rl.table import BaseTable, Table, TableConfig, engine_act

if TYPE_CHECKING:
    from stich.rl.batched.doppelkopf import DoppelkopfBatch
    from stich.rl.batched.tarock import TarockBatch

TAROCK_GAMES = ("tapp_tarock", "dobbm", "droggn", "dappen")
"""The games :class:`TarockKernelTable` plays (every preset and table size: those of ``TarockBatch``)."""

Backend = Literal["auto", "engine", "kernel"]
"""Where a single env's deal runs: the compiled kernel where it plays the configuration (``auto``), or always one."""

BACKENDS: tuple[str, ...] = get_args(Backend)


class KernelTable(BaseTable):
    """One DDV Doppelkopf deal at a time in the compiled kernel, with :class:`~stich.rl.table.Table`'s interface.

    :class:`TarockKernelTable` is the same table on a Tarock-family batch; the two differ in how a deal is dealt,
    stepped and scored (:meth:`_deal_batch`, :meth:`_step_batch`, :meth:`_batch_scores`).
    """

    batch: DoppelkopfBatch | TarockBatch

    def __init__(self, config: TableConfig) -> None:
        super().__init__(config)  # the encoding gives sizes, slices, information-state strings; the tensors come from the kernel
        self.batch = self._make_batch(config.env_id)
        self._seat = np.zeros(1, dtype=np.int64)
        self._code = np.zeros(1, dtype=np.int64)
        self._deal: tuple[int, int] | None = None
        self._codes: list[int] = []
        self._engine: State | None = None
        self._scores: list[int] | None = None
        self._mask = self.batch.legal_action_mask[0]
        """The deal's mask (a view of the batch's row, which the batch writes in place)."""

    @property
    def state(self) -> State | None:
        """The engine state of the deal in progress (replayed on demand), ``None`` before the first deal."""
        return None if self._deal is None else self.current()

    def deal(self, seed: int | None = None) -> None:
        """Start the next deal (``seed`` reseeds the stream of deals first), as :meth:`Table.deal`."""
        if seed is not None:
            self.stream.seed(seed)
        deal_seed, dealer = self.stream.next_deal()
        self._deal_batch(deal_seed, dealer)
        self._deal = (deal_seed, dealer)
        self._codes = []
        self._engine = None
        self._scores = None
        self.penalised = None

    def current(self) -> State:
        """The engine state of this deal: the actions taken since the last call applied to the kept one."""
        if self._deal is None:
            raise RuntimeError("no deal in progress: call reset() first")
        state = self._engine
        if state is None:
            seed, dealer = self._deal
            state = self._engine = self.game.new_state(seed=seed, dealer=dealer)
        for code in self._codes[len(state.history) :]:
            state.apply(code)
        return state

    def finished(self) -> bool:
        return self.penalised is not None or bool(self.batch.terminated[0])

    def to_move(self) -> int:
        """The seat to act (-1 when the deal is over)."""
        if self._deal is None:
            raise RuntimeError("no deal in progress: call reset() first")
        return -1 if self.finished() else int(self.batch.current_player[0])

    def observe(self, seat: int) -> dict[str, npt.NDArray[np.float32] | npt.NDArray[np.int8]]:
        """``{"observation": tensor, "action_mask": mask}`` of ``seat``, as :meth:`Table.observe`."""
        batch = self.batch
        if self._deal is None:
            raise RuntimeError("no deal in progress: call reset() first")
        if seat == batch.current_player[0] and not batch.terminated[0]:
            tensor = batch.observation[0].copy()
            mask = batch.legal_action_mask[0].copy() if self.penalised is None else np.zeros(batch.num_actions, dtype=np.int8)
        else:
            self._seat[0] = seat
            tensor = batch.observe(self._seat)[0]
            mask = np.zeros(batch.num_actions, dtype=np.int8)
        return {"observation": tensor, "action_mask": mask}

    def act(self, action: int | str) -> None:
        """Apply the action of the seat to move; illegal: the engine's error, or the penalty (as :meth:`Table.act`)."""
        if self.finished():
            raise IllegalActionError("the deal is over", "deal over")
        batch = self.batch
        code = action if type(action) is int else -1 if isinstance(action, str) else int(action)
        if not (0 <= code < batch.num_actions and self._mask[code]):
            # Not a legal code: the engine decides (a legal text form, or the rule an illegal action breaks).
            seat, state = int(batch.current_player[0]), self.current()
            if not engine_act(state, action, self.config.illegal):
                self.penalised = seat
                return
            code = state.history[-1][1]
        self._step_batch(code)
        self._codes.append(code)
        if batch.terminated[0]:
            self._scores = self._batch_scores()

    def final_scores(self) -> list[int] | None:
        """The kernel's scores of the finished deal (the engine's integers, read when the last action ends it)."""
        return self._scores

    # The batch behind the table: DDV Doppelkopf's (TarockKernelTable overrides these).
    def _make_batch(self, env_id: str) -> DoppelkopfBatch | TarockBatch:
        from stich.rl.batched.doppelkopf import DoppelkopfBatch  # needs numba: imported only here

        return DoppelkopfBatch(1, env_id, compiled=True)

    def _deal_batch(self, deal_seed: int, dealer: int) -> None:
        """Deal the batch's one deal with this engine seed and dealer."""
        rows = np.zeros(1, dtype=np.int64)
        cast("DoppelkopfBatch", self.batch).deal_given(rows, np.array([deal_seed], dtype=np.uint64), np.array([dealer], dtype=np.int64))

    def _step_batch(self, code: int) -> None:
        """Play ``code`` (legal: the mask or the engine said so) in the batch's deal."""
        self._code[0] = code
        self.batch.step(self._code)

    def _batch_scores(self) -> list[int]:
        """The finished deal's scores: the kernel's float32 at scale 1 are the engine's integers."""
        return [round(float(r)) for r in self.batch.rewards[0]]


class TarockKernelTable(KernelTable):
    """One Tapp Tarock, Dobbm, Droggn or Dappen deal at a time in a :class:`~stich.rl.batched.tarock.TarockBatch` of one.

    The batch's learner bidding: the phases before the first card (bidding, talon, discards, announcements,
    doubling) run in the engine with the engine's tensors and masks, the card play (most of a deal's steps) in the
    compiled kernel; the batch's engine state scores the deal, so the scores are the engine's integers whatever
    their size.  Each card skips the batch's work for many deals (:meth:`TarockBatch.step_single`).
    """

    batch: TarockBatch

    def _make_batch(self, env_id: str) -> TarockBatch:
        from stich.rl.batched.tarock import LEARNER, TarockBatch  # needs numba: imported only here

        return TarockBatch(1, env_id, bidding=LEARNER)

    def _deal_batch(self, deal_seed: int, dealer: int) -> None:
        self.batch.deal_given(0, deal_seed, dealer)

    def _step_batch(self, code: int) -> None:
        self.batch.step_single(code)

    def _batch_scores(self) -> list[int]:
        return list(self.batch.finished_state(0).result().scores)


def kernel_plays(env_id: str) -> bool:
    """Whether a compiled kernel plays this configuration: DDV Doppelkopf or any Tarock-family one (numba importable and on)."""
    game = game_for(env_id)
    if not isinstance(game, Doppelkopf) and game.name not in TAROCK_GAMES:
        return False
    try:
        require_numba()  # asked every time: STICH_NO_NUMBA switches the kernel off even once it is imported
        from stich.rl.batched.doppelkopf import unsupported_options
    except ImportError:
        return False
    return not isinstance(game, Doppelkopf) or not unsupported_options(game.options)


def table_for(config: TableConfig, backend: Backend = "auto", *, bots: bool = False) -> Table | KernelTable:
    """The table of a single env: the kernel's where ``backend`` asks for it (``auto``: where it plays the game).

    ``bots``: the caller's bots read the engine state at every step (the Gymnasium env).  ``auto`` then takes the
    kernel only for DDV Doppelkopf, where it still gains (1.4-1.5x); a Tarock-family kernel table would be slower
    than the engine there (0.56-0.96x): its batch writes a tensor and mask at every step of the bidding, which
    no bot reads, on top of the engine state the bots read (decision 0069).

    ``backend="kernel"`` on a configuration no kernel plays raises :class:`~stich.rl.batched.NotSupportedError`
    (a Doppelkopf option set other than DDV's: the options that differ) or :class:`ImportError` (no numba).
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    tarock = game_for(config.env_id).name in TAROCK_GAMES
    if backend == "engine" or (backend == "auto" and (not kernel_plays(config.env_id) or (bots and tarock))):
        return Table(config)
    require_numba()  # asked every time, as in kernel_plays: STICH_NO_NUMBA switches the kernel off once imported too
    if tarock:
        return TarockKernelTable(config)
    return KernelTable(config)
