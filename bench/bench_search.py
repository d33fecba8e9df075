"""Search benchmark: random playouts and the exact solver, compiled kernel and pure Python, beside OpenSpiel.

Usage::

    python bench/bench_search.py [--quick] [--seconds S] [--repeats R] [--dd-deals D] [--json]

Everything runs in this one process, on one core, one measurement after the
other:

1. random playouts per second (``stich.bots.doppelkopf.kernel.random_playouts``):
   whole card-play phases (12 tricks, 48 cards) with uniformly random legal
   cards, from the first card of normal Doppelkopf games; with the numba
   kernel on prepared ``KernelPosition`` arrays (batches of 2,000), with the
   kernel called on a ``DoppelkopfState`` for 100 playouts at a time
   (conversion included, as a bot sampling worlds would call it), and with
   the pure-Python fallback (same results, same stream);
2. the exact solver on positions with 6 tricks left (and 7 for a larger
   search): per position the time of ``KernelSolver(state).solve()``
   (conversion included; every legal card's exact value) and of
   ``.value()``, the nodes searched, nodes per second of search time; then
   the pure-Python reference ``Solver`` on a subset of the same positions;
3. OpenSpiel (optional): C++ random playouts through
   ``pyspiel.evaluate_bots`` with C++ uniform random bots, the loop itself
   in C++: card play only, from positions at the start of trick play
   (``tarok(players=4)`` Klop, ``skat``, ``hearts``), and whole games from
   the initial state; C++ rollouts of ``RandomRolloutEvaluator``, many in
   one call (an ``MCTSBot`` with one simulation evaluates its root with
   ``n`` rollouts), from the same card-play starts and from the first
   decision after the deal;
4. OpenSpiel's closest figure to the solver: ``bridge(use_double_dummy_result=true)``
   computes the double-dummy table of a deal (DDS: 13 tricks, 5 strains x
   4 declarers) when the last card is dealt; that step is timed per deal.
   Then the ratios of stich's figures to OpenSpiel's, measured in this run.

These are measurements, not tests: nothing fails when a target is missed.
See bench/README.md, section bench_search.py.
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

from bench_common import machine_info, no_gc, progress, rounded

from stich.bots.doppelkopf import kernel
from stich.bots.doppelkopf.solver import Solver, position_of, random_play_position
from stich.core.registry import make_game
from stich.games.doppelkopf.game import Doppelkopf
from stich.games.doppelkopf.state import DoppelkopfState

TARGET_PLAYOUTS_PER_S = 100_000.0
TARGET_NODES_PER_S = 10_000_000.0
TARGET_SOLVE_6_MS = 20.0
SEED = 20240601
ROLLOUTS_PER_CALL = 1000
"""Rollouts per C++ call of OpenSpiel's RandomRolloutEvaluator (one MCTSBot step)."""
DD_TABLE_SOLVES = 20
"""Double-dummy solves in one bridge table: 5 strains (4 suits, no trump) x 4 declarers."""


# ------------------------------------------------------------------ helpers


def rate(run_batch: Callable[[int], int], seconds: float, repeats: int) -> list[float]:
    """Items per second, one figure per repeat; ``run_batch(i)`` does batch ``i`` and returns its item count."""
    rates = []
    for _ in range(repeats):
        done = 0
        i = 0
        with no_gc():
            start = time.perf_counter()
            while True:
                done += run_batch(i)
                i += 1
                elapsed = time.perf_counter() - start
                if elapsed >= seconds:
                    break
        rates.append(done / elapsed)
    return rates


def summary(rates: list[float]) -> dict[str, Any]:
    """Best repeat and spread ((max - min) / max)."""
    best = max(rates)
    return {"best": best, "spread": (best - min(rates)) / best if best else 0.0, "repeats": rates}


def dist(values_ms: list[float]) -> dict[str, Any]:
    """Median, 90th percentile, mean and max of a list of milliseconds."""
    ordered = sorted(values_ms)
    return {
        "n": len(ordered),
        "median": statistics.median(ordered),
        "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
        "mean": statistics.fmean(ordered),
        "max": ordered[-1],
    }


