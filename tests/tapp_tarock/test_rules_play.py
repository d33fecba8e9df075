"""Scenario tests for trick play (dossier §6).  Dealer seat 2: seat 0 forehand, 1 middlehand, 2 rearhand."""

from __future__ import annotations

from typing import Any

import pytest

from stich.errors import IllegalActionError
from stich.games.tapp_tarock.state import TappTarockState

from .helpers import act, deal, game, legal_plays, play, snapshot, to_play

FORE = "T20 T19 T18 T17 T16 C10 C9 C8 SK SQ SC SJ HK HQ DK DQ"
MIDDLE = "T15 T14 T13 T12 T11 T10 CK CQ CC CJ S10 S9 HC HJ DC DJ"
REAR = "T22 T21 T1 T9 T8 T7 T6 T5 T4 S8 S7 H1 H2 D1 D2 D3"
LOWER, UPPER = "T3 T2 C7", "H3 H4 D4"


def middle_dreier(**options: Any) -> TappTarockState:
    """Middlehand (seat 1) plays a Dreier: lower half, lays away C7 S9 S10, no announcements, no doubling."""
    state = deal(game(**options), {0: FORE, 1: MIDDLE, 2: REAR}, lower=LOWER, upper=UPPER)
    return to_play(act(state, "pass", "bid dreier", "pass"), "C7 S9 S10")


def test_forehand_leads_whoever_declares() -> None:
    # §6: forehand leads to the first trick, whoever the declarer is
    state = middle_dreier()
    assert state.declarer == 1 and state.current_player() == 0


def test_declarer_leads_with_option() -> None:
    # §6 option first_lead=declarer (Furr): the declarer leads
    state = middle_dreier(first_lead="declarer")
    assert state.current_player() == 1


def test_must_follow_suit() -> None:
    # §6: follow suit if able
    state = play(middle_dreier(), "C10")
    assert legal_plays(state) == {"CK", "CQ", "CC", "CJ"}
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="follow the suit") as err:
        state.apply("play T15")
    assert err.value.rule == "§6"
    assert snapshot(state) == before


def test_void_in_the_suit_led_must_play_a_tarock() -> None:
    # §6: a player void in the suit led must play a tarock if able
    state = play(middle_dreier(), "C10 CJ")
    assert legal_plays(state) == {"T22", "T21", "T1", "T9", "T8", "T7", "T6", "T5", "T4"}
    with pytest.raises(IllegalActionError, match="must play a tarock"):
        state.apply("play H1")


def test_tarock_lead_asks_for_a_tarock() -> None:
    # §6: if tarocks are led, following suit means playing a tarock
    state = play(middle_dreier(), "C10 CJ T1")  # the Pagat may be played at any time and wins the trick
    assert state.tricks[-1][2] == 2
    play(state, "T4")
    assert legal_plays(state) == {"T20", "T19", "T18", "T17", "T16"}


def test_no_obligation_to_overtrump() -> None:
    # §6: a player may play a low tarock under a high one
    state = play(middle_dreier(), "C10 CJ T1 T4 T20")
    assert "T10" in legal_plays(state)
    play(state, "T10")
    assert state.tricks[-1][2] == 0


def test_highest_tarock_wins_else_highest_of_suit_led() -> None:
    # §6: the highest trump in the trick wins; otherwise the highest card of the suit led
    state = play(middle_dreier(), "C10 CJ T1")
    assert state.tricks[-1][2] == 2
    state = play(middle_dreier(), "HK HC H1")
    assert state.tricks[-1][2] == 0


def test_no_suit_and_no_tarock_plays_anything() -> None:
    # §6: with neither the suit led nor a tarock, any card may be played
    fore = "T22 T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 H1 H2"
    middle = "CK CQ CC CJ C10 C9 C8 C7 SK SQ SC SJ S10 S9 S8 S7"
    state = to_play(act(deal(game(), {0: fore, 1: middle}), "bid solo"))
    play(state, "H1")
    assert len(legal_plays(state)) == 16


def test_cards_not_in_hand_are_refused() -> None:
    # §6: only cards in the hand can be played
    state = middle_dreier()
    with pytest.raises(IllegalActionError, match="not in your hand"):
        state.apply("play CK")


def test_sixteen_tricks_end_the_deal() -> None:
    # §6: 16 tricks of three cards, the winner leading to the next
    state = middle_dreier()
    count = 0
    while not state.is_terminal():
        leader = state.current_player()
        if len(state.trick_cards) == 0 and state.tricks:
            assert leader == state.tricks[-1][2]
        state.apply(state.legal_actions()[0])
        count += 1
    assert count == 48 and len(state.tricks) == 16
