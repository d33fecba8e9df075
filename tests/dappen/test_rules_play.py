"""Scenario tests of trick play: following, trumping, winning, Gstiesieren, Buchenbach's first tricks (dossier §6)."""

from __future__ import annotations

import pytest

from stich.cards import parse_cards
from stich.core.tricks import led_suit
from stich.errors import IllegalActionError
from stich.games.dappen.pack import DECK, ORDER
from stich.games.dappen.state import DappenState

from .helpers import act, begin_play, deal, game, last_trick_winner, legal_plays, play, snapshot, solo
from .test_rules_ulti import FORCED

GSTIESS_ALONE = {
    0: "T21 T20 T19 T18 T17 CK C7",
    1: "T22 CQ CC CJ C10 C9 C8",
    2: "SK SQ SC SJ S10 S9 S8",
    3: "HK HQ HC HJ H1 H2 H3",
    4: "DK DQ DC DJ D1 D2 D3",
    5: "S7 H4 D4 T16 T15 T14 T13",
}
"""Seat 1's only trump is the Gstieß; seat 0 plays a Solo."""

KEEPER_WINS_PENULTIMATE = {
    0: "T21 T20 T19 T18 T17 C7 S7",
    1: "T22 CK CQ SK SQ C10 C9",
    2: "CC CJ SC SJ S10 S9 S8",
    3: "HK HQ HC HJ H1 H2 H3",
    4: "DK DQ DC DJ D1 D2 D3",
    5: "C8 H4 D4 T16 T15 T14 T13",
}


def winner_of(cards: str) -> int:
    """Position of the winning card of a trick given as text."""
    trick = [DECK.face_index[c] for c in parse_cards(cards)]
    led = led_suit(ORDER, trick)
    return max(range(len(trick)), key=lambda i: (ORDER.key(trick[i], led), -i))


def test_lone_player_leads_the_first_trick() -> None:
    # §6.1: the lone player leads to the first trick (not the dealer's right)
    state = deal(game(), GSTIESS_ALONE)
    act(state, "pass", "pass", "bid solo", "pass")  # the Ulti question is passed (decision 0040)
    assert state.phase_name == "play" and state.current_player() == 2 and state.lone == 2


def test_follow_suit() -> None:
    # §6.1: follow suit
    state = solo(deal(game(), FORCED), 0)
    act(state, "pass")
    play(state, "C7")
    assert legal_plays(state) == {"CK", "CQ", "CC"}


def test_void_player_must_trump() -> None:
    # §6.1: void in the suit led, play a trump
    state = solo(deal(game(), FORCED), 0)
    act(state, "pass")
    play(state, "C7 CK S7 H4")
    assert legal_plays(state) == {"T2"}
    with pytest.raises(IllegalActionError, match=r"§6.1"):
        state.apply("play D1")


def test_no_trump_no_suit_any_card() -> None:
    # §6.1: with neither the suit led nor a trump, any card
    state = solo(deal(game(), FORCED), 0)
    act(state, "pass")
    play(state, "C7 CK")
    assert legal_plays(state) == {"S10", "S9", "S8", "S7", "HK", "HQ", "HC"}


def test_trumps_led_must_be_followed_without_beating() -> None:
    # §6.1: trumps led: play a trump; there is no duty to beat
    state = solo(deal(game(), FORCED), 0)
    act(state, "pass")
    play(state, "C7 CK S7 H4 T2 T3 T4")
    assert legal_plays(state) == {"T22", "T1"}


def test_highest_trump_wins() -> None:
    # §6.1: the highest trump wins the trick
    state = solo(deal(game(), FORCED), 0)
    act(state, "pass")
    play(state, "C7 CK S7 H4 T2 T3")
    assert last_trick_winner(state) == 5


def test_highest_of_the_suit_led_wins() -> None:
    # §6.1 / §1: without trumps the highest card of the suit led; red pips run 1 (high) to 4
    assert winner_of("H2 H1 H4 CK") == 1
    assert winner_of("HJ H1 HQ S7") == 2
    assert winner_of("C7 C10 CK SK") == 2
    assert winner_of("D4 T1 DK") == 1


# ------------------------------------------------------------------ Gstiesieren


def gstiess_solo(**options: object) -> DappenState:
    return begin_play(solo(deal(game(**options), GSTIESS_ALONE), 0))


def test_gstiess_holder_may_keep_it_back_when_a_trump_is_required() -> None:
    # §6.2: an opponent whose only trump is the Gstieß may play any suit card instead, announcing nothing
    state = gstiess_solo()
    play(state, "T21")
    assert legal_plays(state) == {"T22", "CQ", "CC", "CJ", "C10", "C9", "C8"}
    play(state, "C8")
    assert state.kept_back == 1
    assert state.observation(1).private["gstiess_kept_back"] is True
    assert "gstiess_kept_back" not in state.observation(0).private
    assert all("kept" not in str(v) for v in state.observation(0).public.values())


