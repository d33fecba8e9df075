"""Deep exact solves of the Doppelkopf play phase: time per position, with its distribution, before and after.

Usage::

    python bench/bench_solver.py [--tricks 7 9 12] [--positions N] [--mode solve|reaches|value]
        [--target 121] [--mixed] [--timeout S] [--baseline SRC] [--new SRC] [--progress] [--json]

Positions are seeded normal games (everybody says "gesund", DDV rules) at
the first card of a trick with ``--tricks`` tricks left, random cards
before.  Per position it times a fresh ``KernelSolver`` (conversion
included) doing

* ``solve``: every legal card's exact value,
* ``value``: the position's exact value,
* ``reaches``: the win/lose question ``reaches(--target)`` (default 121,
  Re wins),

and reports median, p90, mean and max in ms (wall clock), the same of the
worker's CPU time (``time.process_time``: on a shared machine the wall
clock also counts the time other processes held the core) and the nodes
searched.  The speed-up is the median of the per-position ratios of CPU
time, baseline over new.

``--baseline SRC`` runs the same positions, interleaved position by
position, with the ``stich`` package found under ``SRC`` (a ``src``
directory of another checkout, e.g. ``git archive main src | tar -x -C
/tmp/base``), so before and after share the machine's load; the answers
of the two are compared.  ``--new SRC`` takes the "new" solver from another
``src`` directory than this checkout's (a variant tried against the same
baseline, decision 0063).  Each solver runs in its own worker process (the
numba compilation or cache load happens before the first timed position);
a position that takes longer than ``--timeout`` seconds kills its worker,
counts as ``> timeout`` (at the timeout in the statistics, so the median
and p90 are lower bounds then) and the next position starts a new worker.

These are measurements, not tests.  See bench/README.md, section
bench_solver.py.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
SEED = 4300

_WORKER = r"""
import json, sys, time, gc
from stich.bots.doppelkopf import kernel
from stich.bots.doppelkopf.solver import PlayPosition
kernel.warmup()
print(json.dumps({"ready": kernel.backend()}), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    d = job["position"]
    pos = PlayPosition(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})
    getattr(kernel, "prepare_table", lambda tricks: None)(pos.tricks_left)  # allocate a deep search's table untimed
    gc.disable()
    t0 = time.perf_counter()
    c0 = time.process_time()
    solver = kernel.KernelSolver(pos)
    if job["mode"] == "solve":
        answer = solver.solve()
        answer = {str(k): v for k, v in answer.items()}
    elif job["mode"] == "value":
        answer = solver.value()
    else:
        answer = solver.reaches(job["target"])
    ms = 1000 * (time.perf_counter() - t0)
    cpu_ms = 1000 * (time.process_time() - c0)
    gc.enable()
    print(json.dumps({"ms": ms, "cpu_ms": cpu_ms, "nodes": solver.nodes, "answer": answer}), flush=True)
