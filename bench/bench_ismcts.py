"""ISMCTS benchmark: simulations per second of the ``ismcts`` search per game and rollout, decision times, and OpenSpiel's C++ ISMCTS.

Usage::

    python bench/bench_ismcts.py [--seconds S] [--positions N] [--latency-decisions D] [--quick] [--json]

Everything runs in this one process, on one core, one measurement after the
other:

1. **simulations per second** of :class:`stich.search.ismcts.ISMCTS` for each
   game, phase and rollout policy: ``--positions`` decision points per phase
   (``start``: the first real choice of a deal, i.e. bidding or the
   reservation; ``play``: a choice in trick play with at least a third of the
   tricks done), taken from deals the heuristic bots play; each search runs
   ``--seconds`` on the clock, preparing the world sampler and drawing the
   worlds included; the figures are all iterations over all wall time and
   over all CPU time of this process (the second stays meaningful when
   other work shares the cores);
2. **decision time** of the bot at its default level (``make_ismcts`` with no
   option): whole deals with the bot in every seat, the time of each
   ``choose`` that searches (forced moves answer at once and are left out),
   ``--latency-decisions`` per game: median, p99 and maximum;
3. **OpenSpiel** (optional): ``pyspiel.ISMCTSBot`` with
   ``pyspiel.RandomRolloutEvaluator(1, seed)`` (one random rollout per
   leaf, the loop in C++), UCT constant 2, ``MAX_VISIT_COUNT``, unlimited
   world samples, on positions in the card play of the OpenSpiel games that
   support it (``hearts``, ``bridge``); ``tarok(players=4)`` and ``skat`` are
   tried and reported as unsupported (they implement no
   ``ResampleFromInfostate``).  Simulations per second = ``max_simulations``
   over the wall time (and the CPU time) of ``bot.step``; the ratio to stich
   uses CPU time.

These are measurements, not tests: nothing fails when a target is missed.
See bench/README.md, section bench_ismcts.py.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

try:  # a plain checkout works through src/
    import stich  # noqa: F401
except ImportError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bench_common import machine_info, progress, rounded, spiel_position

from stich.bots.doppelkopf import kernel
from stich.bots.heuristic import make_heuristic
from stich.bots.ismcts import AUTO_ROLLOUT, make_ismcts
from stich.bots.rollouts import make_rollout
from stich.bots.samplers import SAMPLERS, prepare_sampler
from stich.bots.tarock_family.greedy_playout import GAMES as GREEDY_GAMES
from stich.core.game import Game, State
from stich.core.registry import make_game
from stich.search.budget import Deadline
from stich.search.ismcts import ISMCTS

GAMES: list[tuple[str, str, dict[str, Any]]] = [
    ("doppelkopf", "doppelkopf", {}),
    ("doppelkopf players=5", "doppelkopf", {"players": 5}),
    ("tapp_tarock", "tapp_tarock", {}),
    ("dobbm", "dobbm", {}),
    ("droggn", "droggn", {}),
    ("dappen", "dappen", {}),
]
"""(label, game name, options) of the configurations measured."""

SPIEL_GAMES = ["hearts", "bridge(use_double_dummy_result=false)", "tarok(players=4)", "skat"]

TARGET_SIMS = 10_000
TARGET_LATENCY_S = 1.0


# ------------------------------------------------------------------ helpers


def decision_points(game: Game, count: int, seed: int) -> dict[str, list[State]]:
    """``count`` start and ``count`` play decision points from deals the heuristic bots play (see the module docstring)."""
    points: dict[str, list[State]] = {"start": [], "play": []}
    deal = 0
    while (len(points["start"]) < count or len(points["play"]) < count) and deal < 50 * count:
        state = game.new_state(seed=seed + deal, dealer=deal % game.num_seats)
        bots = [make_heuristic(game, seat, seed + deal) for seat in range(game.num_seats)]
        rng = random.Random(seed + deal)
        deal += 1
        took_start = False
        play_candidates = []
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            if len(obs.legal_actions) > 1:
                if not took_start and len(points["start"]) < count:
                    points["start"].append(state.clone())
                    took_start = True
                if obs.phase == "play" and len(obs.tricks) * 3 >= _tricks_per_deal(state):
                    play_candidates.append(state.clone())
            state.apply(bots[seat].choose(obs))
        if play_candidates and len(points["play"]) < count:
            points["play"].append(rng.choice(play_candidates))
    return points


def _tricks_per_deal(state: State) -> int:
    """Tricks of a played-out deal: the active seats' cards over the number of active seats."""
    active = [mask.bit_count() for mask in state.dealt[: state.game.num_seats] if mask]
    return active[0] if active else 1


def _searchable(game: Game) -> bool:
    return game.name in SAMPLERS


# ------------------------------------------------------------------ measurements


