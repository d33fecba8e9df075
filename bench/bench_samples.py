"""Samples per card decision: how many worlds and leaf values each search bot gets from the same time budget.

Usage::

    python bench/bench_samples.py [--game tapp_tarock] [--bot SPEC ...] [--deals N] [--seed S] [--json]

The search bots of the ladder spend the same time per decision in different
ways.  ``pimc`` draws worlds and values each of its candidate cards once per
world by a play-out (:mod:`stich.bots.pimc`); an ``ismcts`` tree draws
worlds too, but each iteration also descends through its nodes in the
engine, asks the other seats' model bots for their cards and backs values
up (:mod:`stich.search.ismcts`).  Which of them gets more samples from the
budget decides much of a match between them: this script counts them.

Positions: every card-play decision with more than one legal card of every
seat in ``--deals`` deals that the heuristic bots play (deal seeds derived
from ``--seed``).  Each bot named by ``--bot`` (an arena spec, default
:data:`DEFAULT_BOTS`) decides each position once, in this one process, one
bot after the other on the same positions; a fresh bot per deal and seat.
Per bot the script reports the median, over the positions, of

* ``worlds``: worlds drawn for the decision (``pimc``: ``last.worlds``;
  ``ismcts``: the search's ``worlds``);
* ``leaves``: leaf values computed (``pimc``: worlds times candidates, one
  play-out or exact search each; ``ismcts``: iterations, one play-out or
  deal end each);
* ``ms``: wall time of ``choose``;

and the ratio of each median to the first bot's, measured in the same run.
A bot that decided a position without searching it (a fallback, a
shortcut) counts no sample there.  These are measurements, not tests; see
bench/README.md, section bench_samples.py.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

try:  # a plain checkout works through src/
    import stich  # noqa: F401
except ImportError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bench_common import machine_info, progress, rounded

from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.bots.heuristic import make_heuristic
from stich.bots.ismcts import IsmctsBot
from stich.bots.pimc import PimcBot
from stich.core.game import Game, Observation
from stich.core.registry import make_game
from stich.core.rng import derive_seed

DEFAULT_BOTS = (
    "pimc:level=1",
    "ismcts:level=1",
    "ismcts:level=1,rollout=kernel-heuristic,paired=true,others=heuristic,switch=eager,rewards=score",
)
"""The bots compared by default: the ladder's ``pimc`` and ``ismcts`` and the ``pimc``-like tree with compiled leaves."""


def card_decisions(game: Game, deals: int, seed: int) -> list[list[Observation]]:
    """Per deal, every card-play observation with more than one legal card, of every seat, as the heuristic bots play it."""
    found: list[list[Observation]] = []
    for deal in range(deals):
        state = game.new_state(seed=derive_seed(seed, deal), dealer=deal % game.num_seats)
        bots = [make_heuristic(game, seat, derive_seed(derive_seed(seed, deal), seat)) for seat in range(game.num_seats)]
        observations: list[Observation] = []
        while not state.is_terminal():
            seat = state.current_player()
            observation = state.observation(seat)
            if observation.phase == "play" and len(observation.legal_actions) > 1:
                observations.append(observation)
            state.apply(bots[seat].choose(observation))
        found.append(observations)
    return found


def samples(game: Game, spec: str, positions: list[list[Observation]], seed: int) -> dict[str, Any]:
    """Worlds, leaf values and milliseconds per searched decision of the bot ``spec`` on ``positions`` (medians)."""
    parsed = parse_bot_spec(spec)
    worlds: list[int] = []
    leaves: list[int] = []
    millis: list[float] = []
    unsearched = 0
    for deal, observations in enumerate(positions):
        bots = [build_bot(parsed, game, seat, derive_seed(derive_seed(seed, deal), seat)) for seat in range(game.num_seats)]
        for observation in observations:
            bot = bots[observation.seat]
            started = time.perf_counter()
            bot.choose(observation)
            elapsed = 1000.0 * (time.perf_counter() - started)
            if isinstance(bot, PimcBot) and bot.last.worlds:
                worlds.append(bot.last.worlds)
                leaves.append(bot.last.worlds * bot.last.candidates)
            elif isinstance(bot, IsmctsBot) and bot.last_result is not None:
                worlds.append(bot.last_result.worlds)
                leaves.append(bot.last_result.iterations)
            else:
                unsearched += 1
                continue
            millis.append(elapsed)
    if not worlds:
        return {"bot": spec, "decisions": 0, "unsearched": unsearched}
    return {
        "bot": spec,
        "decisions": len(worlds),
        "unsearched": unsearched,
        "worlds": statistics.median(worlds),
        "leaves": statistics.median(leaves),
        "ms": rounded(statistics.median(millis), 3),
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Every bot on the same positions; ratios of the medians to the first bot's."""
    machine = machine_info()  # before the run: its load average is the one the figures were taken under
    game = make_game(args.game)
    positions = card_decisions(game, args.deals, args.seed)
    progress(f"{sum(len(p) for p in positions)} card decisions in {args.deals} deals of {game.canonical}")
    rows = []
    for spec in args.bot or DEFAULT_BOTS:
        progress(f"  {spec}")
        rows.append(samples(game, spec, positions, args.seed))
    first = rows[0]
    for row in rows:
        for key in ("worlds", "leaves"):
            if row.get(key) and first.get(key):
                row[f"{key}_ratio"] = rounded(row[key] / first[key], 3)
    return {"machine": machine, "game": game.canonical, "deals": args.deals, "seed": args.seed, "bots": rows}


def render(report: dict[str, Any]) -> str:
    """The report as a Markdown table."""
    lines = [
        f"{report['game']}: {report['deals']} deals (seed {report['seed']}), card-play decisions with a choice; medians per decision",
        "",
        "| bot | decisions | worlds | leaves | ms | worlds / first | leaves / first |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in report["bots"]:
        if not row["decisions"]:
            lines.append(f"| `{row['bot']}` | 0 | – | – | – | – | – |")
            continue
        lines.append(
            f"| `{row['bot']}` | {row['decisions']} | {row['worlds']:g} | {row['leaves']:g} | {row['ms']:.1f} "
            f"| {row.get('worlds_ratio', 1.0):.2f} | {row.get('leaves_ratio', 1.0):.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--game", default="tapp_tarock", help="game name (default tapp_tarock)")
    parser.add_argument("--bot", action="append", help=f"a bot spec; repeat for more (default: {', '.join(DEFAULT_BOTS)})")
    parser.add_argument("--deals", type=int, default=6, help="deals the heuristic bots play for positions (default 6)")
    parser.add_argument("--seed", type=int, default=11, help="seed of the deals and the bots (default 11)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(argv)
    report = run(args)
    print(json.dumps(report, indent=1) if args.json else render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