# ----------------------------------------------------------------- playouts


def start_positions(game: Doppelkopf, count: int) -> list[DoppelkopfState]:
    """Play-phase positions at the first card of normal games (everyone healthy)."""
    return [random_play_position(game, SEED + i, tricks_left=game.options.hand_size, healthy=True, announce=0.0) for i in range(count)]


def bench_playouts(game: Doppelkopf, seconds: float, repeats: int) -> dict[str, Any]:
    """Random playouts per second: compiled kernel (arrays / states) and pure Python."""
    states = start_positions(game, 20)
    out: dict[str, Any] = {"positions": len(states), "cards_per_game": 4 * game.options.hand_size}
    if kernel.available():
        prepared = [kernel.KernelPosition(s) for s in states]
        batch = 2000

        def compiled(i: int) -> int:
            kernel.random_playouts(prepared[i % len(prepared)], batch, SEED + i)
            return batch

        out["kernel_arrays"] = summary(rate(compiled, seconds, repeats))
        small = 100

        def from_state(i: int) -> int:
            kernel.random_playouts(states[i % len(states)], small, SEED + i)
            return small

        out["kernel_states_100"] = summary(rate(from_state, seconds, repeats))
    positions = [position_of(s) for s in states]
    py_batch = 20

    def python(i: int) -> int:
        kernel._py_playouts(positions[i % len(positions)], py_batch, SEED + i)
        return py_batch

    out["python"] = summary(rate(python, seconds, repeats))
    return out


# ------------------------------------------------------------------- solver


def solve_set(states: list[DoppelkopfState], compiled: bool) -> dict[str, Any]:
    """Solve every position once (solve() and, on a fresh solver, value()); times in ms, nodes, nodes/s."""
    total_ms: list[float] = []
    value_ms: list[float] = []
    nodes: list[int] = []
    search_s = 0.0
    with no_gc():
        for state in states:
            t0 = time.perf_counter()
            solver: kernel.KernelSolver | Solver = kernel.KernelSolver(state) if compiled else Solver(state)
            t1 = time.perf_counter()
            solver.solve()
            t2 = time.perf_counter()
            total_ms.append(1000 * (t2 - t0))
            search_s += t2 - t1
            nodes.append(solver.nodes)
            t3 = time.perf_counter()
            (kernel.KernelSolver(state) if compiled else Solver(state)).value()
            value_ms.append(1000 * (time.perf_counter() - t3))
    return {
        "solve_ms": dist(total_ms),
        "value_ms": dist(value_ms),
        "nodes_median": statistics.median(nodes),
        "nodes_max": max(nodes),
        "nodes_total": sum(nodes),
        "nodes_per_s": sum(nodes) / search_s if search_s else 0.0,
    }


