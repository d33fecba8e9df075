"""The compiled solver's deep-search machinery (issue 43) against the pure-Python reference.

The kernel keys its table on hands with runs of equal cards compacted,
takes bounds from the trumps one party alone holds at the top, computes the
last trick directly and finds exact values by null-window probes (MTD(f)).
Each of these must leave every answer exactly as the reference
:class:`~stich.bots.doppelkopf.solver.Solver` gives it: the value of every
legal card, the position's value and the win/lose answers.
"""

from __future__ import annotations

import pytest

from stich.bots.doppelkopf import kernel
from stich.bots.doppelkopf.solver import PlayPosition, Solver, position_of, random_play_position
from stich.games.doppelkopf.contracts import EYES, N_FACES, TRUMP

from ._kernel_helpers import CONFIGS, doppelkopf_game, needs_numba


@needs_numba
@pytest.mark.parametrize("config", CONFIGS)
def test_deep_solver_equals_reference_on_many_positions(compiled: None, config: str) -> None:
    # 4 configurations x 90 positions: normal games and random game findings (solos, weddings, Armut),
    # 2 to 4 tricks left, every number of cards in the current trick
    game = doppelkopf_game(config)
    for k in range(90):
        state = random_play_position(game, 7000 + k, tricks_left=2 + k % 3, cards_in_trick=k % 4, healthy=k % 2 == 0)
        reference = Solver(state)
        want = reference.solve()
        v = reference.value()
        solver = kernel.KernelSolver(state)
        assert solver.solve() == want, (config, k)
        assert kernel.KernelSolver(state).value() == v, (config, k)
        for target in (v - 7, v, v + 1, 121, 90, 151):
            assert kernel.KernelSolver(state).reaches(target) == reference.reaches(target), (config, k, target)


@needs_numba
def test_deep_solver_equals_reference_at_five_tricks(compiled: None) -> None:
    game = doppelkopf_game("doppelkopf")
    for k in range(12):
        state = random_play_position(game, 7500 + k, tricks_left=5, healthy=True)
        reference = Solver(state)
        assert kernel.KernelSolver(state).solve() == reference.solve(), k
        assert kernel.KernelSolver(state).reaches(121) == reference.reaches(121), k


@needs_numba
def test_small_tables_stay_exact_on_deeper_positions(compiled: None) -> None:
    # 2**6 entries for 6 tricks: constant replacement, keys of compacted hands colliding in buckets
    game = doppelkopf_game("doppelkopf")
    for k in range(3):
        state = random_play_position(game, 7600 + k, tricks_left=6, healthy=True)
        big = kernel.KernelSolver(state).solve()
        assert kernel.KernelSolver(state, tt_bits=6).solve() == big, k


def _normal_position(hands: tuple[int, ...], re: int = 0b0101) -> PlayPosition:
    state = random_play_position(doppelkopf_game("doppelkopf"), 3, tricks_left=12, healthy=True)
    pos = position_of(state)
    return PlayPosition(
        seats=pos.seats, hands=hands, re=re, leader=0, trick=(), tricks_left=1, re_eyes=0, eff=pos.eff, strength=pos.strength
    )


@needs_numba
def test_table_key_forgets_which_equal_cards_are_gone(compiled: None) -> None:
    from stich.kernels import core

    pos = _normal_position((0, 0, 0, 0))
    queens = [f for f in core_order(pos) if pos.eff[f] == TRUMP and EYES[f] == 3]
    assert len(queens) == 4
    kp = kernel.KernelPosition(pos)

    def key(hands: list[int]) -> list[int]:
        import numpy as np

        out = np.zeros(4, dtype=np.int64)
        core.normal_hands(kp.ctx, kp.order, np.array(hands, dtype=np.int64), out)
        return [int(x) for x in out]

    top, second, third, fourth = queens
    # seat 0 holds one queen, seat 1 one: which two queens are gone does not matter, who holds the higher does
    a = key([1 << top, 1 << second, 0, 0])
    b = key([1 << third, 1 << fourth, 0, 0])
    c = key([1 << second, 1 << fourth, 0, 0])
    assert a == b == c
    assert key([1 << fourth, 1 << third, 0, 0]) != a
    # a second copy stays a second copy
    assert key([1 << fourth | 1 << (fourth + N_FACES), 0, 0, 0]) == key([1 << top | 1 << (top + N_FACES), 0, 0, 0])


