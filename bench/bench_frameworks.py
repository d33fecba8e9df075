"""Steps per second of stich's RL adapters against OpenSpiel's and RLCard's own card games, in one run.

Every row plays ``--deals`` deals (again and again until a second of CPU
time has passed) with uniformly random legal actions and builds, at every player action, the observation a learner would read; the
figure is player actions per second of CPU time (chance nodes are sampled and
not counted).

* ``stich aec <game>``: the PettingZoo env, ``last()`` (tensor and mask) and ``step()``;
* ``stich rllib <game>``: the RLlib ``MultiAgentEnv`` (the acting agent's Dict
  observation comes back from ``step``), if RLlib imports;
* ``stich spiel <game>``: our game through OpenSpiel's Python API,
  ``observation_tensor(player)`` and ``legal_actions()``;
* ``open_spiel tarok(players=4)`` / ``skat`` / ``hearts``: OpenSpiel's C++
  games through the same API, with the observation each offers (tarok has no
  tensor: its information-state string);
* ``rlcard bridge`` / ``doudizhu``: RLCard's envs (``env.step`` returns the
  next player's encoded ``obs`` and legal actions), if ``rlcard`` is installed
  (``pip install rlcard``).

::

    PYTHONPATH=src python bench/bench_frameworks.py --deals 100 --json frameworks.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from bench_common import aec_deals, machine_info, no_gc, spiel_deals
from bench_common import spiel_observation as observation_offered

from stich.rl.pettingzoo_env import raw_env as aec_env

STICH_GAMES = ("doppelkopf", "tapp_tarock")
SPIEL_GAMES = ("tarok(players=4)", "skat", "hearts")
RLCARD_GAMES = ("bridge", "doudizhu")


def timed(run: Callable[[int], int], deals: int, min_cpu: float = 1.0) -> dict[str, float]:
    """Warm up with one deal, then run the ``deals`` deals again and again until ``min_cpu`` seconds; actions per second.

    The rounds replay the same seeded deals; a fast game (OpenSpiel's C++
    tarok plays a random deal in well under a millisecond) needs several to
    be timed at all.
    """
    run(1)
    steps, cpu, rounds = 0, 0.0, 0
    with no_gc():  # its collection of what earlier rows and imports left runs before the clock starts
        while cpu < min_cpu:
            start = time.process_time()
            steps += run(deals)
            cpu += time.process_time() - start
            rounds += 1
    return {"steps": steps, "rounds": rounds, "cpu_s": round(cpu, 3), "steps_per_s": round(steps / cpu) if cpu else 0}


def stich_aec(name: str) -> Callable[[int], int]:
    def run(deals: int) -> int:
        return aec_deals(aec_env(name), deals)

    return run


def stich_rllib(name: str) -> Callable[[int], int]:
    from stich.rl.rllib_env import StichMultiAgentEnv

    def run(deals: int) -> int:
        env, steps = StichMultiAgentEnv({"env_id": name}), 0
        for seed in range(deals):
            obs, _ = env.reset(seed=seed)
            rng = random.Random(seed)
            done = False
            while not done:
                (agent,) = obs
                obs, _rewards, terminateds, _truncated, _infos = env.step(
                    {agent: int(rng.choice(np.flatnonzero(obs[agent]["action_mask"])))}
                )
                done = terminateds["__all__"]
                steps += 1
        return steps

    return run


def spiel(name: str) -> Callable[[int], int]:
    import pyspiel

    import stich.rl.openspiel_game  # noqa: F401  (registers stich_<game>)

    game = pyspiel.load_game(name)

    def run(deals: int) -> int:
        return spiel_deals(game, deals)

    return run


def spiel_observation(name: str) -> str:
    import pyspiel

    return observation_offered(pyspiel.load_game(name))


def rlcard_env(name: str) -> Callable[[int], int]:
    import rlcard

    def run(deals: int) -> int:
        steps = 0
        for seed in range(deals):
            env = rlcard.make(name, config={"seed": seed})
            rng = random.Random(seed)
            state, _player = env.reset()
            while not env.is_over():
                state, _player = env.step(rng.choice(list(state["legal_actions"])))
                steps += 1
        return steps

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--deals", type=int, default=100, help="deals per row (default 100)")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args(argv)
    rows: dict[str, Any] = {}

    def row(label: str, run: Callable[[int], int], observation: str) -> None:
        figures = timed(run, args.deals)
        rows[label] = {**figures, "observation": observation}
        print(f"{label:<30}{figures['steps_per_s']:>10,}/s  {observation}", flush=True)

    for name in STICH_GAMES:
        row(f"stich aec {name}", stich_aec(name), "tensor + mask")
    try:
        import ray.rllib  # noqa: F401
    except ImportError:
        print("stich rllib: RLlib does not import (pip install 'stich[rllib]'); skipped")
    else:
        row(f"stich rllib {STICH_GAMES[0]}", stich_rllib(STICH_GAMES[0]), "tensor + mask (float32 Dict)")
    for name in STICH_GAMES:
        row(f"stich spiel stich_{name}", spiel(f"stich_{name}"), "observation_tensor")
    for name in SPIEL_GAMES:
        row(f"open_spiel {name}", spiel(name), spiel_observation(name))
    try:
        import rlcard  # noqa: F401
    except ImportError:
        print("rlcard: not installed (pip install rlcard); skipped")
    else:
        for name in RLCARD_GAMES:
            row(f"rlcard {name}", rlcard_env(name), "obs + legal_actions")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(
                {"machine": machine_info(("stich", "open_spiel", "rlcard", "ray"), command=" ".join(sys.argv)), "rows": rows}, fh, indent=2
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
