"""Steps per second of the PettingZoo AEC env against a bare engine step, measured in the same run.

For each game (default preset) the script plays ``--deals`` seeded deals with
uniformly random legal actions three ways and reports actions per second of
CPU time:

* ``engine``: ``state.legal_codes()`` and ``state.apply(code)``, nothing else;
* ``engine+obs``: the same plus ``state.observation(seat)`` of the seat to act
  (what every bot and adapter reads);
* ``aec``: the PettingZoo env: ``env.last()`` (observation tensor and mask of
  the agent to act) and ``env.step(action)``, the action drawn from the mask;
  the finished agents' ``step(None)`` calls at the end are not counted.  Its
  default backend (DDV Doppelkopf in the compiled kernel, decision 0065; the
  Tarock family's card play in its kernel, decision 0069);
* ``aec engine`` (where a kernel plays the game: DDV Doppelkopf and the
  Tarock family, decision 0069): the same env with ``backend="engine"``, the
  reference path;
* ``gym`` and ``gym engine`` (the same games): the Gymnasium env, seat 0
  against ``random`` bots, on its default backend and on the engine (the
  default for the Tarock family, whose ``gym kernel`` row is the kernel);
  per ``env.step`` (the learner's action, drawn from the mask, then the bots'
  actions up to its next turn), so a deal counts about a quarter of its
  actions.

``--repeat R`` runs every row ``R`` times, the rows alternating within each
round (all games, then OpenSpiel, then again), and reports the median and the
best round of each row; the ratios use the medians.

With ``--spiel`` it also times OpenSpiel's Python API on ``tarok(players=4)``,
``skat`` and ``hearts``: per player action the observation the game offers
(``observation_tensor`` for skat, ``information_state_tensor`` for hearts,
``information_state_string`` for tarok, which has no tensor),
``legal_actions()`` and a random legal action; chance nodes are sampled and
not counted::

    python bench/bench_rl.py --deals 200 --spiel --json rl.json

With ``--src DIR`` (repeatable) it compares checkouts instead: each of
``--rounds`` rounds runs the script once per ``src`` folder (``PYTHONPATH=DIR``,
a child process each, one after the other), and the table gives per game and
folder the median and the best ``aec`` figure over the rounds and the median
cost against the engine of the same child::

    git worktree add --detach /tmp/rl-before HEAD~1
    python bench/bench_rl.py --src /tmp/rl-before/src --src src --rounds 7 --deals 60
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from bench_common import aec_deals, machine_info, no_gc, spiel_deals
from bench_common import spiel_observation as observation_offered

from stich.core.registry import make_game
from stich.rl.kernel_table import TAROCK_GAMES, Backend, kernel_plays
from stich.rl.pettingzoo_env import raw_env as aec_env

GAMES = ("doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen")
SPIEL_GAMES = ("tarok(players=4)", "skat", "hearts")


def _timed(run: Callable[[], int]) -> dict[str, float]:
    """Run ``run`` (it returns the actions it took) under CPU time; actions per second."""
    with no_gc():  # its gc.collect() happens before the clock starts, not inside a short row's time
        start = time.process_time()
        steps = run()
        cpu = time.process_time() - start
    return {"steps": steps, "cpu_s": round(cpu, 3), "steps_per_s": round(steps / cpu) if cpu else 0}


def engine_run(name: str, deals: int, observe: bool) -> int:
    game = make_game(name)
    steps = 0
    for seed in range(deals):
        state = game.new_state(seed=seed, dealer=seed % game.num_seats)
        rng = random.Random(seed)
        while not state.is_terminal():
            if observe:
                state.observation(state.current_player())
            state.apply(rng.choice(state.legal_codes()))
            steps += 1
    return steps


def aec_run(name: str, deals: int, backend: Backend = "auto") -> int:
    return aec_deals(aec_env(name, backend=backend), deals)


def gym_run(name: str, deals: int, backend: Backend = "auto") -> int:
    """``deals`` seeded episodes of the Gymnasium env (seat 0, random bots); the learner's steps."""
    from stich.rl.gymnasium_env import StichGymEnv

    env, steps = StichGymEnv(name, opponents="random", backend=backend), 0
    for seed in range(deals):
        obs, _info = env.reset(seed=seed)
        rng, terminated = random.Random(seed), False
        while not terminated:
            obs, _reward, terminated, _truncated, _info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps


def spiel_run(name: str, deals: int) -> int:
    import pyspiel

    return spiel_deals(pyspiel.load_game(name), deals)


def spiel_observation(name: str) -> str:
    import pyspiel

    return observation_offered(pyspiel.load_game(name))


