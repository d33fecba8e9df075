"""Fencing a stalled owner: a worker's writes carry its table's lease epoch, refused once another worker took the table over.

docs/decisions/0033-several-workers.md, "Fencing": a takeover adds one to
``game_tables.lease_epoch`` before it reads the table's actions, and every
write of a table's play checks the epoch in its own transaction.  These tests
drive the database (on SQLite and PostgreSQL) and two in-process
:class:`~stich.web.cluster.manager.ClusterTableManager` on a real PostgreSQL
and Redis, with the stall played by hand (the old owner's lease deleted, as
it expires while the owner is stopped); tests/web/test_cluster.py stops a
real worker process with SIGSTOP.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest

from stich.core.registry import game_from_string
from stich.web.cluster import keys
from stich.web.identity import Identity
from stich.web.runtime.action_log import ActionLog
from stich.web.runtime.bot_pool import BotJob
from stich.web.runtime.seats import new_table_row
from stich.web.runtime.table import TableRuntime
from stich.web.settings import Settings
from stich.web.storage.db import Database, StaleOwner, TableRow, utcnow
from stich.web.storage.login_sessions import hash_token

from .helpers import run_async
from .postgres import PostgresServer

pytestmark = pytest.mark.both_databases


def _table(db: Database, name: str = "Ada", *, store: bool = True) -> tuple[TableRow, Identity]:
    """A new Doppelkopf table of two deals, its creator in seat 0 (stored unless ``store`` is false)."""
    session_id = db.create_session(hash_token(f"token-{name}"), name, None, utcnow() + timedelta(days=1))
    creator = Identity(session_id, None, name)
    row = new_table_row(game_from_string("doppelkopf"), 2, False, creator, 0, utcnow())
    if store:
        db.create_table(row)
    return row, creator


def _actions(db: Database, table_id: str) -> list[list[tuple[int, str]]]:
    return [list(deal.actions) for deal in db.deals_of(table_id, with_actions=True)]


def test_a_takeover_moves_the_epoch_on_and_every_fenced_write_of_the_old_epoch_is_refused(db_url: str) -> None:
    db = Database(db_url)
    db.migrate()
    row, _creator = _table(db)
    assert row.lease_epoch == 0 and db.get_table(row.id).lease_epoch == 0  # type: ignore[union-attr]
    deal = db.create_deal(row.id, 0, 0, 1, "salt", "digest", (row.id, 0))
    assert db.take_over(row.id) == 1
    assert db.get_table(row.id).lease_epoch == 1  # type: ignore[union-attr]
    stale = (row.id, 0)
    with pytest.raises(StaleOwner) as refused:
        db.add_actions([(deal, 0, 0, "gesund", False)], [stale])
    assert refused.value.table_ids == (row.id,)
    with pytest.raises(StaleOwner):
        db.create_deal(row.id, 1, 1, 2, "salt", "digest", stale)
    with pytest.raises(StaleOwner):
        db.finish_deal(deal, "{}", stale)
    with pytest.raises(StaleOwner):
        db.set_status(row.id, "finished", stale)
    with pytest.raises(StaleOwner):
        db.set_seats(row.id, [row.seats[1]], "playing", stale)
    assert _actions(db, row.id) == [[]]  # nothing of the refused writes is stored
    assert [d.status for d in db.deals_of(row.id)] == ["playing"]
    assert db.get_table(row.id).status == "open"  # type: ignore[union-attr]
    db.add_actions([(deal, 0, 0, "gesund", False)], [(row.id, 1)])  # the new owner's epoch: stored
    db.add_actions([(deal, 1, 1, "gesund", False)])  # one process fences nothing
    assert _actions(db, row.id) == [[(0, "gesund"), (1, "gesund")]]
    db.set_status(row.id, "finished", (row.id, 1))
    assert db.take_over(row.id) is None  # an ended table is not taken over
    db.dispose()


def test_a_group_commit_refuses_only_the_stale_table_s_action(db_url: str) -> None:
    db = Database(db_url)
    db.migrate()
    (stale_row, _a), (fresh_row, _b) = _table(db, "Ada"), _table(db, "Bea")
    stale_deal = db.create_deal(stale_row.id, 0, 0, 1, "salt", "digest")
    fresh_deal = db.create_deal(fresh_row.id, 0, 0, 1, "salt", "digest")
    db.take_over(stale_row.id)
    log = ActionLog(db)

    async def main() -> list[Any]:
        return await asyncio.gather(
            log.store(stale_deal, 0, 0, "gesund", fence=(stale_row.id, 0)),
            log.store(fresh_deal, 0, 0, "gesund", fence=(fresh_row.id, 0)),
            return_exceptions=True,
        )

    results = run_async(main())
    assert isinstance(results[0], StaleOwner) and results[1] is None
    assert _actions(db, stale_row.id) == [[]]
    assert _actions(db, fresh_row.id) == [[(0, "gesund")]]
    db.dispose()


class NoBots:
    """Every seat is a person's: no bot is ever asked."""

    async def choose(self, job: BotJob) -> int:  # pragma: no cover - would fail the test
        raise AssertionError(f"a bot was asked at table {job.table}")

    def forget(self, table: str) -> None:
        """Nothing kept."""

    async def close(self) -> None:
        """Nothing to stop."""


