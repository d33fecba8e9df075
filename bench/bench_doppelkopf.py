"""Throughput benchmark: stich Doppelkopf against OpenSpiel card games.

Usage::

    python bench/bench_doppelkopf.py [--seconds S] [--repeats R] [--json]
    python bench/bench_doppelkopf.py --ab OLD/src --ab src [--rounds N] [--ab-instructions N] [--json]
    python bench/bench_doppelkopf.py --profile 3000 [--profile-preset P]

Everything runs in this one process, one measurement after the other:

1. stich: random full Doppelkopf deals per second (game finding,
   announcements and trick play included), with the code API
   (``legal_codes()`` + ``apply(code)``), the public action API
   (``legal_actions()`` + ``apply(action)``) and, for reference, the
   engine-internal step without the legality check (``_apply_code``); then
   the presets ``ddv_no_nines``, ``house_classic`` and ``players=5``;
2. micro-benchmarks in µs per call on play-phase positions taken from random
   deals: ``legal_codes()``, ``legal_actions()``, ``apply`` (on fresh clones)
   and ``clone()`` (timeit-style batches, median of several repeats);
3. OpenSpiel (``pyspiel``, optional): random full games per second of
   ``tarok(players=4)`` (bids passed, random card play), ``skat`` and
   ``hearts``, plus the same micro-benchmarks on Tarok play positions;
4. the ratios stich deals/s ÷ OpenSpiel games/s.

With ``--ab`` (given two or more times) the script instead compares source
trees (for example a ``git worktree`` of an older commit and this checkout):
one worker process per tree, with ``PYTHONPATH`` set to that tree, plays the
same seeded random deals (``--ab-deals`` per sample) again and again; each
round asks every tree for one sample per preset, in alternating order (A B C,
then C B A, ...), and a sample counts deals per second of process CPU time
(not wall time, so other load on a shared machine counts less).  The report
gives each tree's best and median sample and the ratios against the first
tree (best ÷ best, median ÷ median, and the median of the ratios within a
round, whose samples ran next to each other), the CPU share the samples got
and the load average over the rounds.  ``--ab-instructions N`` also counts
each tree's instructions per deal over N deals with valgrind's callgrind:
slow, but deterministic, so the load of a shared machine does not move it.
``--profile N`` prints a cProfile of N deals of the headline loop on the
process's CPU clock instead (``--profile-preset`` picks the preset).

These are measurements, not tests: nothing here fails when a target is
missed; the output says whether each target is met.  See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:  # `make bench` installs stich; a plain checkout works through src/.
    import stich  # noqa: F401
except ImportError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bench_common import machine_info, no_gc

from stich.core.game import Game, State
from stich.core.registry import make_game

# Targets from the issue.
TARGET_DEALS_PER_S = 2000.0
TARGET_RATIO_TAROK = 1.0
TARGET_MICRO_US = 5.0

SEED = 20240601
"""Base seed: deals, random play and chance sampling are all reproducible."""


# ---------------------------------------------------------------- results


@dataclass
class Throughput:
    """Random full games per second of one configuration, over several repeats."""

    name: str
    api: str
    rates: list[float] = field(default_factory=list)
    """Games per second, one per repeat."""
    games: int = 0
    decisions: int = 0
    chance: int = 0
    notes: str = ""

    @property
    def best(self) -> float:
        """The fastest repeat (the least disturbed by other load)."""
        return max(self.rates)

    @property
    def spread(self) -> float:
        """(max - min) / max over the repeats."""
        return (max(self.rates) - min(self.rates)) / max(self.rates)

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "name": self.name,
            "api": self.api,
            "games_per_s_best": round(self.best, 1),
            "games_per_s_median": round(statistics.median(self.rates), 1),
            "games_per_s_min": round(min(self.rates), 1),
            "spread": round(self.spread, 4),
            "repeats": [round(r, 1) for r in self.rates],
            "games": self.games,
            "decisions_per_game": round(self.decisions / self.games, 2),
            "chance_nodes_per_game": round(self.chance / self.games, 2),
            "us_per_decision": round(1e6 / (self.best * self.decisions / self.games), 3),
            "notes": self.notes,
        }


@dataclass
class Micro:
    """One micro-benchmark: µs per call, median of several repeats."""

    name: str
    op: str
    samples_us: list[float]
    calls_per_repeat: int
    target_us: float | None = None

    @property
    def median(self) -> float:
        """Median µs per call."""
        return statistics.median(self.samples_us)

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "name": self.name,
            "op": self.op,
            "us_per_call_median": round(self.median, 3),
            "us_per_call_min": round(min(self.samples_us), 3),
            "us_per_call_max": round(max(self.samples_us), 3),
            "repeats": len(self.samples_us),
            "calls_per_repeat": self.calls_per_repeat,
            "target_us": self.target_us,
            "meets_target": None if self.target_us is None else self.median < self.target_us,
        }


# ---------------------------------------------------------------- stich deals


def _deal_codes(game: Game, seed: int, rng: random.Random) -> int:
    """One random deal through ``legal_codes()`` + ``apply(code)``; returns its decisions."""
    state = game.new_state(seed=seed, dealer=seed % game.num_seats)
    n = 0
    while not state.is_terminal():
        codes = state.legal_codes()
        state.apply(rng.choice(codes))
        n += 1
    state.result()
    return n


def _deal_actions(game: Game, seed: int, rng: random.Random) -> int:
    """One random deal through ``legal_actions()`` + ``apply(action)``."""
    state = game.new_state(seed=seed, dealer=seed % game.num_seats)
    n = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(rng.choice(actions))
        n += 1
    state.result()
    return n


def _deal_internal(game: Game, seed: int, rng: random.Random) -> int:
    """One random deal through ``legal_codes()`` + ``_apply_code`` (no legality re-check)."""
    state = game.new_state(seed=seed, dealer=seed % game.num_seats)
    n = 0
    while not state.is_terminal():
        codes = state.legal_codes()
        state._apply_code(rng.choice(codes))
        n += 1
    state.result()
    return n


def bench_stich_deals(
    label: str, game: Game, step: Callable[[Game, int, random.Random], int], api: str, seconds: float, repeats: int
) -> Throughput:
    """Random deals per second of ``game``; each repeat replays the same seeded deals from seed 0."""
    out = Throughput(label, api, notes=game.canonical)
    step(game, 0, random.Random(SEED))  # warm-up (imports, caches)
    for _ in range(repeats):
        rng = random.Random(SEED)
        deals = decisions = 0
        clock = time.perf_counter
        start = clock()
        deadline = start + seconds
        while True:
            decisions += step(game, deals, rng)
            deals += 1
            now = clock()
            if now >= deadline:
                break
        out.rates.append(deals / (now - start))
        out.games += deals
        out.decisions += decisions
    return out


# ---------------------------------------------------------------- micro


def play_positions(game: Game, count: int, seed: int) -> list[State]:
    """``count`` play-phase positions (with at least one card left to play) from random deals."""
    rng = random.Random(seed)
    positions: list[State] = []
    deal = 0
    while len(positions) < count:
        state = game.new_state(seed=seed + deal, dealer=deal % game.num_seats)
        deal += 1
        while not state.is_terminal() and getattr(state, "phase_name", "play") != "play":
            state.apply(rng.choice(state.legal_codes()))
        # Sample a few positions along this deal's play phase.
        while not state.is_terminal() and len(positions) < count:
            if rng.random() < 0.15:
                positions.append(state.clone())
            state.apply(rng.choice(state.legal_codes()))
    return positions


def _autorange(run: Callable[[int], float], min_time: float) -> int:
    """Smallest loop count (1, 2, 5, 10, ...) whose batch takes at least ``min_time`` seconds."""
    number = 1
    while True:
        for factor in (1, 2, 5):
            n = number * factor
            if run(n) >= min_time:
                return n
        number *= 10


def time_calls(
    name: str, op: str, pool: list[Any], call: Callable[[Any], object], repeats: int, min_time: float, target: float | None
) -> Micro:
    """µs per ``call(x)`` over the pool, timeit-style: batches of ``number`` passes, median of repeats."""

    def run(number: int) -> float:
        clock = time.perf_counter
        start = clock()
        for _ in range(number):
            for x in pool:
                call(x)
        return clock() - start

    with no_gc():
        number = _autorange(run, min_time)
        samples = [run(number) / (number * len(pool)) * 1e6 for _ in range(repeats)]
    return Micro(name, op, samples, number * len(pool), target)


def time_apply(
    name: str,
    op: str,
    pool: list[Any],
    moves: list[Any],
    clone: Callable[[Any], Any],
    apply: Callable[[Any, Any], object],
    repeats: int,
    min_time: float,
    target: float | None,
) -> Micro:
    """µs per ``apply(clone, move)``, timeit-style.

    Each pass clones the whole pool (off the clock) and then times applying
    one move to every fresh clone, so the clones are as warm in the cache as
    in a search that clones and applies at once.
    """
    pairs = list(zip(pool, moves, strict=True))

    def run(number: int) -> float:
        clock = time.perf_counter
        total = 0.0
        for _ in range(number):
            work = [(clone(s), m) for s, m in pairs]
            start = clock()
            for s, m in work:
                apply(s, m)
            total += clock() - start
        return total

    with no_gc():
        number = _autorange(run, min_time)
        samples = [run(number) / (number * len(pool)) * 1e6 for _ in range(repeats)]
    return Micro(name, op, samples, number * len(pool), target)


def bench_stich_micro(game: Game, positions: int, repeats: int, min_time: float) -> list[Micro]:
    """legal_codes / legal_actions / apply / clone on play-phase positions of ``game``."""
    pool = play_positions(game, positions, SEED)
    rng = random.Random(SEED)
    codes = [rng.choice(s.legal_codes()) for s in pool]
    table = game.actions.actions
    acts = [table[c] for c in codes]
    label = f"stich {game.canonical}"
    t = TARGET_MICRO_US

    def apply_code(s: State, c: int) -> None:
        s.apply(c)

    def apply_action(s: State, a: Any) -> None:
        s.apply(a)

    def apply_internal(s: State, c: int) -> None:
        s._apply_code(c)

    return [
        time_calls(label, "legal_codes()", pool, lambda s: s.legal_codes(), repeats, min_time, t),
        time_calls(label, "legal_actions()", pool, lambda s: s.legal_actions(), repeats, min_time, t),
        time_apply(label, "apply(code)", pool, codes, lambda s: s.clone(), apply_code, repeats, min_time, t),
        time_apply(label, "apply(action)", pool, acts, lambda s: s.clone(), apply_action, repeats, min_time, t),
        time_apply(label, "_apply_code(code) [internal]", pool, codes, lambda s: s.clone(), apply_internal, repeats, min_time, None),
        time_calls(label, "clone()", pool, lambda s: s.clone(), repeats, min_time, t),
    ]


# ---------------------------------------------------------------- OpenSpiel


class SpielRunner:
    """Random full games of one OpenSpiel game through its Python API."""

    def __init__(self, pyspiel: Any, game_string: str, tarok: bool) -> None:
        self.pyspiel = pyspiel
        self.game_string = game_string
        self.game = pyspiel.load_game(game_string)
        self.tarok = tarok
        self.bidding = pyspiel.TarokGamePhase.BIDDING if tarok else None
        self.contracts: dict[str, int] = {}

    @staticmethod
    def sample_chance(state: Any, rng: random.Random) -> int:
        """An outcome of a chance node, drawn with ``rng`` from ``chance_outcomes()``."""
        outcomes = state.chance_outcomes()
        if len(outcomes) == 1:
            return int(outcomes[0][0])
        r = rng.random()
        acc = 0.0
        for action, p in outcomes:
            acc += p
            if r < acc:
                return int(action)
        return int(outcomes[-1][0])

    def play(self, rng: random.Random) -> tuple[int, int]:
        """One random game; returns (decisions, chance nodes).

        Tarok: during the bidding every player takes the lowest legal action,
        which is ``Pass`` (action 0) whenever passing is allowed and otherwise
        the lowest contract the player must name (Klop when all passed);
        everything after the bidding is uniformly random.
        """
        state = self.game.new_initial_state()
        sample = self.sample_chance
        choice = rng.choice
        bidding = self.tarok
        decisions = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample(state, rng))
                chance += 1
                continue
            legal = state.legal_actions()
            if bidding and state.current_game_phase() == self.bidding:
                state.apply_action(legal[0])
            else:
                bidding = False
                state.apply_action(choice(legal))
            decisions += 1
        if self.tarok:
            name = str(state.selected_contract()).rsplit(".", 1)[-1]
            self.contracts[name] = self.contracts.get(name, 0) + 1
        state.returns()
        return decisions, chance

    def bench(self, label: str, seconds: float, repeats: int) -> Throughput:
        """Games per second over ``repeats`` runs of ``seconds`` each."""
        out = Throughput(label, "legal_actions() + apply_action(a)", notes=self.game_string)
        self.play(random.Random(SEED))  # warm-up
        self.contracts.clear()
        for _ in range(repeats):
            rng = random.Random(SEED)
            games = decisions = chance = 0
            clock = time.perf_counter
            start = clock()
            deadline = start + seconds
            while True:
                d, c = self.play(rng)
                decisions += d
                chance += c
                games += 1
                now = clock()
                if now >= deadline:
                    break
            out.rates.append(games / (now - start))
            out.games += games
            out.decisions += decisions
            out.chance += chance
        if self.tarok:
            total = sum(self.contracts.values())
            mix = ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in sorted(self.contracts.items(), key=lambda kv: -kv[1]))
            out.notes += f"; contracts: {mix}"
        return out

    def play_positions(self, count: int, seed: int) -> list[Any]:
        """Tarok positions in the trick-playing phase (for the micro-benchmarks)."""
        rng = random.Random(seed)
        playing = self.pyspiel.TarokGamePhase.TRICKS_PLAYING
        positions: list[Any] = []
        while len(positions) < count:
            state = self.game.new_initial_state()
            while not state.is_terminal() and len(positions) < count:
                if state.is_chance_node():
                    state.apply_action(self.sample_chance(state, rng))
                    continue
                legal = state.legal_actions()
                if state.current_game_phase() == self.bidding:
                    state.apply_action(legal[0])
                    continue
                if state.current_game_phase() == playing and rng.random() < 0.15:
                    positions.append(state.clone())
                state.apply_action(rng.choice(legal))
        return positions


def bench_openspiel(seconds: float, repeats: int, positions: int, micro_repeats: int, min_time: float) -> dict[str, Any]:
    """OpenSpiel figures, or a ``skipped`` reason when pyspiel is missing."""
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as exc:
        return {"skipped": f"open_spiel is not installed ({exc}); install it with: pip install -e '.[bench]'"}
    runs: list[Throughput] = []
    tarok = SpielRunner(pyspiel, f"tarok(players=4,rng_seed={SEED})", tarok=True)
    runs.append(tarok.bench("openspiel tarok(players=4)", seconds, repeats))
    runs.append(SpielRunner(pyspiel, "skat", tarok=False).bench("openspiel skat", seconds, repeats))
    runs.append(SpielRunner(pyspiel, "hearts", tarok=False).bench("openspiel hearts", seconds, repeats))
    pool = tarok.play_positions(positions, SEED)
    rng = random.Random(SEED)
    moves = [rng.choice(s.legal_actions()) for s in pool]
    label = "openspiel tarok(players=4)"

    def clone_spiel(s: Any) -> Any:
        return s.clone()

    def apply_spiel(s: Any, a: int) -> None:
        s.apply_action(a)

    micro = [
        time_calls(label, "legal_actions()", pool, lambda s: s.legal_actions(), micro_repeats, min_time, None),
        time_apply(label, "apply_action(a)", pool, moves, clone_spiel, apply_spiel, micro_repeats, min_time, None),
        time_calls(label, "clone()", pool, lambda s: s.clone(), micro_repeats, min_time, None),
    ]
    return {"throughput": runs, "micro": micro}


# ---------------------------------------------------------------- A/B of source trees

AB_CHILD = """
import gc, json, random, sys, time
from stich.core.registry import make_game
games = {}
for line in sys.stdin:
    preset, deals, seed = json.loads(line)
    game = games.get(preset) or games.setdefault(preset, make_game("doppelkopf", preset))
    gc.collect()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    rng = random.Random(seed)
    for i in range(deals):
        state = game.new_state(seed=i, dealer=i % game.num_seats)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_codes()))
        state.result()
    print(json.dumps([time.process_time() - cpu0, time.perf_counter() - wall0]), flush=True)
