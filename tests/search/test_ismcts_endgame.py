"""Exact endgame leaves of the ``ismcts`` search (``ExactEndgame``, ``best_line_scores``, ``KernelRollout`` solves).

Near the end of the card play the ISMCTS leaves are valued by exact search,
as the ``pimc`` bot values its endgames: the team with label 0 (Re, the
declarer, Dappen's lone player; rules dossiers doppelkopf §2/§4,
tapp_tarock §3-§4, dobbm §3, droggn §3, dappen §3) plays for its score
against the others.  The values must be those of a plain minimax over the
engine states (``stich.search.perfect_info.minimax``), and the scores backed
up must be those of a real end of the deal reaching that value.
"""

from __future__ import annotations

import math
import random

import pytest

from stich.bots.doppelkopf import kernel
from stich.bots.rollouts import EXACT_LEAF_TRICKS, kernel_games, make_rollout
from stich.bots.tarock_rollout import TarockKernelRollout
from stich.core.registry import make_game
from stich.search.ismcts import ExactEndgame, MixedRollout, RandomRollout, Rewards, best_line_scores, bounded_rewards, reward_scale
from stich.search.perfect_info import final_score, in_trick_play, minimax, teams, tricks_left
from stich.search.scores import score_value

from .test_perfect_info import _endgames

TAROCK_FAMILY = ("tapp_tarock", "dobbm", "droggn", "dappen")


@pytest.mark.parametrize(("name", "count"), [("tapp_tarock", 20), ("dobbm", 8), ("droggn", 8), ("dappen", 8), ("doppelkopf", 8)])
def test_best_line_value_is_the_minimax_value_of_the_first_team(name: str, count: int) -> None:
    """(A Tapp Tarock score depends on the last two tricks in about one deal in seven, hence more positions there.)"""
    differing = 0
    for state in _endgames(name, 2, count):
        side = teams(state)
        seat = side.index(0)
        expected = minimax(state, seat, final_score)
        mover_maximises = side[state.current_player()] == 0
        value, scores = best_line_scores(state)
        assert value == (max if mover_maximises else min)(expected.values())
        # The scores are those of an end of the deal that reaches the value for the first team.
        assert score_value(scores[seat]) == value
        assert len(scores) == state.game.num_seats
        differing += len(set(expected.values())) > 1
    assert differing, "every position had all cards equal: the test would not catch a wrong search"


class _Counting:
    """A rollout that records that it was asked and returns zero rewards."""

    name = "counting"

    def __init__(self, seats: int) -> None:
        self.calls = 0
        self.seats = seats

    def __call__(self, state: object, rng: random.Random) -> Rewards:
        self.calls += 1
        return [0.0] * self.seats


@pytest.mark.parametrize("name", TAROCK_FAMILY)
def test_exact_endgame_searches_only_the_last_tricks(name: str) -> None:
    game = make_game(name)
    inner = _Counting(game.num_seats)
    rollout = ExactEndgame(game, inner, 2)
    for state in _endgames(name, 2, 3):
        before = state.clone()
        rewards = rollout(state, random.Random(0))
        _value, scores = best_line_scores(before)
        assert rewards == bounded_rewards(scores, reward_scale(game))
    assert rollout.solved == 3 and inner.calls == 0
    for state in _endgames(name, 4, 3):
        assert tricks_left(state) > 2
        assert rollout(state, random.Random(0)) == [0.0] * game.num_seats
    assert inner.calls == 3


@pytest.mark.parametrize("name", sorted(EXACT_LEAF_TRICKS))
def test_mixed_rollout_ends_tarock_deals_by_exact_search(name: str) -> None:
    """The last tricks go to ExactEndgame unless the game's compiled kernel solves them in score (test_tarock_kernel.py)."""
    game = make_game(name)
    rollout = make_rollout("mixed", game, 2)
    assert isinstance(rollout, MixedRollout)
    if kernel_games().get(name, False) and not isinstance(rollout.play, ExactEndgame):
        # The kernel's solver gives this game's score (Dobbm): it solves the last tricks itself.
        assert isinstance(rollout.play, TarockKernelRollout) and rollout.play.adapter.exact
        assert rollout.play.solve_tricks >= EXACT_LEAF_TRICKS[name]
        return
    assert isinstance(rollout.play, ExactEndgame) and rollout.play.tricks == EXACT_LEAF_TRICKS[name]
    if kernel_games().get(name, False):  # kernel card play whose outcomes only the engine's search can value exactly
        assert isinstance(rollout.play.inner, TarockKernelRollout) and not rollout.play.inner.adapter.exact
    else:
        assert isinstance(rollout.play.inner, RandomRollout)
    for state in _endgames(name, 2, 2):
        rewards = rollout(state, random.Random(1))
        assert len(rewards) == game.num_seats and all(-1.0 < r < 1.0 for r in rewards)
    assert rollout.play.solved == 2


