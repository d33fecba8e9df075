"""Scenario tests of the pack, the seating and the deal (dossier §1, §2, §8.4)."""

from __future__ import annotations

import pytest

from stich.cards import parse_cards
from stich.errors import NotationError, OptionError
from stich.games.dappen.pack import DECK, FIVES, POINTS, TOTAL_POINTS, has_trump_stop
from stich.games.dappen.scoring import pair_points, thirds

from .helpers import game, rest_of_pack


def test_pack_has_54_cards_worth_106() -> None:
    # §1: the 54-card Cego pack, face values summing to 106
    assert DECK.size == 54
    assert TOTAL_POINTS == 106
    assert sum(POINTS) == 106


def test_seven_five_pointers() -> None:
    # §1: the five-pointers are Gstieß, Mund, Geiß and the four kings
    fives = {c.text for c in DECK.cards(FIVES)}
    assert fives == {"T22", "T21", "T1", "CK", "SK", "HK", "DK"}


def test_card_values() -> None:
    # §1: queens 4, cavaliers 3, jacks 2, the rest 1
    value = {c.text: POINTS[DECK.face_index[c]] for c in DECK.faces}
    assert (value["CQ"], value["HC"], value["DJ"], value["S7"], value["H1"], value["T20"]) == (4, 3, 2, 1, 1, 1)


def test_pair_counting_totals() -> None:
    # §1: in pairs the pack counts 79, or 78 when both piles are odd (seven players)
    assert pair_points(106, 54) == 79
    assert pair_points(60, 27) + pair_points(46, 27) == 78
    assert pair_points(60, 28) + pair_points(46, 26) == 79


def test_threes_counting_total() -> None:
    # §1: in threes (exact thirds) the pack counts 70
    assert thirds(106, 54) == 210
    assert thirds(50, 25) + thirds(56, 29) == 210


@pytest.mark.parametrize(("players", "hand", "idle"), [(6, 7, False), (7, 6, False), (8, 6, True)])
def test_black_forest_deal_sizes(players: int, hand: int, idle: bool) -> None:
    # §2: 6 players hold 7, 7 players hold 6, the Dapp has 12; at 8 the dealer sits out
    g = game(players=players)
    dealer = 2
    state = g.new_state(seed=11, dealer=dealer)
    for seat in range(players):
        expected = 0 if idle and seat == dealer else hand
        assert state.hand_mask(seat).bit_count() == expected
    assert state.card_places()["dapp"].bit_count() == 12
    assert g.deal_parts[-1] == "dapp"


@pytest.mark.parametrize(("players", "hand", "talon"), [(3, 16, 6), (4, 12, 6), (5, 9, 9), (6, 7, 12), (7, 6, 12)])
def test_jeu_du_tarot_deal_table(players: int, hand: int, talon: int) -> None:
    # §8.4: the Mainz notes' deal table for 3 to 7 players
    g = game("jeu_du_tarot", players=players)
    assert (g.hand_size, g.dapp_size) == (hand, talon)
    state = g.new_state(seed=5, dealer=0)
    assert all(state.hand_mask(s).bit_count() == hand for s in range(players))


def test_deal_starts_on_the_dealers_right() -> None:
    # §2: dealing, bidding and play go anticlockwise from the dealer's right (seat dealer + 1)
    g = game()
    state = g.new_state(seed=3, dealer=4)
    assert state.active == (5, 0, 1, 2, 3, 4)
    assert state.current_player() == 5


def test_dealt_packets_follow_the_deal_table() -> None:
    # §2: 6 players: 4 each, 6 to the Dapp, 3 each, 6 to the Dapp
    from stich.core.rng import shuffled

    g = game()
    cards = shuffled(DECK.physical, 99)
    piles = g.deal(99, 5)
    assert piles[0] >> cards[0] & 1 and piles[1] >> cards[4] & 1
    assert piles[6] >> cards[24] & 1 and piles[6] >> cards[29] & 1
    assert piles[0] >> cards[30] & 1