"""
"""The worker of one source tree: for each request line ``[preset, deals, seed]`` it plays deals 0 .. deals - 1 at
random and answers ``[CPU seconds, wall seconds]``.

It uses only ``make_game``, ``new_state``, ``legal_codes``, ``apply``, ``is_terminal`` and
``result``, so it runs on old trees as well.
"""


def _loadavg() -> float:
    """The one-minute load average (0 where the platform has none)."""
    with suppress(OSError, AttributeError):
        return round(os.getloadavg()[0], 2)
    return 0.0


class AbWorker:
    """A running :data:`AB_CHILD` with ``src`` first on its path."""

    def __init__(self, src: Path) -> None:
        self.src = src
        env = {**os.environ, "PYTHONPATH": str(src)}
        self.process = subprocess.Popen([sys.executable, "-c", AB_CHILD], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, preset: str, deals: int) -> tuple[float, float]:
        """CPU and wall seconds of ``deals`` random deals of ``preset``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps([preset, deals, SEED]) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise SystemExit(f"the A/B worker of {self.src} stopped (exit status {self.process.wait()})")
        cpu, wall = json.loads(answer)
        return float(cpu), float(wall)

    def close(self) -> None:
        """End the worker."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def _callgrind_instructions(src: Path, preset: str, deals: int) -> int:
    """Instructions :data:`AB_CHILD` executes for a warm-up of 100 deals of ``preset`` and then ``deals`` deals (callgrind)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    requests = "".join(json.dumps([preset, n, SEED]) + "\n" for n in (100, deals))
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", AB_CHILD]
    done = subprocess.run(command, input=requests, env=env, capture_output=True, text=True, check=False)
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1].strip())
    raise SystemExit(f"callgrind gave no count for {src} ({preset}):\n{done.stderr[-2000:]}")