def test_dappen_mixed_rollout_plays_its_endings_at_random() -> None:
    """Two Dappen tricks with six seats cost ~20 random endings through the engine: no exact leaves there."""
    rollout = make_rollout("mixed", make_game("dappen"), 2)
    assert isinstance(rollout, MixedRollout) and isinstance(rollout.play, RandomRollout)


needs_kernel = pytest.mark.skipif(not kernel.available(), reason="numba kernel not installed")


@needs_kernel
def test_kernel_rollout_solves_the_last_tricks_exactly() -> None:
    """From SOLVE_TRICKS tricks left the reward is that of Re's eyes under best play (dossier doppelkopf §7.1-7.2)."""
    from stich.bots.doppelkopf.kernel_rollout import SOLVE_TRICKS, KernelRollout
    from stich.bots.doppelkopf.solver import Solver, position_of

    game = make_game("doppelkopf")
    rollout = KernelRollout(game)
    assert rollout.solve_tricks == SOLVE_TRICKS
    checked = 0
    for state in _endgames("doppelkopf", SOLVE_TRICKS, 8):
        if not state.clarified or state.kind != "normal":  # type: ignore[attr-defined]
            continue
        re_eyes = Solver(position_of(state)).value()  # the pure-Python reference solver
        re_level, kontra_level = state.level  # type: ignore[attr-defined]
        value = rollout.re_value(re_eyes, re_level, kontra_level) * state.multiplier  # type: ignore[attr-defined]
        rewards = rollout(state.clone(), random.Random(checked))
        scale = reward_scale(game)
        for seat in state.active:  # type: ignore[attr-defined]
            is_re = teams(state)[seat] == 0
            assert rewards[seat] == pytest.approx(math.tanh((value if is_re else -value) / scale))
        checked += 1
    assert checked >= 3
    assert rollout.solved == checked


@needs_kernel
def test_kernel_rollout_plays_out_earlier_positions() -> None:
    from stich.bots.doppelkopf.kernel_rollout import KernelRollout

    game = make_game("doppelkopf")
    rollout = KernelRollout(game, solve_tricks=0)
    for state in _endgames("doppelkopf", 3, 2):
        assert in_trick_play(state)
        rollout(state.clone(), random.Random(0))
    assert rollout.solved == 0
    with pytest.raises(ValueError, match="solve_tricks"):
        KernelRollout(game, solve_tricks=-1)


@needs_kernel
def test_kernel_rollout_reuses_rule_tables_across_the_positions_of_a_deal() -> None:
    """One rollout object values many positions of the same deal (same tables, different tricks): each must be exact.

    Regression: the cached template once kept the first position's current
    trick and remaining eyes, so later solves searched the wrong trick (and
    wrote past the end of its array).
    """
    from stich.bots.doppelkopf.kernel_rollout import SOLVE_TRICKS, KernelRollout
    from stich.bots.doppelkopf.solver import Solver, position_of

    game = make_game("doppelkopf")
    checked = 0
    for seed in range(12):
        rollout = KernelRollout(game)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal() and not (in_trick_play(state) and state.clarified):  # type: ignore[attr-defined]
            codes = state.legal_codes()
            state.apply(0 if 0 in codes and not in_trick_play(state) else rng.choice(codes))
        while not state.is_terminal():
            pos = position_of(state)  # type: ignore[arg-type]
            moved = rollout._kernel_position(pos)
            assert isinstance(moved, kernel.KernelPosition)
            fresh = kernel.KernelPosition(pos)
            assert moved.rem == fresh.rem and (moved.tricks == fresh.tricks).all() and (moved.hands == fresh.hands).all()
            assert kernel.random_playouts(moved, 5, seed) == kernel.random_playouts(fresh, 5, seed)
            if pos.tricks_left <= SOLVE_TRICKS:
                assert kernel.KernelSolver(moved).value() == Solver(pos).value()
                checked += 1
            cards = [c for c in state.legal_codes() if c < 24]
            state.apply(rng.choice(cards) if cards else state.legal_codes()[0])
        assert len(rollout._templates) == 1  # one template served every position of the deal
    assert checked >= 30


@needs_kernel
def test_moved_to_refuses_other_rules() -> None:
    import dataclasses

    from stich.bots.doppelkopf.solver import position_of, random_play_position

    pos = position_of(random_play_position(make_game("doppelkopf"), 1, tricks_left=5, healthy=True))
    template = kernel.KernelPosition(pos)
    with pytest.raises(ValueError, match="same card order"):
        template.moved_to(dataclasses.replace(pos, re=pos.re ^ 0b0011))