def bench_rate(game: Game, states: list[State], rollout: str, seconds: float) -> dict[str, Any]:
    """Iterations per second of searches of ``seconds`` each on ``states`` (sampler preparation included)."""
    search = ISMCTS(game, make_rollout(rollout, game, 1))
    iterations = 0
    worlds = 0
    wall = 0.0
    cpu = 0.0
    for i, state in enumerate(states):
        seat = state.current_player()
        obs = state.observation(seat)
        start, start_cpu = time.perf_counter(), time.process_time()
        deadline = Deadline(seconds)
        result = search.search(obs, prepare_sampler(game, obs), random.Random(i), stop=deadline.expired)
        wall += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        iterations += result.iterations
        worlds += result.worlds
    return {
        "sims_per_s": iterations / wall if wall else 0.0,
        "sims_per_cpu_s": iterations / cpu if cpu else 0.0,
        "iterations": iterations,
        "worlds": worlds,
        "wall_s": wall,
        "cpu_s": cpu,
        "n": len(states),
    }


def bench_latency(game: Game, decisions: int, seed: int) -> dict[str, Any]:
    """Wall time of each searching ``choose`` of the default-level bot, in whole deals with the bot in every seat."""
    times: list[float] = []
    deal = 0
    while len(times) < decisions:
        state = game.new_state(seed=seed + deal, dealer=deal % game.num_seats)
        bots = [make_ismcts(game, seat, seed + deal * 10 + seat) for seat in range(game.num_seats)]
        deal += 1
        while not state.is_terminal() and len(times) < decisions:
            seat = state.current_player()
            obs = state.observation(seat)
            start = time.perf_counter()
            action = bots[seat].choose(obs)
            elapsed = time.perf_counter() - start
            if len(obs.legal_actions) > 1:
                times.append(elapsed)
            state.apply(action)
    times.sort()
    return {
        "n": len(times),
        "deals": deal,
        "median_s": statistics.median(times),
        "p99_s": times[min(len(times) - 1, int(0.99 * len(times)))],
        "max_s": times[-1],
    }


def bench_openspiel(positions: int, simulations: int) -> dict[str, Any]:
    """OpenSpiel's C++ ISMCTS simulations per second per game (or why a game cannot run it)."""
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return {"skipped": "open_spiel not installed (pip install -e '.[bench]')"}
    out: dict[str, Any] = {}
    for name in SPIEL_GAMES:
        game = pyspiel.load_game(name)
        rng = random.Random(7)
        wall = 0.0
        cpu = 0.0
        done = 0
        try:
            for i in range(positions):
                state = spiel_position(game, rng)
                bot = pyspiel.ISMCTSBot(
                    i,
                    pyspiel.RandomRolloutEvaluator(1, i),
                    2.0,
                    simulations,
                    -1,
                    pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                    False,
                    False,
                )
                start, start_cpu = time.perf_counter(), time.process_time()
                bot.step(state)
                wall += time.perf_counter() - start
                cpu += time.process_time() - start_cpu
                done += simulations
        except Exception as exc:  # pyspiel raises plain RuntimeErrors for unsupported games
            out[name] = {"unsupported": str(exc).strip().splitlines()[0]}
            continue
        out[name] = {"sims_per_s": done / wall, "sims_per_cpu_s": done / cpu if cpu else 0.0, "n": positions, "simulations": simulations}
    return out


