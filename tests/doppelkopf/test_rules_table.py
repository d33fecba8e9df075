"""Scenario tests for the table and the pack: five players (dossier §2.1, TSR 10) and 40 cards (§1.1)."""

from __future__ import annotations

import pytest

from stich.cards import parse_cards
from stich.errors import NotationError

from .helpers import act, deal_hands, fill, game, play_out, public


@pytest.mark.parametrize("dealer", range(5))
def test_five_players_dealer_gets_no_cards(dealer: int) -> None:
    # §2.1 at a 5-player table the dealer gets no cards; the other four get 12 each (TSR 10.1)
    g = game(players=5)
    s = g.new_state(seed=1000 + dealer, dealer=dealer)
    sizes = [len(s.observation(seat).hand) for seat in range(5)]
    assert sizes == [0 if seat == dealer else 12 for seat in range(5)]
    assert public(s)["active"] == [(dealer + i) % 5 for i in range(1, 5)]
    assert s.current_player() == (dealer + 1) % 5


def test_five_players_dealer_sits_out_and_scores_zero() -> None:
    # §2.1 / §7.5 the idle dealer never acts and scores 0; the four others are zero-sum (TSR 10.1, 7.3.3)
    g = game(players=5)
    s = deal_hands(g, fill({}, seats=5, dealer=2), dealer=2)
    assert s.observation(2).legal_actions == ()
    movers = set()
    while not s.is_terminal():
        movers.add(s.current_player())
        actions = s.legal_actions()
        quiet = [a for a in actions if a.kind != "announce"]
        s.apply((quiet or actions)[0])
    assert movers == {3, 4, 0, 1}
    scores = s.result().scores
    assert scores[2] == 0
    assert sum(scores) == 0
    assert any(scores)


def test_five_players_explicit_deal_must_leave_dealer_empty() -> None:
    # §2.1 an explicit 5-player deal that gives the dealer cards is rejected
    g = game(players=5)
    hands = fill({}, seats=5, dealer=2)
    with pytest.raises(NotationError, match="dealer"):
        g.new_state(hands=hands, dealer=0)


def test_five_players_lustsolo_led_by_dealers_left_among_players() -> None:
    # §2.1 the dealer's left neighbour among the active players leads a Lustsolo
    g = game(players=5)
    s = deal_hands(g, fill({}, seats=5, dealer=4), dealer=4, context={"owes_solo": [False] * 5})
    act(s, "gesund", "gesund", "vorbehalt", "gesund", "solo damen")
    assert s.current_player() == 0


def test_without_nines_ten_cards_and_ten_tricks() -> None:
    # §1.1 [VAR] 40-card pack: 10 cards each, 10 tricks, no nines dealt
    g = game(nines=False)
    s = g.new_state(seed=7, dealer=0)
    for seat in range(4):
        hand = s.observation(seat).hand
        assert len(hand) == 10
        assert all(c.text[1:] != "9" for c in hand)
    play_out(s)
    assert len(s.observation(0).tricks) == 10
    assert sum(s.result().scores) == 0


def test_without_nines_eyes_still_240() -> None:
    # §1.1 the pack holds 240 eyes with or without nines (nines are worth 0)
    for nines in (True, False):
        s = play_out(game(nines=nines).new_state(seed=3, dealer=1))
        eyes = s.result().breakdown["eyes"]
        assert eyes["re"] + eyes["kontra"] == 240


def test_without_nines_rejects_a_nine() -> None:
    # §1.1 an explicit 40-card deal cannot hold a nine
    g = game(nines=False)
    hands = fill({}, nines=False)
    hands[0][0] = parse_cards("C9")[0]
    with pytest.raises(NotationError):
        g.new_state(hands=hands, dealer=3)


def test_explicit_deal_checks_sizes_and_the_pack() -> None:
    # §2.1 an explicit deal must hold every card of the pack once, 12 per player
    g = game()
    hands = fill({})
    short = [hands[0][:-1], hands[1], hands[2], [*hands[3], hands[0][-1]]]
    with pytest.raises(NotationError, match="cards"):
        g.new_state(hands=short, dealer=3)
    doubled = [hands[0], hands[1], hands[2], [*hands[3][:-1], hands[0][0]]]
    with pytest.raises(NotationError):
        g.new_state(hands=doubled, dealer=3)
    with pytest.raises(NotationError):
        g.new_state(hands=hands[:3], dealer=3)
    with pytest.raises(NotationError):
        g.new_state(dealer=3)
    with pytest.raises(NotationError, match="dealer"):
        g.new_state(seed=1, dealer=4)


def test_seeded_deal_is_reproducible() -> None:
    # DESIGN: the same seed and dealer always give the same deal
    g = game()
    a, b = g.new_state(seed=42, dealer=1), g.new_state(seed=42, dealer=1)
    assert [s.hand_mask(seat) for seat in range(4) for s in (a,)] == [b.hand_mask(seat) for seat in range(4)]
    assert [a.hand_mask(seat) for seat in range(4)] != [g.new_state(seed=43, dealer=1).hand_mask(seat) for seat in range(4)]
