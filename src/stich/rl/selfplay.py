"""Self-play data in chunks: N deals of an env played by a policy or a teacher bot against opponents, on a runner.

A learner needs deals played: the teacher's decisions to imitate, then
episodes of its own policy against opponent bots.  This module plays them
through the PettingZoo AEC env (:mod:`stich.rl.pettingzoo_env`) and hands
back one :class:`Episode` per deal: the recorded decisions as arrays
(observation tensors, legal masks, actions taken) and the learner's reward.

* **What to play** is a *job*, a small picklable description:
  :class:`TeacherPlay` (the teacher bot in every seat, every decision
  recorded: imitation data) or :class:`LearnerPlay` (the policy, sampling,
  in one seat per deal in turn, opponent bots elsewhere; with the duplicate
  baseline, the same deal played again by the opponents' bot in its seat).
* **Where** is a :class:`Runner`: :class:`InProcess`, :class:`LocalProcesses`
  (``--workers N``) or the arena's :class:`~stich.arena.ray_runner.RayRunner`
  (``--ray [ADDRESS]``, Ray tasks on a cluster).  :func:`make_runner` picks
  one from those two options.  :func:`generate` cuts the deals into chunks,
  runs :func:`play_chunk` on each, and puts the episodes back in deal order.
  The policy travels once per call: with Ray it is put into the object store
  once (``ray.put``) and every task of the call reads it there; the learning
  step itself stays with the caller.
* **Same bytes everywhere.** Every deal is seeded from the job's seed and
  the deal's index alone (:func:`deal_seed`): the env's deal, the bots'
  seeds and the generator the policy samples with.  A chunk is the same
  whichever process or node plays it, and in whatever order, so the
  episodes, and a policy trained from them, are identical byte for byte with
  one process, ``--workers N`` and ``--ray``.

The teacher and opponent bots read ``env.table.current().observation(seat)``,
the seat's own observation as in the arena: no bot sees more than the
learner.  On a Ray cluster every node needs the same stich (with the ``rl``
extra) installed; the policy comes with the task.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol, Self, TypeVar

import numpy as np
import numpy.typing as npt

from stich.arena.duplicate import _init_worker, _stop_now
from stich.bots.base import Bot
from stich.bots.spec import build_bot, parse_bot_spec
from stich.errors import OptionError, StichError
from stich.rl.pettingzoo_env import StichAECEnv, raw_env
from stich.rl.policy import Floats, MLPPolicy

__all__ = [
    "Chunk",
    "Episode",
    "InProcess",
    "Job",
    "LearnerPlay",
    "LocalProcesses",
    "Recorder",
    "Runner",
    "SelfPlayError",
    "TeacherPlay",
    "deal_seed",
    "generate",
    "make_runner",
    "play_chunk",
]

R = TypeVar("R")
SEED_STRIDE = 1_000_003
"""Deal ``i`` of seed ``s`` is dealt with engine stream seed ``s * SEED_STRIDE + i`` (a prime: the seeds of nearby runs do not overlap)."""


class SelfPlayError(StichError, RuntimeError):
    """Self-play that could not be generated: a local worker process died."""


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` of a run seeded ``seed``: the env's ``reset(seed=...)`` and its bots' seeds."""
    return seed * SEED_STRIDE + deal


def seat_of(agent: str) -> int:
    """The seat of a PettingZoo agent name (``player_2`` is seat 2)."""
    return int(agent.rsplit("_", 1)[1])


def bots_for(e: StichAECEnv, spec: str, seed: int) -> list[Bot]:
    """One bot of ``spec`` per seat for the deal just dealt (bots may keep a deal's memory, so new ones per deal)."""
    bot_spec = parse_bot_spec(spec)
    return [build_bot(bot_spec, e.table.game, s, seed * 31 + s) for s in range(e.table.seats)]


# ---------------------------------------------------------------- episodes
@dataclass(frozen=True)
class Episode:
    """One deal's recorded decisions (rows of ``x``, ``mask``, ``action``) and, for a learner, its reward and baseline."""

    deal: int
    """The deal's index in its run (its seed is :func:`deal_seed` of the run's seed and this)."""
    x: Floats
    """Observation tensors of the recorded decisions, one row each (``float32``)."""
    mask: npt.NDArray[np.int8]
    """Their legal-action masks."""
    action: npt.NDArray[np.int64]
    """The action taken at each."""
    seat: int = -1
    """The learner's seat; -1 for a teacher's deal, whose every seat's decisions are recorded."""
    reward: float = 0.0
    """The learner seat's reward at the end of the deal (0 for a teacher's deal)."""
    baseline: float = 0.0
    """What the opponents' bot scored in the learner's seat on the same deal (duplicate baseline; 0 without it)."""


