"""Recompute a tournament's standings from its records (``stich tournament standings FILE``).

The server's download (``GET /api/tournaments/ID/records``) is a JSON Lines
file of deal records in the format of :mod:`stich.core.records`, each with
``meta.tournament`` (``id``, ``name``, ``table``: the table's position,
``tables``, ``deals``) and ``meta.number`` (the deal's number in its table's
list).  Nothing else is trusted: every record is replayed
(:func:`~stich.core.records.replay_deal`: cards from the seed, every action
legal, the result recomputed), and each table's deals are booked in order by
the game's own list, so the entries counted are those the list books, exactly
as the server's table booked them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any, cast

from stich.core.records import replay_deal, session_class
from stich.core.registry import game_from_string
from stich.core.session import Session
from stich.errors import RecordError, StichError
from stich.tournaments.standings import Outcome, compute_standings, outcome_from

TOURNAMENT_KEYS = ("id", "table", "tables", "deals")
"""What ``meta.tournament`` must hold."""


def tournament_meta(record: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    """A record's ``meta.tournament``, checked; :class:`RecordError` naming ``where`` otherwise."""
    meta = record.get("meta")
    block = meta.get("tournament") if isinstance(meta, Mapping) else None
    if not isinstance(block, Mapping):
        raise RecordError("not a tournament record: meta.tournament is missing", f"{where}meta.tournament")
    for key in TOURNAMENT_KEYS:
        if key not in block:
            raise RecordError(f"meta.tournament has no {key!r}", f"{where}meta.tournament.{key}")
    for key in ("table", "tables", "deals"):
        value = block[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RecordError("must be a whole number of at least 0", f"{where}meta.tournament.{key}")
    if block["table"] >= block["tables"]:
        raise RecordError(f"table {block['table']} of a tournament of {block['tables']} tables", f"{where}meta.tournament.table")
    number = cast(Mapping[str, Any], meta).get("number")
    if not isinstance(number, int) or isinstance(number, bool) or number < 0:
        raise RecordError("must be the deal's number in its list, a whole number of at least 0", f"{where}meta.number")
    return block


def _seeded_session(game_text: str, deals: int, seeds: Mapping[int, int]) -> Session:
    """The game's list whose deal ``i`` is dealt from ``seeds[i]`` (the tournament's committed seeds)."""
    game = game_from_string(game_text)
    base = session_class(game)

    def deal_seed(self: Session, index: int) -> int:
        if index not in seeds:
            raise RecordError(f"deal {index} of the list is missing from the file", "meta.number")
        return seeds[index]

    cls = type(f"Tournament{base.__name__}", (base,), {"deal_seed": deal_seed, "__module__": __name__})
    return cast(Session, cls(game, 0, deals))


def outcomes_from_records(records: Iterable[tuple[int, Mapping[str, Any]]]) -> tuple[dict[str, Any], list[Outcome]]:
    """The tournament (its ``meta.tournament`` and game) and every deal's outcome, from ``(line, record)`` pairs.

    Raises :class:`RecordError` naming the line and field of the first problem:
    records of different tournaments or games, a deal twice, a gap in a
    table's list, or a record that does not replay.
    """
    tables: dict[int, dict[int, tuple[int, Mapping[str, Any]]]] = defaultdict(dict)
    tournament: dict[str, Any] | None = None
    for line, record in records:
        where = f"line {line}: "
        try:
            replay_deal(record)
        except RecordError as exc:
            raise RecordError(exc.reason, where + (exc.where or "record")) from None
        block = tournament_meta(record, where)
        info = {"id": block["id"], "name": block.get("name"), "tables": block["tables"], "deals": block["deals"], "game": record["game"]}
        if tournament is None:
            tournament = info
        elif info != tournament:
            raise RecordError(f"this record belongs to tournament {info}, the file's first to {tournament}", where + "meta.tournament")
        number = record["meta"]["number"]
        if number in tables[block["table"]]:
            raise RecordError(f"table {block['table']} has deal {number} twice", where + "meta.number")
        tables[block["table"]][number] = (line, record)
    if tournament is None:
        raise RecordError("the file holds no records", "records")
    outcomes: list[Outcome] = []
    for table, deals in sorted(tables.items()):
        seeds = {number: int(record["seed"]) for number, (_, record) in deals.items()}
        session = _seeded_session(tournament["game"], tournament["deals"], seeds)
        for number in sorted(deals):
            line, record = deals[number]
            where = f"line {line}: "
            if number != session.deal_index:
                raise RecordError(
                    f"table {table}'s list is at deal {session.deal_index}, this record is deal {number}", where + "meta.number"
                )
            try:
                state = session.next_deal()
                if state is None:
                    raise RecordError(f"table {table}'s list is over before deal {number}", where + "meta.number")
                if state.dealer != record["dealer"]:
                    raise RecordError(f"the list deals deal {number} from seat {state.dealer}, not {record['dealer']}", where + "dealer")
                for seat, text in record["actions"]:
                    if seat != state.current_player():
                        raise RecordError(f"seat {seat} acts, seat {state.current_player()} is to move", where + "actions")
                    state.apply(state.to_action(text))
                row = session.book(state)
            except RecordError:
                raise
            except StichError as exc:
                raise RecordError(str(exc), where + "actions") from None
            players = record.get("players") or [f"seat {seat}" for seat in range(len(row.scores))]
            outcomes.append(outcome_from(table, number, int(record["seed"]), record["dealer"], row.scores, players))
    return tournament, outcomes


def standings_from_records(records: Iterable[tuple[int, Mapping[str, Any]]], *, comparison: bool = False) -> dict[str, Any]:
    """The standings (:func:`~stich.tournaments.standings.compute_standings`) of the records' tournament, with its id and name."""
    tournament, outcomes = outcomes_from_records(records)
    game = game_from_string(tournament["game"])
    return {"tournament": tournament["id"], "name": tournament["name"]} | compute_standings(game.name, outcomes, comparison=comparison)
