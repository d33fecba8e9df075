"""Card notation and decks: round trips (Hypothesis properties) and errors on malformed text."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stich.cards import MAX_TAROCK, Card, Deck, Rank, Suit, format_cards, iter_bits, parse_card, parse_cards
from stich.errors import NotationError, StichError
from stich.games.doppelkopf.contracts import DECK_40, DECK_48, FACES

PLAIN_SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)

plain_cards = st.builds(Card, st.sampled_from(PLAIN_SUITS), st.sampled_from(list(Rank)).map(int))
tarock_cards = st.builds(Card, st.just(Suit.TAROCK), st.integers(1, MAX_TAROCK))
cards = plain_cards | tarock_cards


# ----------------------------------------------------------------------------- round trips


@given(cards)
def test_card_text_round_trip(card: Card) -> None:
    assert parse_card(card.text) == card
    assert Card.parse(str(card)) == card


@given(cards, st.sampled_from(["", " ", "  ", "\t"]), st.booleans())
def test_parse_ignores_case_and_outer_space(card: Card, pad: str, lower: bool) -> None:
    text = card.text.lower() if lower else card.text
    assert parse_card(f"{pad}{text}{pad}") == card


@given(st.lists(cards, max_size=30), st.sampled_from([" ", ", ", ",", "  \n"]))
def test_card_list_round_trip(hand: list[Card], sep: str) -> None:
    text = format_cards(hand)
    assert parse_cards(text) == hand
    assert parse_cards(sep.join(c.text for c in hand)) == hand
    assert format_cards(tuple(hand)) == text


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=6))
def test_parse_arbitrary_ascii_text_is_a_card_or_a_notation_error(text: str) -> None:
    try:
        card = parse_card(text)
    except NotationError:
        return
    assert parse_card(card.text) == card
    assert card.text == card.text.upper()


@pytest.mark.parametrize("text", ["T²", "T01", "T0", "T٣"])
def test_parse_non_canonical_tarock_number_is_a_notation_error(text: str) -> None:
    # Only canonical ASCII numbers without leading zeros parse, so every card has one text form.
    with pytest.raises(NotationError):
        parse_card(text)


def test_every_doppelkopf_face_round_trips() -> None:
    texts = [c.text for c in FACES]
    assert texts[:6] == ["CA", "C10", "CK", "CQ", "CJ", "C9"]
    assert [parse_card(t) for t in texts] == list(FACES)
    assert len(set(FACES)) == 24


def test_tarock_and_cavalier_notation() -> None:
    assert parse_card("T21") == Card(Suit.TAROCK, 21)
    assert parse_card("sc") == Card(Suit.SPADES, Rank.CAVALIER)
    assert Card(Suit.TAROCK, 1).display() == "Pagat"
    assert Card(Suit.TAROCK, 22).display() == "Sküs"
    assert Card(Suit.HEARTS, Rank.TEN).display() == "♥10"
    assert Card(Suit.CLUBS, Rank.QUEEN).display(german_suits=True) == "EO"  # Eichel-Ober


def test_card_order_is_by_suit_then_rank() -> None:
    assert sorted(parse_cards("HA CQ C9 T1")) == parse_cards("C9 CQ HA T1")


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize("text", ["", "C", "X1", "H11", "HQQ", "10H", "T0", "T23", "T-1", "Q", "CB", "H 10", "♥10"])
def test_malformed_card_text(text: str) -> None:
    with pytest.raises(NotationError):
        parse_card(text)


def test_malformed_card_in_list_names_the_token() -> None:
    with pytest.raises(NotationError, match="XX"):
        parse_cards("CQ H10 XX DA")


@pytest.mark.parametrize(("suit", "rank"), [(Suit.TAROCK, 0), (Suit.TAROCK, 23), (Suit.HEARTS, 0), (Suit.HEARTS, 16)])
def test_invalid_card_values(suit: Suit, rank: int) -> None:
    with pytest.raises(NotationError):
        Card(suit, rank)


def test_notation_error_is_a_stich_error_and_a_value_error() -> None:
    with pytest.raises(StichError):
        parse_card("nope")
    with pytest.raises(ValueError):
        parse_card("nope")


# ----------------------------------------------------------------------------- decks


def test_doppelkopf_decks() -> None:
    assert (DECK_48.size, DECK_40.size) == (48, 40)
    assert Counter(DECK_48.cards(DECK_48.full_mask)) == Counter({face: 2 for face in FACES})
    assert all(c.rank != Rank.NINE for c in DECK_40.cards(DECK_40.full_mask))
    assert DECK_48.card(0) == DECK_48.card(24) == parse_card("CA")


@given(st.integers(0, (1 << 48) - 1))
def test_deck_mask_round_trip(mask: int) -> None:
    faces = DECK_48.cards(mask)
    assert len(faces) == mask.bit_count()
    rebuilt = DECK_48.mask_of(faces)
    assert Counter(DECK_48.cards(rebuilt)) == Counter(faces)
    assert DECK_48.faces_of(rebuilt) == DECK_48.faces_of(mask)


@given(st.lists(st.sampled_from(FACES), max_size=40))
def test_deck_mask_of_takes_next_copy(faces: list[Card]) -> None:
    counts = Counter(faces)
    if max(counts.values(), default=0) > 2:
        with pytest.raises(NotationError, match="more often"):
            DECK_48.mask_of(faces)
        return
    mask = DECK_48.mask_of(faces)
    assert mask.bit_count() == len(faces)
    assert Counter(DECK_48.cards(mask)) == counts


def test_deck_rejects_removed_and_unknown_cards() -> None:
    with pytest.raises(NotationError, match="C9"):
        DECK_40.mask_of(parse_cards("C9"))
    with pytest.raises(NotationError, match="not in this pack"):
        DECK_48.mask_of(parse_cards("T1"))
    with pytest.raises(ValueError):
        Deck((parse_card("CA"), parse_card("CA")))


@given(st.integers(0, (1 << 64) - 1))
def test_iter_bits(mask: int) -> None:
    bits = iter_bits(mask)
    assert bits == sorted(bits)
    assert sum(1 << b for b in bits) == mask


def test_inline_shuffle_matches_the_generator() -> None:
    # core.rng.shuffled writes SplitMix64 out inline; it must equal the generator's Fisher-Yates
    from stich.core.rng import SplitMix64, shuffled

    for seed in (0, 1, 2**63, 2**64 - 1, 123456789):
        items = list(range(48))
        expected = list(items)
        gen = SplitMix64(seed)
        for i in range(len(expected) - 1, 0, -1):
            j = gen.below(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert shuffled(items, seed) == expected


def test_deck_cards_order_does_not_reveal_copies() -> None:
    # a hand shown to a player lists faces in pack order, whichever physical copies it holds
    from stich.games.doppelkopf.contracts import DECK_48, N_FACES, face

    cq, ha = face("CQ"), face("HA")
    first_copies = (1 << cq) | (1 << (ha + N_FACES))
    other_copies = (1 << (cq + N_FACES)) | (1 << ha)
    assert DECK_48.cards(first_copies) == DECK_48.cards(other_copies) == [parse_card("CQ"), parse_card("HA")]


@given(st.integers(min_value=0, max_value=(1 << 48) - 1))
def test_a_hand_is_the_cards_of_its_mask_and_the_same_on_every_call(mask: int) -> None:
    mask &= DECK_48.full_mask
    hand = DECK_48.hand(mask)
    assert hand == tuple(DECK_48.cards(mask))
    assert DECK_48.hand(mask) is hand  # remembered: observations ask for unchanged hands at every step


def test_the_remembered_hands_stay_bounded() -> None:
    deck = Deck(FACES, copies=2)
    for mask in range(Deck.HANDS_KEPT + 10):
        assert deck.hand(mask) == tuple(deck.cards(mask))
    assert len(deck._hands) <= Deck.HANDS_KEPT
