"""World sampling for Tapp Tarock, Dobbm and Droggn: exact worlds in every phase, with talons and discards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from stich.bots.samplers import prepare_sampler
from stich.cards import Card
from stich.core.game import State
from stich.core.registry import make_game
from stich.games.dobbm.state import DobbmState
from stich.games.droggn.state import DroggnState
from stich.games.tapp_tarock.state import TappTarockState

from ._sampling_helpers import check_world, complete

CONFIGS: list[tuple[str, str | None, dict[str, Any]]] = [
    ("tapp_tarock", None, {}),
    ("tapp_tarock", "furr", {"forced_tarock_discard": "announce_count"}),
    ("tapp_tarock", "four_players", {}),
    ("dobbm", None, {}),
    ("dobbm", "pagat_5", {"sow_discard_rule": "any_heart_incl_sow"}),
    ("droggn", None, {}),
    ("droggn", "kroesbacher", {}),
    ("droggn", "pack78", {"players": 4, "king_discard_rule": "one_trump_per_king"}),
]


def check_all_seats(state: State, rng: random.Random, worlds: int = 2) -> None:
    """Every seat's sampler admits the real world and draws worlds it cannot tell from it."""
    for seat in range(state.game.num_seats):
        sampler = prepare_sampler(state.game, state.observation(seat))
        assert sampler.admits(state), f"seat {seat}'s sampler excludes the real world"
        for _ in range(worlds):
            check_world(sampler.sample(rng), state, seat, rng)


@pytest.mark.parametrize(("name", "preset", "options"), CONFIGS, ids=[f"{n}-{p}-{'-'.join(o)}" for n, p, o in CONFIGS])
def test_worlds_reproduce_the_observation(name: str, preset: str | None, options: dict[str, Any]) -> None:
    # Random deals, random points, random seats: the world's observation is the real one, exactly.
    game = make_game(name, preset, options)
    rng = random.Random(f"{name}{preset}{options}")
    states = []
    for _ in range(12):
        state = game.new_state(seed=rng.getrandbits(64), dealer=rng.randrange(game.num_seats))
        states.append(state.clone())
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_codes()))
            states.append(state.clone())
    for state in rng.sample(states, 60):
        seat = rng.randrange(game.num_seats)
        sampler = prepare_sampler(game, state.observation(seat))
        assert sampler.admits(state)
        for _ in range(2):
            check_world(sampler.sample(rng), state, seat, rng)
        assert sampler.stats.acceptance == 1.0  # everything is modelled: no draw is rejected


@pytest.mark.parametrize("discard", ["show_card", "announce_count"])
def test_tapp_tarock_forced_tarock_discards_and_ultimo(discard: str) -> None:
    # §4.1: with no suit card but kings to lay away, tarocks go (shown or counted); §5.1: ultimo needs the Pagat.
    game = make_game("tapp_tarock", None, {"forced_tarock_discard": discard})
    hand = "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 CK SK"
    state = game.new_state(hands=complete(game, {1: hand, 3: "HK DK T15"}, dealer=0), dealer=0)
    assert isinstance(state, TappTarockState)
    rng = random.Random(20)
    for text in ("bid dreier", "pass", "pass", "take lower"):
        state.apply(text)
    while state.phase_name != "play" or len(state.tricks) < 2:
        check_all_seats(state, rng)
        if state.phase_name == "announce" and state.is_legal("announce ultimo"):
            state.apply("announce ultimo")
        else:
            state.apply(rng.choice(state.legal_codes()))
    public = state.observation(0).public
    assert public["discarded_tarocks"] == 3 and "ultimo" in public["announced"]
    # A defender's worlds: the declarer kept no suit card other than kings, and holds the Pagat.
    seat = 0
    sampler = prepare_sampler(game, state.observation(seat))
    for _ in range(20):
        world = sampler.sample(rng)
        held = world.game.deck.cards(world.hand_mask(1))
        assert Card.parse("T1") in held or Card.parse("T1") in [c for t in state.observation(seat).tricks for c in t.cards]
        assert all(c.suit.name == "TAROCK" or c.rank == 14 for c in held)


def test_dobbm_exchange_with_sows() -> None:
    # §4.1: a Sow is discarded only with a covering heart; the discards are hidden from the defenders.
    game = make_game("dobbm")
    state = game.new_state(hands=complete(game, {0: "CA SA HK HQ H10 C6 S6 D6", 4: "DA HJ H9 C7"}, dealer=3), dealer=3)
    assert isinstance(state, DobbmState)
    rng = random.Random(21)
    for text in ("bid dobbm", "accept", "accept", "accept"):
        state.apply(text)
    while state.phase_name != "play" or len(state.tricks) < 2:
        check_all_seats(state, rng)
        if state.phase_name == "exchange":
            legal = [a.text for a in state.legal_actions()]
            state.apply(next((t for t in ("discard CA", "discard H10", "discard SA", "discard HJ") if t in legal), legal[0]))
        else:
            state.apply(rng.choice(state.legal_codes()))
    assert state.game.deck.cards(state.discards) == [Card.parse(t) for t in ("CA", "SA", "H10", "HJ")]


def test_dobbm_mussrunde_context() -> None:
    # §3.4: in the Mußrunde the dealer's left must declare; the world keeps that context.
    game = make_game("dobbm")
    state = game.new_state(seed=5, dealer=2, context={"forced_declarer": 3, "mussrunde": True})
    assert isinstance(state, DobbmState)
    rng = random.Random(23)
    while not state.is_terminal() and len(state.tricks) < 2:
        check_all_seats(state, rng, worlds=1)
        state.apply(rng.choice(state.legal_codes()))
    assert state.observation(0).public["mussrunde"] is True


def test_droggn_buy_lay_out_and_exposed_talon() -> None:
    # §4.2: the Ansager buys a named card for one placed face down; §5.1: the Pagat laid out; the talon shown.
    game = make_game("droggn", "kroesbacher")
    hand = "T1 T2 T3 T4 T5 T6 T7 T8 CK SK HK DK CQ SQ HQ DQ CC SC HC DC CJ"
    state = game.new_state(hands=complete(game, {0: hand}, dealer=2), dealer=2)
    assert isinstance(state, DroggnState)
    rng = random.Random(22)
    for text in ("bid ansager", "pass", "pass"):
        state.apply(text)
    bought = False
    while state.phase_name != "play" or len(state.tricks) < 2:
        check_all_seats(state, rng)
        legal = [a.text for a in state.legal_actions()]
        if state.phase_name == "buy" and not bought and "offer CJ" in legal:
            state.apply("offer CJ")
            bought = True
        elif state.phase_name == "declare" and "lay_out T1" in legal:
            state.apply("lay_out T1")
        else:
            state.apply(rng.choice(state.legal_codes()))
    public = state.observation(1).public
    assert public["bought"] is not None and public["laid_out"] == "T1" and "shown_talon" in public
