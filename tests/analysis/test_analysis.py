"""The analysis of a finished deal (stich.analysis, decision 0054): costs, the exact endgame, reasons, determinism, no leak."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from stich.analysis import EXACT_TRICKS, AnalysisError, analyse_record, is_costly
from stich.analysis.engine import DecisionAnalyst
from stich.bots.heuristic import make_heuristic
from stich.core.game import Game
from stich.core.records import deal_record
from stich.core.registry import game_from_string
from stich.errors import OptionError

from ._blunder import blunder_deal, twin_deals

GAMES = ("doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen")


@cache
def _blunder() -> tuple[dict[str, Any], int, int, str, str]:
    return blunder_deal(game_from_string("doppelkopf"))


def _heuristic_deal(game: Game) -> dict[str, Any]:
    """A finished deal of heuristic bots with some card play (a thrown-in deal is skipped)."""
    for seed in range(1, 40):
        bots = [make_heuristic(game, seat, seed) for seat in range(game.num_seats)]
        state = game.new_state(seed=seed, dealer=0)
        while not state.is_terminal():
            mover = state.current_player()
            state.apply(bots[mover].choose(state.observation(mover)))
        if sum(1 for _, code in state.history if game.actions[code].kind == "play") >= 2 * game.num_seats:
            return deal_record(state)
    raise AssertionError(f"no deal of {game.name} reached card play")


def test_a_card_that_gives_away_a_proven_trick_is_named_with_its_cost() -> None:
    # Issue 43: "a deal with a known blunder (a card that loses a trick the solver proves wins) and the analysis names it".
    record, seat, index, played, best = _blunder()
    analysis = analyse_record(record, seat, budget=4, seed=1)
    decision = next(d for d in analysis.decisions if d.index == index)
    assert decision.played == played
    assert decision.best == best
    assert decision.exact, "three tricks from the end Doppelkopf is searched exactly in every world"
    assert decision.costly and decision.cost >= 1
    assert decision.reason is not None and decision.reason["de"] and decision.reason["en"]
    values = {c.action: c.value for c in decision.candidates}
    assert values[best] - values[played] == pytest.approx(decision.cost)


def test_the_same_seed_and_budget_give_the_same_numbers() -> None:
    record, seat, _, _, _ = _blunder()
    first = analyse_record(record, seat, budget=2, seed=7).to_json()
    again = analyse_record(copy.deepcopy(record), seat, budget=2, seed=7).to_json()
    assert first == again


@pytest.mark.parametrize("name", GAMES)
def test_every_game_is_analysed_decision_by_decision(name: str) -> None:
    game = game_from_string(name)
    record = _heuristic_deal(game)
    seat = 1
    seen: list[int] = []
    analysis = analyse_record(record, seat, budget=2, seed=3, progress=lambda done, total: seen.append(done))
    own = [i for i, (s, _) in enumerate(record["actions"]) if s == seat]
    assert [d.index for d in analysis.decisions] == sorted(d.index for d in analysis.decisions)
    assert {d.index for d in analysis.decisions} <= set(own)
    assert len(analysis.decisions) + analysis.skipped == len(own)
    assert seen == list(range(1, len(analysis.decisions) + 1))
    for d in analysis.decisions:
        assert record["actions"][d.index][1] == d.played
        actions = [c.action for c in d.candidates]
        assert d.played in actions and d.best in actions
        assert d.cost >= 0 and d.costly == (d.best != d.played and is_costly(d.cost, d.stderr))
        if d.exact:
            assert d.category == "card" and d.trick is not None
        if d.costly:  # every costly decision says why, in both languages
            assert d.reason is not None and d.reason["de"] and d.reason["en"]
        assert d.worlds == 2


def test_the_endgame_is_flagged_exact_within_the_horizon() -> None:
    game = game_from_string("tapp_tarock")
    record = _heuristic_deal(game)
    analysis = analyse_record(record, 0, budget=2, seed=0)
    cards = [d for d in analysis.decisions if d.category == "card"]
    tricks = max(d.trick for d in cards if d.trick is not None) + 1
    late = [d for d in cards if d.trick is not None and d.trick >= tricks - EXACT_TRICKS["tapp_tarock"] + 1]
    early = [d for d in cards if d.trick is not None and d.trick < tricks - EXACT_TRICKS["tapp_tarock"] - 1]
    assert late and all(d.exact for d in late)
    assert early and not any(d.exact for d in early)


def test_an_unfinished_deal_is_not_analysed() -> None:
    record, seat, _, _, _ = _blunder()
    running = dict(record, actions=record["actions"][:20], result=None)
    with pytest.raises(AnalysisError, match="not finished") as caught:
        analyse_record(running, seat)
    assert caught.value.where == "result"


def test_a_bad_seat_or_budget_is_refused_by_name() -> None:
    record, _, _, _, _ = _blunder()
    with pytest.raises(AnalysisError) as caught:
        analyse_record(record, 4)
    assert caught.value.where == "seat"
    for budget in (0, 401, 2.5, True):
        with pytest.raises(OptionError, match="budget"):
            analyse_record(record, 0, budget=budget)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_the_numbers_read_only_the_seats_observation(name: str) -> None:
    # Hidden information: two true deals the seat cannot tell apart give the same candidates, values and costs.
    game = game_from_string(name)
    checked = 0
    for state, other, seat, observation in twin_deals(game, stop=2 * game.num_seats + 3, seeds=12):
        action = observation.legal_actions[-1]
        reports = []
        for world in (state, other):
            analyst = DecisionAnalyst(game, seat, 5, 2, world, {})
            reports.append(analyst.decision(len(world.history), world, action).to_json() | {"reason": None})
        assert reports[0] == reports[1]
        checked += 1
        if checked == 2:
            break
    assert checked


def test_a_record_with_explicit_hands_gives_the_same_analysis() -> None:
    # "A record from anywhere can be analysed": without a seed the dealt hands are the deal, and the numbers do not change.
    record, seat, _, _, _ = _blunder()
    explicit = dict(record, seed=None)
    assert analyse_record(explicit, seat, budget=2, seed=4).to_json() == analyse_record(record, seat, budget=2, seed=4).to_json()
