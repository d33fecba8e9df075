"""Tarock-family kernel benchmark: Dobbm random playouts and exact endgames, Tapp Tarock leaves, compiled, in Python and through the engine.

Usage::

    python bench/bench_tarock_kernel.py [--seconds S] [--repeats R] [--positions N] [--json]

Everything runs in this one process, on one core, one measurement after the
other, on positions reached by the heuristic bots (Dobbm at four players):

1. random card play per second from the first card (8 tricks, 32 cards):
   ``stich.bots.tarock_family.kernel.random_playouts`` compiled (batches of
   2,000 and of 8, the ISMCTS leaf's batch, conversion from the state
   included), its pure-Python fallback, and uniformly random engine actions
   on a clone of the state (``RandomRollout.finish``, the card play of the
   ISMCTS leaves before the kernel) as the peer in the same run; the
   kernel's greedy card play for every seat (``tarock_kernel.playouts``)
   beside the engine's ``GreedyRollout`` with the same rules; the
   compiled heuristic card play (``stich.bots.dobbm.playout``: batches of
   200 with 10% random cards, and one deterministic game per call from a
   state, knowledge read from the state included) beside the heuristic
   bots playing the deal out through the engine; with
   ``open_spiel`` installed, OpenSpiel's C++ uniform random card play of
   ``tarok(players=4)`` (Klop, 48 cards) beside them;
2. Tapp Tarock ISMCTS leaves from the first card (16 tricks, 48 cards): the
   kernel rollout's leaf (8 kernel games scored by ``TappTarockAdapter``)
   beside one random game through the engine, the leaf before the kernel;
   the compiled heuristic card play (``stich.bots.tapp_tarock.playout``:
   batches of 200 with 10% random cards; one deterministic game per call,
   knowledge read from the state included; and ``HeuristicFinish``, that
   game scored, what ``pimc:rollout=kernel-heuristic`` asks per world and
   candidate) beside the heuristic bots playing the deal out through the
   engine (and scoring it);
3. the exact solver (``tarock_kernel.solve``) on positions with 3, 4 and 5
   tricks left: median and slowest time per position (conversion from the
   state included), cards tried, millions of cards tried per second; the
   engine's alpha-beta (``stich.search.ismcts.best_line_scores``, what the
   ISMCTS leaves used) on the same 2- and 3-trick positions as the peer.

These are measurements, not tests.  See bench/README.md, section bench_tarock_kernel.py.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

try:  # a plain checkout works through src/
    import stich  # noqa: F401
except ImportError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bench_common import machine_info, no_gc, progress, rounded
from bench_search import SEED, dist, rate, summary

from stich.bots.dobbm import playout as dobbm_playout
from stich.bots.dobbm.kernel_adapter import DobbmAdapter
from stich.bots.heuristic import make_heuristic
from stich.bots.tapp_tarock import playout as tapp_tarock_playout
from stich.bots.tarock_family import kernel as tarock_kernel
from stich.bots.tarock_family.greedy_playout import GreedyRollout
from stich.bots.tarock_rollout import HeuristicFinish, TarockKernelRollout
from stich.core.game import State
from stich.core.registry import make_game
from stich.games.tapp_tarock.outcome import TRICKS as TAPP_TRICKS
from stich.search.ismcts import RandomRollout, best_line_scores, heuristic_step
from stich.search.perfect_info import in_trick_play, tricks_left


def positions(count: int, tricks: int, name: str = "dobbm") -> list[State]:
    """Card-play states of game ``name`` with ``tricks`` tricks left at a trick's start, reached by the heuristic bots."""
    game = make_game(name)
    found: list[State] = []
    seed = SEED
    while len(found) < count:
        state = game.new_state(seed=seed, dealer=seed % game.num_seats)
        bots = [make_heuristic(game, s, seed) for s in range(game.num_seats)]
        seed += 1
        while not state.is_terminal():
            if in_trick_play(state) and tricks_left(state) == tricks and not state.trick_cards:  # type: ignore[attr-defined]
                found.append(state)
                break
            mover = state.current_player()
            state.apply(bots[mover].choose(state.observation(mover)))
    return found


