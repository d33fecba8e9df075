"""Where the tables' bots think: search bots in a bounded pool of worker processes, quick bots on one thread.

A search bot at level 5 thinks for 6 s per decision.  In a thread of the
server process it would hold the interpreter lock against the event loop, and
in the default thread pool it would queue the database calls and password
hashes behind it (issue 30: 20 such tables made a human's action take 4-7 s).
So a :class:`BotPool` keeps bots apart from both:

* **Search bots** (every bot not in ``inline``) think in ``workers`` processes
  of their own (``multiprocessing``'s *spawn* start method: the server process
  holds threads and database connections that a fork would copy), started
  with the first search decision and running at a lower CPU priority
  (``nice``), so the event loop wins the processor whenever it has work.
* **Quick bots** (``random``, ``heuristic``: well under a millisecond) think on
  one thread of the server process; shipping their observation to another
  process would cost more than the decision itself.

**Fair share.** Decisions wait per table; whenever a process is free the
table whose thinking time, counting the decision it asks for (guessed from
its previous one), is least goes next; a table that starts waiting is first
brought up to the least time of the others, as a fair-share scheduler does.
A table's driver asks for one decision at a time, so 20 heavy tables cannot
push a light table's decision behind 20 searches: it waits for at most the
searches already running.

**A process kept for light tables** (issue 42).  Waiting for the searches
already running was still a lot: with every process in a 6 s search, a
guest's level-1 table waited for one to end before each decision (p50 1.2 →
4.8 s a round beside the four level-5 tables one address may have).  So
while a light table (its previous decision took at most
:data:`HEAVY_SECONDS`) has asked within :data:`LIGHT_WINDOW` seconds,
heavy decisions run on at most ``workers - 1`` processes: one stays free for
the light tables, whose decisions then wait only for each other.  With no
light table about, heavy decisions use every process.

**What a worker gets.** A :class:`BotJob`: the bot spec, the game string, the
seat, the seed and the seat's :class:`~stich.core.game.Observation`, never
the full state.  The worker builds the bot afresh for each decision from that
seed, so a decision depends only on (spec, seat, seed, observation): the same
in any worker, after a restart, or on another machine (issue 33's bot service
can take :class:`BotJob` as its message).

**Several workers** (:mod:`stich.web.cluster`): each server worker has its
own pool, and the fair share above is per pool.  A table's decisions all go
to the pool of the worker that runs it, so pools never serve each other's
tables and a shared account would change no order; a table taken over by
another worker starts at that pool's least thinking time, as any table that
starts waiting does.  What bounds one person's load over all pools is the
table caps, counted across workers (:mod:`stich.web.cluster.shared_caps`).

**Failures.** A worker process that dies (killed, out of memory) breaks the
pool: the pool is replaced and the decision is asked again (``retries``
times); a decision that still fails, or a bot that raises, falls back to the
``heuristic`` bot on the quick thread, so the table plays on.

:class:`BotThinker` is the interface the tables use; :class:`BotPool` is this
process's implementation.

**Other heavy work** (issue 43's analysis of a finished deal): :meth:`BotPool.run`
takes any :class:`PoolJob` (a picklable value with a ``table`` key for the
fair share and a ``run()`` made in the worker) through the same queue, so an
analysis step waits its turn like a table's search and a light table keeps
its free process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any, Protocol, TypeVar

from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.bots.registry import register_bot, registered_bots
from stich.core.game import Game, Observation
from stich.core.registry import game_from_string
from stich.web.guards.table_caps import QUICK_BOTS

log = logging.getLogger("stich.web.bots")

HEAVY_SECONDS = 0.5
"""A table whose previous decision took longer than this asks for heavy ones (a search); a table without one yet is light."""
LIGHT_WINDOW = 30.0
"""Seconds after a light table's last request during which heavy decisions leave one process free (see the module's docstring)."""
T = TypeVar("T")

FALLBACK_BOT = "heuristic"
"""The bot that decides when a bot's own decision failed (its process died twice, or the bot raised)."""


