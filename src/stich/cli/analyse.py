"""``stich analyse RECORD``: each decision of one seat in a finished deal against the search's choice.

The numbers are :func:`stich.analysis.analyse_record`'s, the same as the web
API's for the same record, seat, seed and budget; ``--json`` prints its JSON
form unchanged.  Without ``--json`` the costly decisions are listed with their
cost and reason in the language of ``--lang``; ``--all`` lists every analysed
decision.  Progress goes to stderr, so that stdout stays one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from stich.analysis import DEFAULT_BUDGET, MAX_BUDGET
from stich.cli.texts import Texts

if TYPE_CHECKING:
    from stich.analysis import Analysis


def add_analyse_parser(sub: argparse._SubParsersAction[Any], int_type: Callable[..., Callable[[str], int]], max_seed: int) -> None:
    """Register ``stich analyse`` on the subcommand parsers of ``stich``."""
    analyse = sub.add_parser("analyse", help="analyse one seat's decisions in a finished deal record")
    analyse.add_argument("record", metavar="RECORD", help="a finished deal record (a JSON file, or JSON Lines with one line)")
    analyse.add_argument("--seat", metavar="N", type=int_type("--seat", 0), default=0, help="the seat to analyse (default 0)")
    analyse.add_argument(
        "--budget",
        metavar="WORLDS",
        type=int_type("--budget", 1, MAX_BUDGET),
        default=DEFAULT_BUDGET,
        help=f"sampled worlds per decision (default {DEFAULT_BUDGET}; more is slower and less noisy)",
    )
    analyse.add_argument("--seed", metavar="S", type=int_type("--seed", 0, max_seed), default=0, help="seed of the worlds (default 0)")
    analyse.add_argument("--json", action="store_true", help="print the analysis as one JSON object")
    analyse.add_argument("--all", action="store_true", help="list every analysed decision, not only the costly ones")
    analyse.add_argument("--lang", choices=("en", "de"), default="en", help="language: en (English, default) or de (Deutsch)")
    analyse.add_argument("--quiet", action="store_true", help="no progress on stderr")
    analyse.set_defaults(func=cmd_analyse)


def cmd_analyse(args: argparse.Namespace) -> int:
    """``stich analyse RECORD [--seat N] [--budget W] [--seed S] [--json] [--lang de|en]``."""
    from stich.analysis import analyse_record  # loads the search (numba): only when a deal is analysed
    from stich.cli.verify import read_record

    record = read_record(args.record)
    texts = Texts(args.lang)

    def progress(done: int, total: int) -> None:
        print("\r" + texts("analyse.progress", done=done, total=total), end="\n" if done == total else "", file=sys.stderr, flush=True)

    analysis = analyse_record(record, args.seat, budget=args.budget, seed=args.seed, progress=None if args.quiet else progress)
    if args.json:
        print(json.dumps(analysis.to_json(), ensure_ascii=False))
    else:
        print(format_analysis(analysis, texts, all_decisions=args.all))
    return 0


def format_analysis(analysis: Analysis, texts: Texts, *, all_decisions: bool = False) -> str:
    """The costly decisions (every one with ``all_decisions``) as lines of text in the language of ``texts``."""
    lines = [texts("analyse.header", seat=analysis.seat, game=analysis.game, seed=analysis.seed, budget=analysis.budget)]
    if not any(d.costly for d in analysis.decisions):
        lines.append(texts("analyse.none"))
    for d in analysis.decisions:
        if not (d.costly or all_decisions):
            continue
        where = texts("analyse.trick", n=d.trick + 1) if d.trick is not None else texts("analyse.before")
        exact = texts("analyse.exact") if d.exact else texts("analyse.solved") if d.method == "solver" else ""
        lines.append(
            texts("analyse.row", index=d.index, where=where, played=d.played, best=d.best, cost=d.cost, stderr=d.stderr, exact=exact)
        )
        if d.reason is not None:
            lines.append("     " + d.reason.get(texts.lang, d.reason["en"]))
    count = sum(1 for d in analysis.decisions if d.costly)
    lines.append(texts("analyse.total", count=count, total=analysis.total_cost, decisions=len(analysis.decisions)))
    return "\n".join(lines)