"""


class Worker:
    """One solver process reading jobs from stdin, answering one JSON line each."""

    def __init__(self, src: Path) -> None:
        self.src = src
        self.proc: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        env = dict(os.environ, PYTHONPATH=str(self.src))
        proc = subprocess.Popen(
            [sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, bufsize=1
        )
        assert proc.stdout is not None
        ready = json.loads(proc.stdout.readline())
        if ready.get("ready") != "numba":
            raise SystemExit(f"worker for {self.src} has no compiled kernel: {ready}")
        return proc

    def run(self, job: dict[str, Any], timeout: float) -> dict[str, Any] | None:
        """The answer to ``job``, or ``None`` when it took longer than ``timeout`` seconds (the worker is then killed)."""
        if self.proc is None:
            self.proc = self._start()
        proc = self.proc
        stdin: IO[str] | None = proc.stdin
        stdout: IO[str] | None = proc.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps(job) + "\n")
        stdin.flush()
        ready, _, _ = select.select([stdout], [], [], timeout)
        if not ready:
            proc.kill()
            proc.wait()
            self.proc = None
            return None
        out: dict[str, Any] = json.loads(stdout.readline())
        return out

    def close(self) -> None:
        if self.proc is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait()
            self.proc = None


def positions(tricks: int, count: int, mixed: bool = False) -> list[dict[str, Any]]:
    """``count`` seeded normal-game positions with ``tricks`` tricks left, as PlayPosition fields.

    At a trick's first card, or with ``mixed`` position ``i`` with ``i % 4``
    cards in the current trick (as bench_search.py's solver sets).
    """
    from stich.bots.doppelkopf.solver import position_of, random_play_position
    from stich.core.registry import game_from_string
    from stich.games.doppelkopf.game import Doppelkopf

    game = game_from_string("doppelkopf")
    assert isinstance(game, Doppelkopf)
    out = []
    for i in range(count):
        cards = i % 4 if mixed else 0
        state = random_play_position(game, SEED + 100 * tricks + i, tricks_left=tricks, cards_in_trick=cards, healthy=True, announce=0.0)
        out.append(asdict(position_of(state)))
    return out


def dist(ms: list[float], timeouts: int, timeout_s: float) -> dict[str, Any]:
    """Median, p90, mean, max of ``ms`` (timed-out positions counted at the timeout)."""
    values = sorted(ms + [1000 * timeout_s] * timeouts)
    if not values:
        return {"n": 0}
    p90 = values[min(len(values) - 1, round(0.9 * (len(values) - 1)))]
    return {
        "n": len(values),
        "median": statistics.median(values),
        "p90": p90,
        "mean": statistics.fmean(values),
        "max": values[-1],
        "timeouts": timeouts,
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    solvers = {"new": Worker(Path(args.new) if args.new else ROOT / "src")}
    if args.baseline:
        solvers = {"baseline": Worker(Path(args.baseline)), **solvers}
    report: dict[str, Any] = {"mixed": args.mixed, "mode": args.mode, "target": args.target, "timeout_s": args.timeout, "sets": {}}
    try:
        for tricks in args.tricks:
            pos = positions(tricks, args.positions, args.mixed)
            results: dict[str, list[dict[str, Any] | None]] = {name: [] for name in solvers}
            started = time.perf_counter()
            for i, p in enumerate(pos):
                job = {"position": p, "mode": args.mode, "target": args.target}
                for name, worker in solvers.items():
                    results[name].append(worker.run(job, args.timeout))
                if args.progress:
                    line = " ".join(f"{name}={'timeout' if r[-1] is None else format(r[-1]['ms'], '.1f')}" for name, r in results.items())
                    print(f"[{tricks} tricks] {i + 1}/{len(pos)} {line}", file=sys.stderr, flush=True)
            entry: dict[str, Any] = {"positions": len(pos), "wall_s": time.perf_counter() - started}
            for name, res in results.items():
                done = [r for r in res if r is not None]
                entry[name] = dist([r["ms"] for r in done], len(res) - len(done), args.timeout)
                if done and "cpu_ms" in done[0]:
                    entry[name]["cpu"] = dist([r["cpu_ms"] for r in done], len(res) - len(done), args.timeout)
                if done:
                    entry[name]["nodes_median"] = statistics.median(r["nodes"] for r in done)
                if args.mode == "reaches" and done:
                    entry[name]["reached"] = sum(1 for r in done if r["answer"])
            if len(results) == 2:
                a, b = results["baseline"], results["new"]
                both = [(x, y) for x, y in zip(a, b, strict=True) if x is not None and y is not None]
                entry["answers_compared"] = len(both)
                entry["answers_differ"] = sum(1 for x, y in both if x["answer"] != y["answer"])
                key = "cpu_ms" if both and "cpu_ms" in both[0][0] else "ms"
                ratios = [x[key] / y[key] for x, y in both if y[key] > 0]
                if ratios:
                    entry["speedup_median"] = statistics.median(ratios)
            report["sets"][str(tricks)] = entry
    finally:
        for worker in solvers.values():
            worker.close()
    return report


def render(report: dict[str, Any]) -> str:
    lines = [
        f"mode {report['mode']}"
        + (f" (target {report['target']})" if report["mode"] == "reaches" else "")
        + (", 0-3 cards in the current trick" if report["mixed"] else ", at a trick's first card"),
        "| tricks | solver | n | median ms | p90 ms | mean ms | max ms | CPU ms: median / p90 / max | timeouts | nodes (median) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for tricks, entry in report["sets"].items():
        for name in ("baseline", "new"):
            if name not in entry:
                continue
            d = entry[name]
            c = d.get("cpu")
            cpu = f"{c['median']:.2f} / {c['p90']:.2f} / {c['max']:.1f}" if c else "-"
            lines.append(
                f"| {tricks} | {name} | {d['n']} | {d['median']:.2f} | {d['p90']:.2f} | {d['mean']:.2f} | {d['max']:.1f} | {cpu} | "
                f"{d['timeouts']} | {d.get('nodes_median', 0):,.0f} |"
            )
        if "answers_compared" in entry:
            lines.append(
                f"|  | compared | {entry['answers_compared']} answers, {entry['answers_differ']} differ; "
                f"median speed-up {entry.get('speedup_median', 0):.1f}x | | | | | | | |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("--tricks", type=int, nargs="+", default=[7, 9], help="tricks left at the positions (default 7 9)")
    parser.add_argument("--positions", type=int, default=30, help="positions per trick count (default 30)")
    parser.add_argument("--mode", choices=("solve", "value", "reaches"), default="solve", help="what each position asks (default solve)")
    parser.add_argument("--target", type=int, default=121, help="eyes Re must reach in --mode reaches (default 121)")
    parser.add_argument(
        "--mixed", action="store_true", help="0-3 cards in the current trick (position i: i %% 4), not a trick's first card"
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per position and solver before it counts as timed out")
    parser.add_argument("--baseline", default="", help="a src directory holding the stich package to compare with")
    parser.add_argument("--new", default="", help="a src directory holding the stich package to measure (default: this checkout's)")
    parser.add_argument("--progress", action="store_true", help="one line per position on stderr")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(argv)
    report = run(args)
    print(json.dumps(report, indent=1) if args.json else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