def test_dapp_first_lays_the_dapp_packet_first() -> None:
    # §2 option dapp_first: 6 to the Dapp before each batch to the players
    from stich.core.rng import shuffled

    g = game(dapp_first=True)
    cards = shuffled(DECK.physical, 99)
    piles = g.deal(99, 5)
    assert all(piles[6] >> c & 1 for c in cards[:6])
    assert piles[0] >> cards[6] & 1


def test_idle_dealer_gets_no_cards_in_an_explicit_deal() -> None:
    # §2: at 8 players the dealer sits out
    g = game(players=8)
    hands = [""] * 8
    texts = rest_of_pack()
    cards = texts.split()
    at = 0
    for seat in range(8):
        if seat == 7:
            continue
        hands[seat] = " ".join(cards[at : at + 6])
        at += 6
    state = g.new_state(hands=[parse_cards(h) for h in [*hands, " ".join(cards[at:])]], dealer=7)
    assert state.idle == 7
    assert 7 not in state.active
    hands[7], hands[0] = hands[0], ""
    with pytest.raises(NotationError, match="sits out"):
        g.new_state(hands=[parse_cards(h) for h in [*hands, " ".join(cards[at:])]], dealer=7)


def test_explicit_deal_sizes_are_checked() -> None:
    # §2: each active player holds 7 (6 players), the Dapp 12
    g = game()
    cards = rest_of_pack().split()
    hands = [" ".join(cards[i * 7 : i * 7 + 7]) for i in range(6)]
    hands[0] += " " + cards[42]
    with pytest.raises(NotationError):
        g.new_state(hands=[parse_cards(h) for h in [*hands, " ".join(cards[43:])]], dealer=5)


@pytest.mark.parametrize(
    ("preset", "options", "word"),
    [
        ("furtwangen", {"players": 5}, "black_forest"),
        ("schollach", {"players": 8}, "max_active"),
        ("furtwangen", {"gstiesieren": True, "first_three_tricks": True}, "exclude"),
        ("furtwangen", {"raise_levels": "hannes_ladder"}, "factor"),
        ("jeu_du_tarot", {"game_scale": "half"}, "game_scale"),
        ("breitnau", {"game_scale": "half"}, "game_scale"),  # issue 29 fix 3: the half game is §8.1 only
        ("buchenbach", {"game_scale": "half"}, "game_scale"),
        ("furtwangen", {"solo": False, "solo_stretch": True}, "solo"),
        ("buchenbach", {"ulti": "1_2_3"}, "ulti"),
        ("breitnau", {"compulsory_enforcement": "penalty_marsch"}, "compulsory_a"),
        ("jeu_du_tarot", {"solo": True}, "factor"),
    ],
)
def test_contradictory_options_are_rejected(preset: str, options: dict[str, object], word: str) -> None:
    # §9: contradictions are rejected with a message naming the options
    with pytest.raises(OptionError, match=word):
        game(preset, **options)


def test_schollach_seven_at_the_table_idles_the_dealer() -> None:
    # §3.5: Schollach is for 6; with 7 at the table the dealer sits out
    g = game("schollach", players=7)
    state = g.new_state(seed=1, dealer=3)
    assert len(state.active) == 6 and state.idle == 3


def test_trump_stop_rule() -> None:
    # §3.2.5 (a): T + H > 22 — Gstieß alone; 21 and one more; 20 and two more; 19 and three more
    assert has_trump_stop(DECK.mask_of(parse_cards("T22 C7")))
    assert has_trump_stop(DECK.mask_of(parse_cards("T21 T2")))
    assert not has_trump_stop(DECK.mask_of(parse_cards("T21 C7")))
    assert has_trump_stop(DECK.mask_of(parse_cards("T20 T3 T2")))
    assert not has_trump_stop(DECK.mask_of(parse_cards("T20 T3 C7")))
    assert has_trump_stop(DECK.mask_of(parse_cards("T19 T4 T3 T2")))
    assert not has_trump_stop(DECK.mask_of(parse_cards("T19 T4 T3 C7")))
