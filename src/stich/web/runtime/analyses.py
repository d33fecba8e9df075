"""The analyses of finished deals, computed off the event loop, with progress, and kept with the deal (issue 43).

:class:`DealAnalyses` runs one analysis (:mod:`stich.analysis`) per deal and
seat at a time: the record is checked and the seat's decisions found in a
thread, then each decision is one :class:`AnalysisStep` for the bot pool's
worker processes (:meth:`~stich.web.runtime.bot_pool.BotPool.run`), queued
with the tables' bot decisions under a fair-share key of its own, so an
analysis never holds the event loop nor takes a table's place.  The
progress (decisions done of all) is kept in memory while it runs; the
result is stored in ``deal_analyses`` and served from there afterwards, by
any worker.  The numbers are those of ``stich analyse`` for the same record,
seat, budget and seed: each step calls the same
:func:`~stich.analysis.analyse_point`.

Who may ask, and for which seat, is the API's business
(:mod:`stich.web.api.analysis`); this module only computes and keeps.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from stich.analysis import DEFAULT_BUDGET, DecisionReport, Prepared, analyse_point, assemble, prepare
from stich.web.runtime.stopping import stop_tasks
from stich.web.storage.db import Database

log = logging.getLogger("stich.web.analysis")

ANALYSIS_VERSION = 1
"""Version of the analysis's numbers; a stored analysis of another version is computed afresh."""

BUDGET = DEFAULT_BUDGET
"""Worlds per decision of the web's analyses (``stich analyse``'s default, so a user can check the numbers)."""

SEED = 0
"""Seed of the web's analyses (``stich analyse``'s default)."""

MAX_RUNNING = 4
"""Analyses computed at once in one server process; more wait for a free place (the API answers 429)."""


@dataclass(frozen=True)
class AnalysisStep:
    """One decision of one analysis, for a worker process (a :class:`~stich.web.runtime.bot_pool.PoolJob`)."""

    table: str
    """The fair-share key: ``analysis:<deal>:<seat>`` (never a table's id)."""
    record: str
    """The finished deal's record as JSON text."""
    seat: int
    number: int
    """Which of the seat's decisions (0-based)."""
    budget: int
    seed: int

    def run(self) -> DecisionReport:
        """The decision's report (:func:`stich.analysis.analyse_point`)."""
        return analyse_point(_prepared(self.record, self.seat), self.number, budget=self.budget, seed=self.seed)


@lru_cache(maxsize=4)
def _prepared(record: str, seat: int) -> Prepared:
    """The checked record and the seat's decisions, kept for the next steps of the same analysis in this process."""
    return prepare(json.loads(record), seat)


@dataclass
class Progress:
    """Where a running analysis stands."""

    done: int = 0
    total: int | None = None
    """Decisions to analyse (``None`` until the record is checked)."""
    error: str | None = None
    """Why it failed (it is then no longer running; asking again starts it afresh)."""

    def to_json(self) -> dict[str, Any]:
        """JSON form of the API's 202 answer."""
        return {"status": "failed" if self.error else "running", "done": self.done, "total": self.total, "error": self.error}


Runner = Callable[[AnalysisStep], Awaitable[DecisionReport]]
"""Runs one step somewhere off the event loop (the bot pool's worker processes, or a thread)."""


class DealAnalyses:
    """The running analyses of this process and the stored ones (see the module docstring)."""

    def __init__(
        self,
        db: Database,
        run: Runner | None = None,
        *,
        forget: Callable[[str], None] | None = None,
        max_running: int = MAX_RUNNING,
        budget: int = BUDGET,
        seed: int = SEED,
    ) -> None:
        self.db = db
        self.forget = forget
        """Drops an analysis's fair-share key from the bot pool once it ends (``BotPool.forget``)."""
        self.budget = budget
        """Worlds per decision (:data:`BUDGET`; tests take fewer)."""
        self.seed = seed
        self.run: Runner = run if run is not None else _in_thread
        self.max_running = max_running
        self.progress: dict[tuple[int, int], Progress] = {}
        self._tasks: dict[tuple[int, int], asyncio.Task[None]] = {}
        self.owners: dict[tuple[int, int], int] = {}
        """The session that started each running analysis (the API allows one per session)."""

    async def stored(self, deal_id: int, seat: int) -> dict[str, Any] | None:
        """The kept analysis of the deal's seat, or ``None``."""
        text = await asyncio.to_thread(self.db.get_analysis, deal_id, seat, self.budget, self.seed, ANALYSIS_VERSION)
        return None if text is None else dict(json.loads(text))

    def running(self, deal_id: int, seat: int) -> Progress | None:
        """The progress of the deal's seat's analysis if it runs (or failed last) in this process."""
        return self.progress.get((deal_id, seat))

    def running_for(self, session_id: int) -> int:
        """How many analyses the session has running."""
        return sum(1 for key, owner in self.owners.items() if owner == session_id and key in self._tasks)

    @property
    def busy(self) -> bool:
        """Whether :data:`MAX_RUNNING` analyses run already."""
        return len(self._tasks) >= self.max_running

    def start(self, deal_id: int, seat: int, record: str, session_id: int) -> Progress:
        """Start the analysis of the deal's seat (unless it runs); its progress."""
        key = (deal_id, seat)
        if key in self._tasks:
            return self.progress[key]
        progress = self.progress[key] = Progress()
        self.owners[key] = session_id
        self._tasks[key] = asyncio.get_running_loop().create_task(self._compute(key, record, progress), name=f"analysis-{deal_id}-{seat}")
        return progress

    async def _compute(self, key: tuple[int, int], record: str, progress: Progress) -> None:
        deal_id, seat = key
        try:
            prepared = await asyncio.to_thread(_prepared, record, seat)
            progress.total = len(prepared.points)
            reports = []
            for number in range(len(prepared.points)):
                step = AnalysisStep(f"analysis:{deal_id}:{seat}", record, seat, number, self.budget, self.seed)
                reports.append(await self.run(step))
                progress.done = number + 1
            analysis = assemble(prepared, reports, budget=self.budget, seed=self.seed)
            text = json.dumps(analysis.to_json(), ensure_ascii=False, separators=(",", ":"))
            await asyncio.to_thread(self.db.save_analysis, deal_id, seat, self.budget, self.seed, ANALYSIS_VERSION, text)
            del self.progress[key]
        except asyncio.CancelledError:
            self.progress.pop(key, None)
            raise
        except Exception as exc:  # a record that does not replay, a worker that keeps dying: say so, a new request tries again
            log.exception("analysis of deal %d seat %d failed", deal_id, seat)
            progress.error = str(exc) or type(exc).__name__
        finally:
            self._tasks.pop(key, None)
            self.owners.pop(key, None)
            if self.forget is not None:
                self.forget(f"analysis:{deal_id}:{seat}")

    async def close(self) -> None:
        """Cancel the running analyses (nothing is stored of them)."""
        await stop_tasks(list(self._tasks.values()))


async def _in_thread(step: AnalysisStep) -> DecisionReport:
    """A step in a thread (no bot pool to run it in)."""
    return await asyncio.to_thread(step.run)