def bench_playouts(seconds: float, repeats: int, count: int) -> dict[str, Any]:
    """Random card-play games per second from the first card."""
    states = positions(count, 8)
    adapter = DobbmAdapter(states[0].game)
    prepared = [adapter.position(s) for s in states]
    out: dict[str, Any] = {"positions": len(states), "cards_per_game": 32, "backend": tarock_kernel.backend()}
    if tarock_kernel.available():
        tarock_kernel.warmup()

        def compiled(i: int) -> int:
            tarock_kernel.random_playouts(prepared[i % len(prepared)], 2000, SEED + i)
            return 2000

        def leaf(i: int) -> int:
            tarock_kernel.random_playouts(adapter.position(states[i % len(states)]), 8, SEED + i)
            return 8

        everyone = (1 << len(prepared[0].seats)) - 1

        def greedy(i: int) -> int:
            tarock_kernel.playouts(prepared[i % len(prepared)], 2000, SEED + i, greedy=everyone)
            return 2000

        knowledge = [dobbm_playout.knowledge(s, p) for s, p in zip(states, prepared, strict=True)]  # type: ignore[arg-type]

        def heuristic(i: int) -> int:
            k = i % len(prepared)
            dobbm_playout.heuristic_playouts(prepared[k], 200, SEED + i, knowledge[k], epsilon=0.1)
            return 200

        def heuristic_leaf(i: int) -> int:
            state = states[i % len(states)]
            pos = adapter.position(state)
            dobbm_playout.heuristic_playouts(pos, 1, 0, dobbm_playout.knowledge(state, pos))  # type: ignore[arg-type]
            return 1

        out["kernel_2000"] = summary(rate(compiled, seconds, repeats))
        out["kernel_greedy_2000"] = summary(rate(greedy, seconds, repeats))
        out["kernel_leaf_8"] = summary(rate(leaf, seconds, repeats))
        out["kernel_heuristic_200"] = summary(rate(heuristic, seconds, repeats))
        out["kernel_heuristic_leaf"] = summary(rate(heuristic_leaf, seconds, repeats))

    def python(i: int) -> int:
        tarock_kernel._py_playouts(prepared[i % len(prepared)], 20, SEED + i)
        return 20

    engine = RandomRollout(states[0].game)
    rng = random.Random(SEED)

    def through_engine(i: int) -> int:
        engine.finish(states[i % len(states)].clone(), rng)
        return 1

    rule_based = GreedyRollout(states[0].game)

    def greedy_engine(i: int) -> int:
        rule_based.finish(states[i % len(states)].clone(), rng)
        return 1

    bots = [make_heuristic(states[0].game, seat, SEED) for seat in range(states[0].game.num_seats)]

    def heuristic_engine(i: int) -> int:
        state = states[i % len(states)].clone()
        while not state.is_terminal():
            heuristic_step(state, bots)
        return 1

    out["engine_heuristic"] = summary(rate(heuristic_engine, seconds, repeats))
    out["python"] = summary(rate(python, seconds, repeats))
    out["engine"] = summary(rate(through_engine, seconds, repeats))
    out["engine_greedy"] = summary(rate(greedy_engine, seconds, repeats))
    out["openspiel_tarok"] = bench_openspiel_tarok(seconds, repeats)
    return out


