"""Storing played actions with group commit: one transaction for the actions that arrive together, each acknowledged only once on disk.

Every action is stored before it is applied and broadcast
(:meth:`stich.web.runtime.table.TableRuntime._apply`), so that a restart replays
it.  A commit on SQLite with ``synchronous=FULL`` syncs the disk, and that
sync was the largest single CPU cost of an action (about 0.6-0.7 ms of the
0.8-0.9 ms a one-row transaction took on the development machine; ten rows
in one transaction cost about 0.05 ms each: bench/README.md, "CPU per
action").

:class:`ActionLog` therefore commits actions in groups: an action waits in
:meth:`ActionLog.store` while the actions that came in meanwhile (from other
tables, at the same moment) are written in one transaction.  When no commit
is under way a lone action is written at once, so a quiet server waits no
longer than before; under load, the actions that arrive while one commit
syncs go together in the next.

The guarantee is unchanged: :meth:`ActionLog.store` returns only after the
transaction holding the action has committed, so an action a client sees
acknowledged (its ``state``) is on disk.  A transaction that fails stores
none of its actions; each is then tried again in a transaction of its own,
so that one bad action (a duplicate position) fails alone and the others of
its group are stored as if they had come alone.

With several workers an action carries its table's *fence* (the lease epoch
its worker took the table at, decision 0033): the transaction checks every
fence of its group and is refused (:class:`~stich.web.storage.db.StaleOwner`) if
another worker has taken one of the tables over meanwhile; the one-by-one
retry then refuses only the stale table's actions.  One process fences
nothing, and its transactions are what they were.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from stich.web.storage.db import ActionRow, Database, Fence

log = logging.getLogger("stich.web")


@dataclass
class _Pending:
    """One action waiting for its commit, and the future its caller awaits."""

    row: ActionRow
    fence: Fence | None
    done: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class ActionLog:
    """The actions of this process's tables, written to ``db`` in groups (one writer task at a time)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._waiting: list[_Pending] = []
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0
        """Transactions committed so far (with :attr:`stored`: the group sizes, for benchmarks and tests)."""
        self.stored = 0
        """Actions stored so far."""

    async def store(
        self,
        deal_id: int,
        position: int,
        seat: int,
        action: str,
        stand_in: bool = False,
        fence: Fence | None = None,
        *,
        timed_out: bool = False,
    ) -> None:
        """Store one action; returns once it is committed, raises what storing it raised (then nothing of it is stored).

        ``fence``: the table's id and lease epoch (several workers), refused
        with :class:`~stich.web.storage.db.StaleOwner` once another worker took it over.
        """
        pending = _Pending((deal_id, position, seat, action, stand_in, timed_out), fence)
        self._waiting.append(pending)
        loop = asyncio.get_running_loop()
        if self._writer is None or self._writer.done() or self._writer.get_loop() is not loop:  # none running on this loop
            self._writer = loop.create_task(self._write_all(), name="action log")
        await pending.done

    async def _write_all(self) -> None:
        """Write groups until nothing waits: everything that came in during a commit goes into the next one."""
        while self._waiting:
            group, self._waiting = self._waiting, []
            try:
                fences = [p.fence for p in group if p.fence is not None]
                await asyncio.to_thread(self.db.add_actions, [p.row for p in group], fences)
            except asyncio.CancelledError:  # the loop is shutting down: nobody waits in vain
                for pending in group + self._waiting:
                    pending.done.cancel()
                raise
            except Exception as exc:
                if len(group) == 1:
                    _settle(group[0], exc)
                    continue
                log.warning("a group of %d actions failed to store (%r); storing them one by one", len(group), exc)
                for pending in group:
                    try:
                        await asyncio.to_thread(self.db.add_actions, [pending.row], () if pending.fence is None else [pending.fence])
                    except Exception as single:
                        _settle(pending, single)
                    else:
                        self._count(1)
                        _settle(pending, None)
                continue
            self._count(len(group))
            for pending in group:
                _settle(pending, None)

    def _count(self, actions: int) -> None:
        self.commits += 1
        self.stored += actions


def _settle(pending: _Pending, error: BaseException | None) -> None:
    """Wake the action's caller (unless it was cancelled meanwhile)."""
    if pending.done.done():
        return
    if error is None:
        pending.done.set_result(None)
    else:
        pending.done.set_exception(error)
