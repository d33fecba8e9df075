"""How fast worlds are drawn: the sampler every search bot calls once per world, beside OpenSpiel's resampling.

``pimc`` values each action in sampled worlds and ``ismcts`` draws a world
every few iterations, so the cost of one draw bounds both.  For each game the
script reaches ``--positions`` decisions by letting the heuristic bots play a
seeded random number of actions (bidding, talon and card play alike), then
per position prepares the seat's sampler once (:func:`prepare_sampler`) and
draws worlds from it for ``--seconds`` of CPU time.  Reported per game:
microseconds per prepared sampler and per world drawn (CPU time, and wall
time), and the share of proposals the verification accepted.

The peer is OpenSpiel's C++ ``State.resample_from_infostate`` (a full state
consistent with the player's information state) on ``hearts`` and
``bridge`` at random card-play positions, timed the same way in the same
run::

    python bench/bench_sampling.py --seconds 2 --positions 6 --json sampling.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from bench_common import machine_info, no_gc, spiel_position

from stich.bots.heuristic import make_heuristic
from stich.bots.samplers import prepare_sampler
from stich.core.game import Game, State
from stich.core.registry import make_game

GAMES = ("doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen")
SPIEL_GAMES = ("hearts", "bridge")


def _positions(game: Game, count: int, seed: int) -> list[State]:
    """``count`` decisions with a real choice, each after a seeded random number of heuristic actions."""
    rng = random.Random(seed)
    found: list[State] = []
    deal = 0
    while len(found) < count:
        deal += 1
        state = game.new_state(seed=seed * 1000 + deal, dealer=deal % game.num_seats)
        bots = [make_heuristic(game, s, deal) for s in range(game.num_seats)]
        stop = rng.randrange(4, 40)
        done = 0
        while not state.is_terminal():
            seat = state.current_player()
            if done >= stop and len(state.legal_codes()) > 1:
                found.append(state)
                break
            state.apply(bots[seat].choose(state.observation(seat)))
            done += 1
    return found


def _timed(call: Callable[[], object], seconds: float) -> tuple[int, float, float]:
    """Calls, CPU and wall seconds of calling ``call`` until ``seconds`` of CPU time are spent (at least once)."""
    calls = 0
    start_cpu, start = time.process_time(), time.perf_counter()
    with no_gc():
        while True:
            call()
            calls += 1
            if time.process_time() - start_cpu >= seconds:
                break
    return calls, time.process_time() - start_cpu, time.perf_counter() - start


def bench_stich(positions: int, seconds: float) -> dict[str, Any]:
    """Per game: µs per prepared sampler and per world drawn, and the acceptance of proposals."""
    out: dict[str, Any] = {}
    for name in GAMES:
        game = make_game(name)
        rng = random.Random(1)
        prepare_cpu = 0.0
        draws = 0
        cpu = wall = 0.0
        proposed = accepted = 0
        for state in _positions(game, positions, 5):
            observation = state.observation(state.current_player())
            start = time.process_time()
            sampler = prepare_sampler(game, observation)
            prepare_cpu += time.process_time() - start
            n, c, w = _timed(lambda sampler=sampler, rng=rng: sampler.sample(rng), seconds / positions)
            draws, cpu, wall = draws + n, cpu + c, wall + w
            proposed, accepted = proposed + sampler.stats.proposed, accepted + sampler.stats.accepted
        out[name] = {
            "prepare_us": prepare_cpu / positions * 1e6,
            "draw_us_cpu": cpu / draws * 1e6,
            "draw_us_wall": wall / draws * 1e6,
            "worlds": draws,
            "acceptance": accepted / proposed if proposed else 1.0,
        }
    return out


def bench_openspiel(positions: int, seconds: float) -> dict[str, Any]:
    """OpenSpiel's C++ ``resample_from_infostate`` per game (or why it could not run)."""
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return {"skipped": "open_spiel not installed (pip install -e '.[bench]')"}
    out: dict[str, Any] = {}
    for name in SPIEL_GAMES:
        game = pyspiel.load_game(name)
        rng = random.Random(7)
        draws = 0
        cpu = wall = 0.0
        try:
            for _ in range(positions):
                state = spiel_position(game, rng)
                player = state.current_player()
                n, c, w = _timed(
                    lambda state=state, player=player, draw=rng.random: state.resample_from_infostate(player, draw), seconds / positions
                )
                draws, cpu, wall = draws + n, cpu + c, wall + w
        except Exception as exc:  # pyspiel raises plain RuntimeErrors for games without resampling
            out[name] = {"unsupported": str(exc).strip().splitlines()[0]}
            continue
        out[name] = {"draw_us_cpu": cpu / draws * 1e6, "draw_us_wall": wall / draws * 1e6, "worlds": draws}
    return out


def main(argv: list[str] | None = None) -> int:
    """Run both measurements and print a table (and JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of drawing per game (split over the positions)")
    parser.add_argument("--positions", type=int, default=6, help="decisions per game")
    parser.add_argument("--json", help="write the figures and the machine to this file")
    args = parser.parse_args(argv)
    report = {
        "machine": machine_info(),
        "settings": vars(args).copy(),
        "stich": bench_stich(args.positions, args.seconds),
        "open_spiel": bench_openspiel(args.positions, args.seconds),
    }
    print(f"{'game':14s} {'prepare µs':>11s} {'draw µs (CPU)':>14s} {'draw µs (wall)':>15s} {'acceptance':>10s}")
    for name, row in report["stich"].items():
        print(f"{name:14s} {row['prepare_us']:11.0f} {row['draw_us_cpu']:14.1f} {row['draw_us_wall']:15.1f} {row['acceptance']:10.2f}")
    for name, row in report["open_spiel"].items():
        if isinstance(row, dict) and "draw_us_cpu" in row:
            print(f"{'os:' + name:14s} {'':>11s} {row['draw_us_cpu']:14.1f} {row['draw_us_wall']:15.1f}")
        else:
            print(f"{'os:' + name:14s} {row}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