def test_kept_back_gstiess_waits_for_the_last_trick() -> None:
    # §6.2: the kept-back Gstieß loses its power and must be kept until the last trick
    state = gstiess_solo()
    play(state, "T21 C8 S8 H3 D3 T13")
    play(state, "T20")
    assert "T22" not in legal_plays(state)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=r"§6.2"):
        state.apply("play T22")
    assert snapshot(state) == before


def test_kept_back_gstiess_takes_no_part_in_the_last_trick_and_marsch_hands_it_over() -> None:
    # §6.2 / §7.1: shown in the last trick without power; when the lone player marches it goes to them too
    state = gstiess_solo()
    play(state, "T21 C8 S8 H3 D3 T13")
    play(state, "T20 C9 S9 H2 D2 T14")
    play(state, "T19 C10 S10 H1 D1 T15")
    play(state, "T18 CJ SJ HJ DJ T16")
    play(state, "T17 CC SC HC DC S7")
    play(state, "CK CQ SQ HQ DQ H4")
    play(state, "C7 T22 SK HK DK D4")
    assert last_trick_winner(state) == 0  # the seven of clubs beats the powerless Gstieß
    result = state.result()
    assert result.breakdown["marsch"] == "lone" and result.breakdown["cards"] == {"lone": 54, "opponents": 0}
    # §8.1: the opponent who kept the Gstieß back pays the won Solo's Marsch (80 per opponent) alone
    assert result.scores == (400, -400, 0, 0, 0, 0)


def test_without_gstiesieren_the_gstiess_must_be_played() -> None:
    # §6.2: not allowed in Breitnau / Buchenbach (gstiesieren=false): the Gstieß is trump 22
    state = gstiess_solo(gstiesieren=False)
    play(state, "T21")
    assert legal_plays(state) == {"T22"}


def test_lone_player_cannot_keep_the_gstiess_back() -> None:
    # §6.2: the lone player can never gstiesieren
    state = deal(game(), GSTIESS_ALONE)
    act(state, "pass", "bid solo", "pass")
    assert state.lone == 1
    play(state, "C8 S8 H3 D3 T13 CK")
    assert state.current_player() == 5
    play(state, "S7 T17")
    assert legal_plays(state) == {"T22"}


def test_keeper_who_wins_the_penultimate_trick_does_not_lead() -> None:
    # §6.2 / OPEN-POINTS: the next player leads the last trick and the keeper plays last
    state = begin_play(solo(deal(game(), KEEPER_WINS_PENULTIMATE), 0))
    play(state, "T21 C9 S8 H3 D3 T13")
    assert state.kept_back == 1
    play(state, "T20 C10 S9 H2 D2 T14")
    play(state, "T19 SQ S10 H1 D1 T15")
    play(state, "T18 CQ SJ HJ DJ T16")
    play(state, "T17 SK SC HC DC C8")
    play(state, "C7 CK CJ HQ DQ H4")
    assert last_trick_winner(state) == 1
    assert state.current_player() == 2
    play(state, "CC HK DK D4 S7")
    assert state.current_player() == 1 and legal_plays(state) == {"T22"}
    play(state, "T22")
    seats, _cards, winner = state.tricks[-1]
    assert seats == (2, 3, 4, 5, 0, 1) and winner == 2
    result = state.result()
    # lone: tricks 1-5 (53 face points) + the Solo's Dapp T1..T12 (16) = 69 in 42 cards -> 48; opponents 37 in 12 -> 31
    assert result.breakdown["points"] == {"lone": 48, "opponents": 31}
    assert result.breakdown["per_opponent"] == 20  # diff 9 -> 10 cents, a won Solo doubled


def test_lone_player_winning_the_last_trick_gets_a_one_point_card() -> None:
    # §6.2: if the lone player wins the last trick, the opponents hand over a 1-point card from their tricks
    state = begin_play(solo(deal(game(), GSTIESS_ALONE), 0))
    play(state, "C7 CQ S8 H3 D3 T13")
    assert last_trick_winner(state) == 5
    play(state, "T14 T21 C8 S9 H2 D2")
    assert state.kept_back == 1
    play(state, "T20 C9 S10 H1 D1 T15")
    play(state, "T19 C10 SJ HJ DJ T16")
    play(state, "T18 CJ SC HC DC S7")
    play(state, "T17 CC SQ HQ DQ H4")
    play(state, "CK T22 SK HK DK D4")
    lone, opp, handed = state.piles()
    assert handed is not None and DECK.card(handed).text == "T13"
    assert (lone.bit_count(), opp.bit_count()) == (48, 6)
    assert state.result().breakdown["points"] == {"lone": 69, "opponents": 10}


# ------------------------------------------------------------------ Buchenbach

BUCHENBACH_TRICKS = {
    0: "T5 T4 CK CQ CC CJ C10",
    1: "T22 T6 SK SQ SC SJ S10",
    2: "T21 T7 T8 HK HQ HC HJ",
    3: "T1 T9 DK DC DJ D1 D3",
    4: "C9 C8 S9 H1 H2 D2 DQ",
    5: "T10 T11 T12 T13 T14 T15 T16",
}


