"""The analysis of a finished deal (stich.analysis, issue 43): time per deal per game, and how far its costs agree with a longer one.

Usage::

    python bench/bench_analysis.py [--games doppelkopf tapp_tarock dobbm droggn dappen] [--deals N]
        [--budget W] [--long W] [--seed S] [--kernel-tricks N ...] [--json]

Per game, ``--deals`` deals (default 2) are played by the heuristic bots
with a random bot in seat 1 (a player who makes mistakes to find), and
seat 1 is analysed twice: at ``--budget`` worlds per decision (default:
the default budget, 24) and at ``--long`` (default 96) with another seed.
Reported per game:

* the CPU time (``time.process_time``) and wall time of one deal's analysis
  at the default budget, mean and max over the deals, and the decisions
  analysed per deal; the compiled kernels are warmed up by one untimed
  analysis first;
* the *agreement* of the default analysis with the long one, decision by
  decision: the mean absolute difference of the cost, the share of
  decisions on whose "costly" verdict the two agree, the share where both
  name the same best action, and the share of exact decisions.

``--kernel-tricks 3 6 7`` runs Doppelkopf once per horizon of the compiled
solver (``stich.analysis.engine.KERNEL_TRICKS``, decision 0063; 3 = the
engine's search only), on the same deals, instead of at the default.

The long analysis has its own noise; with four times the worlds its costs
are about half as noisy, so the differences mostly measure the default
analysis's noise.  These are measurements, not tests; see bench/README.md,
section bench_analysis.py.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from stich.analysis import DEFAULT_BUDGET, Analysis, analyse_record, engine
from stich.bots.heuristic import make_heuristic
from stich.bots.random_bot import RandomBot
from stich.core.game import Game
from stich.core.records import deal_record
from stich.core.registry import game_from_string

GAMES = ("doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen")
SEAT = 1


def deals(game: Game, count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` finished deals with some card play: heuristic bots, a random bot in :data:`SEAT`."""
    found: list[dict[str, Any]] = []
    number = seed
    while len(found) < count:
        number += 1
        bots = [make_heuristic(game, s, number) for s in range(game.num_seats)]
        bots[SEAT] = RandomBot(game, SEAT, number)  # type: ignore[call-overload]
        state = game.new_state(seed=number, dealer=number % game.num_seats)
        while not state.is_terminal():
            mover = state.current_player()
            state.apply(bots[mover].choose(state.observation(mover)))
        if sum(1 for s, code in state.history if s == SEAT and game.actions[code].kind == "play") >= 3:
            found.append(deal_record(state))
    return found


def agreement(short: Analysis, long: Analysis) -> dict[str, float]:
    """Decision by decision: mean |cost difference|, costly verdicts alike, same best action, exact share."""
    pairs = list(zip(short.decisions, long.decisions, strict=True))
    return {
        "decisions": len(pairs),
        "mean_abs_cost_diff": statistics.fmean(abs(a.cost - b.cost) for a, b in pairs) if pairs else 0.0,
        "costly_agree": statistics.fmean(float(a.costly == b.costly) for a, b in pairs) if pairs else 1.0,
        "best_agree": statistics.fmean(float(a.best == b.best) for a, b in pairs) if pairs else 1.0,
        "exact_share": statistics.fmean(float(a.exact) for a, _ in pairs) if pairs else 0.0,
        "costly_short": sum(a.costly for a, _ in pairs),
        "costly_long": sum(b.costly for _, b in pairs),
    }


def run_game(name: str, count: int, budget: int, long_budget: int, seed: int) -> dict[str, Any]:
    """Time the default analysis of each deal and compare it with the long one."""
    game = game_from_string(name)
    records = deals(game, count + 1, seed)
    analyse_record(records[0], SEAT, budget=2, seed=seed)  # warm-up: numba kernels compiled or loaded
    cpu: list[float] = []
    wall: list[float] = []
    rows: list[dict[str, float]] = []
    for record in records[1:]:
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        short = analyse_record(record, SEAT, budget=budget, seed=seed)
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started_wall)
        long = analyse_record(record, SEAT, budget=long_budget, seed=seed + 1)
        rows.append(agreement(short, long))
        print(f"{name}: deal {len(cpu)} of {count}: {cpu[-1]:.1f} s CPU, {rows[-1]}", file=sys.stderr, flush=True)
    keys = ("mean_abs_cost_diff", "costly_agree", "best_agree", "exact_share")
    return {
        "game": game.canonical,
        "deals": count,
        "budget": budget,
        "long_budget": long_budget,
        "cpu_s_mean": statistics.fmean(cpu),
        "cpu_s_max": max(cpu),
        "wall_s_mean": statistics.fmean(wall),
        "decisions_per_deal": statistics.fmean(r["decisions"] for r in rows),
        **{key: statistics.fmean(r[key] for r in rows) for key in keys},
        "costly_short": sum(r["costly_short"] for r in rows),
        "costly_long": sum(r["costly_long"] for r in rows),
    }


def main() -> None:
    """Parse the options, run every game, print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--long", type=int, default=4 * DEFAULT_BUDGET)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--kernel-tricks", type=int, nargs="*", default=[], help="Doppelkopf: the solver's horizons to compare")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    for name in args.games:
        if name != "doppelkopf" or not args.kernel_tricks:
            results.append(run_game(name, args.deals, args.budget, args.long, args.seed))
            continue
        for tricks in args.kernel_tricks:
            engine.KERNEL_TRICKS = tricks
            result = run_game(name, args.deals, args.budget, args.long, args.seed)
            results.append(dict(result, game=f"{result['game']}, solver from {tricks} tricks"))
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(
        "| game | deals | decisions/deal | CPU s/deal (mean, max) | wall s/deal | mean abs cost diff "
        "| costly verdict agrees | same best | exact | costly (default, long) |"
    )
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---|")
    for r in results:
        print(
            f"| {r['game']} | {r['deals']} | {r['decisions_per_deal']:.1f} | {r['cpu_s_mean']:.1f}, {r['cpu_s_max']:.1f} | "
            f"{r['wall_s_mean']:.1f} | {r['mean_abs_cost_diff']:.2f} | {100 * r['costly_agree']:.0f}% | {100 * r['best_agree']:.0f}% | "
            f"{100 * r['exact_share']:.0f}% | {r['costly_short']}, {r['costly_long']} |"
        )


if __name__ == "__main__":
    main()