@dataclass(frozen=True)
class BotJob:
    """One decision to make: which table asks (for the fair share), the bot, and what its seat may see."""

    table: str
    spec: str
    """The bot spec text as the seat stores it (``pimc:level=2``)."""
    game: str
    """The game string (:attr:`stich.core.game.Game.canonical`)."""
    seat: int
    seed: int
    """The bot's seed for this decision (see :func:`stich.web.runtime.seats.bot_seed`)."""
    observation: Observation


class PoolJob(Protocol):
    """Heavy work other than a bot's decision: run in a worker process, queued per ``table`` key (see the module docstring)."""

    @property
    def table(self) -> str:
        """The fair-share key (an analysis uses its own, never a table's id)."""
        ...

    def run(self) -> Any:
        """Do the work (in the worker process); the result travels back pickled."""
        ...


class BotThinker(Protocol):
    """What the tables need from whatever runs their bots (this process's :class:`BotPool`, or a bot service)."""

    async def choose(self, job: BotJob) -> int:
        """The code of the action the bot chooses (one of ``job.observation.legal_actions``)."""
        ...

    def forget(self, table: str) -> None:
        """The table has ended: drop what is kept about it."""
        ...

    async def close(self) -> None:
        """Stop thinking: waiting decisions are cancelled and worker processes ended."""
        ...

    async def consult(self, job: BotJob, task: Callable[[BotJob], T]) -> T:
        """``task(job)`` (a module-level function, so that it pickles) where the search bots think, in the table's fair share.

        No fallback: a failure is raised to the caller (a hint, :mod:`stich.web.runtime.hints`, is refused, not made up).
        """
        ...


@cache
def _game(text: str) -> Game:
    return game_from_string(text)


def decide(job: BotJob, spec: str | None = None) -> int:
    """Build the job's bot (or the bot ``spec`` instead) from the job's seed and let it choose; the action's code."""
    game = _game(job.game)
    bot = build_bot(parse_bot_spec(spec or job.spec), game, job.seat, job.seed)
    action = bot.choose(job.observation)
    if action not in job.observation.legal_actions:  # pragma: no cover - a bot bug; the table refuses it again
        raise ValueError(f"bot {spec or job.spec!r} chose {action.text!r}, which is not legal")
    return action.code


_PARENT: int | None = None
"""In a worker process: the server process that started it."""


def _init_worker(nice: int, bots: tuple[tuple[str, str], ...]) -> None:
    """In a worker: leave Ctrl-C to the server, think at a lower priority, know the bots registered in the server."""
    global _PARENT
    _PARENT = os.getppid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice > 0:
        os.nice(nice)
    for name, target in bots:
        register_bot(name, target)


def _decide_in_worker(job: BotJob | PoolJob) -> Any:
    """:func:`decide` (or a :class:`PoolJob`'s ``run``) in a worker process, which ends itself if the server that started it is gone."""
    if _PARENT is not None and os.getppid() != _PARENT:  # pragma: no cover - the server was killed
        os._exit(1)
    if isinstance(job, BotJob):
        return decide(job)
    return job.run()


def _consult_in_worker(task: Callable[[BotJob], Any], job: BotJob) -> Any:
    """``task(job)`` in a worker process (:meth:`BotPool.consult`), ended like :func:`_decide_in_worker` if the server is gone."""
    if _PARENT is not None and os.getppid() != _PARENT:  # pragma: no cover - the server was killed
        os._exit(1)
    return task(job)


@dataclass
class _Waiting:
    order: int
    job: BotJob | PoolJob
    answer: asyncio.Future[Any]
    task: Callable[[BotJob], Any] | None = None
    """What to run instead of the job's decision (:meth:`BotPool.consult`); ``None``: decide (or a :class:`PoolJob`'s ``run``)."""