def test_a_stalled_owner_s_action_is_refused_and_it_lets_the_table_go(postgres_server: PostgresServer, redis_url: str) -> None:
    run_async(asyncio.wait_for(_stalled_owner(postgres_server.new_database(), redis_url), timeout=120))


async def _remote_action(manager: Any, runtime: TableRuntime, client: str, identity: Identity, step: int) -> tuple[Any, str]:
    """Attach a client of another worker to ``runtime`` on ``manager`` and send the first legal action at ``step`` through it."""
    owned = manager.owned[runtime.id]
    attach = {"op": "attach", "conn": client, "worker": "elsewhere", "address": "10.0.0.1"}
    identity_json = {"session_id": identity.session_id, "user_id": identity.user_id, "name": identity.name}
    await manager._execute(runtime, owned, {**attach, "identity": identity_json})
    state, deal = runtime.state, runtime.deal
    assert state is not None and deal is not None
    action = state.legal_actions()[0].text
    text = json.dumps({"type": "action", "action": action, "deal": deal.id, "step": step})
    await manager._execute(runtime, owned, {"op": "message", "conn": client, "text": text})
    return owned.remote[client], action


async def _stalled_owner(db_url: str, redis_url: str) -> None:
    from redis.asyncio import Redis

    from stich.web.cluster.manager import ClusterTableManager

    settings = Settings(database_url=db_url, redis_url=redis_url, lease_seconds=30.0, bot_delay_seconds=0.0, grace_seconds=120.0)
    db = Database(db_url)
    db.migrate()
    a = ClusterTableManager(settings, db, Redis.from_url(redis_url, decode_responses=True), NoBots(), worker="worker-a")
    b = ClusterTableManager(settings, db, Redis.from_url(redis_url, decode_responses=True), NoBots(), worker="worker-b")
    try:
        for manager in (a, b):
            manager.outbox.start()
        row, creator = _table(db, store=False)
        players = [creator] + [
            Identity(db.create_session(hash_token(f"p{i}"), f"P{i}", None, utcnow() + timedelta(days=1)), None, f"P{i}") for i in (1, 2, 3)
        ]
        old = await a.create(row)
        for seat in (1, 2, 3):
            await old.join(players[seat], seat, None)
        for _ in range(200):  # the driver starts the first deal
            if old.state is not None:
                break
            await asyncio.sleep(0.05)
        assert old.state is not None and old.epoch == 0
        to_move = old.state.current_player()

        await a.redis.delete(keys.lease(row.id))  # A stalls past its lease: the lease expires, B takes the table over
        new = await b.claim(row.id)
        assert new is not None and new.epoch == 1 and row.id in a.tables  # A has not noticed yet

        conn, action = await _remote_action(a, old, "client-1", players[to_move], 0)  # A resumes with an action in hand
        await asyncio.sleep(0.2)
        assert _actions(db, row.id) == [[]]  # refused: nothing stored behind the new owner's back
        assert row.id not in a.tables and row.id not in a.owned  # A let the table go
        assert conn.closed and old.driver is not None and old.driver.done()

        await _remote_action(b, new, "client-2", players[to_move], 0)  # the client, reconnected, plays it at B
        assert _actions(db, row.id) == [[(to_move, action)]]  # stored once, where it was played
        assert new.state is not None and len(new.state.history) == 1
    finally:
        await a.stop()
        await b.stop()
        db.dispose()