def ab_instructions(src: Path, presets: list[str], deals: int) -> dict[str, float]:
    """Instructions per deal of each preset: the count with ``100 + deals`` deals less the count with 100, over ``deals``.

    Both runs import the same modules and replay the same first 100 deals (the warm-up and the
    short run), so the difference is the work of deals 100 .. 99 + ``deals`` alone.  The count is
    deterministic: other load on the machine does not change it (cache misses do not show in it).
    """
    out = {}
    for preset in presets:
        short = _callgrind_instructions(src, preset, 100)
        long = _callgrind_instructions(src, preset, 100 + deals)
        out[preset] = (long - short) / deals
    return out


def run_ab(args: argparse.Namespace, progress: Callable[[str], None]) -> dict[str, Any]:
    """Alternate the source trees of ``--ab``: each round runs every tree once per preset, order A B C, then C B A, ...

    One worker process per tree stays up for the whole run, so a sample is only the deals; the
    samples are short, and neighbours in time (one round) see about the same load.
    """
    srcs = [Path(s).resolve() for s in args.ab]
    presets = [p for p in args.ab_presets.split(",") if p]
    info = machine_info(ab_sources=[str(s) for s in srcs])
    workers = [AbWorker(src) for src in srcs]
    rates: dict[str, dict[str, list[float]]] = {str(s): {p: [] for p in presets} for s in srcs}
    shares: dict[str, dict[str, list[float]]] = {str(s): {p: [] for p in presets} for s in srcs}
    loads: list[float] = []
    try:
        for worker in workers:
            for preset in presets:
                worker.run(preset, min(args.ab_deals, 100))  # warm-up: imports, caches
        for r in range(args.rounds):
            if r % 10 == 0:
                progress(f"round {r + 1}/{args.rounds}")
            loads.append(_loadavg())
            for preset in presets:
                for worker in workers if r % 2 == 0 else workers[::-1]:
                    cpu, wall = worker.run(preset, args.ab_deals)
                    rates[str(worker.src)][preset].append(args.ab_deals / cpu)
                    shares[str(worker.src)][preset].append(cpu / wall)
    finally:
        for worker in workers:
            worker.close()
    loads.append(_loadavg())
    instructions: dict[str, dict[str, float]] = {}
    if args.ab_instructions:
        for src in srcs:
            progress(f"instructions per deal (callgrind): {src}")
            instructions[str(src)] = ab_instructions(src, presets, args.ab_instructions)
    with suppress(OSError):
        info["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    base = str(srcs[0])
    summary: dict[str, Any] = {}
    for src in map(str, srcs):
        per: dict[str, Any] = {}
        for preset in presets:
            mine, theirs = rates[src][preset], rates[base][preset]
            per[preset] = {
                "best": round(max(mine)),
                "median": round(statistics.median(mine)),
                "best_ratio": max(mine) / max(theirs),
                "median_ratio": statistics.median(mine) / statistics.median(theirs),
                "median_round_ratio": statistics.median(m / t for m, t in zip(mine, theirs, strict=True)),
                "cpu_share_median": round(statistics.median(shares[src][preset]), 3),
            }
            if instructions:
                per[preset]["instructions_per_deal"] = round(instructions[src][preset])
                per[preset]["instructions_ratio"] = instructions[src][preset] / instructions[base][preset]
        summary[src] = per
    return {
        "machine": info,
        "settings": {
            "rounds": args.rounds,
            "deals_per_sample": args.ab_deals,
            "presets": presets,
            "instructions_deals": args.ab_instructions,
            "seed": SEED,
        },
        "load_per_round": loads,
        "ab": summary,
    }


def profile_deals(preset: str, deals: int, top: int = 20) -> str:
    """cProfile (on the process's CPU clock) of ``deals`` random deals of ``preset`` as the headline loop plays them.

    Returns the ``top`` functions by own time and by cumulative time, as ``pstats`` prints them.
    """
    import cProfile
    import io
    import pstats

    game = make_game("doppelkopf", preset)
    for i in range(100):  # warm-up: imports, caches
        _deal_codes(game, i, random.Random(SEED + i))
    profiler = cProfile.Profile(time.process_time)
    rng = random.Random(SEED)
    profiler.enable()
    for i in range(deals):
        _deal_codes(game, i, rng)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def render_ab(report: dict[str, Any]) -> str:
    """A readable table of an A/B report."""
    m, s = report["machine"], report["settings"]
    loads = report["load_per_round"]
    lines = [
        "stich Doppelkopf A/B: random deals per CPU second, trees alternated in every round",
        f"  date      {m['date']}",
        f"  machine   {m['nproc']} usable cores ({m['cpu_count']} total), {m['cpu_model']}",
        f"  python    {m['python_impl']} {m['python']} on {m['platform']}",
        f"  load avg  min {min(loads)}, median {statistics.median(loads)}, max {max(loads)} over the rounds",
        f"  command   {m['command']}",
        f"  settings  {s['rounds']} rounds, {s['deals_per_sample']} deals per sample (the same deals every time)",
        "",
        "  ratios against the first tree: best ÷ best, median ÷ median, median of the ratios within a round",
    ]
    for src, per in report["ab"].items():
        lines.append(f"  {src}")
        for preset, f in per.items():
            lines.append(
                f"    {preset:<16} best {f['best']:>6,}  median {f['median']:>6,}   ratios {f['best_ratio']:.3f}"
                f" / {f['median_ratio']:.3f} / {f['median_round_ratio']:.3f}   CPU share (median) {f['cpu_share_median']}"
            )
            if "instructions_per_deal" in f:
                lines.append(f"    {'':<16} instructions per deal {f['instructions_per_deal']:,}  ratio {f['instructions_ratio']:.3f}")
    return "\n".join(lines)


# ---------------------------------------------------------------- report


def _targets(base: float, tarok_ratio: float | None, micro: list[Micro]) -> dict[str, Any]:
    """Each target of the issue with the measured value and whether it is met."""
    timed = [m for m in micro if m.target_us is not None]
    return {
        "deals_per_s": {"target": TARGET_DEALS_PER_S, "value": round(base, 1), "met": base >= TARGET_DEALS_PER_S},
        "ratio_vs_tarok": {
            "target": TARGET_RATIO_TAROK,
            "value": None if tarok_ratio is None else round(tarok_ratio, 3),
            "met": None if tarok_ratio is None else tarok_ratio >= TARGET_RATIO_TAROK,
        },
        "micro_us": {m.op: {"target": m.target_us, "value": round(m.median, 3), "met": m.median < TARGET_MICRO_US} for m in timed},
    }


def run(args: argparse.Namespace, progress: Callable[[str], None]) -> dict[str, Any]:
    """Run every measurement; returns the report as plain data (Throughput/Micro objects inside)."""
    info = machine_info()
    ddv = make_game("doppelkopf", "ddv")
    deals: list[Throughput] = []
    plan: list[tuple[str, Game, Callable[[Game, int, random.Random], int], str]] = [
        ("stich doppelkopf ddv", ddv, _deal_codes, "legal_codes() + apply(code)"),
        ("stich doppelkopf ddv", ddv, _deal_actions, "legal_actions() + apply(action)"),
        ("stich doppelkopf ddv", ddv, _deal_internal, "legal_codes() + _apply_code(code) [internal]"),
        ("stich doppelkopf ddv_no_nines", make_game("doppelkopf", "ddv_no_nines"), _deal_codes, "legal_codes() + apply(code)"),
        ("stich doppelkopf house_classic", make_game("doppelkopf", "house_classic"), _deal_codes, "legal_codes() + apply(code)"),
        ("stich doppelkopf ddv players=5", make_game("doppelkopf", "ddv", {"players": 5}), _deal_codes, "legal_codes() + apply(code)"),
    ]
    for label, game, step, api in plan:
        progress(f"{label}: {api}")
        deals.append(bench_stich_deals(label, game, step, api, args.seconds, args.repeats))
    progress("stich micro-benchmarks")
    micro = bench_stich_micro(ddv, args.positions, args.micro_repeats, args.min_time)
    progress("OpenSpiel")
    spiel = bench_openspiel(args.seconds, args.repeats, args.positions, args.micro_repeats, args.min_time)
    with suppress(OSError):
        info["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    ratios: dict[str, float] = {}
    base = deals[0].best
    for t in spiel.get("throughput", []):
        ratios[f"{deals[0].name} / {t.name}"] = base / t.best
    tarok_ratio = next((v for k, v in ratios.items() if "tarok" in k), None)
    targets = _targets(base, tarok_ratio, micro)
    return {
        "machine": info,
        "settings": {
            "seconds_per_repeat": args.seconds,
            "repeats": args.repeats,
            "micro_positions": args.positions,
            "micro_repeats": args.micro_repeats,
            "micro_min_batch_s": args.min_time,
            "seed": SEED,
        },
        "stich": {"deals": deals, "micro": micro},
        "openspiel": spiel,
        "ratios": ratios,
        "targets": targets,
    }


def to_json(report: dict[str, Any]) -> dict[str, Any]:
    """The report with every result object in its JSON form."""

    def conv(x: Any) -> Any:
        if isinstance(x, Throughput | Micro):
            return x.to_json()
        if isinstance(x, dict):
            return {k: conv(v) for k, v in x.items()}
        if isinstance(x, list):
            return [conv(v) for v in x]
        if isinstance(x, float):
            return round(x, 4)
        return x

    out = conv(report)
    assert isinstance(out, dict)
    return out


def render(report: dict[str, Any]) -> str:
    """A readable table."""
    m = report["machine"]
    s = report["settings"]
    lines = [
        "stich Doppelkopf benchmark",
        f"  date      {m['date']}",
        f"  machine   {m['nproc']} usable cores ({m['cpu_count']} total), {m['cpu_model']}",
        f"  python    {m['python_impl']} {m['python']} on {m['platform']}",
        f"  versions  stich {m['versions']['stich']} (git {m['git']}), open_spiel {m['versions']['open_spiel']}",
        f"  load avg  start {m['loadavg_at_start']}  end {m.get('loadavg_at_end')}",
        f"  command   {m['command']}",
        f"  settings  {s['repeats']} repeats x {s['seconds_per_repeat']} s per throughput figure; "
        f"micro: {s['micro_positions']} positions, median of {s['micro_repeats']} batches >= {s['micro_min_batch_s']} s",
        "",
        "Random full games per second (best repeat; spread = (max-min)/max over repeats)",
    ]
    header = f"  {'configuration':<34} {'API':<46} {'games/s':>9} {'spread':>7} {'dec/game':>9} {'µs/dec':>7}"
    lines += [header, "  " + "-" * (len(header) - 2)]
    rows: list[Throughput] = list(report["stich"]["deals"]) + list(report["openspiel"].get("throughput", []))
    for t in rows:
        j = t.to_json()
        per_game = f"{j['decisions_per_game']:>9.1f} {j['us_per_decision']:>7.2f}"
        lines.append(f"  {t.name:<34} {t.api:<46} {t.best:>9.0f} {100 * t.spread:>6.1f}% {per_game}")
    if "skipped" in report["openspiel"]:
        lines.append(f"  OpenSpiel skipped: {report['openspiel']['skipped']}")
    for t in report["openspiel"].get("throughput", []):
        if t.notes:
            lines.append(f"  note {t.name}: {t.notes}")
    lines += ["", "Micro-benchmarks on play-phase positions (µs per call, median of repeats)"]
    header = f"  {'engine / game':<36} {'operation':<30} {'median':>8} {'min':>8} {'max':>8} {'target':>8}"
    lines += [header, "  " + "-" * (len(header) - 2)]
    for mi in list(report["stich"]["micro"]) + list(report["openspiel"].get("micro", [])):
        target = "" if mi.target_us is None else (f"<{mi.target_us:g} " + ("ok" if mi.median < mi.target_us else "MISS"))
        lines.append(f"  {mi.name:<36} {mi.op:<30} {mi.median:>8.2f} {min(mi.samples_us):>8.2f} {max(mi.samples_us):>8.2f} {target:>8}")
    lines += ["", "Ratios (stich ddv deals/s with legal_codes() + apply(code) ÷ OpenSpiel games/s)"]
    if report["ratios"]:
        for k, v in report["ratios"].items():
            lines.append(f"  {k:<70} {v:>6.2f}")
    else:
        lines.append("  (none: OpenSpiel skipped)")
    tg = report["targets"]
    lines += ["", "Targets"]
    d = tg["deals_per_s"]
    lines.append(f"  deals/s >= {d['target']:g}: {d['value']:.0f} -> {'met' if d['met'] else 'MISSED'}")
    r = tg["ratio_vs_tarok"]
    if r["value"] is not None:
        lines.append(f"  ratio vs tarok(players=4) >= {r['target']:g}: {r['value']:.2f} -> {'met' if r['met'] else 'MISSED'}")
    for op, v in tg["micro_us"].items():
        lines.append(f"  {op} < {v['target']:g} µs: {v['value']:.2f} -> {'met' if v['met'] else 'MISSED'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per repeat of each throughput figure (default 2)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats of each throughput figure; the best is reported (default 3)")
    parser.add_argument("--positions", type=int, default=200, help="play-phase positions for the micro-benchmarks (default 200)")
    parser.add_argument("--micro-repeats", type=int, default=7, help="batches per micro-benchmark; the median is reported (default 7)")
    parser.add_argument("--min-time", type=float, default=0.05, help="minimum seconds per micro-benchmark batch (default 0.05)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    parser.add_argument(
        "--profile", type=int, default=0, metavar="DEALS", help="instead: cProfile (CPU clock) of DEALS random deals of --profile-preset"
    )
    parser.add_argument("--profile-preset", default="ddv", help="the preset --profile plays (default ddv)")
    ab = parser.add_argument_group("A/B of source trees (instead of the figures above)")
    ab.add_argument("--ab", action="append", metavar="SRC", help="a source tree to compare (its src/ folder); give it two or more times")
    ab.add_argument(
        "--rounds", type=int, default=40, help="rounds, each running every tree once per preset, in alternating order (default 40)"
    )
    ab.add_argument("--ab-deals", type=int, default=300, help="deals per sample (default 300)")
    ab.add_argument(
        "--ab-instructions",
        type=int,
        default=0,
        metavar="DEALS",
        help="also count instructions per deal over DEALS deals with valgrind's callgrind (deterministic; 0 = off, the default)",
    )
    ab.add_argument(
        "--ab-presets", default="ddv,ddv_no_nines,house_classic", help="comma-separated presets (default ddv,ddv_no_nines,house_classic)"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or args.positions < 1 or args.micro_repeats < 1:
        parser.error("--seconds, --repeats, --positions and --micro-repeats must be positive")

    def progress(msg: str) -> None:
        print(f"... {msg}", file=sys.stderr, flush=True)

    if args.profile > 0:
        print(profile_deals(args.profile_preset, args.profile))
        return 0
    if args.ab:
        if len(args.ab) < 2 or args.rounds < 1 or args.ab_deals < 1 or args.ab_instructions < 0:
            parser.error("--ab: two or more trees; --rounds and --ab-deals positive; --ab-instructions not negative")
        ab_report = run_ab(args, progress)
        print(json.dumps(to_json(ab_report), indent=2, ensure_ascii=False) if args.json else render_ab(ab_report))
        return 0
    report = run(args, progress)
    if args.json:
        print(json.dumps(to_json(report), indent=2, ensure_ascii=False))
    else:
        print(render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
