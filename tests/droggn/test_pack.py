"""The Droggn pack, card points, counting in threes and the trick order (dossier §1, §7)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from stich.cards import Card, parse_card
from stich.core.tricks import EXCUSE, TRUMP, trick_winner
from stich.games.droggn.pack import (
    BY_NAME,
    CONTRACTS,
    DECK_66,
    DECK_78,
    FACES,
    POINTS,
    count_points,
    face_of,
    face_value,
    mask_of,
    pile_points,
    play_order,
    total_points,
)

ORDER = play_order(66)


def _strength(text: str) -> int:
    return ORDER.strength[face_of(text)]


def test_pack_has_66_cards() -> None:
    # §1 21 trumps + Gstieß + 4 suits of 11 = 66 cards
    cards = DECK_66.cards(DECK_66.full_mask)
    assert len(cards) == 66
    assert sum(1 for c in cards if c.text.startswith("T")) == 22
    for suit in "CSHD":
        assert sum(1 for c in cards if c.text.startswith(suit)) == 11


def test_66_pack_removes_the_three_lowest_of_each_suit() -> None:
    # §1 black suits lose 3 2 1, red suits lose 8 9 10 (red 1 is the highest pip)
    present = {c.text for c in DECK_66.cards(DECK_66.full_mask)}
    for gone in ("C3", "C2", "C1", "S1", "H8", "H9", "H10", "D10"):
        assert gone not in present
    for kept in ("C4", "C10", "S4", "H1", "H7", "D7", "DK", "SC"):
        assert kept in present


def test_card_points_and_totals() -> None:
    # §1 Trull and kings 5, queens 4, Reiter 3, Buben 2, others 1: 118 in all, 74 counted in threes
    values = {c.text: POINTS[face_of(c.text)] for c in DECK_66.cards(DECK_66.full_mask)}
    texts = ("T21", "T1", "T22", "T2", "T20", "SK", "HQ", "DC", "CJ", "C10", "H1", "D7")
    assert [values[t] for t in texts] == [5, 5, 5, 1, 1, 5, 4, 3, 2, 1, 1, 1]
    assert face_value(DECK_66.full_mask) == 118
    assert total_points(DECK_66) == 74


def test_78_card_pack_counts_78() -> None:
    # §9 deck_size=78: 130 in face values, 26 threes, 78 card points (39 to win)
    assert DECK_78.size == 78
    assert face_value(DECK_78.full_mask) == 130
    assert total_points(DECK_78) == 78


def test_counting_in_threes_seed_example() -> None:
    # §7 (seed text) a king, a Bube and the three of hearts: 5 + 2 + 1 - 2 = 6
    assert pile_points(mask_of("HK HJ H3")) == 6


def test_counting_leftovers() -> None:
    # §7 two leftover cards count their sum minus 1, one leftover card its value minus 1
    assert pile_points(mask_of("SK SQ")) == 8
    assert pile_points(mask_of("T21")) == 4
    assert pile_points(mask_of("SK SQ SC T21")) == 5 + 4 + 3 - 2 + 5 - 1
    assert count_points(0, 0) == 0


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=65)))
def test_split_piles_always_total_74(indices: set[int]) -> None:
    # §7 however the 66 cards are split between the sides, the two piles count 74 together
    physical = DECK_66.physical
    mask = sum(1 << physical[i] for i in indices)
    assert pile_points(mask) + pile_points(DECK_66.full_mask & ~mask) == 74


def test_trump_order_and_gstiess_is_an_excuse() -> None:
    # §1, §10.3 trumps rank by number (Mond XXI highest, Pagat I lowest); the Gstieß is no trump but an excuse
    assert ORDER.eff[face_of("T21")] == TRUMP and ORDER.eff[face_of("T1")] == TRUMP
    assert _strength("T21") > _strength("T20") > _strength("T2") > _strength("T1")
    assert ORDER.eff[face_of("T22")] == EXCUSE


def test_suit_orders() -> None:
    # §1 black K Q R B 10..4, red K Q R B 1 2 .. 7 (the red ace is the highest pip)
    black = ["CK", "CQ", "CC", "CJ", "C10", "C9", "C8", "C7", "C6", "C5", "C4"]
    red = ["HK", "HQ", "HC", "HJ", "H1", "H2", "H3", "H4", "H5", "H6", "H7"]
    for order in (black, red):
        strengths = [_strength(t) for t in order]
        assert strengths == sorted(strengths, reverse=True)


def test_trick_winner_highest_trump_else_highest_of_suit_led() -> None:
    # §6.1 the highest trump wins; otherwise the highest card of the suit led
    def winner(text: str) -> int:
        return trick_winner(ORDER, [face_of(t) for t in text.split()])

    assert winner("H7 H1 SK") == 1
    assert winner("H7 T2 HK") == 1
    assert winner("SK T22 S4") == 0


def test_contracts_low_to_high() -> None:
    # §3.1 Ansager 20 < Solo 40 < Super 80 < Super Mord; talon and buying as in the table
    assert [c.name for c in CONTRACTS] == ["ansager", "solo", "super", "super_mord"]
    assert [c.value for c in CONTRACTS[:3]] == [20, 40, 80]
    assert [(c.exchange, c.buy) for c in CONTRACTS] == [(True, True), (True, False), (False, False), (False, False)]
    assert BY_NAME["super_mord"].mord


def test_face_table_round_trips() -> None:
    # §1 every face of the 78-card table has its own text
    assert len({c.text for c in FACES}) == 78
    assert all(parse_card(c.text) == c for c in FACES)
    assert isinstance(FACES[0], Card)