class Recorder:
    """One deal's decisions as they are taken; at the end its :class:`Episode` (arrays of the right width even when there were none)."""

    def __init__(self, e: StichAECEnv) -> None:
        self.size, self.actions = e.table.encoding.size, len(e.table.game.actions)
        self.x: list[Floats] = []
        self.mask: list[npt.NDArray[np.int8]] = []
        self.action: list[int] = []

    def add(self, observation: dict[str, npt.NDArray[np.generic]], action: int) -> None:
        self.x.append(observation["observation"].astype(np.float32))
        self.mask.append(observation["action_mask"].astype(np.int8))
        self.action.append(action)

    def episode(self, deal: int, seat: int = -1, reward: float = 0.0, baseline: float = 0.0) -> Episode:
        if self.action:
            x, mask = np.stack(self.x), np.stack(self.mask)
        else:
            x, mask = np.zeros((0, self.size), np.float32), np.zeros((0, self.actions), np.int8)
        return Episode(deal, x, mask, np.asarray(self.action, dtype=np.int64), seat, reward, baseline)


def play_learner_deal(
    e: StichAECEnv, policy: MLPPolicy, learner: int, opponents: list[Bot], rng: np.random.Generator
) -> tuple[Recorder, float]:
    """The deal just dealt in ``e``: the policy (sampling with ``rng``) in seat ``learner``, bots elsewhere; its decisions and reward."""
    mine, reward = Recorder(e), 0.0
    for agent in e.agent_iter():
        observation, last_reward, termination, truncation, _info = e.last()
        seat = seat_of(agent)
        if termination or truncation:
            if seat == learner:
                reward = float(last_reward)
            e.step(None)
            continue
        if seat == learner:
            probs = policy.probabilities(observation["observation"][None, :].astype(np.float32), observation["action_mask"][None, :])[0]
            action = int(rng.choice(len(probs), p=probs / probs.sum()))
            mine.add(observation, action)
        else:
            action = opponents[seat].choose(e.table.current().observation(seat)).code
        e.step(action)
    return mine, reward


def play_bots_deal(e: StichAECEnv, bots: list[Bot], record: Recorder | None = None) -> list[float]:
    """The deal just dealt in ``e`` played out by ``bots``; every seat's reward (each decision added to ``record``)."""
    rewards = [0.0] * e.table.seats
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _info = e.last()
        seat = seat_of(agent)
        if termination or truncation:
            rewards[seat] = float(reward)
            e.step(None)
            continue
        action = bots[seat].choose(e.table.current().observation(seat)).code
        if record is not None:
            record.add(observation, action)
        e.step(action)
    return rewards


# ---------------------------------------------------------------- jobs
class Job(Protocol):
    """What to play on each deal of a chunk (picklable: it travels to worker processes and Ray tasks)."""

    def play(self, deals: range, policy: MLPPolicy | None) -> list[Episode]: ...


@dataclass(frozen=True)
class TeacherPlay:
    """``teacher`` in every seat of ``env_id``; every decision recorded with the teacher's action (behaviour-cloning data)."""

    env_id: str
    seed: int
    teacher: str = "heuristic"

    def play(self, deals: range, policy: MLPPolicy | None = None) -> list[Episode]:
        """The episodes of ``deals`` (the policy is not used)."""
        e, out = raw_env(self.env_id), []
        for deal in deals:
            seed = deal_seed(self.seed, deal)
            e.reset(seed=seed)
            record = Recorder(e)
            play_bots_deal(e, bots_for(e, self.teacher, seed), record)
            out.append(record.episode(deal))
        return out


@dataclass(frozen=True)
class LearnerPlay:
    """The policy, sampling its actions, in seat ``deal % seats`` of each deal; ``opponents`` elsewhere.

    With ``duplicate`` (the default) the deal is also played on a twin table
    with the opponents' bot in the learner's seat: its reward there is the
    episode's ``baseline``, so ``reward - baseline`` is what the policy's own
    choices changed, without the cards' luck.
    """

    env_id: str
    seed: int
    opponents: str = "heuristic"
    duplicate: bool = True

    def play(self, deals: range, policy: MLPPolicy | None) -> list[Episode]:
        """The episodes of ``deals`` with ``policy`` in the learner's seat."""
        if policy is None:
            raise OptionError("LearnerPlay needs a policy to play")
        e, twin, out = raw_env(self.env_id), raw_env(self.env_id), []
        for deal in deals:
            seed = deal_seed(self.seed, deal)
            e.reset(seed=seed)
            learner = deal % e.table.seats
            rng = np.random.default_rng((self.seed, deal))
            mine, reward = play_learner_deal(e, policy, learner, bots_for(e, self.opponents, seed), rng)
            baseline = 0.0
            if self.duplicate:
                twin.reset(seed=seed)
                baseline = play_bots_deal(twin, bots_for(twin, self.opponents, seed))[learner]
            out.append(mine.episode(deal, learner, reward, baseline))
        return out