def run(args: argparse.Namespace, progress: Callable[[str], None]) -> dict[str, Any]:
    """All measurements."""
    report: dict[str, Any] = {
        "machine": machine_info(("stich", "numba", "open_spiel"), kernel_backend=kernel.backend()),
        "settings": vars(args).copy(),
        "rates": {},
        "latency": {},
    }
    if kernel.available():
        start = time.perf_counter()
        kernel.warmup()
        report["machine"]["kernel_warmup_s"] = round(time.perf_counter() - start, 2)
    for label, name, options in GAMES:
        game = make_game(name, None, options)
        if not _searchable(game):
            report["rates"][label] = {"skipped": f"no world sampler for {name}: the bot plays its heuristic"}
            continue
        progress(f"positions {label}")
        points = decision_points(game, args.positions, 1000)
        rollouts = ["mixed", "random", "heuristic"] + (["kernel"] if name == "doppelkopf" and kernel.available() else [])
        rollouts += ["greedy"] if name in GREEDY_GAMES else []
        entry: dict[str, Any] = {"auto": AUTO_ROLLOUT.get(name, "random")}
        for phase, states in points.items():
            for rollout in rollouts:
                progress(f"rate {label} {phase} {rollout}")
                entry[f"{phase}/{rollout}"] = bench_rate(game, states, rollout, args.seconds)
        report["rates"][label] = entry
    if args.latency_decisions:
        for label, name, options in GAMES:
            game = make_game(name, None, options)
            if not _searchable(game):
                continue
            progress(f"latency {label}")
            report["latency"][label] = bench_latency(game, args.latency_decisions, 2000)
    progress("openspiel")
    report["openspiel"] = bench_openspiel(args.spiel_positions, args.spiel_simulations)
    spiel = report["openspiel"].get("hearts", {}).get("sims_per_cpu_s")
    ratios: dict[str, float] = {}
    for label, entry in report["rates"].items():
        auto = entry.get("auto")
        play = entry.get(f"play/{auto}")
        if spiel and play:
            ratios[label] = play["sims_per_cpu_s"] / spiel
    report["ratio_play_auto_vs_openspiel_hearts"] = ratios
    with suppress(OSError):
        report["machine"]["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    return report


def render(report: dict[str, Any]) -> str:
    """A readable table."""
    m = report["machine"]
    v = m["versions"]
    s = report["settings"]
    lines = [
        "stich ISMCTS benchmark (one core)",
        f"  date      {m['date']}",
        f"  machine   {m['nproc']} usable cores, {m['cpu_model']}; python {m['python']} on {m['platform']}",
        f"  versions  stich {v['stich']} (git {m['git']}), numba {v['numba']}, open_spiel {v['open_spiel']}",
        f"  kernel    {m['kernel_backend']}" + (f", warm-up {m['kernel_warmup_s']} s" if "kernel_warmup_s" in m else ""),
        f"  load avg  start {m['loadavg_at_start']}  end {m.get('loadavg_at_end')}",
        f"  command   {m['command']}",
        "",
        f"Simulations per second ({s['positions']} positions per phase, {s['seconds']} s each; target {TARGET_SIMS:,})",
        f"  {'game':<22} {'phase':<6} {'rollout':<17} {'sims/s':>9} {'sims/CPU-s':>11} {'worlds/search':>14}",
    ]
    for label, entry in report["rates"].items():
        if "skipped" in entry:
            lines.append(f"  {label:<22} skipped: {entry['skipped']}")
            continue
        for key, r in entry.items():
            if key == "auto":
                continue
            phase, rollout = key.split("/")
            mark = " (auto)" if rollout == entry["auto"] else ""
            lines.append(
                f"  {label:<22} {phase:<6} {rollout + mark:<17} {r['sims_per_s']:>9,.0f} {r['sims_per_cpu_s']:>11,.0f} "
                f"{r['worlds'] / max(r['n'], 1):>14.0f}"
            )
    if report["latency"]:
        lines += ["", f"Decision time of the default level (searching decisions only; target max < {TARGET_LATENCY_S} s)"]
        for label, r in report["latency"].items():
            lines.append(
                f"  {label:<22} n {r['n']:>4} ({r['deals']} deals)  median {r['median_s']:.3f} s  "
                f"p99 {r['p99_s']:.3f} s  max {r['max_s']:.3f} s"
            )
    lines += ["", "OpenSpiel C++ ISMCTS (RandomRolloutEvaluator, one rollout per leaf)"]
    sp = report["openspiel"]
    if "skipped" in sp:
        lines.append(f"  skipped: {sp['skipped']}")
    for name, r in sp.items():
        if name == "skipped":
            continue
        if "unsupported" in r:
            lines.append(f"  {name:<40} unsupported: {r['unsupported']}")
        else:
            lines.append(
                f"  {name:<40} {r['sims_per_s']:>9,.0f} sims/s  {r['sims_per_cpu_s']:>9,.0f} sims/CPU-s  "
                f"({r['n']} positions x {r['simulations']} simulations)"
            )
    if report["ratio_play_auto_vs_openspiel_hearts"]:
        lines += ["", "Ratio: stich play phase, auto rollout / OpenSpiel hearts (simulations per CPU-second)"]
        for label, ratio in report["ratio_play_auto_vs_openspiel_hearts"].items():
            lines.append(f"  {label:<22} {ratio:.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per search (default 1)")
    parser.add_argument("--positions", type=int, default=8, help="decision points per game and phase (default 8)")
    parser.add_argument("--latency-decisions", type=int, default=200, help="default-level decisions timed per game (0: skip; default 200)")
    parser.add_argument("--spiel-positions", type=int, default=8, help="OpenSpiel positions per game (default 8)")
    parser.add_argument("--spiel-simulations", type=int, default=5000, help="OpenSpiel simulations per position (default 5000)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 0.2 s searches, 2 positions, 10 timed decisions")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.positions, args.latency_decisions, args.spiel_positions, args.spiel_simulations = 0.2, 2, 10, 2, 1000
    if args.seconds <= 0 or args.positions < 1 or args.latency_decisions < 0 or args.spiel_positions < 1 or args.spiel_simulations < 1:
        parser.error("--seconds, --positions, --spiel-positions and --spiel-simulations must be positive, --latency-decisions >= 0")

    report = run(args, progress)
    print(json.dumps(rounded(report), indent=2, ensure_ascii=False) if args.json else render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
