"""The tournaments' queries (decision 0057): each one short transaction, dialect-neutral (SQLite and PostgreSQL).

Standings are never kept as a running counter: every finished deal of a
tournament table is one row of ``tournament_results`` (keyed by tournament,
table position and deal number, so a deal stored twice stays one row), and
the standings are summed from those rows when asked.  Two workers that finish
tables at the same moment each insert their own row; neither can lose the
other's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from stich.tournaments.standings import Outcome
from stich.web.storage.db import Database
from stich.web.storage.models import Deal, GameTable, TableSeat, Tournament, TournamentDeal, TournamentResult, TournamentTable, as_utc


@dataclass(frozen=True)
class TournamentRow:
    """A tournament as stored."""

    id: str
    name: str
    game: str
    game_name: str
    kind: str | None
    deals: int
    tables: int
    bots: str | None
    start_at: datetime | None
    status: str
    organiser_id: int | None
    organiser_name: str
    created_at: datetime


@dataclass(frozen=True)
class CommittedDeal:
    """A tournament deal's seed, salt and commitment."""

    number: int
    seed: int
    salt: str
    commitment: str


@dataclass(frozen=True)
class TableLink:
    """What a table of a tournament needs to know: which tournament, its position, and the deals every table plays."""

    tournament_id: str
    name: str
    position: int
    tables: int
    deals: tuple[CommittedDeal, ...]


def _row(t: Tournament) -> TournamentRow:
    return TournamentRow(
        t.id,
        t.name,
        t.game,
        t.game_name,
        t.kind,
        t.deals,
        t.tables,
        t.bots,
        None if t.start_at is None else as_utc(t.start_at),
        t.status,
        t.organiser_id,
        t.organiser_name,
        as_utc(t.created_at),
    )


def create_tournament(db: Database, row: TournamentRow, deals: Sequence[CommittedDeal], table_ids: Sequence[str]) -> None:
    """Store a tournament, its committed deals and its (already stored) tables, in one transaction."""
    with db._write() as s:
        s.add(
            Tournament(
                id=row.id,
                name=row.name,
                game=row.game,
                game_name=row.game_name,
                kind=row.kind,
                deals=row.deals,
                tables=row.tables,
                bots=row.bots,
                start_at=row.start_at,
                status=row.status,
                organiser_id=row.organiser_id,
                organiser_name=row.organiser_name,
                created_at=row.created_at,
            )
        )
        s.flush()
        s.add_all(
            TournamentDeal(tournament_id=row.id, number=d.number, seed=str(d.seed), salt=d.salt, commitment=d.commitment) for d in deals
        )
        s.add_all(TournamentTable(tournament_id=row.id, position=i, table_id=t) for i, t in enumerate(table_ids))
        s.commit()


def get_tournament(db: Database, tournament_id: str) -> TournamentRow | None:
    """One tournament, or ``None``."""
    with db._session() as s:
        t = s.get(Tournament, tournament_id)
        return None if t is None else _row(t)


def list_tournaments(db: Database, limit: int, offset: int = 0) -> tuple[list[TournamentRow], int]:
    """Tournaments newest first (``limit`` from ``offset``) and how many there are."""
    with db._session() as s:
        total = s.scalar(select(func.count()).select_from(Tournament)) or 0
        rows = s.scalars(select(Tournament).order_by(Tournament.created_at.desc(), Tournament.id).limit(limit).offset(offset))
        return [_row(t) for t in rows], total


def count_unfinished_of(db: Database, organiser_id: int) -> int:
    """How many of the organiser's tournaments are not finished (the cap on new ones)."""
    with db._session() as s:
        query = select(func.count()).select_from(Tournament).where(Tournament.organiser_id == organiser_id, Tournament.status != "finished")
        return s.scalar(query) or 0


def committed_deals(db: Database, tournament_id: str) -> list[CommittedDeal]:
    """The tournament's deals in order."""
    with db._session() as s:
        rows = s.scalars(select(TournamentDeal).where(TournamentDeal.tournament_id == tournament_id).order_by(TournamentDeal.number))
        return [CommittedDeal(d.number, int(d.seed), d.salt, d.commitment) for d in rows]


def tables_of(db: Database, tournament_id: str) -> list[tuple[int, str, str]]:
    """``(position, table id, table status)`` of every table, in position order."""
    with db._session() as s:
        query = (
            select(TournamentTable.position, TournamentTable.table_id, GameTable.status)
            .join(GameTable, GameTable.id == TournamentTable.table_id)
            .where(TournamentTable.tournament_id == tournament_id)
            .order_by(TournamentTable.position)
        )
        return [(p, t, st) for p, t, st in s.execute(query)]


