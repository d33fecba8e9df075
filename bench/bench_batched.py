"""Steps per second of the batched Doppelkopf env against the single AEC env and OpenSpiel's Python API, in one run.

Every way plays uniformly random legal actions and reads the observation
tensor of the player to act at every step; steps per second are of CPU time
(``time.process_time``), with the garbage collector off and the collection
that switches it off (``no_gc``'s ``gc.collect()``) outside the clock:

* ``batched N``: :class:`stich.rl.batched.doppelkopf.DoppelkopfBatch` with
  ``N`` deals: per step one uniformly random legal action per deal (the
  batch's compiled ``random_actions()``), ``step(actions)`` (which writes
  every deal's ``observation`` and mask), then ``reset_done()``; a step
  counts once per live deal, and the run lasts until ``--steps`` deal-steps
  are done;
* ``aec``: the PettingZoo env on ``stich/doppelkopf-ddv-v1`` (``env.last()``:
  tensor and mask; ``env.step``), as in ``bench_rl.py``;
* ``batched tarock``: :class:`stich.rl.batched.tarock.TarockBatch` on Tapp
  Tarock, Dobbm, Dappen (Furtwangen) and Droggn (Stubai, its own kernel) with 256 deals (random legal cards
  drawn in numpy from the mask): card steps per CPU second, the bidding
  (random bots through the engine), hand-over tensors and the scoring replay
  included in the time;
* ``batched tarock learner``: the same with ``bidding="learner"``: whole
  deals, every bid, talon and discard step taken by the learner (in the
  engine) and counted as a step, then the compiled card play (issue 41);
* ``batched doppelkopf engine``: :class:`DoppelkopfBatch` on an option set the
  kernel does not compile (``freedoko_standard``: one engine state per deal);
* ``open_spiel``: ``tarok(players=4)``, ``skat`` and ``hearts`` through
  pyspiel with the observation the game offers each step
  (``observation_tensor`` where there is one), as in ``bench_rl.py``; the
  ``--deals`` deals again and again until the row has used ``--min-cpu``
  seconds (a few hundred tarok deals take a few hundredths of a second, too
  short to time: the rate of such a row wandered by 3× between runs).

``--repeat R`` runs the Doppelkopf batch rows and the OpenSpiel rows ``R``
times, alternating (batch sizes, then the OpenSpiel games, then again), and
reports each row's median round (``rounds`` lists every round's rate).

Memory per 1,000 concurrent deals: the bytes of the batch's arrays
(``memory_bytes()``: state rows, observation, mask, rewards, ...) and the
``tracemalloc`` peak of building and dealing a batch (adds the per-deal random
streams), both scaled to 1,000 deals from ``N = 4096``.

    python bench/bench_batched.py --steps 400000 --deals 100 --json batched.json
    python bench/bench_batched.py --only-tarock --steps 400000 --deals 200   # the Tarock-family rows alone
    python bench/bench_batched.py --no-tarock --steps 1000000 --deals 2000   # Doppelkopf against OpenSpiel alone
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tracemalloc
from typing import Any

import numpy as np
from bench_common import machine_info, no_gc
from bench_rl import SPIEL_GAMES, aec_run, spiel_observation, spiel_run

from stich.rl.batched.doppelkopf import DoppelkopfBatch
from stich.rl.batched.tarock import TarockBatch

SIZES = (1, 64, 1024, 4096)
ENV_ID = "stich/doppelkopf-ddv-v1"
TAROCK_IDS = ("stich/tapp_tarock-standard-v1", "stich/dobbm-pagat-v1", "stich/dappen-furtwangen-v1", "stich/droggn-stubai-v1")
TAROCK_SIZE = 256


def batched_run(n: int, steps: int, seed: int = 0, env_id: str = ENV_ID, bidding: str = "random") -> dict[str, float]:
    """Deal-steps per CPU second of a batch of ``n`` deals (random legal actions, observation written every step).

    A Tarock-family id times :class:`TarockBatch` (card play only; dealing, the random bots' bidding through the
    engine and the scoring replay count in the time, the bidding's actions not in the steps).
    """
    batch: DoppelkopfBatch | TarockBatch
    if "doppelkopf" in env_id:
        batch = DoppelkopfBatch(n, env_id, dealer="random")
    else:
        batch = TarockBatch(n, env_id, dealer="random", bidding=bidding)
    batch.reset(seed=seed)
    rng = np.random.default_rng(seed)
    sample = batch.random_actions if isinstance(batch, DoppelkopfBatch) else None
    if sample is not None:
        sample(seed)
    done = 0
    deals = 0
    with no_gc():  # its gc.collect() runs before the clock starts: a collection inside it understated short rows
        start = time.process_time()
        while done < steps:
            live = int((~batch.terminated).sum())
            if sample is not None:
                actions = sample()
            else:
                noise = rng.random(batch.legal_action_mask.shape, dtype=np.float32)
                actions = np.argmax(noise * batch.legal_action_mask, axis=1)
            batch.step(actions)
            done += live
            deals += len(batch.reset_done())
        cpu = time.process_time() - start
    arrays = round(batch.memory_bytes() * 1000 / n / 2**20, 2)
    return {"steps": done, "deals": deals, "cpu_s": round(cpu, 3), "steps_per_s": round(done / cpu), "arrays_mib_per_1000": arrays}


def memory_per_1000(n: int = 4096) -> dict[str, float]:
    """Bytes per 1,000 concurrent deals: the arrays' ``nbytes``, and the tracemalloc peak of building and dealing the batch."""
    DoppelkopfBatch(1, ENV_ID).reset(seed=0)  # compile and import outside the measurement
    tracemalloc.start()
    batch = DoppelkopfBatch(n, ENV_ID)
    batch.reset(seed=0)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    scale = 1000 / n
    return {
        "arrays_mib": round(batch.memory_bytes() * scale / 2**20, 2),
        "tracemalloc_peak_mib": round(peak * scale / 2**20, 2),
    }


def _timed(run: Any) -> dict[str, float]:
    """``run()`` (it returns its steps) under CPU time, the collector off; the collection before it outside the clock."""
    with no_gc():
        start = time.process_time()
        steps = run()
        cpu = time.process_time() - start
    return {"steps": steps, "cpu_s": round(cpu, 3), "steps_per_s": round(steps / cpu) if cpu else 0}


def _timed_min(run: Any, min_cpu: float) -> dict[str, float]:
    """``run()`` again and again until ``min_cpu`` CPU seconds (the collector off, its collection outside the clock)."""
    with no_gc():
        start = time.process_time()
        steps = run()
        cpu = time.process_time() - start
        while cpu < min_cpu:
            steps += run()
            cpu = time.process_time() - start
    return {"steps": steps, "cpu_s": round(cpu, 3), "steps_per_s": round(steps / cpu) if cpu else 0}


def _median_rounds(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The median round of one row, with every round's rate."""
    ordered = sorted(rounds, key=lambda r: r["steps_per_s"])
    return {**ordered[len(ordered) // 2], "rounds": [r["steps_per_s"] for r in rounds]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--steps", type=int, default=200_000, help="deal-steps per batch size (default 200000)")
    parser.add_argument("--deals", type=int, default=50, help="deals for the single AEC env and each OpenSpiel game (default 50)")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="batch sizes (default 1,64,1024,4096)")
    parser.add_argument("--no-spiel", action="store_true", help="leave OpenSpiel out")
    parser.add_argument("--only-tarock", action="store_true", help="only the Tarock-family rows (TarockBatch and their AEC envs)")
    parser.add_argument("--no-tarock", action="store_true", help="leave the Tarock-family rows out")
    parser.add_argument("--no-engine-rows", action="store_true", help="leave out the learner-bidding and Doppelkopf engine rows")
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--min-cpu", type=float, default=1.0, help="CPU seconds each OpenSpiel row runs at least (default 1)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of the Doppelkopf batch and OpenSpiel rows, alternating")
    args = parser.parse_args(argv)
    rows: dict[str, Any] = {}
    batched_run(2, 200)  # compile (or load numba's cache) outside the timing
    aec_run(ENV_ID, 1)
    sizes = () if args.only_tarock else tuple(int(x) for x in args.sizes.split(","))
    spiel = () if args.no_spiel or args.only_tarock else SPIEL_GAMES
    rounds: dict[str, list[dict[str, Any]]] = {}
    for _ in range(args.repeat):
        for n in sizes:
            rounds.setdefault(f"batched {n}", []).append(batched_run(n, max(args.steps if n > 1 else args.steps // 10, 1000)))
        for name in spiel:
            rounds.setdefault(f"open_spiel {name}", []).append(
                {**_timed_min(lambda name=name: spiel_run(name, args.deals), args.min_cpu), "observation": spiel_observation(name)}
            )
    for key, runs in rounds.items():
        rows[key] = row = _median_rounds(runs)
        print(f"{key:<28}{row['steps_per_s']:>12,} steps/s  (rounds: {', '.join(f'{r:,}' for r in row['rounds'])})")
    if not args.only_tarock:
        rows["aec"] = row = _timed(lambda: aec_run(ENV_ID, args.deals))
        print(f"{'aec (PettingZoo)':<28}{row['steps_per_s']:>12,} steps/s")
    for env_id in () if args.no_tarock else TAROCK_IDS:
        batched_run(2, 100, env_id=env_id)
        rows[f"batched {env_id} {TAROCK_SIZE}"] = row = batched_run(TAROCK_SIZE, args.steps, env_id=env_id)
        label = f"batched {env_id.split('/')[1]} N={TAROCK_SIZE}"
        print(f"{label:<44}{row['steps_per_s']:>12,} card steps/s  ({row['arrays_mib_per_1000']} MiB arrays per 1,000 deals)")
        if not args.no_engine_rows:
            batched_run(2, 100, env_id=env_id, bidding="learner")
            rows[f"batched {env_id} {TAROCK_SIZE} learner"] = row = batched_run(TAROCK_SIZE, args.steps, env_id=env_id, bidding="learner")
            print(f"{label + ' learner':<44}{row['steps_per_s']:>12,} steps/s (whole deal)")
        rows[f"aec {env_id}"] = row = _timed(lambda env_id=env_id: aec_run(env_id, args.deals))
        print(f"{'aec ' + env_id.split('/')[1]:<44}{row['steps_per_s']:>12,} steps/s (whole deal)")
    if not args.no_engine_rows and not args.only_tarock:
        engine_id = "stich/doppelkopf-freedoko_standard-v1"
        batched_run(2, 100, env_id=engine_id)
        rows[f"batched {engine_id} {TAROCK_SIZE}"] = row = batched_run(TAROCK_SIZE, args.steps, env_id=engine_id)
        print(f"{'batched freedoko_standard N=' + str(TAROCK_SIZE) + ' (engine)':<44}{row['steps_per_s']:>12,} steps/s")
    if not args.only_tarock:
        rows["memory_per_1000_deals"] = mem = memory_per_1000()
        print(f"memory per 1,000 deals: arrays {mem['arrays_mib']} MiB, tracemalloc peak {mem['tracemalloc_peak_mib']} MiB")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"machine": machine_info(command=" ".join(sys.argv)), "rows": rows}, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
