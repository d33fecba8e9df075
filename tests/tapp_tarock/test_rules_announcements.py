"""Scenario tests for announcements and doubling (dossier §5, OPEN-POINTS).  Dealer seat 2."""

from __future__ import annotations

from typing import Any

import pytest

from stich.errors import IllegalActionError
from stich.games.tapp_tarock.state import TappTarockState

from .helpers import act, deal, game, legal, snapshot

FORE = "T20 T19 T18 T17 T16 C10 C9 C8 SK SQ SC SJ HK HQ DK DQ"
MIDDLE = "T15 T14 T13 T12 T11 T10 CK CQ CC CJ S10 S9 HC HJ DC DJ"
REAR = "T22 T21 T1 T9 T8 T7 T6 T5 T4 S8 S7 H1 H2 D1 D2 D3"
LOWER, UPPER = "T3 T2 C7", "H3 H4 D4"


def rear_dreier(**options: Any) -> TappTarockState:
    """Rearhand (seat 2, holding the Pagat) plays a Dreier and has laid away three cards."""
    state = deal(game(**options), {0: FORE, 1: MIDDLE, 2: REAR}, lower=LOWER, upper=UPPER)
    return act(state, "pass", "pass", "bid dreier", "take lower", "discard C7", "discard S7", "discard S8")


def test_declarer_may_announce_ultimo_and_valat_after_the_exchange() -> None:
    # §5.1: after discarding the declarer may announce Pagat ultimo and Valat, then says "ich liege"
    state = rear_dreier()
    assert state.phase_name == "announce" and state.current_player() == 2
    assert legal(state) == {"pass", "announce ultimo", "announce valat"}
    act(state, "announce valat")
    assert legal(state) == {"pass", "announce ultimo"}
    with pytest.raises(IllegalActionError, match="already announced") as err:
        state.apply("announce valat")
    assert err.value.rule == "§5.1"


def test_ultimo_needs_the_pagat() -> None:
    # §5.1: the declarer undertakes to win the last trick with the Pagat, so only its holder can announce it
    state = deal(game(), {0: FORE, 1: MIDDLE, 2: REAR}, lower=LOWER, upper=UPPER)
    act(state, "bid dreier", "pass", "pass", "take upper", "discard C8", "discard C9", "discard C10")
    assert legal(state) == {"pass", "announce valat"}
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="holds the Pagat") as err:
        state.apply("announce ultimo")
    assert err.value.rule == "§5.1"
    assert snapshot(state) == before


def test_announcements_only_after_the_exchange() -> None:
    # §5.1: announcements are made after the exchange, before the first lead
    state = deal(game(), {0: FORE, 1: MIDDLE, 2: REAR}, lower=LOWER, upper=UPPER)
    with pytest.raises(IllegalActionError):
        state.apply("announce valat")


def test_kontra_rekontra_subkontra_in_order() -> None:
    # §5.2, OPEN-POINTS: defenders from the declarer's next player, each once per level, then the declarer, then the defenders
    state = act(rear_dreier(), "announce ultimo", "pass")
    assert state.phase_name == "kontra" and state.current_player() == 0
    assert legal(state) == {"pass", "kontra game", "kontra ultimo"}
    act(state, "kontra game", "pass")
    assert state.current_player() == 1
    assert legal(state) == {"pass", "kontra ultimo"}  # a Kontra by one defender counts for both
    act(state, "kontra ultimo")  # nothing is left to double: the turn passes on by itself
    assert state.current_player() == 2
    assert legal(state) == {"pass", "rekontra game", "rekontra ultimo"}
    act(state, "rekontra game", "pass")
    assert state.current_player() == 0
    assert legal(state) == {"pass", "subkontra game"}
    act(state, "subkontra game")
    # nobody has anything left to double: play starts with forehand
    assert state.phase_name == "play" and state.current_player() == 0
    assert state.doubling == [3, 1, 0]
    assert state.observation(1).public["doubling"] == {"game": "subkontra", "ultimo": "kontra"}


def test_only_the_right_side_may_double_at_each_level() -> None:
    # §5.2: Kontra by the defenders, Rekontra by the declarer
    state = act(rear_dreier(), "pass")
    with pytest.raises(IllegalActionError, match="declarer") as err:
        state.apply("rekontra game")
    assert err.value.rule == "§5.2"


def test_unannounced_bonus_cannot_be_doubled() -> None:
    # §5.2: the game and each announced bonus can be doubled, nothing else
    state = act(rear_dreier(), "pass")
    assert legal(state) == {"pass", "kontra game"}
    with pytest.raises(IllegalActionError, match="not announced"):
        state.apply("kontra valat")


def test_game_only_doubling_scope() -> None:
    # §5.2 option kontra_scope=game_only: only the game can be doubled
    state = act(rear_dreier(kontra_scope="game_only"), "announce ultimo", "pass")
    assert legal(state) == {"pass", "kontra game"}
    with pytest.raises(IllegalActionError, match="game_only"):
        state.apply("kontra ultimo")


def test_no_doubling_when_switched_off() -> None:
    # §5.2, §10.10 option kontra_enabled=false (the seed text): play starts right after "ich liege"
    state = act(rear_dreier(kontra_enabled=False), "pass")
    assert state.phase_name == "play" and state.current_player() == 0


def test_no_rekontra_without_kontra() -> None:
    # §5.2: when both defenders say "gut", nothing can be redoubled and play starts
    state = act(rear_dreier(), "pass", "pass", "pass")
    assert state.phase_name == "play"
    assert state.doubling == [0, 0, 0]