@needs_numba
def test_table_slot_depends_on_the_leader(compiled: None) -> None:
    # positions differing only in who leads must not share one bucket (the leader sits in bits 56..57 of key word 0)
    import numpy as np

    from stich.kernels import core

    tt = np.zeros((1 << 12, 8), dtype=np.int64)
    rng = np.random.default_rng(43)
    spread = 0
    for _ in range(50):
        hands = [int(x) for x in rng.integers(0, 1 << 48, size=4)]
        slots = set()
        for leader in range(4):
            key = np.array([hands[0] | leader << 56, *hands[1:]], dtype=np.int64)
            slot = int(core.tt_slot(tt, key))
            assert 0 <= slot < tt.shape[0] and slot % 2 == 0
            slots.add(slot)
        spread += len(slots) == 4
    assert spread >= 45


@needs_numba
def test_search_within_a_wide_window_is_exact(compiled: None) -> None:
    # fail-soft alpha-beta inside a window wider than null returns the exact value; it returned -INF/INF where
    # the sure-trump bound leaves one value (all the eyes still in play are sure for one party) inside the window
    import numpy as np

    from stich.kernels import core

    game = doppelkopf_game("doppelkopf")
    for k in range(60):
        state = random_play_position(game, 7900 + k, tricks_left=3, cards_in_trick=k % 4, healthy=True)
        solver = kernel.KernelSolver(state)
        hands, tricks, n, leader, tricks_left, rem = solver._args()
        kp = solver.kernel_position
        tt = np.zeros((1 << 8, 8), dtype=np.int64)
        buf = np.zeros((core.MAX_DEPTH, core.MOVE_STRIDE), dtype=np.int64)
        frames = np.zeros((core.MAX_DEPTH, core.FRAME_FIELDS), dtype=np.int64)
        stats = np.zeros(1, dtype=np.int64)
        wide = core.run_search(hands, tricks, n, leader, tricks_left, rem, -1, rem + 1, -1, kp.ctx, kp.order, tt, 1, buf, frames, stats)
        assert kp.position.re_eyes + int(wide) == Solver(state).value(), k


def core_order(pos: PlayPosition) -> list[int]:
    """Trumps of ``pos``, strongest first."""
    return sorted((f for f in range(N_FACES) if pos.eff[f] == TRUMP), key=lambda f: -pos.strength[f])


@needs_numba
def test_sure_eyes_bound_holds(compiled: None) -> None:
    from stich.kernels import core

    game = doppelkopf_game("doppelkopf")
    seen = 0
    for k in range(40):
        state = random_play_position(game, 7700 + k, tricks_left=3, healthy=True)
        kp = kernel.KernelPosition(state)
        sure = int(core.sure_eyes(kp.ctx, kp.order, kp.int_hands()))
        future = Solver(state).value() - kp.position.re_eyes
        if sure > 0:
            assert future >= sure, k
            seen += 1
        elif sure < 0:
            assert kp.rem - future >= -sure, k
            seen += 1
    assert seen > 5


@needs_numba
@pytest.mark.parametrize("runs", [0, 1])
def test_runs_left_uncompacted_stay_exact(compiled: None, monkeypatch: pytest.MonkeyPatch, runs: int) -> None:
    # a card order with more runs than the table holds keeps the extra runs uncompacted (each face its own run)
    from stich.kernels import core

    monkeypatch.setattr(core, "MAX_RUNS", runs)
    game = doppelkopf_game("doppelkopf")
    for k in range(8):
        state = random_play_position(game, 7800 + k, tricks_left=4, cards_in_trick=k % 4, healthy=True)
        kp = kernel.KernelPosition(state)
        assert int(kp.ctx[core.C_RUNS + runs * core.RUN_STRIDE]) == 0
        assert kernel.KernelSolver(kp).solve() == Solver(state).solve(), k
