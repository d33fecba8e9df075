"""The search bots count the decisions they could not search (stich.bots.fallbacks), by reason, and only those.

A fallback is the heuristic's action played because the world sampler found
no world (``no_world``), the game has no sampler (``no_sampler``) or the time
ran out before a first world (``out_of_time``).  Forced moves and the
decisions left to the heuristic by design are not fallbacks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from stich.bots import ismcts as ismcts_bot
from stich.bots import pimc as pimc_bot
from stich.bots.doubles import is_defender_double
from stich.bots.fallbacks import FALLBACK_REASONS, Fallbacks, fallback_counts
from stich.bots.heuristic import make_heuristic
from stich.bots.ismcts import make_ismcts
from stich.bots.pimc import make_pimc
from stich.bots.random_bot import RandomBot
from stich.core.game import Game, Observation, State
from stich.core.registry import make_game
from stich.search.ismcts import PLAY_PHASE
from stich.search.sampling import SamplingError

from ._doubling_helpers import doubling_decision

ZERO: dict[str, int] = {reason: 0 for reason in FALLBACK_REASONS}


def only(reason: str, count: int = 1) -> dict[str, int]:
    """Counts with ``count`` decisions for ``reason`` and none for the others."""
    return {**ZERO, reason: count}


def decision(game: Game, seed: int, wanted: Callable[[Observation], bool]) -> tuple[int, Observation]:
    """The first decision of a deal played by the heuristic bots with a real choice that ``wanted`` accepts: (seat, observation)."""
    bots = [make_heuristic(game, seat, seed) for seat in range(game.num_seats)]
    for attempt in range(50):
        state: State = game.new_state(seed=seed * 100 + attempt, dealer=attempt % game.num_seats)
        while not state.is_terminal():
            seat = state.current_player()
            observation = state.observation(seat)
            if len(observation.legal_actions) > 1 and wanted(observation):
                return seat, observation
            state.apply(bots[seat].choose(observation))
    raise AssertionError("no such decision")


def card_play(observation: Observation) -> bool:
    return observation.phase == PLAY_PHASE and all(a.kind == "play" for a in observation.legal_actions)


def bidding(observation: Observation) -> bool:
    return observation.phase != PLAY_PHASE


def raising(error: BaseException) -> Callable[..., Any]:
    def prepare(*args: object) -> None:
        raise error

    return prepare


class NoDraw:
    """A prepared sampler whose every draw fails, as a rejection sampler that gives up."""

    def sample(self, rng: random.Random) -> State:
        raise SamplingError("no consistent world found in 1000 draws")

    def draw(self, rng: random.Random, stop: Callable[[], bool] | None = None) -> State | None:
        raise SamplingError("no consistent world found in 1000 draws")


class Expired:
    """A deadline that has always passed (a budget of about zero, without the wall clock)."""

    def expired(self) -> bool:
        return True


# ------------------------------------------------------------------ the counter


def test_the_counter_counts_by_reason_and_only_the_search_bots_have_one() -> None:
    counter = Fallbacks()
    assert counter.to_json() == ZERO and counter.total == 0
    counter.note("no_world")
    counter.note("no_world")
    counter.note("out_of_time")
    assert counter.to_json() == {"no_world": 2, "no_sampler": 0, "out_of_time": 1} and counter.total == 3
    game = make_game("tapp_tarock")
    assert fallback_counts(make_pimc(game, 0, 1, worlds=2)) == ZERO
    assert fallback_counts(make_ismcts(game, 0, 1, simulations=10)) == ZERO
    assert fallback_counts(make_heuristic(game, 0, 1)) is None
    assert fallback_counts(RandomBot(game, 0, 1)) is None


# ------------------------------------------------------------------ pimc


@pytest.mark.parametrize(("error", "reason"), [(SamplingError("no placement fits"), "no_world"), (NotImplementedError(), "no_sampler")])
def test_pimc_counts_a_sampler_it_cannot_prepare(monkeypatch: pytest.MonkeyPatch, error: BaseException, reason: str) -> None:
    game = make_game("tapp_tarock")
    seat, observation = decision(game, 3, card_play)
    monkeypatch.setattr(pimc_bot, "prepare_sampler", raising(error))
    bot = make_pimc(game, seat, 5, worlds=4)
    assert bot.choose(observation) == make_heuristic(game, seat, 5).choose(observation)
    assert bot.choose(observation) == make_heuristic(game, seat, 5).choose(observation)
    assert bot.fallbacks.to_json() == only(reason, 2)


@pytest.mark.parametrize("wanted", [card_play, bidding], ids=["card", "bid"])
def test_pimc_counts_a_draw_that_finds_no_world(monkeypatch: pytest.MonkeyPatch, wanted: Callable[[Observation], bool]) -> None:
    # Before, a sampler that gave up while drawing ended the deal in an error; now the heuristic plays on, counted.
    game = make_game("tapp_tarock")
    seat, observation = decision(game, 4, wanted)
    monkeypatch.setattr(pimc_bot, "prepare_sampler", lambda game, observation: NoDraw())
    bot = make_pimc(game, seat, 5, worlds=4)
    assert bot.choose(observation) == make_heuristic(game, seat, 5).choose(observation)
    assert bot.fallbacks.to_json() == only("no_world")
    assert bot.last.mode == "heuristic (no world fits)"


def test_pimc_counts_nothing_for_searched_forced_and_designed_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("tapp_tarock")
    seat, observation = decision(game, 5, card_play)
    bot = make_pimc(game, seat, 5, worlds=2)
    assert bot.choose(observation) in observation.legal_actions
    assert bot.last.worlds == 2 and bot.fallbacks.to_json() == ZERO
    # Neither a forced move nor a defender's double asks the sampler; a failing one would be counted.
    monkeypatch.setattr(pimc_bot, "prepare_sampler", raising(SamplingError("no world")))
    state = doubling_decision("tapp_tarock", "kontra", 2)
    double = state.observation(state.current_player())
    assert is_defender_double(game, double)
    defender = make_pimc(game, double.seat, 1, worlds=2)
    defender.choose(double)
    assert defender.last.mode == "heuristic (defender double)" and defender.fallbacks.total == 0
    forced = _forced(game)
    lone = make_pimc(game, forced.seat, 1, worlds=2)
    assert lone.choose(forced) == forced.legal_actions[0] and lone.fallbacks.total == 0


def _forced(game: Game) -> Observation:
    """An observation with a single legal action."""
    rng = random.Random(8)
    state = game.new_state(seed=8)
    while len(state.legal_codes()) != 1:
        codes = state.legal_codes()
        state.apply(codes[rng.randrange(len(codes))])
    return state.observation(state.current_player())


# ------------------------------------------------------------------ ismcts


@pytest.mark.parametrize(("error", "reason"), [(SamplingError("no placement fits"), "no_world"), (NotImplementedError(), "no_sampler")])
def test_ismcts_counts_a_sampler_it_cannot_prepare(monkeypatch: pytest.MonkeyPatch, error: BaseException, reason: str) -> None:
    game = make_game("tapp_tarock")
    seat, observation = decision(game, 3, card_play)
    monkeypatch.setattr(ismcts_bot, "prepare_sampler", raising(error))
    bot = make_ismcts(game, seat, 5, simulations=30)
    assert bot.choose(observation) == make_heuristic(game, seat, 5).choose(observation)
    assert bot.last_result is None
    assert bot.fallbacks.to_json() == only(reason)


def test_ismcts_counts_a_draw_that_finds_no_world(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("tapp_tarock")
    seat, observation = decision(game, 4, card_play)
    monkeypatch.setattr(ismcts_bot, "prepare_sampler", lambda game, observation: NoDraw())
    bot = make_ismcts(game, seat, 5, simulations=30)
    assert bot.choose(observation) == make_heuristic(game, seat, 5).choose(observation)
    assert bot.fallbacks.to_json() == only("no_world")


def test_ismcts_counts_a_budget_spent_before_the_first_world() -> None:
    # The bot checks the clock after preparing the sampler.
    game = make_game("tapp_tarock")
    seat, observation = decision(game, 3, card_play)
    bot = make_ismcts(game, seat, 5, level=1)
    bot.clock = lambda seconds: Expired()  # type: ignore[assignment,return-value]
    assert bot.choose(observation) == make_heuristic(game, seat, 5).choose(observation)
    assert bot.fallbacks.to_json() == only("out_of_time")


def test_ismcts_counts_the_fallbacks_of_its_simulation(monkeypatch: pytest.MonkeyPatch) -> None:
    # With calls=simulation (Tapp Tarock's default) a bid is pimc's: its fallback is the ismcts bot's too.
    game = make_game("tapp_tarock")
    seat, observation = decision(game, 3, bidding)
    monkeypatch.setattr(pimc_bot, "prepare_sampler", raising(SamplingError("no placement fits")))
    monkeypatch.setattr(ismcts_bot, "prepare_sampler", raising(AssertionError("a bid is the simulation's")))
    bot = make_ismcts(game, seat, 5, simulations=30)
    assert bot.calls == "simulation"
    assert bot.choose(observation) == make_heuristic(game, seat, 5).choose(observation)
    assert bot.fallbacks.to_json() == only("no_world")


def test_ismcts_counts_nothing_for_searched_forced_and_designed_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("tapp_tarock")
    seat, observation = decision(game, 5, card_play)
    bot = make_ismcts(game, seat, 5, simulations=30)
    assert bot.choose(observation) in observation.legal_actions
    assert bot.last_result is not None and bot.fallbacks.to_json() == ZERO
    monkeypatch.setattr(ismcts_bot, "prepare_sampler", raising(SamplingError("no world")))
    monkeypatch.setattr(pimc_bot, "prepare_sampler", raising(SamplingError("no world")))
    state = doubling_decision("tapp_tarock", "kontra", 2)
    double = state.observation(state.current_player())
    defender = make_ismcts(game, double.seat, 1, simulations=30, calls="heuristic")
    assert defender.choose(double) == make_heuristic(game, double.seat, 1).choose(double)
    assert defender.fallbacks.total == 0
    forced = _forced(game)
    lone = make_ismcts(game, forced.seat, 1, simulations=30)
    assert lone.choose(forced) == forced.legal_actions[0] and lone.fallbacks.total == 0
