"""The end of a table (issue 44): its final standings and its score sheet as CSV, rebuilt from the finished deals' records.

A finished table keeps no session in memory, and every worker must be able
to answer, so the standings are recomputed from what the database stores:
the list (the game's :class:`~stich.core.session.Session`) is replayed deal
by deal from the records, each dealt from its own committed seed.  That
gives back the score sheet with the game's own rows and notes: who won,
the totals, and the list's special rows (compulsory and voluntary solos,
Vorführungen, bock rounds, deals thrown in, compulsory solos never played,
the last hands of a Droggn list).  A record that does not replay (it cannot
happen for a record the server wrote; a test makes sure) leaves the sheet as
the sum of the records' scores, without special rows.

Only finished deals are read, whose seeds every seat already saw revealed:
nothing here can show a card of a running deal.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any, cast

from stich.core.game import Game
from stich.core.registry import session_class
from stich.core.session import Session
from stich.errors import StichError

SPECIAL_MARKS = ("redeal", "vorfuehrung", "pflichtsolo", "lustsolo", "bock", "bock_trigger", "pflichtsolo_not_played", "last_hand")
"""The kinds of special row, in the order a row lists them (the client translates each: ``standings.mark.<kind>``)."""


def _seeded_session(game: Game, deals: int, seeds: Sequence[int]) -> Session:
    """The game's session whose deal ``i`` is dealt from ``seeds[i]`` (the table's committed seeds)."""
    base = session_class(game.name)

    def deal_seed(self: Session, index: int) -> int:
        return seeds[index]

    cls = type(f"Standings{base.__name__}", (base,), {"deal_seed": deal_seed, "__module__": __name__})
    return cast(Session, cls(game, 0, deals))


def replayed_sheet(game: Game, deals: int, records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]] | None:
    """The score sheet rows (:meth:`Session.sheet`) of the finished deals ``records`` in order, or ``None`` if they do not replay."""
    try:
        session = _seeded_session(game, deals, [int(record["seed"]) for record in records])
        for record in records:
            state = session.next_deal()
            if state is None or state.dealer != record["dealer"]:
                return None
            for _seat, action in record["actions"]:
                state.apply(action)
            session.book(state)
    except (StichError, ValueError, KeyError, TypeError, IndexError):
        return None
    return session.sheet()


def marks(notes: Mapping[str, Any]) -> list[str]:
    """The special kinds of one sheet row, from its notes (empty for an ordinary game)."""
    found: list[str] = []
    if notes.get("redeal"):
        found.append("redeal")
    if notes.get("kind") == "solo" or notes.get("pflicht"):
        found.append("vorfuehrung" if notes.get("forced") else "pflichtsolo" if notes.get("pflicht") else "lustsolo")
    bock = notes.get("multiplier")
    if isinstance(bock, int) and bock > 1 and "bock_queued" in notes:
        found.append("bock")
    if notes.get("bock_triggers"):
        found.append("bock_trigger")
    if notes.get("pflichtsolo_not_played"):
        found.append("pflichtsolo_not_played")
    if notes.get("last_hand"):
        found.append("last_hand")
    return found


def standings(game: Game, deals: int, records: Sequence[Mapping[str, Any]], names: Sequence[str]) -> dict[str, Any]:
    """The final standings of a table: ranking, winners, totals, the sheet and its special rows.

    ``records`` are the table's finished deals in order; ``names`` its seats'
    names.  Places are shared on equal totals (1, 1, 3...); every seat with
    the highest total is a winner.
    """
    sheet = replayed_sheet(game, deals, records)
    seats = len(names)
    if sheet is None:
        totals = [0] * seats
        sheet = []
        for number, record in enumerate(records, start=1):
            scores = [int(x) for x in record["result"]["scores"]]
            totals = [a + b for a, b in zip(totals, scores, strict=True)]
            sheet.append({"number": number, "dealer": record["dealer"], "label": "", "scores": scores, "totals": totals, "notes": {}})
    for row, record in zip(sheet, records, strict=True):
        row["result"] = record.get("result")  # the deal's result, for the client's own words (German or English)
        row["deal_id"] = (record.get("meta") or {}).get("deal_id")
    totals = list(sheet[-1]["totals"]) if sheet else [0] * seats
    order = sorted(range(seats), key=lambda seat: (-totals[seat], seat))
    place = {seat: 1 + sum(other > totals[seat] for other in totals) for seat in range(seats)}
    ranking = [{"seat": seat, "name": names[seat], "total": totals[seat], "place": place[seat]} for seat in order]
    best = max(totals) if totals else 0
    special = [
        {key: row[key] for key in ("number", "label", "scores", "notes", "result")} | {"marks": found}
        for row in sheet
        if (found := marks(row["notes"]))
    ]
    return {
        "totals": totals,
        "winners": [seat for seat in range(seats) if totals[seat] == best] if records else [],
        "ranking": ranking,
        "sheet": sheet,
        "special_rows": special,
        "deals_played": len(records),
    }


def sheet_csv(names: Sequence[str], sheet: Sequence[Mapping[str, Any]]) -> str:
    """The score sheet as CSV: a header, one line per deal (number, label, special kinds, each seat's score and total)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["deal", "game", "special", *map(_safe, names), *[f"total {_safe(name)}" for name in names]])
    for row in sheet:
        writer.writerow([row["number"], _safe(row["label"]), " ".join(marks(row["notes"])), *row["scores"], *row["totals"]])
    return out.getvalue()


def _safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula (CSV injection): a leading ``= + - @`` gets a quote mark."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