def compare(sources: list[str], rounds: int, deals: int, json_path: str | None) -> None:
    """The ``--src`` mode: this script per source folder and round, alternately, in child processes; the AEC rows side by side."""
    runs: dict[str, list[dict[str, Any]]] = {src: [] for src in sources}
    with tempfile.TemporaryDirectory() as tmp:
        for number in range(rounds):
            for index, src in enumerate(sources):
                out = os.path.join(tmp, f"{number}-{index}.json")
                command = [sys.executable, __file__, "--deals", str(deals), "--json", out]
                subprocess.run(command, env={**os.environ, "PYTHONPATH": os.path.abspath(src)}, check=True, capture_output=True)
                with open(out, encoding="utf-8") as fh:
                    runs[src].append(json.load(fh)["rows"])
    table: dict[str, Any] = {}
    print(f"{'game':<14}{'src':<40}{'aec/s median':>14}{'aec/s best':>12}{'aec cost':>10}   ({rounds} rounds, {deals} deals)")
    for name in GAMES:
        for src in sources:
            aec = [row[f"{name} aec"]["steps_per_s"] for row in runs[src]]
            cost = statistics.median(row[f"{name} engine"]["steps_per_s"] / row[f"{name} aec"]["steps_per_s"] for row in runs[src])
            table.setdefault(name, {})[src] = {"aec_median": statistics.median(aec), "aec_best": max(aec), "aec_cost_x_median": cost}
            print(f"{name:<14}{src:<40}{statistics.median(aec):>14,.0f}{max(aec):>12,}{cost:>9.1f}x")
    if json_path:
        with open(json_path, "w", encoding="utf-8") as fh:
            json.dump({"machine": machine_info(command=" ".join(sys.argv)), "compare": table, "runs": runs}, fh, indent=2)


def one_round(deals: int, spiel: bool) -> dict[str, dict[str, Any]]:
    """Every row once, one after the other: per game engine, engine+obs, aec (and aec engine), then OpenSpiel's."""
    rows: dict[str, dict[str, Any]] = {}
    for name in GAMES:
        aec_run(name, 1)  # imports, caches and compiled code outside the timing
        rows[f"{name} engine"] = _timed(lambda name=name: engine_run(name, deals, False))
        rows[f"{name} engine+obs"] = _timed(lambda name=name: engine_run(name, deals, True))
        rows[f"{name} aec"] = _timed(lambda name=name: aec_run(name, deals))
        if kernel_plays(name):
            rows[f"{name} aec engine"] = _timed(lambda name=name: aec_run(name, deals, "engine"))
            gym_run(name, 1)
            rows[f"{name} gym"] = _timed(lambda name=name: gym_run(name, deals))
            rows[f"{name} gym engine"] = _timed(lambda name=name: gym_run(name, deals, "engine"))
            if name in TAROCK_GAMES:  # its default is the engine (bots read the engine state): the kernel measured too
                rows[f"{name} gym kernel"] = _timed(lambda name=name: gym_run(name, deals, "kernel"))
    if spiel:
        for name in SPIEL_GAMES:
            rows[f"open_spiel {name}"] = {**_timed(lambda name=name: spiel_run(name, deals)), "observation": spiel_observation(name)}
    return rows


def summary(rounds: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Per row the median round's figures, the best rate and every round's rate."""
    out: dict[str, dict[str, Any]] = {}
    for key in rounds[0]:
        rates = [r[key]["steps_per_s"] for r in rounds]
        median = sorted(rounds, key=lambda r: r[key]["steps_per_s"])[len(rounds) // 2][key]
        out[key] = {**median, "best_steps_per_s": max(rates), "rounds": rates}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--deals", type=int, default=100, help="deals per game and way (default 100)")
    parser.add_argument("--spiel", action="store_true", help="also time OpenSpiel's tarok(players=4), skat and hearts")
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--src", action="append", help="compare this checkout's src folder (repeatable; see above)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the --src comparison (default 5)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of every row, alternating (default 1; see above)")
    args = parser.parse_args(argv)
    if args.src:
        compare(args.src, args.rounds, args.deals, args.json)
        return 0
    rounds = [one_round(args.deals, args.spiel) for _ in range(args.repeat)]
    rows = summary(rounds)
    print(f"{'row':<34}{'median/s':>12}{'best/s':>12}   ({args.repeat} rounds, {args.deals} deals)")
    for key, row in rows.items():
        print(f"{key:<34}{row['steps_per_s']:>12,}{row['best_steps_per_s']:>12,}")
    for name in GAMES:
        ratio = rows[f"{name} engine"]["steps_per_s"] / rows[f"{name} aec"]["steps_per_s"]
        print(f"{name:<14}aec cost vs engine {ratio:.1f}x")
        if f"{name} gym" in rows:
            gain = rows[f"{name} gym"]["steps_per_s"] / rows[f"{name} gym engine"]["steps_per_s"]
            print(f"{name:<14}gym on its default backend / gym engine = {gain:.2f}x")
        if f"{name} gym kernel" in rows:
            gain = rows[f"{name} gym kernel"]["steps_per_s"] / rows[f"{name} gym engine"]["steps_per_s"]
            print(f"{name:<14}gym kernel / gym engine = {gain:.2f}x")
    if args.spiel:
        skat = rows["open_spiel skat"]["steps_per_s"]
        for name in GAMES:
            for way in ("aec", "aec engine"):
                if f"{name} {way}" in rows:
                    print(f"{name + ' ' + way:<24} / spiel skat = {rows[f'{name} {way}']['steps_per_s'] / skat:.2f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"machine": machine_info(command=" ".join(sys.argv)), "rows": rows}, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
