"""Tests of the play-phase kernel (stich.bots.doppelkopf.kernel): compiled == pure Python == engine.

The compiled tests skip when numba is not installed; the fallback tests run
everywhere.  numba compiles once per test process (the module fixture), or
loads its on-disk cache.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest

from stich.bots.doppelkopf import kernel
from stich.bots.doppelkopf.solver import Solver, minimax, position_of, random_play_position
from stich.games.doppelkopf.contracts import N_FACES
from stich.games.doppelkopf.state import RE, DoppelkopfState

from ._kernel_helpers import CONFIGS, doppelkopf_game, needs_numba

MASK64 = (1 << 64) - 1


def _positions(per_config: int, tricks: tuple[int, ...]) -> Iterator[tuple[str, int, DoppelkopfState]]:
    for config in CONFIGS:
        game = doppelkopf_game(config)
        for k in range(per_config):
            tricks_left = tricks[k % len(tricks)]
            yield config, k, random_play_position(game, 1000 + k, tricks_left=tricks_left, cards_in_trick=k % 4)


def _engine_playouts(state: DoppelkopfState, n: int, seed: int) -> list[int]:
    """The playout rule replayed on the engine: splitmix64, k = multiply-high of the top 32 bits, k-th legal face."""
    s = seed & MASK64
    out = []
    for _ in range(n):
        game = state.clone()
        while not game.is_terminal():
            faces = [c for c in game.legal_codes() if c < N_FACES]
            s = (s + 0x9E3779B97F4A7C15) & MASK64
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            game.apply(faces[((z >> 32) * len(faces)) >> 32])
        out.append(int(game.result().breakdown["eyes"]["re"]))
    return out


# ------------------------------------------------------------ without numba


def test_playouts_follow_the_engine() -> None:
    # whichever backend is active, each playout is the engine's game under the same choices
    for _config, k, state in _positions(2, (12, 3)):
        assert kernel.random_playouts(state, 4, k) == _engine_playouts(state, 4, k)


def test_python_playouts_follow_the_engine() -> None:
    for _config, k, state in _positions(2, (7, 2)):
        assert kernel._py_playouts(position_of(state), 4, k + 5) == _engine_playouts(state, 4, k + 5)


def test_playouts_are_reproducible_and_seeded() -> None:
    state = random_play_position(doppelkopf_game("doppelkopf"), 4, tricks_left=12)
    first = kernel.random_playouts(state, 50, 123)
    assert first == kernel.random_playouts(state, 50, 123)
    assert first != kernel.random_playouts(state, 50, 124)
    assert all(0 <= x <= 240 for x in first)
    assert kernel.random_playouts(state, 0, 1) == []
    with pytest.raises(ValueError, match="n must be"):
        kernel.random_playouts(state, -1, 1)


def test_fallback_without_numpy_gives_the_same_answers() -> None:
    # A child interpreter where numpy and numba cannot be imported: the kernel imports,
    # says it is unavailable, and its pure-Python paths answer exactly as this process does.
    script = textwrap.dedent(
        """
        import json, sys
        sys.modules["numpy"] = None
        sys.modules["numba"] = None
        from stich.core.registry import game_from_string
        from stich.bots.doppelkopf import kernel
        from stich.bots.doppelkopf.solver import random_play_position
        state = random_play_position(game_from_string("doppelkopf(preset=house_classic)"), 8, tricks_left=4, cards_in_trick=2)
        print(json.dumps({
            "available": kernel.available(),
            "backend": kernel.backend(),
            "reason": kernel.unavailable_reason(),
            "warmup": kernel.warmup(),
            "playouts": kernel.random_playouts(state, 30, 99),
            "solve": kernel.solve(state),
            "value": kernel.value(state),
        }))
        """
    )
    env = {k: v for k, v in os.environ.items() if k != "STICH_NO_NUMBA"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env, timeout=120)
    child = json.loads(done.stdout)
    assert child["available"] is False and child["backend"] == "python" and child["warmup"] is False
    assert "numpy" in child["reason"] or "numba" in child["reason"]
    state = random_play_position(doppelkopf_game("doppelkopf(preset=house_classic)"), 8, tricks_left=4, cards_in_trick=2)
    assert child["playouts"] == kernel.random_playouts(state, 30, 99)
    assert {int(f): v for f, v in child["solve"].items()} == Solver(state).solve()
    assert child["value"] == Solver(state).value()


def test_solver_arguments_are_checked() -> None:
    state = random_play_position(doppelkopf_game("doppelkopf"), 4, tricks_left=2)
    with pytest.raises(ValueError, match="tt_bits"):
        kernel.KernelSolver(state, tt_bits=1)


# --------------------------------------------------------------- with numba


@needs_numba
def test_kernel_position_arrays(compiled: None) -> None:
    state = random_play_position(doppelkopf_game("doppelkopf"), 6, tricks_left=5, cards_in_trick=2)
    kp = kernel.KernelPosition(state)
    pos = position_of(state)
    assert str(kp.hands.dtype) == "uint64" and [int(h) for h in kp.hands] == list(pos.hands)
    assert [int(f) for f in kp.tricks[pos.tricks_left, :2]] == list(pos.trick)
    assert kp.rem == pos.remaining_eyes
    assert kernel.backend() == "numba"


@needs_numba
def test_compiled_playouts_equal_python_playouts(compiled: None) -> None:
    for _config, k, state in _positions(6, (12, 9, 5, 1)):
        pos = position_of(state)
        assert kernel.random_playouts(state, 200, k) == kernel._py_playouts(pos, 200, k)


@needs_numba
def test_compiled_solver_equals_engine_minimax(compiled: None) -> None:
    for config, k, state in _positions(8, (1, 2, 3)):
        expected = minimax(state)
        assert kernel.solve(state) == expected, (config, k)


@needs_numba
def test_compiled_solver_equals_reference(compiled: None) -> None:
    for config, k, state in _positions(12, (4, 5, 3, 5)):
        reference = Solver(state)
        solver = kernel.KernelSolver(state)
        assert solver.solve() == reference.solve(), (config, k)
        v = reference.value()
        assert solver.value() == v
        assert solver.reaches(v) and not solver.reaches(v + 1)
        assert solver.nodes > 0


@needs_numba
def test_compiled_solver_on_six_tricks(compiled: None) -> None:
    for config, k, state in _positions(1, (6,)):
        assert kernel.solve(state) == Solver(state).solve(), (config, k)


@needs_numba
def test_tiny_shared_table_stays_exact(compiled: None) -> None:
    # 16 entries shared by two interleaved solvers: constant collisions, stale generations
    states = [random_play_position(doppelkopf_game(CONFIGS[i]), 50 + i, tricks_left=4, cards_in_trick=i) for i in range(2)]
    expected = [Solver(s).solve() for s in states]
    solvers = [kernel.KernelSolver(s, tt_bits=4) for s in states]
    for _round in range(2):
        for solver, want in zip(solvers, expected, strict=True):
            assert solver.solve() == want


@needs_numba
def test_null_window_answers_bracket_the_value(compiled: None) -> None:
    state = random_play_position(doppelkopf_game("doppelkopf"), 31, tricks_left=6)
    solver = kernel.KernelSolver(state)
    v = solver.value()
    assert [solver.reaches(t) for t in (v - 10, v - 1, v, v + 1, v + 10)] == [True, True, True, False, False]
    values = solver.solve()
    pick = max if state.party[state.to_move] == RE else min
    assert pick(values.values()) == v