def link_of_table(db: Database, table_id: str) -> TableLink | None:
    """The tournament a table belongs to (``None`` for an ordinary table)."""
    with db._session() as s:
        link = s.scalar(select(TournamentTable).where(TournamentTable.table_id == table_id))
        if link is None:
            return None
        t = s.get(Tournament, link.tournament_id)
        assert t is not None
        rows = s.scalars(select(TournamentDeal).where(TournamentDeal.tournament_id == t.id).order_by(TournamentDeal.number))
        deals = tuple(CommittedDeal(d.number, int(d.seed), d.salt, d.commitment) for d in rows)
        return TableLink(t.id, t.name, link.position, t.tables, deals)


def add_result(db: Database, tournament_id: str, position: int, number: int, deal_id: int, outcome: Outcome) -> None:
    """Store one finished deal's list entries; storing the same deal again changes nothing."""
    try:
        with db._write() as s:
            s.add(
                TournamentResult(
                    tournament_id=tournament_id,
                    position=position,
                    number=number,
                    deal_id=deal_id,
                    seed=str(outcome.seed),
                    dealer=outcome.dealer,
                    scores=json.dumps(list(outcome.scores)),
                    players=json.dumps(list(outcome.players), ensure_ascii=False),
                )
            )
            s.commit()
    except IntegrityError:
        pass  # stored before (a restart re-books its finished deals)


def outcomes_of(db: Database, tournament_id: str) -> list[Outcome]:
    """Every stored finished deal of the tournament."""
    with db._session() as s:
        query = select(
            TournamentResult.position,
            TournamentResult.number,
            TournamentResult.seed,
            TournamentResult.dealer,
            TournamentResult.scores,
            TournamentResult.players,
        ).where(TournamentResult.tournament_id == tournament_id)
        loads = json.loads
        return [Outcome(p, n, int(seed), dealer, tuple(loads(sc)), tuple(loads(pl))) for p, n, seed, dealer, sc, pl in s.execute(query)]


def played_of(db: Database, tournament_id: str) -> list[tuple[int, int]]:
    """``(table position, deal number)`` of every stored finished deal of the tournament (what :func:`closed_numbers` needs)."""
    with db._session() as s:
        query = select(TournamentResult.position, TournamentResult.number).where(TournamentResult.tournament_id == tournament_id)
        return [(p, n) for p, n in s.execute(query)]


def count_results(db: Database, tournament_id: str) -> int:
    """How many finished deals of the tournament are stored (the standings change exactly when this does: rows are only added)."""
    with db._session() as s:
        query = select(func.count()).select_from(TournamentResult).where(TournamentResult.tournament_id == tournament_id)
        return s.scalar(query) or 0


def seats_of(db: Database, tournament_id: str) -> dict[str, list[TableSeat]]:
    """Every seat of every table of the tournament, by table id, in seat order (one query)."""
    with db._session() as s:
        query = (
            select(TableSeat)
            .join(TournamentTable, TournamentTable.table_id == TableSeat.table_id)
            .where(TournamentTable.tournament_id == tournament_id)
            .order_by(TableSeat.table_id, TableSeat.seat)
        )
        seats: dict[str, list[TableSeat]] = {}
        for seat in s.scalars(query):
            seats.setdefault(seat.table_id, []).append(seat)
        return seats


def records_of(db: Database, tournament_id: str) -> list[tuple[int, int, str]]:
    """``(position, number, record JSON)`` of every finished deal of the tournament's tables, in table and deal order."""
    with db._session() as s:
        query = (
            select(TournamentTable.position, Deal.number, Deal.record)
            .join(Deal, Deal.table_id == TournamentTable.table_id)
            .where(TournamentTable.tournament_id == tournament_id, Deal.status == "finished")
            .order_by(TournamentTable.position, Deal.number)
        )
        return [(p, n, r) for p, n, r in s.execute(query) if r is not None]


def set_status(db: Database, tournament_id: str, status: str, *, only_from: str) -> bool:
    """Move the tournament from ``only_from`` to ``status``; ``False`` when it was not at ``only_from`` (another worker moved it)."""
    with db._write() as s:
        result = s.execute(update(Tournament).where(Tournament.id == tournament_id, Tournament.status == only_from).values(status=status))
        s.commit()
        return bool(getattr(result, "rowcount", 0))
