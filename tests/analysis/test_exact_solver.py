"""The analysis's compiled-solver values (stich.analysis.exact, decision 0063): exact game values from the middle of a Doppelkopf deal."""

from __future__ import annotations

import random

import pytest

from stich.analysis import analyse_record, engine
from stich.analysis.engine import EXACT_TRICKS, ROLLOUT, SOLVER, DecisionAnalyst
from stich.analysis.exact import KERNEL_TRICKS, eye_scorer, kernel_values, solvable
from stich.bots.doppelkopf import kernel
from stich.bots.doppelkopf.solver import random_play_position
from stich.bots.heuristic import make_heuristic
from stich.core.game import State
from stich.core.records import deal_record
from stich.core.registry import game_from_string
from stich.games.doppelkopf.outcome import KEINE30, NONE, SCHWARZ
from stich.search.perfect_info import AlphaBeta, final_score, play_codes, teams

needs_numba = pytest.mark.skipif(not kernel.available(), reason=f"compiled kernel unavailable: {kernel.unavailable_reason()}")

CONFIGS = ("doppelkopf", "doppelkopf(preset=house_classic)", "doppelkopf(call_scoring=double,counting=plus)")
"""The DDV default, a house preset, and doubling calls with plus counting (the score's shape differs in each)."""


def _played_out(text: str, seed: int) -> State:
    """A deal of ``text`` played to the end with random cards and some calls."""
    game = game_from_string(text)
    state = random_play_position(game, seed, tricks_left=1, announce=0.2)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(play_codes(state)))
    return state


@pytest.mark.parametrize("text", CONFIGS)
def test_the_eye_score_is_the_engines_score_where_no_trick_made_a_special_point(text: str) -> None:
    checked = 0
    for seed in range(60):
        state = _played_out(text, seed)
        breakdown = state.result().breakdown
        if any(s["name"] != "gegen_die_alten" for s in breakdown["specials"]):
            continue
        if any((breakdown["eyes"][p] > 0) != (breakdown["tricks"][p] > 0) for p in ("re", "kontra")):
            continue  # a party with only tricks of nines: schwarz is read from the eyes (module docstring)
        for seat in range(4):
            assert eye_scorer(state, seat)(breakdown["eyes"]["re"]) == final_score(state, seat), (seed, seat)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("text", CONFIGS)
def test_the_eye_score_never_falls_with_the_seats_partys_eyes(text: str) -> None:
    # What makes the solver's eyes exact in score: a minimax value commutes with a non-decreasing function.
    for seed in range(20):
        state = _played_out(text, seed)
        side = teams(state)
        for seat in range(4):
            if side[seat] < 0:
                continue
            score = eye_scorer(state, seat)
            values = [score(e if side[seat] == 0 else 240 - e) for e in range(241)]
            assert values == sorted(values), (seed, seat)


def _eye_leaf(seat: int):  # type: ignore[no-untyped-def]
    def leaf(state: State, _seat: int) -> float:
        return eye_scorer(state, seat)(state.result().breakdown["eyes"]["re"])

    return leaf


@needs_numba
@pytest.mark.parametrize("text", CONFIGS)
def test_the_solvers_values_equal_an_exact_search_of_the_eye_score(text: str) -> None:
    game = game_from_string(text)
    checked = 0
    for seed in range(40):
        world = random_play_position(game, 500 + seed, tricks_left=3, cards_in_trick=seed % 4, announce=0.02)  # type: ignore[arg-type]
        if not solvable(world):
            continue
        seat = world.current_player()
        codes = play_codes(world)
        expected = AlphaBeta(seat, _eye_leaf(seat)).solve(world, codes)
        assert kernel_values(world, seat, codes) == [expected[c] for c in codes], seed
        checked += 1
    assert checked >= 20


def _heuristic_record(seed: int) -> dict[str, object]:
    game = game_from_string("doppelkopf")
    bots = [make_heuristic(game, seat, seed) for seat in range(4)]
    state = game.new_state(seed=seed, dealer=0)
    while not state.is_terminal():
        mover = state.current_player()
        state.apply(bots[mover].choose(state.observation(mover)))
    return deal_record(state)


@needs_numba
def test_doppelkopf_card_decisions_are_solved_from_the_solvers_horizon_and_exact_from_the_searchs() -> None:
    record = _heuristic_record(1)
    analysis = analyse_record(record, 1, budget=2, seed=0)
    cards = [d for d in analysis.decisions if d.category == "card" and d.trick is not None]
    tricks = 12
    within = [d for d in cards if tricks - d.trick <= KERNEL_TRICKS]  # type: ignore[operator]
    before = [d for d in cards if tricks - d.trick > KERNEL_TRICKS]  # type: ignore[operator]
    assert before and all(d.method == "rollout" and not d.exact for d in before)
    searched = [d for d in within if tricks - d.trick <= EXACT_TRICKS["doppelkopf"]]  # type: ignore[operator]
    solved = [d for d in within if tricks - d.trick > EXACT_TRICKS["doppelkopf"]]  # type: ignore[operator]
    assert searched and all(d.method == "search" and d.exact for d in searched)
    # Solved in card points, without the special points of the tricks to come: never reported exact (decision 0063).
    assert solved and all(d.method == "solver" and not d.exact for d in solved)
    assert all(d.to_json()["method"] == d.method for d in cards)


@needs_numba
def test_the_solver_is_used_only_where_the_worlds_allow_it() -> None:
    game = game_from_string("doppelkopf")
    world = random_play_position(game, 7, tricks_left=KERNEL_TRICKS, announce=0.0)  # type: ignore[arg-type]
    analyst = DecisionAnalyst(game, world.current_player(), 0, 2, world, {})
    card = game.actions[play_codes(world)[0]]
    assert analyst.exact_mode(card, [world]) == SOLVER
    world.clarified = False  # an open wedding: parties unknown, the eyes do not say who scores
    assert analyst.exact_mode(card, [world]) != SOLVER


def test_without_the_compiled_kernel_the_middle_of_the_deal_is_rolled_out(monkeypatch: pytest.MonkeyPatch) -> None:
    game = game_from_string("doppelkopf")
    world = random_play_position(game, 7, tricks_left=KERNEL_TRICKS, announce=0.0)  # type: ignore[arg-type]
    analyst = DecisionAnalyst(game, world.current_player(), 0, 2, world, {})
    card = game.actions[play_codes(world)[0]]
    monkeypatch.setattr(engine, "kernel_ready", lambda: False)
    assert analyst.exact_mode(card, [world]) == ROLLOUT


def test_a_world_is_solvable_only_in_doppelkopf_trick_play_with_the_parties_known_and_no_schwarz_called() -> None:
    world = random_play_position(game_from_string("doppelkopf"), 7, tricks_left=KERNEL_TRICKS, announce=0.0)  # type: ignore[arg-type]
    assert world.clarified and world.level == [NONE, NONE] and solvable(world)
    world.level[1] = KEINE30  # Kontra's calls down to "keine 30": still a goal in eyes
    assert solvable(world)
    world.level[1] = SCHWARZ  # its goal is now every trick, which the eyes do not say
    assert not solvable(world)
    world.level[1] = NONE
    world.clarified = False  # an open wedding
    assert not solvable(world)
    tapp = game_from_string("tapp_tarock").new_state(seed=3)
    assert not solvable(tapp)
