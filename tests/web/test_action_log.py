"""Group commit of played actions (stich.web.runtime.action_log): fewer commits, and still every acknowledged action on disk."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from stich.core.registry import game_from_string
from stich.web.identity import Identity
from stich.web.runtime.action_log import ActionLog
from stich.web.runtime.seats import new_table_row
from stich.web.storage.db import Database, utcnow
from stich.web.storage.login_sessions import hash_token

from .helpers import run_async


def _database_with_deals(folder: Path, deals: int) -> tuple[Database, list[int]]:
    """A migrated SQLite database in ``folder`` with one table and ``deals`` deals (their ids)."""
    db = Database(f"sqlite:///{folder / 'actions.db'}")
    db.migrate()
    session_id = db.create_session(hash_token("token"), "Ada", None, utcnow() + timedelta(days=1))
    row = new_table_row(game_from_string("doppelkopf"), deals, False, Identity(session_id, None, "Ada"), 0, utcnow())
    db.create_table(row)
    return db, [db.create_deal(row.id, number, 0, number + 1, "salt", "digest") for number in range(deals)]


def _stored(db: Database, deal_ids: list[int]) -> dict[int, list[tuple[int, str]]]:
    table_id = db.get_deal(deal_ids[0]).table_id  # type: ignore[union-attr]
    return {deal.id: list(deal.actions) for deal in db.deals_of(table_id, with_actions=True)}


def test_actions_arriving_together_share_one_commit_and_are_stored_when_acknowledged(tmp_path: Path) -> None:
    db, deals = _database_with_deals(tmp_path, 4)
    log = ActionLog(db)
    acknowledged: list[int] = []

    async def play(deal_id: int, seat: int) -> None:
        await log.store(deal_id, 0, seat, "gesund")
        acknowledged.append(deal_id)
        assert (seat, "gesund") in _stored(db, deals)[deal_id]  # on disk by the time the caller goes on

    async def main() -> None:
        await asyncio.gather(*(play(deal_id, seat) for seat, deal_id in enumerate(deals)))

    run_async(main())
    assert sorted(acknowledged) == sorted(deals)
    assert log.stored == 4
    assert log.commits == 1  # all four were queued before the writer ran: one transaction
    assert _stored(db, deals) == {deal_id: [(seat, "gesund")] for seat, deal_id in enumerate(deals)}


def test_a_lone_action_is_written_at_once_and_later_ones_go_into_the_next_commit(tmp_path: Path) -> None:
    db, deals = _database_with_deals(tmp_path, 1)
    log = ActionLog(db)

    async def main() -> None:
        for position in range(3):
            await log.store(deals[0], position, position, "gesund")

    run_async(main())
    assert log.commits == 3 and log.stored == 3
    assert _stored(db, deals)[deals[0]] == [(0, "gesund"), (1, "gesund"), (2, "gesund")]


def test_a_bad_action_fails_alone_and_the_rest_of_its_group_is_stored(tmp_path: Path) -> None:
    """A duplicate position (the key refuses it) fails its own caller only; nothing of it is stored."""
    db, deals = _database_with_deals(tmp_path, 2)
    db.add_actions([(deals[0], 0, 0, "gesund", False)])
    log = ActionLog(db)

    async def main() -> list[BaseException | None]:
        results = await asyncio.gather(
            log.store(deals[0], 0, 1, "vorbehalt"),  # position 0 is taken
            log.store(deals[1], 0, 2, "gesund"),
            log.store(deals[0], 1, 3, "gesund"),
            return_exceptions=True,
        )
        return list(results)

    results = run_async(main())
    assert isinstance(results[0], Exception) and results[1] is None and results[2] is None
    stored = _stored(db, deals)
    assert stored[deals[0]] == [(0, "gesund"), (3, "gesund")]
    assert stored[deals[1]] == [(2, "gesund")]
    assert log.stored == 2


@pytest.mark.parametrize("size", [1, 5])
def test_add_actions_stores_all_or_none(tmp_path: Path, size: int) -> None:
    db, deals = _database_with_deals(tmp_path, 1)
    rows = [(deals[0], position, position % 4, "gesund", position == 0) for position in range(size)]
    with pytest.raises(IntegrityError):  # the repeated position: the key refuses it, and the whole transaction goes
        db.add_actions([*rows, rows[0]])
    assert _stored(db, deals)[deals[0]] == []
    db.add_actions(rows)
    assert _stored(db, deals)[deals[0]] == [(position % 4, "gesund") for position in range(size)]
