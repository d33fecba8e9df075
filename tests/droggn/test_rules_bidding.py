"""Scenario tests: seats, dealing and bidding (dossier §2, §3)."""

from __future__ import annotations

import pytest

from stich.cards import parse_cards
from stich.errors import IllegalActionError, NotationError
from stich.games.droggn.game import PATTERNS

from .helpers import act, bid, deal, fill, game, legal, snapshot


def test_deal_gives_21_cards_each_and_a_talon_of_3() -> None:
    # §2 three rounds of 7 to each player, the last 3 cards form the talon
    g = game()
    piles = g.deal(seed=11, dealer=0)
    assert [p.bit_count() for p in piles] == [21, 21, 21, 3]
    assert sum(piles) == g.deck.full_mask
    assert g.deal_parts == ("seat 0", "seat 1", "seat 2", "talon")


def test_deal_is_clockwise_from_the_dealers_left() -> None:
    # §2 the first packet of 7 goes to the dealer's left (seat dealer+1), the talon comes last
    from stich.core.rng import shuffled

    g = game()
    order = shuffled(g.deck.physical, 5)
    piles = g.deal(seed=5, dealer=1)
    first_packet = sum(1 << i for i in order[:7])
    assert piles[2] & first_packet == first_packet
    assert piles[3] == sum(1 << i for i in order[-3:])


def test_deal_patterns() -> None:
    # §9 deal_pattern: every pattern deals 21 cards each and a talon of 3 (25 each with the 78-card pack)
    for pattern in ("7-7-7-talon", "talon_in_middle", "5-5-5-3-3-talon"):
        g = game(deal_pattern=pattern)
        assert [p.bit_count() for p in g.deal(seed=3, dealer=2)] == [21, 21, 21, 3]
        assert sum(s for s in PATTERNS[pattern] if s > 0) == 21
    g78 = game("pack78")
    assert [p.bit_count() for p in g78.deal(seed=3, dealer=2)] == [25, 25, 25, 3]


def test_four_players_the_dealer_sits_out() -> None:
    # §2 with four at the table the dealer gets no cards and takes no part
    g = game(players=4)
    piles = g.deal(seed=7, dealer=3)
    assert [p.bit_count() for p in piles] == [21, 21, 21, 0, 3]
    s = g.new_state(seed=7, dealer=3)
    assert s.active == (0, 1, 2)
    assert s.idle == 3
    assert s.current_player() == 0


def test_explicit_deal_is_checked() -> None:
    # §2 an explicit deal must give 21 cards to each player and 3 to the talon
    g = game()
    piles = fill(g, {})
    piles[0], piles[3] = piles[0][:-1], piles[3] + piles[0][-1:]
    with pytest.raises(NotationError, match="seat 0 holds 20"):
        g.new_state(hands=piles, dealer=2)
    with pytest.raises(NotationError):
        g.new_state(hands=[parse_cards("T1")], dealer=2)


def test_bidding_starts_left_of_the_dealer() -> None:
    # §3.2 bidding starts with the player to the dealer's left and goes clockwise
    s = deal(game(), {}, dealer=1)
    assert s.current_player() == 2
    act(s, "pass")
    assert s.current_player() == 0
    act(s, "pass")
    assert s.current_player() == 1


def test_any_bid_before_a_bid() -> None:
    # §3.2 before any bid: weiter (pass) or any bid
    s = deal(game(), {})
    assert legal(s) == {"pass", "bid ansager", "bid solo", "bid super", "bid super_mord"}


def test_later_bids_must_be_higher_and_may_jump() -> None:
    # §3.2 after a bid a later player may only bid higher (jumps allowed) or accept
    s = deal(game(), {})
    act(s, "bid ansager")
    assert legal(s) == {"pass", "bid solo", "bid super", "bid super_mord"}
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match=r"§3.2"):
        s.apply("bid ansager")
    assert snapshot(s) == before
    act(s, "bid super")
    assert legal(s) == {"pass", "bid super_mord"}


def test_each_player_speaks_once_and_highest_bid_wins() -> None:
    # §3.2 each player speaks once; the highest bid wins, no holding and no second round
    s = deal(game(), {})
    act(s, "bid ansager", "bid solo", "pass")
    assert s.phase_name == "exchange"
    assert s.declarer == 1
    assert s.contract is not None and s.contract.name == "solo"


def test_first_bidder_cannot_raise_own_bid() -> None:
    # §3.2 nobody can raise his own bid: after the third player the bidding is over
    s = deal(game(), {})
    act(s, "bid ansager", "pass", "pass")
    assert s.declarer == 0
    assert s.phase_name == "exchange"


def test_all_pass_throws_the_cards_in() -> None:
    # §3.2 weiter x 3: the cards are thrown in, nobody scores, the same dealer deals again
    s = deal(game(), {})
    act(s, "pass", "pass", "pass")
    assert s.is_terminal()
    result = s.result()
    assert result.scores == (0, 0, 0)
    assert result.breakdown["kind"] == "thrown"
    assert result.breakdown["redeal"] is True


def test_four_players_idle_dealer_does_not_bid() -> None:
    # §2 at four the sitting-out dealer takes no part in the bidding
    s = deal(game(players=4), {}, dealer=0)
    speakers = []
    for _ in range(3):
        speakers.append(s.current_player())
        s.apply("pass")
    assert speakers == [1, 2, 3]


def test_super_takes_no_talon() -> None:
    # §4.3 in a Super the talon stays face down; the declarer goes straight on to laying out / liege
    s = bid(deal(game(), {}), 2, "super")
    assert s.phase_name == "declare"
    assert s.talon.bit_count() == 3
    assert s.hand_mask(2).bit_count() == 21
