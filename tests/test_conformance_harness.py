"""The shipped conformance harness (stich.testing.conformance) over every registered game and preset."""

from __future__ import annotations

import random

import pytest

from stich.core.game import Game
from stich.core.registry import game_class, game_names, make_game
from stich.testing import conformance

CASES = [(name, preset) for name in game_names() for preset in game_class(name).option_table.presets]


@pytest.mark.parametrize(("name", "preset"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_every_preset_conforms(name: str, preset: str) -> None:
    states = conformance.run_conformance(make_game(name, preset), deals=12, seed=7)
    assert all(s.is_terminal() for s in states)


def test_harness_catches_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    # a game that claims a seat may know nothing but its hand must fail the leak check once cards are played
    game: Game = make_game("doppelkopf")
    state = game.new_state(seed=3, dealer=0)
    rng = random.Random(1)
    while not state.is_terminal() and state.current_player() >= 0 and not state.card_places()["played"]:
        state.apply(conformance.uniform_choice(state, rng))
    monkeypatch.setattr(type(state), "knowable_cards", lambda self, seat: self.hand_mask(seat))
    with pytest.raises(AssertionError, match="sees"):
        conformance.check_observations(state, conformance.card_pattern(game))


def test_harness_catches_a_lost_card() -> None:
    game = make_game("doppelkopf")
    state = game.new_state(seed=3, dealer=0)
    state.hands[0] &= state.hands[0] - 1  # type: ignore[attr-defined]
    with pytest.raises(AssertionError, match="lost"):
        conformance.check_conservation(state)