def buchenbach_solo() -> DappenState:
    state = deal(game("buchenbach"), BUCHENBACH_TRICKS)
    act(state, "bid solo", "pass", "pass", "pass", "pass", "pass")
    assert state.phase_name == "play"
    return state


def test_buchenbach_trick_1_belongs_to_the_gstiess() -> None:
    # §6.3: trick 1: the Gstieß holder plays it; everyone else a 1-point trump; the leader leads a trump
    state = buchenbach_solo()
    assert legal_plays(state) == {"T5", "T4"}
    play(state, "T4")
    assert legal_plays(state) == {"T22"}
    play(state, "T22")
    assert legal_plays(state) == {"T7", "T8"}  # the Mund is reserved for trick 2
    play(state, "T7")
    assert legal_plays(state) == {"T9"}  # the Geiß is reserved for trick 3
    play(state, "T9")
    assert legal_plays(state) == {"C9", "C8", "S9", "H1", "H2", "D2"}  # no trump: an empty card
    play(state, "C9 T10")
    assert last_trick_winner(state) == 1


def test_buchenbach_tricks_2_and_3() -> None:
    # §6.3: trick 2 belongs to the Mund, trick 3 to the Geiß; from trick 4 the normal rules apply
    state = buchenbach_solo()
    play(state, "T4 T22 T7 T9 C9 T10")
    assert legal_plays(state) == {"T6"}
    play(state, "T6 T21")
    assert legal_plays(state) == {"D1", "D3"}  # seat 3 keeps the Geiß for trick 3 and has no other trump
    play(state, "D1 C8 T11 T5")
    assert last_trick_winner(state) == 2
    assert legal_plays(state) == {"T8"}
    play(state, "T8")
    assert legal_plays(state) == {"T1"}
    play(state, "T1 S9 T12")
    assert legal_plays(state) == {"C10"}  # no trump left: the empty card
    play(state, "C10")
    assert legal_plays(state) == {"S10"}
    play(state, "S10")
    assert last_trick_winner(state) == 5
    assert legal_plays(state) == {"T13", "T14", "T15", "T16"}
    play(state, "T13")
    assert legal_plays(state) == {"CK", "CQ", "CC", "CJ"}  # trick 4: normal rules, no trump: any card


def test_buchenbach_reserved_and_empty_cards() -> None:
    # §6.3: a holder of the 21 or the 1 without other trumps plays suit cards (an empty one if held) and keeps it
    fixed = DappenState._fixed_trick_playable
    mask = DECK.mask_of
    assert fixed(mask(parse_cards("T21 HK HQ C7")), 0) == mask(parse_cards("C7"))
    assert fixed(mask(parse_cards("T21 HK HQ")), 0) == mask(parse_cards("HK HQ"))
    assert fixed(mask(parse_cards("T1 T21 HK")), 1) == mask(parse_cards("T21"))
    assert fixed(mask(parse_cards("T20 T3 HK")), 2) == mask(parse_cards("T20 T3"))


# ------------------------------------------------------------------ counting (§7)


def test_lone_player_without_a_trick_loses_the_dapp() -> None:
    # §7.1: the Dapp belongs to the lone player unless they take no trick; then everything goes to the opponents
    hands = {
        0: "C7 C8 C9 C10 S7 S8 S9",
        1: "CK CQ CC CJ SK SQ SC",
        2: "T22 T21 T20 T19 T18 T17 T16",
        3: "HK HQ HC HJ H1 H2 H3",
        4: "DK DQ DC DJ D1 D2 D3",
        5: "T15 T14 T13 T12 SJ S10 H4",
    }
    state = begin_play(solo(deal(game(), hands), 0))
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert all(winner != 0 for *_rest, winner in state.tricks)
    lone, opp, _handed = state.piles()
    assert lone == 0 and opp.bit_count() == 54
    b = state.result().breakdown
    assert b["marsch"] == "opponents" and b["points"] == {"lone": 0, "opponents": 79}
    assert state.result().scores[0] == -200  # a lost Solo is not doubled: 40 to each opponent


def test_dapp_counts_for_the_lone_player() -> None:
    # §4 / §7.1: the untouched Dapp of a Solo counts for the lone player once they have a trick
    state = begin_play(solo(deal(game(), GSTIESS_ALONE), 0))
    play(state, "T21")
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    lone, _opp, _handed = state.piles()
    assert lone & state.card_places()["dapp"] == state.card_places()["dapp"] != 0


def test_gstiesieren_also_when_void_in_the_suit_led() -> None:
    # §6.2 / §10.8: "a trump is required" also when the holder is void in the suit led
    hands = {**GSTIESS_ALONE, 0: "T21 T20 T19 T18 T17 CK H4", 5: "S7 C7 D4 T16 T15 T14 T13"}
    state = begin_play(solo(deal(game(), hands), 0))
    play(state, "H4")
    assert legal_plays(state) == {"T22", "CQ", "CC", "CJ", "C10", "C9", "C8"}
