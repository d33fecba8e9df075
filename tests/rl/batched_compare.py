"""The step-for-step comparison of a batched env with one reference env per deal (issue 32, decision 0030).

``test_batched_doppelkopf.py``, ``test_batched_tarock.py`` and
``test_batched_droggn.py`` play seeded deals with the same random legal actions
on a batch and on references (a :class:`~stich.rl.table.Table`, or an engine
state behind :class:`EngineReference`) and fail on the first difference in
termination, current player, observation tensors (every seat's in the first
``every_seat`` deals), legal-action masks and rewards.  The tests differ only
in how actions are chosen and in the special cases they count, which they pass
in as hooks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from stich.core.game import State
from stich.rl.encoding import Encoding


class Reference(Protocol):
    """One deal of the single env: what :class:`~stich.rl.table.Table` offers."""

    def finished(self) -> bool: ...

    def to_move(self) -> int: ...

    def observe(self, seat: int) -> dict[str, npt.NDArray[np.float32] | npt.NDArray[np.int8]]: ...

    def act(self, action: int) -> None: ...

    def rewards(self) -> list[float]: ...


class Batch(Protocol):
    """What the comparison reads of a batched env (``DoppelkopfBatch``, ``TarockBatch``)."""

    num_envs: int
    num_players: int
    terminated: npt.NDArray[np.bool_]
    current_player: npt.NDArray[np.int64]
    observation: npt.NDArray[np.float32]
    legal_action_mask: npt.NDArray[np.int8]
    rewards: npt.NDArray[np.float32]

    def observe(self, seats: npt.ArrayLike) -> npt.NDArray[np.float32]: ...

    def step(self, actions: npt.ArrayLike) -> None: ...


class EngineReference:
    """An engine state seen through the env's encoding, with :class:`Reference`'s methods (rewards: the raw scores)."""

    def __init__(self, state: State, encoding: Encoding) -> None:
        self.state = state
        self.encoding = encoding

    def finished(self) -> bool:
        return self.state.is_terminal()

    def to_move(self) -> int:
        return -1 if self.state.is_terminal() else self.state.current_player()

    def observe(self, seat: int) -> dict[str, npt.NDArray[np.float32] | npt.NDArray[np.int8]]:
        obs = self.state.observation(seat)
        return {"observation": self.encoding.tensor(obs), "action_mask": self.encoding.mask(obs)}

    def act(self, action: int) -> None:
        self.state.apply(action)

    def rewards(self) -> list[float]:
        if not self.state.is_terminal():
            return [0.0] * self.state.game.num_seats
        return [float(score) for score in self.state.result().scores]


def uniform(rng: random.Random, legal: list[int]) -> int:
    """A uniformly random legal action."""
    return rng.choice(legal)


def compare_step_for_step(
    batch: Batch,
    references: Sequence[Reference],
    rngs: Sequence[random.Random],
    every_seat: int,
    *,
    choose: Callable[[random.Random, list[int]], int] = uniform,
    on_turn: Callable[[int], None] | None = None,
    on_end: Callable[[int], None] | None = None,
    finished_seat: int | None = None,
) -> int:
    """Step ``batch`` and ``references`` (one per deal) with the same actions until every deal ended; returns how many ended.

    Deal ``i``'s action is ``choose(rngs[i], legal codes of the batch's mask)``.  ``on_turn(i)`` runs after deal ``i``'s
    tensor and mask matched at a step where it goes on, ``on_end(i)`` after the step that ended it (rewards matched).
    ``finished_seat``: also compare a finished deal's observation row with that seat's reference tensor.
    """
    n = batch.num_envs
    ended_deals = 0
    while True:
        seats = [batch.observe(np.full(n, s)) for s in range(batch.num_players)] if every_seat else []
        for i, reference in enumerate(references):
            finished = reference.finished()
            assert batch.terminated[i] == finished, i
            assert batch.current_player[i] == reference.to_move(), i
            for s in range(batch.num_players if i < every_seat else 0):
                expected = reference.observe(s)["observation"]
                np.testing.assert_array_equal(seats[s][i], expected, err_msg=f"deal {i} seat {s}")
            if finished:
                if finished_seat is not None:
                    np.testing.assert_array_equal(batch.observation[i], reference.observe(finished_seat)["observation"])
                continue
            observed = reference.observe(reference.to_move())
            np.testing.assert_array_equal(batch.observation[i], observed["observation"], err_msg=f"deal {i}")
            np.testing.assert_array_equal(batch.legal_action_mask[i], observed["action_mask"], err_msg=f"deal {i}")
            if on_turn is not None:
                on_turn(i)
        if batch.terminated.all():
            return ended_deals
        actions = np.zeros(n, dtype=np.int64)
        was_over = batch.terminated.copy()
        for i, reference in enumerate(references):
            if not reference.finished():
                actions[i] = choose(rngs[i], np.flatnonzero(batch.legal_action_mask[i]).tolist())
                reference.act(int(actions[i]))
        batch.step(actions)
        for i, reference in enumerate(references):
            ended = reference.finished() and not was_over[i]
            expected_rewards = np.asarray(reference.rewards() if ended else [0.0] * batch.num_players, dtype=np.float32)
            np.testing.assert_array_equal(batch.rewards[i], expected_rewards, err_msg=f"deal {i}")
            if ended:
                ended_deals += 1
                if on_end is not None:
                    on_end(i)