@dataclass
class _Fair:
    """Decisions waiting per table, and the thinking time each table has used."""

    waiting: dict[str, deque[_Waiting]] = field(default_factory=dict)
    used: dict[str, float] = field(default_factory=dict)
    last: dict[str, float] = field(default_factory=dict)
    """How long each table's previous decision took: the guess for its next one."""
    floor: float = 0.0
    """The least thinking time among the tables served so far: a table that starts waiting starts there."""

    def add(self, item: _Waiting) -> None:
        table = item.job.table
        if table not in self.waiting:
            self.used[table] = max(self.used.get(table, 0.0), self.floor)
        self.waiting.setdefault(table, deque()).append(item)

    def heavy(self, table: str) -> bool:
        """Whether ``table``'s next decision is guessed to be a search longer than :data:`HEAVY_SECONDS`."""
        return self.last.get(table, 0.0) > HEAVY_SECONDS

    def next(self, heavy_allowed: bool = True) -> _Waiting | None:
        """The oldest decision of the table whose time used, with this decision, will be least (cancelled ones are skipped).

        Counting the decision about to be made (guessed from the table's
        previous one) lets a table of quick decisions go before tables of
        6-second searches that have used as little so far.  Without
        ``heavy_allowed`` only light tables' decisions are considered.
        """
        while True:
            tables = [t for t in self.waiting if heavy_allowed or not self.heavy(t)]
            if not tables:
                return None
            table = min(tables, key=lambda t: (self.used[t] + self.last.get(t, 0.0), self.waiting[t][0].order))
            queue = self.waiting[table]
            item = queue.popleft()
            if not queue:
                del self.waiting[table]
            self.floor = max(self.floor, self.used[table])
            if not item.answer.done():
                return item

    def charge(self, table: str, seconds: float) -> None:
        """Count a decision's thinking time to its table."""
        if table in self.used or table in self.waiting:
            self.used[table] = self.used.get(table, self.floor) + seconds
            self.last[table] = seconds

    def forget(self, table: str) -> None:
        """Drop an ended table's account."""
        if table not in self.waiting:
            self.used.pop(table, None)
            self.last.pop(table, None)


