"""Scenario tests for the bidding, thrown-in deals and the Mußrunde (dossier §3).

Dealer 3 unless said otherwise, so seat 0 (forehand) speaks first.
"""

from __future__ import annotations

import pytest

from stich.errors import IllegalActionError, NotationError

from .helpers import act, deal, game, legal, snapshot


def test_forehand_opens_and_the_calls_go_clockwise() -> None:
    # §3.1 bidding starts with the dealer's left and goes clockwise
    s = deal()
    assert s.current_player() == 0
    act(s, "pass")
    assert s.current_player() == 1
    act(s, "pass")
    assert s.current_player() == 2


def test_first_calls_are_weiter_dobbm_or_solo() -> None:
    # §3.1 no bid yet: weiter (pass), Dobbm or Solo
    assert legal(deal()) == {"pass", "bid dobbm", "bid solo"}


def test_after_a_dobbm_only_solo_or_accept() -> None:
    # §3.1 a Dobbm has been bid: later players may bid Solo or accept (gut); a second Dobbm is not possible
    s = act(deal(), "pass", "bid dobbm")
    assert legal(s) == {"bid solo", "accept"}
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match=r"second Dobbm.*§3.1"):
        s.apply("bid dobbm")
    with pytest.raises(IllegalActionError, match=r"accept it.*§3.1"):
        s.apply("pass")
    assert snapshot(s) == before


def test_accept_needs_a_bid() -> None:
    # §3.1 gut / spiel zu is used only after someone has bid
    s = deal()
    with pytest.raises(IllegalActionError, match=r"nobody has bid yet.*§3.1"):
        s.apply("accept")


def test_each_player_speaks_once_and_the_dobbm_bidder_declares() -> None:
    # §3.1 each player speaks exactly once; with no Solo the Dobbm bidder is the declarer
    s = act(deal(), "pass", "bid dobbm", "accept", "accept")
    assert s.phase_name == "exchange"
    assert s.declarer == 1 and s.contract == "dobbm"
    assert s.bids == {0: "pass", 1: "dobbm", 2: "accept", 3: "accept"}


def test_solo_over_dobbm_makes_the_solo_bidder_declarer() -> None:
    # §3.1 the declarer is the player who bid Solo, if anyone did
    s = act(deal(), "bid dobbm", "accept", "bid solo")
    assert s.declarer == 2 and s.contract == "solo"
    assert s.phase_name == "doubling"


def test_solo_ends_the_bidding_as_later_players_could_only_accept() -> None:
    # §3.1 a Solo has been bid: later players can only accept, so they are not asked (docs/decisions/0011-dobbm.md)
    s = act(deal(), "bid solo")
    assert s.declarer == 0 and s.phase_name == "doubling"
    assert 1 not in s.bids


def test_a_player_who_passed_cannot_speak_again() -> None:
    # §3.1 nobody can raise an earlier bid: forehand's pass is final even after a Dobbm behind
    s = act(deal(), "pass", "bid dobbm", "accept", "accept")
    assert s.current_player() == 1  # the exchange, not another call of seat 0
    assert s.bids[0] == "pass"


def test_all_pass_at_four_throws_the_cards_in_without_payment() -> None:
    # §3.2 4 players: all pass, the cards are thrown in and the same dealer deals again
    s = act(deal(), "pass", "pass", "pass", "pass")
    assert s.is_terminal() and s.thrown
    result = s.result()
    assert result.scores == (0, 0, 0, 0)
    assert result.breakdown["kind"] == "all_pass"
    assert result.breakdown["next_dealer"] == 3


def test_all_pass_at_five_the_new_dealer_collects_a_stockerl() -> None:
    # §3.2 5 players: the deal passes to the left and the new dealer collects a Stockerl (stake 12: 2 units) from each of the other four
    g = game(players=5)
    s = deal(g, {}, dealer=2)
    act(s, "pass", "pass", "pass", "pass")
    result = s.result()
    assert result.breakdown["next_dealer"] == 3
    assert result.breakdown["collector"] == 3
    assert result.breakdown["stockerl"] == 2
    assert result.scores == (-2, -2, -2, 8, -2)


def test_stockerl_follows_the_stake_and_can_be_switched_off() -> None:
    # §3.2 the Stockerl is what 10 points over 60 pay (stake 60: 10 units); option stockerl_5p
    s = act(deal(game(players=5, match_stake=60, payment_rounding="exact"), {}, dealer=0), "pass", "pass", "pass", "pass")
    assert s.result().scores == (-10, 40, -10, -10, -10)  # dealer 0 -> seat 1 deals next and collects
    s = act(deal(game(players=5, stockerl_5p=False), {}, dealer=0), "pass", "pass", "pass", "pass")
    assert s.result().scores == (0, 0, 0, 0, 0)
    assert s.result().breakdown["next_dealer"] == 1


def test_mussrunde_forces_the_dealers_left_to_declare() -> None:
    # §3.4 in the Mußrunde the active player on the dealer's left must be declarer and chooses Dobbm or Solo
    s = deal(context={"forced_declarer": 0})
    assert legal(s) == {"bid dobbm", "bid solo"}
    with pytest.raises(IllegalActionError, match=r"Mußrunde.*§3.4"):
        s.apply("pass")
    act(s, "bid dobbm")
    assert s.declarer == 0 and s.phase_name == "exchange"  # nobody else bids (§10.9)


def test_mussrunde_overbid_option_lets_the_others_bid_solo() -> None:
    # §3.4 / §10.9 option mussrunde_allow_overbid: the others may still bid Solo over the forced Dobbm
    s = deal(game(mussrunde_allow_overbid=True), context={"forced_declarer": 0})
    act(s, "bid dobbm")
    assert legal(s) == {"bid solo", "accept"}
    act(s, "accept", "bid solo")
    assert s.declarer == 2 and s.contract == "solo"


def test_forced_declarer_must_be_the_dealers_left() -> None:
    # §3.4 only the dealer's left is forced
    with pytest.raises(NotationError, match="forced_declarer"):
        deal(context={"forced_declarer": 2})
