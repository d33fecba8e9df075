"""Scenario tests for the pack, the seats and the deal (dossier §1, §2)."""

from __future__ import annotations

import pytest

from stich.cards import Card, Rank, Suit, parse_cards
from stich.core.rng import shuffled
from stich.errors import NotationError
from stich.games.dobbm.pack import DECK, FACES, HEARTS, ORDER, POINTS, face, points_of
from stich.games.dobbm.state import active_seats

from .helpers import deal, game, piles


def test_pack_has_36_cards_of_four_suits() -> None:
    # §1 36-card German pack: 4 suits x A 10 K O U 9 8 7 6, one copy each
    assert DECK.size == 36
    assert len(set(FACES)) == 36
    for suit in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS):
        assert sorted(c.rank for c in FACES if c.suit is suit) == sorted(
            [Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE, Rank.EIGHT, Rank.SEVEN, Rank.SIX]
        )


def test_card_points_sum_to_120() -> None:
    # §1 Sau 11, Zehner 10, König 4, Ober 3, Unter 2, the rest 0: 30 per suit, 120 in the pack
    assert [POINTS[face(t)] for t in ("CA", "C10", "CK", "CQ", "CJ", "C9", "C8", "C7", "C6")] == [11, 10, 4, 3, 2, 0, 0, 0, 0]
    for suit in "CSHD":
        assert points_of(sum(1 << face(suit + r) for r in ("A", "10", "K", "Q", "J", "9", "8", "7", "6"))) == 30
    assert sum(POINTS) == 120


def test_hearts_are_permanent_trumps_with_the_same_rank_order() -> None:
    # §1 hearts are trumps in every deal; A 10 K O U 9 8 7 6 in every suit, trumps included
    assert sum(1 << face("H" + r) for r in ("A", "10", "K", "Q", "J", "9", "8", "7", "6")) == HEARTS
    for suit in "CSHD":
        strengths = [ORDER.strength[face(suit + r)] for r in ("A", "10", "K", "Q", "J", "9", "8", "7", "6")]
        assert strengths == sorted(strengths, reverse=True)


def test_deal_gives_eight_cards_each_and_a_dobb_of_four() -> None:
    # §2 two rounds of four to each active player, the last four cards are the Dobb
    g = game()
    state = g.new_state(seed=12, dealer=2)
    assert [state.hand_mask(s).bit_count() for s in range(4)] == [8, 8, 8, 8]
    assert state.talon.bit_count() == 4
    assert g.deal_parts == ("seat 0", "seat 1", "seat 2", "seat 3", "dobb")


def test_deal_is_in_packets_of_four_from_the_dealers_left() -> None:
    # §2 packets of 4, clockwise, starting with the dealer's left; two rounds; then the Dobb
    g = game()
    dealer = 1
    order = shuffled(DECK.physical, 99)
    masks = g.deal(99, dealer)
    expected = [0] * 5
    receivers = [2, 3, 0, 1]
    for packet in range(8):
        seat = receivers[packet % 4]
        for index in order[packet * 4 : packet * 4 + 4]:
            expected[seat] |= 1 << index
    for index in order[32:]:
        expected[4] |= 1 << index
    assert masks == expected


def test_five_players_the_dealer_sits_out() -> None:
    # §2 with five at the table the dealer gets no cards (er feiert); the other four get eight each
    g = game(players=5)
    state = g.new_state(seed=5, dealer=3)
    assert state.hand_mask(3) == 0
    assert [state.hand_mask(s).bit_count() for s in (4, 0, 1, 2)] == [8, 8, 8, 8]
    assert state.active == (4, 0, 1, 2)
    assert state.current_player() == 4  # the dealer's left speaks first


def test_seats_are_numbered_clockwise() -> None:
    # §2 play is clockwise: seat i+1 is the next to act after seat i
    assert active_seats(4, 3) == (0, 1, 2, 3)
    assert active_seats(4, 0) == (1, 2, 3, 0)
    assert active_seats(5, 4) == (0, 1, 2, 3)


def test_explicit_deal_must_hold_the_pack_in_the_right_sizes() -> None:
    # §2 eight cards per active player and four in the Dobb
    g = game()
    good = piles(g, {})
    bad = [good[0][:7], good[1] + [good[0][7]], good[2], good[3], good[4]]
    with pytest.raises(NotationError, match="seat 0 holds 7"):
        g.new_state(hands=bad, dealer=3)
    with pytest.raises(NotationError, match="piles"):
        g.new_state(hands=good[:4], dealer=3)
    g5 = game(players=5)
    hands5 = piles(g5, {}, dealer=0)
    with pytest.raises(NotationError, match="seat 0 holds 0 cards, expected 8"):
        g5.new_state(hands=hands5, dealer=1)


def test_deal_records_keep_the_dobb() -> None:
    # §2 the Dobb is part of the deal: State.dealt lists it after the seats
    state = deal()
    assert set(DECK.cards(state.dealt[4])) == set(parse_cards("S6 D8 D7 D6"))
    assert Card.parse("S6") in DECK.cards(state.talon)