def bench_tapp_leaves(seconds: float, repeats: int, count: int) -> dict[str, Any]:
    """Tapp Tarock ISMCTS leaves and heuristic games per second from the first card: compiled against the engine.

    A kernel leaf is :data:`~stich.bots.tarock_rollout.PLAYOUTS` kernel
    games scored by the engine's evaluation (``TappTarockAdapter``); the
    peer is one random game through the engine and its result, what the
    leaf cost before.  Both return every seat's reward.
    """
    states = positions(count, TAPP_TRICKS, "tapp_tarock")
    game = states[0].game
    out: dict[str, Any] = {"positions": len(states), "backend": tarock_kernel.backend()}
    rng = random.Random(SEED)
    if tarock_kernel.available():
        kernel_leaf = TarockKernelRollout(game)
        prepared = [kernel_leaf.adapter.position(s) for s in states]

        def compiled(i: int) -> int:
            tarock_kernel.random_playouts(prepared[i % len(prepared)], 2000, SEED + i)
            return 2000

        def leaf(i: int) -> int:
            kernel_leaf(states[i % len(states)].clone(), rng)
            return 1

        out["kernel_2000"] = summary(rate(compiled, seconds, repeats))
        out["kernel_leaf"] = summary(rate(leaf, seconds, repeats))
        out["kernel_leaf_games"] = kernel_leaf.playouts
    if tapp_tarock_playout.available():
        tapp_tarock_playout.warmup()
        finish = HeuristicFinish(game)
        knowledge = [tapp_tarock_playout.knowledge(s, p) for s, p in zip(states, prepared, strict=True)]  # type: ignore[arg-type]

        def heuristic(i: int) -> int:
            k = i % len(prepared)
            tapp_tarock_playout.heuristic_playouts(prepared[k], 200, SEED + i, knowledge[k], epsilon=0.1)
            return 200

        def heuristic_leaf(i: int) -> int:
            state = states[i % len(states)]
            pos = kernel_leaf.adapter.position(state)
            tapp_tarock_playout.heuristic_playouts(pos, 1, 0, tapp_tarock_playout.knowledge(state, pos))  # type: ignore[arg-type]
            return 1

        def heuristic_finish(i: int) -> int:
            finish(states[i % len(states)])
            return 1

        out["kernel_heuristic_200"] = summary(rate(heuristic, seconds, repeats))
        out["kernel_heuristic_leaf"] = summary(rate(heuristic_leaf, seconds, repeats))
        out["heuristic_finish"] = summary(rate(heuristic_finish, seconds, repeats))
    engine = RandomRollout(game)

    def through_engine(i: int) -> int:
        engine(states[i % len(states)].clone(), rng)
        return 1

    bots = [make_heuristic(game, seat, SEED) for seat in range(game.num_seats)]

    def heuristic_engine(i: int) -> int:
        state = states[i % len(states)].clone()
        while not state.is_terminal():
            heuristic_step(state, bots)
        state.result()
        return 1

    out["engine_leaf"] = summary(rate(through_engine, seconds, repeats))
    out["engine_heuristic"] = summary(rate(heuristic_engine, seconds, repeats))
    return out


def bench_openspiel_tarok(seconds: float, repeats: int) -> dict[str, Any]:
    """OpenSpiel's C++ random card play of Tarok (4 players, Klop), or a ``skipped`` reason."""
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
        from bench_search import _spiel_play_start
    except ImportError as exc:
        return {"skipped": f"pyspiel not importable ({exc}); pip install open_spiel"}
    text = f"tarok(players=4,rng_seed={SEED})"
    game = pyspiel.load_game(text)
    bots = [pyspiel.make_uniform_random_bot(p, SEED + p) for p in range(game.num_players())]
    rng = random.Random(SEED)
    starts = [_spiel_play_start(pyspiel, game, "tarok", rng) for _ in range(20)]

    def play(i: int) -> int:
        pyspiel.evaluate_bots(starts[i % len(starts)].clone(), bots, SEED + i)
        return 1

    return {"game": text, "card_play": summary(rate(play, seconds, repeats))}


def bench_solver(count: int) -> dict[str, Any]:
    """Exact values of positions with 3-5 tricks left (kernel) and 2-3 (engine alpha-beta)."""
    out: dict[str, Any] = {}
    for tricks in (2, 3, 4, 5):
        states = positions(count, tricks)
        adapter = DobbmAdapter(states[0].game)
        row: dict[str, Any] = {"positions": len(states)}
        if tricks >= 3:
            times: list[float] = []
            nodes = 0
            with no_gc():
                for state in states:
                    start = time.perf_counter()
                    before, talon = adapter.bonus(state)
                    _value, tried = tarock_kernel.solve_counting(adapter.position(state), tricks=before, bonus=talon)
                    times.append((time.perf_counter() - start) * 1000)
                    nodes += tried
            row["kernel_ms"] = dist(times)
            row["kernel_nodes"] = nodes
            row["kernel_mnodes_per_s"] = nodes / sum(times) / 1000
        if tricks <= 3:
            times = []
            with no_gc():
                for state in states:
                    start = time.perf_counter()
                    best_line_scores(state)
                    times.append((time.perf_counter() - start) * 1000)
            row["engine_ms"] = dist(times)
        out[str(tricks)] = row
    return out