class BotPool:
    """Search bots in ``workers`` processes with a fair share per table; quick bots (``inline``) on one thread."""

    def __init__(self, workers: int, *, inline: frozenset[str] = QUICK_BOTS, nice: int = 10, retries: int = 1) -> None:
        if workers < 1:
            raise ValueError("a bot pool needs at least one worker process")
        self.workers = workers
        self.inline = inline
        self.nice = nice
        self.retries = retries
        self._threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stich-bots")
        self._executor: ProcessPoolExecutor | None = None
        self._generation = 0
        self._fair = _Fair()
        self._order = 0
        self._running = 0
        self._heavy_running = 0
        """Heavy decisions (:meth:`_Fair.heavy`) being made now."""
        self._light_asked = -float("inf")
        """When (monotonic) a light table last asked for a decision."""
        self._closed = False
        self.restarts = 0
        """How often the worker processes were replaced after one died."""

    # ------------------------------------------------------------ interface
    async def choose(self, job: BotJob) -> int:
        """The bot's action code: quick bots on the thread, search bots in a process; the fallback if that fails."""
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        loop = asyncio.get_running_loop()
        if parse_bot_spec(job.spec).name in self.inline:
            return await loop.run_in_executor(self._threads, decide, job)
        for attempt in range(self.retries + 1):
            try:
                code: int = await self._queued(job)
                return code
            except BrokenProcessPool:
                log.warning("table %s: a bot worker process died (attempt %d of %d)", job.table, attempt + 1, self.retries + 1)
            except Exception:
                log.exception("table %s: bot %r failed", job.table, job.spec)
                break
        log.warning("table %s: bot %r gives way to the %s bot for this decision", job.table, job.spec, FALLBACK_BOT)
        return await loop.run_in_executor(self._threads, decide, job, FALLBACK_BOT)

    async def run(self, job: PoolJob) -> Any:
        """``job.run()`` in a worker process, queued with the bots' decisions by ``job.table`` (asked again once if the process dies)."""
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        for attempt in range(self.retries + 1):
            try:
                return await self._queued(job)
            except BrokenProcessPool:
                log.warning("%s: a worker process died (attempt %d of %d)", job.table, attempt + 1, self.retries + 1)
                if attempt == self.retries:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def consult(self, job: BotJob, task: Callable[[BotJob], T]) -> T:
        """``task(job)`` in a worker process, queued in the table's fair share like a decision; failures are raised."""
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        result: T = await self._queued(job, task)
        return result

    def forget(self, table: str) -> None:
        """Drop the table's share once it has ended."""
        self._fair.forget(table)

    async def close(self) -> None:
        """Cancel waiting decisions, end the worker processes (killed: they hold nothing to save) and the thread."""
        self._closed = True
        for queue in self._fair.waiting.values():
            for item in queue:
                item.answer.cancel()
        self._fair.waiting.clear()
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(_stop, executor)
        await asyncio.to_thread(self._threads.shutdown, True, cancel_futures=True)

    def worker_pids(self) -> set[int]:
        """Process ids of the running worker processes (tests and the benchmark check where bots think)."""
        processes = getattr(self._executor, "_processes", None) or {}
        return {pid for pid, process in processes.items() if process.is_alive()}

    # ------------------------------------------------------------- internals
    async def _queued(self, job: BotJob | PoolJob, task: Callable[[BotJob], Any] | None = None) -> Any:
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._order += 1
        if not self._fair.heavy(job.table):
            self._light_asked = time.monotonic()
        self._fair.add(_Waiting(self._order, job, answer, task))
        self._dispatch()
        return await answer

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker,
                initargs=(self.nice, registered_bots()),
            )
        return self._executor

    def _dispatch(self) -> None:
        """Hand waiting decisions to free worker processes, least-served table first."""
        while not self._closed and self._running < self.workers:
            light_about = time.monotonic() - self._light_asked <= LIGHT_WINDOW
            item = self._fair.next(heavy_allowed=self.workers == 1 or not light_about or self._heavy_running < self.workers - 1)
            if item is None:
                return
            heavy = self._fair.heavy(item.job.table)
            generation = self._generation
            try:
                if item.task is None:
                    future = self._pool().submit(_decide_in_worker, item.job)
                else:
                    assert isinstance(item.job, BotJob)  # consult() queues bot jobs only
                    future = self._pool().submit(_consult_in_worker, item.task, item.job)
            except (BrokenProcessPool, RuntimeError) as exc:
                self._renew(generation)
                item.answer.set_exception(BrokenProcessPool(str(exc)))
                continue
            self._running += 1
            self._heavy_running += heavy
            started = time.monotonic()
            future.add_done_callback(partial(self._on_done, item=item, started=started, generation=generation, heavy=heavy))

    def _on_done(self, done: Future[Any], item: _Waiting, started: float, generation: int, heavy: bool = False) -> None:
        """Called in a pool thread: hand the outcome to the event loop."""
        loop = item.answer.get_loop()
        with contextlib.suppress(RuntimeError):  # the server's loop has closed meanwhile: nobody waits for the answer
            loop.call_soon_threadsafe(self._finish, done, item, started, generation, heavy)

    def _finish(self, done: Future[Any], item: _Waiting, started: float, generation: int, heavy: bool = False) -> None:
        self._running -= 1
        self._heavy_running -= heavy
        self._fair.charge(item.job.table, time.monotonic() - started)
        error = done.exception() if not done.cancelled() else BrokenProcessPool("the decision was cancelled")
        if isinstance(error, BrokenProcessPool):
            self._renew(generation)
        if not item.answer.done():
            if error is not None:
                item.answer.set_exception(error)
            else:
                item.answer.set_result(done.result())
        self._dispatch()

    def _renew(self, generation: int) -> None:
        """Replace a broken pool (once per breakage): its processes are ended, the next decision starts new ones."""
        if generation != self._generation:
            return
        self._generation += 1
        executor, self._executor = self._executor, None
        if executor is not None:
            self.restarts += 1
            _stop(executor, wait=False)


def _stop(executor: ProcessPoolExecutor, wait: bool = True) -> None:
    """End a process pool now: drop what waits, kill the workers (a search can take seconds) and reap them."""
    processes: list[Any] = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()
    if wait:
        for process in processes:
            process.join(timeout=10)
        executor.shutdown(wait=True)
