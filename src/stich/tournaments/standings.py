"""Standings of a duplicate tournament from its finished deals (pure: no web, no database).

An *outcome* is one finished deal at one table: the table's position in the
tournament, the deal's number in the table's list, the seed and dealer that
fixed its cards, the score-sheet entries (the list's row, not the raw result:
what the table's list booked) and the players' names per seat.

Scoring (decision 0057):

* ``ddv_list`` (Doppelkopf): a player's points are the sum of their entries
  in the Spielliste, plus-minus as TSR 7.2.2 scores them and as TSR 7.3.1
  enters every game "als Gewinn oder Verlust"; the standings also count the
  games won (positive entry) and lost (negative entry), which TSR 7.3.3 (3)
  marks on the sheet.  Rank: points, then games won, then the duplicate
  comparison.  The DDV's Turnierspielordnung (the federation's tournament
  ranking rules) is not in the project's sources; decision 0057 names the gap.
* ``sum`` (every other game): the plain sum of the sheet entries; rank by it,
  then by the duplicate comparison.

Duplicate comparison: the players who held the same cards are those at the
same seat in deals with the same seed and dealer.  For each such group with
two or more tables, a player's difference is their entry minus the mean of
the others' entries; a player's ``duplicate`` is the sum of these
differences (exact fractions, rounded to hundredths only when written).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

SCORING_DDV = "ddv_list"
"""The DDV's list scoring (Doppelkopf)."""
SCORING_SUM = "sum"
"""A plain sum of the score-sheet entries (every other game)."""


def scoring_for(game_name: str) -> str:
    """The scoring a tournament of ``game_name`` uses: the DDV list for Doppelkopf, a plain sum otherwise."""
    return SCORING_DDV if game_name == "doppelkopf" else SCORING_SUM


@dataclass(frozen=True)
class Outcome:
    """One finished deal at one table of a tournament."""

    table: int
    """The table's position in the tournament, from 0."""
    number: int
    """The deal's number in the table's list, from 0 (thrown-in deals count)."""
    seed: int
    dealer: int
    scores: tuple[int, ...]
    """The list's entries for this deal, one per seat."""
    players: tuple[str, ...]
    """Who sat at each seat."""


@dataclass
class _Entrant:
    table: int
    seat: int
    name: str = ""
    points: int = 0
    deals: int = 0
    won: int = 0
    lost: int = 0
    parts: dict[int, int] = field(default_factory=dict)
    """The duplicate comparison as exact parts: denominator -> sum of numerators (integers only until the end: fast)."""

    @property
    def duplicate(self) -> Fraction:
        return sum((Fraction(numerator, denominator) for denominator, numerator in self.parts.items()), Fraction(0))


def closed_numbers(played: Iterable[tuple[int, int]], tables: int, finished_tables: Iterable[int] = ()) -> set[int]:
    """The deal numbers every table is done with, from ``(table, number)`` of the finished deals.

    A deal number counts once every table has finished it, or has finished
    its whole list: until then its cards are still being played somewhere,
    and a score from another table (a solo, a high win) would tell those
    players something about their hidden cards.
    """
    done = set(finished_tables)
    numbers: dict[int, set[int]] = defaultdict(set)
    for table, number in played:
        numbers[number].add(table)
    return {number for number, at in numbers.items() if all(table in at or table in done for table in range(tables))}


def visible(outcomes: Iterable[Outcome], tables: int, finished_tables: Iterable[int] = ()) -> list[Outcome]:
    """The outcomes the standings may show while the tournament runs: those of :func:`closed_numbers`."""
    items = list(outcomes)
    closed = closed_numbers(((o.table, o.number) for o in items), tables, finished_tables)
    return [outcome for outcome in items if outcome.number in closed]


def _hundredths(value: Fraction) -> float:
    return float(round(value, 2))


def compute_standings(game_name: str, outcomes: Iterable[Outcome], *, comparison: bool = False) -> dict[str, Any]:
    """The standings as JSON: ranked rows and, with ``comparison``, the duplicate comparison per deal and seat.

    ``outcomes`` are the deals to count (see :func:`visible`); a table's seat
    is an entrant from its first counted deal on, named as in its latest one.
    A group of ``m`` players who held the same cards with the sum ``total``
    gives each member the difference ``(m * score - total) / (m - 1)``: their
    score minus the mean of the others'.
    """
    scoring = scoring_for(game_name)
    ordered = sorted(outcomes, key=lambda o: (o.table, o.number))
    entrants: dict[tuple[int, int], _Entrant] = {}
    groups: dict[tuple[int, int, int, int], list[tuple[int, int]]] = defaultdict(list)
    """(number, seat, seed, dealer) -> [(table, score)]: who held the same cards."""
    for outcome in ordered:
        for seat, score in enumerate(outcome.scores):
            entrant = entrants.get((outcome.table, seat))
            if entrant is None:
                entrant = entrants[(outcome.table, seat)] = _Entrant(outcome.table, seat)
            entrant.name = outcome.players[seat] if seat < len(outcome.players) else f"seat {seat}"
            entrant.points += score
            entrant.deals += 1
            entrant.won += score > 0
            entrant.lost += score < 0
            groups[(outcome.number, seat, outcome.seed, outcome.dealer)].append((outcome.table, score))
    compared = []
    for (number, seat, seed, dealer), members in sorted(groups.items()):
        size = len(members)
        if size < 2:
            continue
        total = sum(score for _, score in members)
        denominator = size - 1
        for table, score in members:
            parts = entrants[(table, seat)].parts
            parts[denominator] = parts.get(denominator, 0) + size * score - total
        if comparison:
            rows = [
                {"table": t, "name": entrants[(t, seat)].name, "score": sc, "diff": _hundredths(Fraction(size * sc - total, denominator))}
                for t, sc in members
            ]
            compared.append({"number": number, "seed": str(seed), "dealer": dealer, "seat": seat, "entries": rows})
    ddv = scoring == SCORING_DDV
    keyed = []
    for entrant in entrants.values():
        duplicate = entrant.duplicate
        order: tuple[Any, ...] = (-entrant.points, -entrant.won, -duplicate) if ddv else (-entrant.points, -duplicate)
        keyed.append((order, entrant.table, entrant.seat, duplicate, entrant))
    keyed.sort(key=lambda item: item[:3])
    rows_json: list[dict[str, Any]] = []
    for index, (order, _, _, duplicate, entrant) in enumerate(keyed):
        rank = rows_json[-1]["rank"] if index and keyed[index - 1][0] == order else index + 1
        row: dict[str, Any] = {
            "rank": rank,
            "name": entrant.name,
            "table": entrant.table,
            "seat": entrant.seat,
            "points": entrant.points,
            "deals": entrant.deals,
            "duplicate": _hundredths(duplicate),
        }
        if ddv:
            row |= {"won": entrant.won, "lost": entrant.lost}
        rows_json.append(row)
    numbers = sorted({o.number for o in ordered})
    result: dict[str, Any] = {"game": game_name, "scoring": scoring, "deals_counted": numbers, "rows": rows_json}
    if comparison:
        result["comparison"] = compared
    return result


def outcome_from(table: int, number: int, seed: int, dealer: int, scores: Sequence[int], players: Sequence[str]) -> Outcome:
    """An :class:`Outcome` from plain values (the database's and the records' shapes meet here)."""
    return Outcome(table, number, seed, dealer, tuple(int(s) for s in scores), tuple(str(p) for p in players))