def bench_solver(game: Doppelkopf, count: int, reference_count: int, progress: Callable[[str], None]) -> dict[str, Any]:
    """The solver on 6-trick positions (normal games; random game finding) and on 7-trick normal games."""
    sets = {
        "6 tricks, normal games": [
            random_play_position(game, SEED + i, tricks_left=6, cards_in_trick=i % 4, healthy=True) for i in range(count)
        ],
        "6 tricks, random game finding": [random_play_position(game, SEED + i, tricks_left=6, cards_in_trick=i % 4) for i in range(count)],
        "7 tricks, normal games": [
            random_play_position(game, SEED + i, tricks_left=7, cards_in_trick=i % 4, healthy=True) for i in range(max(count // 3, 1))
        ],
    }
    out: dict[str, Any] = {}
    for name, states in sets.items():
        kinds: dict[str, int] = {}
        for s in states:
            kinds[s.kind] = kinds.get(s.kind, 0) + 1
        entry: dict[str, Any] = {"positions": len(states), "kinds": kinds}
        if kernel.available():
            progress(f"kernel solver: {name}")
            entry["kernel"] = solve_set(states, compiled=True)
        if name.startswith("6"):
            progress(f"reference solver: {name} (first {reference_count})")
            entry["reference"] = solve_set(states[:reference_count], compiled=False)
        out[name] = entry
    return out


# ---------------------------------------------------------------- OpenSpiel


def _spiel_play_start(pyspiel: Any, game: Any, name: str, rng: random.Random) -> Any:
    """A state at the first card of trick play (Tarok: everyone passes, Klop)."""
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if name == "tarok" and state.current_game_phase() == pyspiel.TarokGamePhase.TRICKS_PLAYING:
                return state
            if name == "skat" and str(state).startswith("Phase: playing"):
                return state
            if name == "hearts" and not state.is_chance_node() and len(state.history()) >= 53 + (0 if "No Pass" in str(state) else 12):
                return state
            if state.is_chance_node():
                action = rng.choice([a for a, _p in state.chance_outcomes()])
            elif name == "tarok" and state.current_game_phase() == pyspiel.TarokGamePhase.BIDDING:
                action = min(state.legal_actions())
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)


def bench_openspiel(seconds: float, repeats: int) -> dict[str, Any]:
    """C++ random playouts (evaluate_bots with uniform random bots), or a ``skipped`` reason."""
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as exc:
        return {"skipped": f"pyspiel not importable ({exc}); pip install open_spiel"}
    out: dict[str, Any] = {}
    for name, text in (("tarok", f"tarok(players=4,rng_seed={SEED})"), ("skat", "skat"), ("hearts", "hearts")):
        game = pyspiel.load_game(text)
        bots = [pyspiel.make_uniform_random_bot(p, SEED + p) for p in range(game.num_players())]
        rng = random.Random(SEED)
        starts = [_spiel_play_start(pyspiel, game, name, rng) for _ in range(20)]
        plies: list[int] = []

        def play(i: int, starts: list[Any] = starts, bots: list[Any] = bots, plies: list[int] = plies) -> int:
            state = starts[i % len(starts)].clone()
            before = len(state.history())
            pyspiel.evaluate_bots(state, bots, SEED + i)
            if len(plies) < 1000:
                plies.append(len(state.history()) - before)
            return 1

        def whole(i: int, game: Any = game, bots: list[Any] = bots) -> int:
            pyspiel.evaluate_bots(game.new_initial_state(), bots, SEED + i)
            return 1

        out[name] = {
            "game": text,
            "card_play": summary(rate(play, seconds, repeats)),
            "card_play_plies_per_game": statistics.fmean(plies),
            "whole_game": summary(rate(whole, seconds, repeats)),
        }
    return out


def bench_openspiel_rollouts(seconds: float, repeats: int) -> dict[str, Any]:
    """C++ ``RandomRolloutEvaluator`` rollouts per second, ``ROLLOUTS_PER_CALL`` per C++ call, or a ``skipped`` reason.

    The evaluator has no Python ``evaluate``; an ``MCTSBot`` with one
    simulation evaluates its unexpanded root with all the rollouts at once,
    so the whole loop (state clones, random legal actions, chance outcomes,
    returns) runs in C++.  Starts: the first card of trick play (as the
    ``evaluate_bots`` rows) and the first decision after the deal (bidding
    included, as the issue asks).
    """
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as exc:
        return {"skipped": f"pyspiel not importable ({exc}); pip install open_spiel"}
    out: dict[str, Any] = {}
    for name, text in (("tarok", f"tarok(players=4,rng_seed={SEED})"), ("skat", "skat"), ("hearts", "hearts")):
        game = pyspiel.load_game(text)
        rng = random.Random(SEED)
        card_play = [_spiel_play_start(pyspiel, game, name, rng) for _ in range(20)]
        dealt = []
        for _ in range(20):
            state = game.new_initial_state()
            while state.is_chance_node():
                state.apply_action(rng.choice([a for a, _p in state.chance_outcomes()]))
            dealt.append(state)
        entry: dict[str, Any] = {"game": text, "rollouts_per_call": ROLLOUTS_PER_CALL}
        for key, starts in (("card_play", card_play), ("after_deal", dealt)):

            def rollouts(i: int, game: Any = game, starts: list[Any] = starts) -> int:
                evaluator = pyspiel.RandomRolloutEvaluator(ROLLOUTS_PER_CALL, SEED + i)
                bot = pyspiel.MCTSBot(game, evaluator, 2.0, 1, 1000, False, SEED + i, False)
                bot.step(starts[i % len(starts)])
                return ROLLOUTS_PER_CALL

            entry[key] = summary(rate(rollouts, seconds, repeats))
        out[name] = entry
    return out


def bench_openspiel_dd(deals: int) -> dict[str, Any]:
    """Milliseconds per bridge deal for OpenSpiel's double-dummy table (DDS), or a ``skipped`` reason.

    With ``use_double_dummy_result=true`` the game fills the table of
    tricks for every strain and declarer when the 52nd card is dealt; the
    time of that one ``apply_action`` is the solver time of the deal.
    """
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as exc:
        return {"skipped": f"pyspiel not importable ({exc}); pip install open_spiel"}
    try:
        game = pyspiel.load_game("bridge(use_double_dummy_result=true)")
    except Exception as exc:  # a wheel built without bridge/DDS
        return {"skipped": f"bridge not available in this open_spiel ({exc})"}
    rng = random.Random(SEED)
    times_ms: list[float] = []
    with no_gc():
        for _ in range(deals):
            state = game.new_initial_state()
            while True:
                outcomes = [a for a, _p in state.chance_outcomes()]
                if len(outcomes) == 1:
                    t0 = time.perf_counter()
                    state.apply_action(outcomes[0])
                    times_ms.append(1000 * (time.perf_counter() - t0))
                    break
                state.apply_action(rng.choice(outcomes))
    return {"game": "bridge(use_double_dummy_result=true)", "deals": deals, "table_ms": dist(times_ms), "solves_per_table": DD_TABLE_SOLVES}


def comparisons(playouts: dict[str, Any], solver: dict[str, Any], rollouts: dict[str, Any], dd: dict[str, Any]) -> dict[str, Any]:
    """stich's figures over OpenSpiel's of this run (ratios > 1: stich is faster)."""
    out: dict[str, Any] = {}
    best = playouts.get("kernel_arrays", playouts["python"])["best"]
    label = "kernel_arrays" if "kernel_arrays" in playouts else "python"
    for name, entry in rollouts.items():
        if name == "skipped":
            continue
        for key in ("card_play", "after_deal"):
            theirs = entry[key]["best"]
            out[f"playouts: stich {label} / OpenSpiel {name} rollouts ({key})"] = {
                "stich": best,
                "openspiel": theirs,
                "ratio": best / theirs,
            }
    if "table_ms" in dd:
        dd_ms = dd["table_ms"]["median"]
        for name, entry in solver.items():
            which = "kernel" if "kernel" in entry else "reference"
            if which not in entry:
                continue
            ours = entry[which]["solve_ms"]["median"]
            out[f"solve: OpenSpiel DD table per deal / stich {which} median ({name})"] = {
                "stich_ms": ours,
                "openspiel_ms": dd_ms,
                "ratio": dd_ms / ours if ours else 0.0,
                "openspiel_ms_per_solve": dd_ms / DD_TABLE_SOLVES,
            }
    return out


# ----------------------------------------------------------------- report


def run(args: argparse.Namespace, progress: Callable[[str], None]) -> dict[str, Any]:
    """Every measurement, as plain data."""
    info = machine_info(("stich", "numba", "numpy", "open_spiel"), kernel_backend=kernel.backend())
    game = make_game("doppelkopf", "ddv")
    assert isinstance(game, Doppelkopf)
    if kernel.available():
        progress("compiling the kernel (or loading numba's cache)")
        t = time.perf_counter()
        kernel.warmup()
        info["kernel_warmup_s"] = round(time.perf_counter() - t, 2)
    progress("random playouts")
    playouts = bench_playouts(game, args.seconds, args.repeats)
    solver = bench_solver(game, args.positions, args.reference_positions, progress)
    progress("OpenSpiel")
    spiel = bench_openspiel(args.seconds, args.repeats)
    progress("OpenSpiel RandomRolloutEvaluator")
    rollouts = bench_openspiel_rollouts(args.seconds, args.repeats)
    progress(f"OpenSpiel bridge double-dummy tables ({args.dd_deals} deals)")
    dd = bench_openspiel_dd(args.dd_deals)
    with suppress(OSError):
        info["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    targets: dict[str, Any] = {}
    if kernel.available():
        po = playouts["kernel_arrays"]["best"]
        nodes = solver["7 tricks, normal games"]["kernel"]["nodes_per_s"]
        med = {k: v["kernel"]["solve_ms"]["median"] for k, v in solver.items() if k.startswith("6")}
        targets = {
            "playouts_per_s": {"target": TARGET_PLAYOUTS_PER_S, "value": po, "met": po >= TARGET_PLAYOUTS_PER_S},
            "nodes_per_s (7 tricks)": {"target": TARGET_NODES_PER_S, "value": nodes, "met": nodes >= TARGET_NODES_PER_S},
            **{f"median solve ms ({k})": {"target": TARGET_SOLVE_6_MS, "value": v, "met": v < TARGET_SOLVE_6_MS} for k, v in med.items()},
        }
    return {
        "machine": info,
        "settings": vars(args) | {"seed": SEED},
        "playouts": playouts,
        "solver": solver,
        "openspiel": spiel,
        "openspiel_rollouts": rollouts,
        "openspiel_dd": dd,
        "comparisons": comparisons(playouts, solver, rollouts, dd),
        "targets": targets,
    }


def render(report: dict[str, Any]) -> str:
    """A readable table."""
    m = report["machine"]
    v = m["versions"]
    lines = [
        "stich search benchmark (one core)",
        f"  date      {m['date']}",
        f"  machine   {m['nproc']} usable cores, {m['cpu_model']}; python {m['python']} on {m['platform']}",
        f"  versions  stich {v['stich']} (git {m['git']}), numba {v['numba']}, numpy {v['numpy']}, open_spiel {v['open_spiel']}",
        f"  kernel    {m['kernel_backend']}" + (f", warm-up {m['kernel_warmup_s']} s" if "kernel_warmup_s" in m else ""),
        f"  load avg  start {m['loadavg_at_start']}  end {m.get('loadavg_at_end')}",
        f"  command   {m['command']}",
        "",
        "Random playouts (whole card play from the first card, uniformly random legal cards; best repeat, spread)",
    ]
    po = report["playouts"]
    cards = po["cards_per_game"]
    for key, label in (
        ("kernel_arrays", "stich kernel (numba), prepared arrays"),
        ("kernel_states_100", "stich kernel (numba), from a state, 100 per call"),
        ("python", "stich pure-Python fallback"),
    ):
        if key in po:
            r = po[key]
            lines.append(f"  {label:<52} {r['best']:>11,.0f} games/s {100 * r['spread']:>5.1f}%  ({cards} cards/game)")
    sp = report["openspiel"]
    if "skipped" in sp:
        lines.append(f"  OpenSpiel skipped: {sp['skipped']}")
    for name, r in sp.items():
        if name == "skipped":
            continue
        cp, wg = r["card_play"], r["whole_game"]
        lines.append(
            f"  {'OpenSpiel C++ ' + name + ', card play only':<52} {cp['best']:>11,.0f} games/s {100 * cp['spread']:>5.1f}%  "
            f"({r['card_play_plies_per_game']:.1f} cards/game)"
        )
        lines.append(f"  {'OpenSpiel C++ ' + name + ', whole game':<52} {wg['best']:>11,.0f} games/s {100 * wg['spread']:>5.1f}%")
    ro = report["openspiel_rollouts"]
    if "skipped" in ro:
        lines.append(f"  OpenSpiel rollouts skipped: {ro['skipped']}")
    for name, r in ro.items():
        if name == "skipped":
            continue
        for key, what in (("card_play", "from the first card"), ("after_deal", "after the deal")):
            label = f"OpenSpiel C++ {name} rollouts, {what}"
            lines.append(
                f"  {label:<52} {r[key]['best']:>11,.0f} games/s {100 * r[key]['spread']:>5.1f}%  ({r['rollouts_per_call']} per call)"
            )
    lines += ["", "Exact solver (every legal card's exact value; ms per position incl. conversion from the state)"]
    header = (
        f"  {'positions':<32} {'solver':<10} {'n':>4} {'median':>8} {'p90':>8} {'mean':>8} {'max':>9} {'value()':>8} "
        f"{'nodes med':>10} {'Mnodes/s':>9}"
    )
    lines += [header, "  " + "-" * (len(header) - 2)]
    for name, entry in report["solver"].items():
        for which in ("kernel", "reference"):
            if which not in entry:
                continue
            e = entry[which]
            d = e["solve_ms"]
            lines.append(
                f"  {name:<32} {which:<10} {d['n']:>4} {d['median']:>8.2f} {d['p90']:>8.2f} {d['mean']:>8.2f} {d['max']:>9.1f} "
                f"{e['value_ms']['median']:>8.2f} {e['nodes_median']:>10,.0f} {e['nodes_per_s'] / 1e6:>9.2f}"
            )
        lines.append(f"  {'':<32} kinds: {entry['kinds']}")
    dd = report["openspiel_dd"]
    if "skipped" in dd:
        lines.append(f"  OpenSpiel double dummy skipped: {dd['skipped']}")
    else:
        d = dd["table_ms"]
        lines.append(
            f"  {'bridge DD table (20 solves)':<32} {'OpenSpiel':<10} {d['n']:>4} {d['median']:>8.2f} {d['p90']:>8.2f} "
            f"{d['mean']:>8.2f} {d['max']:>9.1f}  per deal; nodes not reported"
        )
    if report["comparisons"]:
        lines += ["", "Beside OpenSpiel, same run (ratio > 1: stich faster; different games, see bench/README.md)"]
        for name, c in report["comparisons"].items():
            if name.startswith("playouts"):
                lines.append(f"  {name}: {c['stich']:,.0f} vs {c['openspiel']:,.0f} games/s -> {c['ratio']:.1f}x")
            else:
                lines.append(
                    f"  {name}: {c['openspiel_ms']:.1f} ms ({c['openspiel_ms_per_solve']:.1f} ms per solve) vs {c['stich_ms']:.2f} ms "
                    f"-> {c['ratio']:.0f}x"
                )
    lines += ["", "Targets (kernel)"]
    if not report["targets"]:
        lines.append("  (kernel unavailable: numba not installed)")
    for name, t in report["targets"].items():
        lines.append(f"  {name}: {t['value']:,.2f} vs {t['target']:,.0f} -> {'met' if t['met'] else 'MISSED'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per repeat of each playout figure (default 2)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats of each playout figure; the best is reported (default 3)")
    parser.add_argument("--positions", type=int, default=100, help="positions per solver set (default 100; 7 tricks: a third)")
    parser.add_argument("--reference-positions", type=int, default=30, help="positions of each 6-trick set for the pure-Python solver")
    parser.add_argument("--dd-deals", type=int, default=20, help="bridge deals for OpenSpiel's double-dummy tables (default 20)")
    parser.add_argument(
        "--quick", action="store_true", help="a short run: 0.5 s x 1 repeat, 20 solver positions (5 reference), 5 bridge deals"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.repeats, args.positions, args.reference_positions, args.dd_deals = 0.5, 1, 20, 5, 5
    if args.seconds <= 0 or args.repeats < 1 or args.positions < 1 or args.reference_positions < 1 or args.dd_deals < 1:
        parser.error("--seconds, --repeats, --positions, --reference-positions and --dd-deals must be positive")

    report = run(args, progress)
    print(json.dumps(rounded(report), indent=2, ensure_ascii=False) if args.json else render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