@dataclass(frozen=True)
class Chunk:
    """Deals ``start`` to ``stop - 1`` of a job: one task's work."""

    job: Job
    start: int
    stop: int


def play_chunk(chunk: Chunk, policy: MLPPolicy | None = None) -> list[Episode]:
    """Play a chunk (in whichever process or node runs it): its episodes in deal order."""
    return chunk.job.play(range(chunk.start, chunk.stop), policy)


# ---------------------------------------------------------------- runners
class Runner(Protocol):
    """Runs ``function(item, *shared)`` for every item somewhere, yielding ``(index, result)`` as each ends (any order)."""

    @property
    def workers(self) -> int: ...

    def map(self, function: Callable[..., R], items: Sequence[Any], workers: int, *shared: Any) -> Iterator[tuple[int, R]]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Any: ...

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None: ...


class InProcess:
    """Runs everything in this process, one item after the other (``--workers 1``)."""

    workers = 1

    def map(self, function: Callable[..., R], items: Sequence[Any], workers: int, *shared: Any) -> Iterator[tuple[int, R]]:
        for index, item in enumerate(items):
            yield index, function(item, *shared)

    def close(self) -> None:
        """Nothing to release."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()


class LocalProcesses:
    """A pool of ``workers`` local processes (``--workers N``), kept for every call until :meth:`close`.

    Unlike the arena's pool of one match, a learner calls it once per
    policy-gradient step: one pool for the whole run spares starting
    processes each time.  ``shared`` goes with every item (pickled per
    task).  Platforms that spawn processes (macOS, Windows) need the usual
    ``if __name__ == "__main__":`` guard in the calling script.
    """

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise OptionError(f"--workers must be at least 1, not {workers}")
        self._workers = workers
        self._executor: ProcessPoolExecutor | None = None

    @property
    def workers(self) -> int:
        return self._workers

    def map(self, function: Callable[..., R], items: Sequence[Any], workers: int, *shared: Any) -> Iterator[tuple[int, R]]:
        """At most ``2 * workers`` items in flight; on an error or Ctrl-C the pool is stopped at once (and made afresh on the next call)."""
        if self._executor is None:
            self._executor = ProcessPoolExecutor(max_workers=self._workers, initializer=_init_worker)
        executor = self._executor
        queue = list(reversed(list(enumerate(items))))
        pending: dict[Future[R], int] = {}
        try:
            while queue or pending:
                while queue and len(pending) < 2 * workers:
                    index, item = queue.pop()
                    pending[executor.submit(function, item, *shared)] = index
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    index = pending.pop(future)
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        raise SelfPlayError("a worker process stopped unexpectedly (out of memory?); try fewer --workers") from None
                    yield index, result
        except BaseException:
            self._executor = None
            _stop_now(executor)
            raise

    def close(self) -> None:
        """End the worker processes."""
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()


def make_runner(workers: int = 1, ray: str | None = None) -> Runner:
    """The runner of ``--workers N`` / ``--ray [ADDRESS]``: ``ray`` ``""`` is a new local Ray instance, ``None`` no Ray.

    Raises :class:`OptionError` when Ray is asked for but not installed, or
    its cluster cannot be reached.
    """
    if ray is not None:
        from stich.arena.ray_runner import RayRunner

        return RayRunner(ray or None)
    return InProcess() if workers == 1 else LocalProcesses(workers)


def generate(job: Job, deals: range, runner: Runner, policy: MLPPolicy | None = None, *, per_worker: int = 2) -> list[Episode]:
    """The episodes of ``deals`` (indices, e.g. ``range(40, 60)``) of ``job``, played on ``runner`` in chunks; in deal order.

    About ``per_worker`` chunks per worker; how the deals are cut does not
    change any episode.  ``policy`` is shared once per call (see the module
    docstring).
    """
    if deals.step != 1:
        raise OptionError(f"deals must be consecutive (a range with step 1), not {deals}")
    if not deals:
        return []
    size = max(1, -(-len(deals) // (runner.workers * per_worker)))
    chunks = [Chunk(job, start, min(start + size, deals.stop)) for start in range(deals.start, deals.stop, size)]
    results: list[list[Episode]] = [[] for _ in chunks]
    shared = () if policy is None else (policy,)
    for index, episodes in runner.map(play_chunk, chunks, runner.workers, *shared):
        results[index] = episodes
    return [episode for chunk in results for episode in chunk]