def render(report: dict[str, Any]) -> str:
    """The report as a few Markdown lines."""
    p = report["playouts"]
    lines = [f"backend {p['backend']}; {p['positions']} positions at the first card, 32 cards per game", ""]
    lines.append("| random card play | games/s | spread |")
    lines.append("|---|---:|---:|")
    names = [
        ("kernel_2000", "kernel, batches of 2,000"),
        ("kernel_leaf_8", "kernel, 8 per call from a state"),
        ("python", "pure-Python fallback"),
        ("engine", "engine actions (old ISMCTS leaf)"),
        ("kernel_greedy_2000", "kernel greedy (every seat), batches of 2,000"),
        ("engine_greedy", "engine greedy rollout (`GreedyRollout`)"),
        ("kernel_heuristic_200", "kernel heuristic card play (every seat, 10% random), batches of 200"),
        ("kernel_heuristic_leaf", "kernel heuristic card play, one game per call from a state"),
        ("engine_heuristic", "engine with the heuristic bots (`DobbmHeuristic`)"),
    ]
    for key, label in names:
        if key in p:
            lines.append(f"| {label} | {p[key]['best']:,.0f} | {p[key]['spread']:.1%} |")
    spiel = p["openspiel_tarok"]
    if "card_play" in spiel:
        play = spiel["card_play"]
        lines.append(f"| OpenSpiel C++ {spiel['game']} card play | {play['best']:,.0f} | {play['spread']:.1%} |")
    lines += ["", "| tricks left | kernel median ms | max ms | Mnodes/s | engine median ms | max ms |", "|---:|---:|---:|---:|---:|---:|"]
    for tricks, row in report["solver"].items():
        k = row.get("kernel_ms")
        e = row.get("engine_ms")
        kernel_cells = f"{k['median']:.3f} | {k['max']:.2f} | {row['kernel_mnodes_per_s']:.1f}" if k else "– | – | –"
        engine_cells = f"{e['median']:.2f} | {e['max']:.1f}" if e else "– | –"
        lines.append(f"| {tricks} | {kernel_cells} | {engine_cells} |")
    tapp = report["tapp_leaves"]
    lines += ["", "| Tapp Tarock, from the first card | per second | spread |", "|---|---:|---:|"]
    for key, label in (
        ("kernel_2000", "kernel random games, batches of 2,000"),
        ("kernel_leaf", f"kernel rollout leaves ({tapp.get('kernel_leaf_games', '?')} games, scored)"),
        ("engine_leaf", "engine leaves (one random game, scored)"),
        ("kernel_heuristic_200", "kernel heuristic card play (every seat, 10% random), batches of 200"),
        ("kernel_heuristic_leaf", "kernel heuristic card play, one game per call from a state"),
        ("heuristic_finish", "`HeuristicFinish` (one heuristic game from a state, scored)"),
        ("engine_heuristic", "engine with the heuristic bots (`TappTarockHeuristic`, scored)"),
    ):
        if key in tapp:
            lines.append(f"| {label} | {tapp[key]['best']:,.0f} | {tapp[key]['spread']:.1%} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table (or ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per repeat of each playout figure (default 2)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats of each playout figure; the best is reported (default 3)")
    parser.add_argument("--positions", type=int, default=40, help="positions per set (default 40)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"machine": machine_info()}
    progress("random playouts")
    report["playouts"] = bench_playouts(args.seconds, args.repeats, args.positions)
    progress("Tapp Tarock leaves")
    report["tapp_leaves"] = bench_tapp_leaves(args.seconds, args.repeats, args.positions)
    progress("exact endgames")
    report["solver"] = bench_solver(args.positions)
    print(json.dumps(rounded(report), indent=2) if args.json else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
