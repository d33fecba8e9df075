"""Scenario tests for the pack, the seats and the deal (dossier §1, §2)."""

from __future__ import annotations

import pytest

from stich.cards import parse_card, parse_cards
from stich.core.tricks import TRUMP
from stich.errors import NotationError
from stich.games.tapp_tarock.pack import CONTRACTS, DECK, FACES, ORDER, TOTAL_POINTS, card_points, thirds

from .helpers import PACK, act, deal, game, legal, legal_plays, play, to_play

STRONG = "T22 T21 T20 T19 T18 T17 T16 T15 T14 T13 T1 CK CQ HK H1 DK"
MIDDLE = "T12 T11 T10 T9 T8 C10 C9 C8 C7 SK SQ SC SJ S10 S9 S8"
REAR = "T7 T6 T5 T4 HQ HC HJ H2 H3 H4 DQ DC DJ D1 D2 D3"


def test_pack_has_54_cards() -> None:
    # §1: 22 tarocks and four suits of eight cards, one copy each
    assert DECK.size == 54
    assert sum(1 for c in FACES if ORDER.eff[FACES.index(c)] == TRUMP) == 22
    assert PACK.split()[:3] == ["T1", "T2", "T3"]
    assert {c.text for c in FACES if c.suit.letter == "H"} == {"HK", "HQ", "HC", "HJ", "H1", "H2", "H3", "H4"}
    assert {c.text for c in FACES if c.suit.letter == "C"} == {"CK", "CQ", "CC", "CJ", "C10", "C9", "C8", "C7"}


def test_card_points_total_106_and_70() -> None:
    # §1: face values add up to 106; counted in threes the pack holds 70 points
    assert sum(card_points(c) for c in FACES) == 106
    assert thirds(list(FACES)) == 3 * TOTAL_POINTS


def test_card_values() -> None:
    # §1: Trull cards and kings 5, queens 4, cavalls 3, jacks 2, everything else 1
    values = {t: card_points(parse_card(t)) for t in ("T22", "T21", "T1", "T2", "T20", "SK", "DQ", "HC", "CJ", "H1", "C7")}
    assert values == {"T22": 5, "T21": 5, "T1": 5, "T2": 1, "T20": 1, "SK": 5, "DQ": 4, "HC": 3, "CJ": 2, "H1": 1, "C7": 1}


def test_contract_ladder() -> None:
    # §3.1: Dreier < Unterer < Oberer < Solo, worth 3, 4, 5, 8; only Solo plays without the talon
    assert [(c.name, c.value, c.talon) for c in CONTRACTS] == [
        ("dreier", 3, True),
        ("unterer", 4, True),
        ("oberer", 5, True),
        ("solo", 8, False),
    ]


def test_seeded_deal_has_two_talon_halves_and_16_cards_each() -> None:
    # §2: six talon cards in two packets of three, then 16 cards to each player
    g = game()
    assert g.deal_parts == ("seat 0", "seat 1", "seat 2", "talon_lower", "talon_upper")
    piles = g.deal(seed=11, dealer=1)
    assert [p.bit_count() for p in piles] == [16, 16, 16, 3, 3]
    union = 0
    for p in piles:
        assert not union & p
        union |= p
    assert union == g.deck.full_mask


def test_forehand_is_the_dealers_next_seat() -> None:
    # §2: forehand sits after the dealer in the direction of play and speaks first; the dealer speaks last
    state = deal(game(), {0: STRONG, 1: MIDDLE, 2: REAR}, dealer=1)
    assert state.active == (2, 0, 1)
    assert state.current_player() == 2
    act(state, "pass")
    assert state.current_player() == 0
    act(state, "pass")
    assert state.current_player() == 1


def test_red_pips_rank_ace_high() -> None:
    # §1: red suits rank K Q C J 1 2 3 4 (the 1 is the ace)
    state = deal(game(), {0: "T22 T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 H4", 1: "H1 C7", 2: "H2 S7"})
    to_play(act(state, "bid solo"))
    play(state, "H4 H1 H2")
    assert state.tricks[-1][2] == 1


def test_black_pips_rank_ten_high() -> None:
    # §1: black suits rank K Q C J 10 9 8 7
    state = deal(game(), {0: "T22 T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 C7", 1: "C10 H1", 2: "CJ S7"})
    to_play(act(state, "bid solo"))
    play(state, "C7 C10 CJ")
    assert state.tricks[-1][2] == 2


def test_skues_is_the_highest_trump_and_must_follow_like_one() -> None:
    # §1: the Sküs is not an excuse: it is tarock XXII, it follows the tarock rules and nothing beats it
    state = deal(game(), {0: "T21 C7", 1: "T22 CK"}, dealer=2)
    to_play(act(state, "bid solo"))
    play(state, "C7")
    plays = legal_plays(state)
    assert "T22" not in plays and plays and all(card.startswith("C") for card in plays)
    state2 = deal(game(), {0: "T21 C7", 1: "T22 HK"}, dealer=2)
    to_play(act(state2, "bid solo"))
    play(state2, "T21")
    assert all(card.startswith("T") for card in legal_plays(state2))  # a tarock lead asks for a tarock, the Sküs included
    play(state2, "T22")
    state2.apply(state2.legal_actions()[0])
    assert state2.tricks[-1][2] == 1


def test_explicit_deal_must_hold_16_cards_per_player_and_3_per_half() -> None:
    # §2: 16 cards to each player, talon halves of three
    g = game()
    cards = parse_cards(PACK)
    with pytest.raises(NotationError, match="seat 0 holds 15"):
        g.new_state(hands=[cards[:15], cards[15:31], cards[31:47], cards[47:51], cards[51:]], dealer=2)
    with pytest.raises(NotationError, match="talon_lower holds 2"):
        g.new_state(hands=[cards[:16], cards[16:32], cards[32:48], cards[48:50], cards[50:]], dealer=2)


def test_four_players_the_dealer_sits_out() -> None:
    # §2: at a table of four the dealer gets no cards and takes no part in the deal
    g = game(fourth_player="dealer_sits_out")
    assert g.num_seats == 4
    piles = g.deal(seed=5, dealer=3)
    assert [p.bit_count() for p in piles] == [16, 16, 16, 0, 3, 3]
    state = g.new_state(seed=5, dealer=3)
    assert state.active == (0, 1, 2)
    state = g.new_state(seed=5, dealer=1)
    assert state.active == (2, 3, 0)
    assert "bid dreier" in legal(state)
