"""``stich tournament standings FILE``: recompute a duplicate tournament's standings from its downloaded records.

``FILE`` is the JSON Lines download of ``/api/tournaments/ID/records``.  Every
record is replayed and every table's deals are booked by the game's own list
(:mod:`stich.tournaments.replay`), so the standings printed, or written with
``--json`` in the server's shape, come from the cards and moves alone; they
equal the server's standings page for the same deals.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from stich.cli.common import UsageError
from stich.cli.texts import LANGUAGES, Texts
from stich.core.records import read_jsonl
from stich.errors import RecordError
from stich.tournaments.replay import standings_from_records


def add_tournament_parser(sub: argparse._SubParsersAction[Any], func: Callable[[argparse.Namespace], int] | None = None) -> None:
    """Register ``stich tournament standings`` on the subcommand parsers of ``stich``."""
    tournament = sub.add_parser("tournament", help="duplicate tournaments: recompute standings from the records")
    actions = tournament.add_subparsers(dest="action", metavar="ACTION", required=True)
    standings = actions.add_parser("standings", help="the standings of a tournament's records (JSON Lines from the server)")
    standings.add_argument("file", metavar="FILE.jsonl", help="the records, as downloaded from /api/tournaments/ID/records")
    standings.add_argument("--json", action="store_true", help="print the standings as one JSON object (the server's shape)")
    standings.add_argument("--comparison", action="store_true", help="with --json: add the comparison of every deal and seat")
    standings.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the table (default en)")
    standings.set_defaults(func=func or cmd_tournament)


def cmd_tournament(args: argparse.Namespace) -> int:
    """``stich tournament standings FILE.jsonl [--json] [--lang en|de]``."""
    return run_standings(args.file, args.json, args.lang, comparison=args.comparison)


def run_standings(path: str, as_json: bool, lang: str = "en", *, comparison: bool = False) -> int:
    """Print the standings of the records in ``path``; a file that does not replay is a usage error naming line and field."""
    try:
        standings = standings_from_records(read_jsonl(path), comparison=comparison)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    except RecordError as exc:
        raise UsageError(f"{path}: {exc}") from None
    if as_json:
        print(json.dumps(standings, ensure_ascii=False))
        return 0
    texts = Texts(lang)
    deals = ", ".join(str(n + 1) for n in standings["deals_counted"]) or "-"
    scoring = texts(f"tournament.scoring.{standings['scoring']}")
    print(texts("tournament.title", name=standings["name"], game=standings["game"], scoring=scoring, deals=deals))
    ddv = standings["scoring"] == "ddv_list"
    print(texts("tournament.header" if ddv else "tournament.header_sum"))
    for row in standings["rows"]:
        won = f" {row['won']:>4} {row['lost']:>4}" if ddv else ""
        where = f"{row['table'] + 1:>5} {row['seat']:>4}"
        print(f"{row['rank']:>4}  {row['name'][:22]:<22} {where} {row['points']:>7}{won}  {row['duplicate']:>+9.2f}")
    return 0
