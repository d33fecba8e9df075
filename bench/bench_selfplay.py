"""Episodes per second of the learner's self-play on each runner: one process, ``--workers N``, ``--ray``.

What ``python -m stich.rl.examples.train_policy`` generates, timed by wall
clock (the runners work in parallel, so CPU time of this process says
nothing) on one machine:

* ``teacher``: ``--deals`` imitation deals (the heuristic in every seat,
  every decision recorded) in one call, as the imitation phase asks for them;
* ``learner``: ``--deals`` policy-gradient episodes (the policy, sampling, in
  one seat against heuristic bots, and the same deal again with the
  heuristic in its seat: the duplicate baseline), in calls of ``--batch``
  deals with the policy (default size 256,128) sent each call, as the
  policy-gradient phase asks for them.

The runners take turns in ``--rounds`` rounds (the load of a shared
machine drifts; each runner sees the same drift) and the medians are
reported.  Every runner's episodes are compared with the first one's, byte
for byte (``identical`` in the output).  ``--ray`` without an address starts a local
Ray instance with ``--workers`` CPUs; its start is timed apart::

    PYTHONPATH=src python bench/bench_selfplay.py --deals 100 --rounds 3 --workers 2 --ray --json selfplay.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Any

from bench_common import machine_info

from stich.rl.pettingzoo_env import raw_env
from stich.rl.policy import MLPPolicy
from stich.rl.selfplay import Episode, InProcess, LearnerPlay, LocalProcesses, Runner, TeacherPlay, generate


def _fingerprint(episodes: list[Episode]) -> list[tuple[Any, ...]]:
    return [(e.deal, e.seat, e.reward, e.baseline, e.x.tobytes(), e.mask.tobytes(), e.action.tobytes()) for e in episodes]


def measure(runner: Runner, env_id: str, deals: int, batch: int, policy: MLPPolicy) -> tuple[dict[str, Any], list[Any]]:
    """Both kinds of self-play on ``runner``: episodes per second of wall time, and what was played (to compare).

    A few deals first, untimed but reported (``warmup_s``): the processes or
    Ray workers start and import stich then, once per run.
    """
    began = time.perf_counter()
    generate(TeacherPlay(env_id, seed=0), range(2 * runner.workers), runner, per_worker=1)
    warmup_s = time.perf_counter() - began
    began = time.perf_counter()
    teacher = generate(TeacherPlay(env_id, seed=1), range(deals), runner)
    teacher_s = time.perf_counter() - began
    began, learner = time.perf_counter(), []
    job = LearnerPlay(env_id, seed=2)
    for start in range(0, deals, batch):
        learner += generate(job, range(start, min(deals, start + batch)), runner, policy)
    learner_s = time.perf_counter() - began
    row = {
        "warmup_s": round(warmup_s, 2),
        "teacher_s": round(teacher_s, 2),
        "teacher_episodes_per_s": round(deals / teacher_s, 1),
        "decisions": sum(len(e.action) for e in teacher),
        "learner_s": round(learner_s, 2),
        "learner_episodes_per_s": round(deals / learner_s, 1),
    }
    return row, [_fingerprint(teacher), _fingerprint(learner)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--env", default="stich/tapp_tarock-standard-v1")
    parser.add_argument("--deals", type=int, default=100, help="deals of each kind per runner and round")
    parser.add_argument("--batch", type=int, default=20, help="policy-gradient deals per call (train_policy's --batch-deals)")
    parser.add_argument("--workers", type=int, default=2, help="local processes of the --workers row (and the local Ray instance's CPUs)")
    parser.add_argument("--ray", metavar="ADDRESS", nargs="?", const="", help="also a Ray row: at ADDRESS, or on a new local instance")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, the runners taking turns in each (the median is reported)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = parser.parse_args()

    e = raw_env(args.env)
    policy = MLPPolicy.create(e.table.game, e.table.encoding.size, (256, 128), seed=0)
    runners: dict[str, Runner] = {"one process": InProcess(), f"--workers {args.workers}": LocalProcesses(args.workers)}
    ray_start_s = None
    if args.ray is not None:
        import ray

        from stich.arena.ray_runner import RayRunner

        began = time.perf_counter()
        if not args.ray:  # a local instance with the same CPUs as the pool, for a like-for-like row
            ray.init(address="local", num_cpus=args.workers, include_dashboard=False)
        runner = RayRunner(args.ray or None)
        ray_start_s = round(time.perf_counter() - began, 1)
        runners["--ray" + (f" {args.ray}" if args.ray else f" (local, {runner.workers} CPUs)")] = runner
    info = machine_info(("stich", "numpy", "ray"), deals=args.deals, batch=args.batch, rounds=args.rounds, env=args.env)
    # Rounds in which the runners take turns: a shared machine's load drifts, and each runner sees the same drift.
    rounds: dict[str, list[dict[str, Any]]] = {label: [] for label in runners}
    played: dict[str, list[Any]] = {}
    try:
        for _ in range(args.rounds):
            for label, runner in runners.items():
                row, played[label] = measure(runner, args.env, args.deals, args.batch, policy)
                rounds[label].append(row)
    finally:
        for runner in runners.values():
            runner.close()
        if args.ray == "":
            ray.shutdown()  # the instance this script started (a RayRunner leaves a connection it did not make open)
    first = next(iter(played.values()))
    rows: dict[str, dict[str, Any]] = {}
    for label, done in rounds.items():
        rows[label] = {key: statistics.median(row[key] for row in done) for key in done[0]}
        rows[label]["identical"] = played[label] == first
    if ray_start_s is not None:
        rows[list(rows)[-1]]["ray_start_s"] = ray_start_s
    info["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    for label, row in rows.items():
        print(f"{label:>28}: {json.dumps(row)}")
    print(json.dumps(info))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"machine": info, "rows": rows, "rounds": rounds}, out, indent=2)
    return 0 if all(row["identical"] for row in rows.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
