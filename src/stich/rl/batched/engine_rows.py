"""Rows of a batch stepped through the reference engine: one engine state per deal, the fields written from its encoding.

The batches compile what they can (Doppelkopf's DDV deal, the Tarock family's
card play).  What they do not compile runs here, in the engine itself, so
that a batch can offer every phase and every option set the engine has with
the same fields (``current_player``, ``observation``, ``legal_action_mask``,
``rewards``, ``terminated``), tensor and action codes as its compiled rows:

* :class:`~stich.rl.batched.tarock.TarockBatch` with ``bidding="learner"``
  steps each deal's bidding, talon, discards, announcements and doubling here
  and hands the deal to its kernel at the first card;
* :class:`~stich.rl.batched.doppelkopf.DoppelkopfBatch` plays an option set
  its kernel does not compile (anything but the DDV preset) here, whole.

The fields of an engine row are the single env's by construction (the same
:class:`~stich.rl.encoding.Encoding` of the same state); the differential
tests replay them against fresh engine states all the same.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from stich.core.game import State
from stich.errors import IllegalActionError
from stich.rl.encoding import Encoding


class EngineFields:
    """Writes a batch's field rows from engine states (the arrays are the batch's own, shared, not copied)."""

    def __init__(
        self,
        encoding: Encoding,
        reward_scale: float,
        observation: npt.NDArray[np.float32],
        legal_action_mask: npt.NDArray[np.int8],
        current_player: npt.NDArray[np.int64],
        rewards: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.bool_],
    ) -> None:
        self.encoding = encoding
        self.reward_scale = reward_scale
        self.observation = observation
        self.legal_action_mask = legal_action_mask
        self.current_player = current_player
        self.rewards = rewards
        self.terminated = terminated

    def write(self, b: int, state: State) -> None:
        """Row ``b`` from ``state``: the seat to act's tensor and mask, or, once the deal is over, its end (:meth:`end`)."""
        if state.is_terminal():
            self.end(b, state)
            return
        seat = state.current_player()
        obs = state.observation(seat)
        self.current_player[b] = seat
        self.observation[b] = self.encoding.tensor(obs)
        self.legal_action_mask[b] = self.encoding.mask(obs)
        self.terminated[b] = False

    def end(self, b: int, state: State, *, tensor: bool = True) -> None:
        """Row ``b`` of a finished deal: the engine's scores as rewards (times the scale), seat 0's final tensor, no mask.

        ``tensor=False``: the caller has written seat 0's final tensor into the row (the Tarock batch, from its kernel).
        """
        self.rewards[b] = np.asarray(state.result().scores, dtype=np.float64) * self.reward_scale
        self.terminated[b] = True
        self.current_player[b] = -1
        if tensor:
            self.observation[b] = self.encoding.tensor(state.observation(0))
        self.legal_action_mask[b] = 0

    def check(self, codes: npt.NDArray[np.int64], rows: npt.NDArray[np.int64], game_actions: int) -> None:
        """Raise :class:`IllegalActionError` for the first row of ``rows`` whose code its mask does not allow (nothing changed)."""
        for b in rows:
            code = int(codes[b])
            if not (0 <= code < game_actions and self.legal_action_mask[b, code]):
                raise IllegalActionError(
                    f"deal {int(b)}: {self._text(code)!r} is not legal for seat {self.current_player[b]} now", "batched env"
                )

    def _text(self, code: int) -> str:
        actions = self.encoding.game.actions.actions
        return actions[code].text if 0 <= code < len(actions) else str(code)
