"""Scenario tests for trick play: lead, Farbzwang, Trumpfzwang, no duty to beat, trick winners (dossier §6, §1).

Deal P (dealer 3), seat 0 declares a Solo and everybody accepts:

* seat 0: CA C9 C7 H6 SA S6 DA D6
* seat 1: C10 CK H10 HA SK SQ DK DQ
* seat 2: HK HQ HJ S10 SJ S9 D10 DJ  (no clubs)
* seat 3: S8 S7 D9 D8 D7 CQ CJ C8    (no hearts)
* Dobb: H9 H8 H7 C6
"""

from __future__ import annotations

import pytest

from stich.errors import IllegalActionError
from stich.games.dobbm.state import DobbmState

from .helpers import accept_all, act, deal, legal_cards, play, snapshot

P = {0: "CA C9 C7 H6 SA S6 DA D6", 1: "C10 CK H10 HA SK SQ DK DQ", 2: "HK HQ HJ S10 SJ S9 D10 DJ", 3: "S8 S7 D9 D8 D7 CQ CJ C8"}
P_DOBB = "H9 H8 H7 C6"


def solo_p() -> DobbmState:
    return accept_all(act(deal(fixed=P, dobb=P_DOBB), "bid solo"))


def test_declarer_leads_the_first_trick() -> None:
    # §6 the declarer leads to the first trick
    s = accept_all(act(deal(fixed=P, dobb=P_DOBB), "pass", "bid solo"))
    assert s.phase_name == "play" and s.current_player() == 1


def test_must_follow_suit() -> None:
    # §6 follow suit if possible (Farbzwang)
    s = play(solo_p(), "C9")
    assert legal_cards(s) == {"C10", "CK"}
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match=r"follow suit.*§6"):
        s.apply("play HA")
    assert snapshot(s) == before


def test_must_trump_when_void() -> None:
    # §6 if you cannot follow you must trump if you can (Trumpfzwang)
    s = play(solo_p(), "C9 CK")
    assert legal_cards(s) == {"HK", "HQ", "HJ"}
    with pytest.raises(IllegalActionError, match=r"Trumpfzwang.*§6"):
        s.apply("play S10")


def test_no_duty_to_beat_the_winning_card() -> None:
    # §6 no obligation to beat: a player who follows may play a card lower than the winning one
    s = play(solo_p(), "C9 CK HJ")
    assert legal_cards(s) == {"CQ", "CJ", "C8"}
    play(s, "C8")
    assert s.tricks[-1][2] == 2  # the heart wins


def test_highest_heart_wins_and_the_winner_leads() -> None:
    # §6 the highest heart in the trick wins; the winner of a trick leads the next
    s = play(solo_p(), "C9 CK HJ C8")
    assert s.current_player() == 2
    play(s, "S10 S8 SA SK")
    assert s.tricks[-1][2] == 0
    assert s.current_player() == 0


def test_trumps_led_must_be_followed_with_hearts_without_duty_to_overtrump() -> None:
    # §6 if trumps are led you must play a heart if you have one; no compulsory overtrumping
    s = play(solo_p(), "C9 CK HJ C8 S10 S8 SA SK H6 HA")
    assert legal_cards(s) == {"HK", "HQ"}  # neither beats the HA, both must be offered
    play(s, "HQ")
    assert legal_cards(s) == {"S7", "D9", "D8", "D7", "CQ", "CJ"}  # seat 3 has no heart: any card
    play(s, "D7")
    assert s.tricks[-1][2] == 1


def test_highest_card_of_the_suit_led_wins_without_hearts() -> None:
    # §6 with no heart in the trick the highest card of the suit led wins; §1 the ten ranks above the king
    s = play(solo_p(), "C9 CK HJ C8 S10 S8 SA SK")
    play(s, "C7 C10")
    play(s, "HK")  # seat 2 void in clubs must trump
    play(s, "CJ")
    assert s.tricks[-1][2] == 2
    s = play(solo_p(), "C9 CK HJ C8 S10 S8 SA SK DA DK D10 D9")
    assert s.tricks[-1][2] == 0  # DA beats DK, D10, D9


def test_cards_can_only_be_played_in_the_play_phase() -> None:
    # §6 play starts after the bidding and the doubling round
    s = deal(fixed=P, dobb=P_DOBB)
    with pytest.raises(IllegalActionError, match=r"§6"):
        s.apply("play CA")


def test_a_card_not_in_hand_is_refused() -> None:
    # §6 a player can only play a card from their own hand
    s = solo_p()
    with pytest.raises(IllegalActionError, match=r"not in your hand.*§6"):
        s.apply("play HA")


def test_eight_tricks_end_the_deal() -> None:
    # §6 / §7 after 8 tricks the deal is counted
    s = solo_p()
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    assert len(s.tricks) == 8
    assert sum(s.result().scores) == 0
