"""The shared trick-play tables (stich.core.tricks) on a small tarock-like pack."""

from __future__ import annotations

from stich.cards import Card, Deck, Rank, Suit, parse_cards
from stich.core.tricks import EXCUSE, NO_SUIT, TRUMP, build_order, led_suit, legal_cards, trick_winner

FACES = tuple(parse_cards("T22 T21 T2 T1 HK HQ H1 H4 CK C10 C7"))
DECK = Deck(FACES)


def classify(card: Card) -> tuple[int, int]:
    if card.suit is Suit.TAROCK:
        return (EXCUSE, 0) if card.rank == 22 else (TRUMP, card.rank)
    red_pips = {Rank.ONE: 4, Rank.FOUR: 1}
    strength = {Rank.KING: 14, Rank.QUEEN: 13}.get(Rank(card.rank), red_pips.get(Rank(card.rank), card.rank))
    return (int(card.suit), strength)


ORDER = build_order(DECK, classify)


def mask(text: str) -> int:
    return DECK.mask_of(parse_cards(text))


def idx(text: str) -> list[int]:
    return [DECK.face_index[c] for c in parse_cards(text)]


def test_follow_suit_then_trump_then_anything() -> None:
    # follow suit if able; if void, trump if able (Trumpfzwang); else any card
    hand = mask("T21 T2 HQ CK")
    assert legal_cards(ORDER, hand, int(Suit.HEARTS)) == mask("HQ")
    assert legal_cards(ORDER, mask("T21 T2 CK"), int(Suit.HEARTS)) == mask("T21 T2")
    assert legal_cards(ORDER, mask("T21 T2 CK"), int(Suit.HEARTS), must_trump=False) == mask("T21 T2 CK")
    assert legal_cards(ORDER, mask("CK C7"), int(Suit.HEARTS)) == mask("CK C7")
    assert legal_cards(ORDER, hand, NO_SUIT) == hand


def test_excuse_is_always_playable_and_never_wins() -> None:
    assert legal_cards(ORDER, mask("T22 HQ"), int(Suit.HEARTS)) == mask("T22 HQ")
    assert legal_cards(ORDER, mask("T22 CK"), TRUMP) == mask("T22 CK")
    assert trick_winner(ORDER, idx("H4 T22 HQ")) == 2
    # an excuse led: the second card sets the suit
    assert led_suit(ORDER, idx("T22 C7")) == int(Suit.CLUBS)
    assert trick_winner(ORDER, idx("T22 C7 CK")) == 2


def test_trick_winner_trump_beats_suit_and_red_pips_invert() -> None:
    assert trick_winner(ORDER, idx("HK T1 HQ")) == 1
    assert trick_winner(ORDER, idx("H4 H1 CK")) == 1  # the red 1 (ace) beats the red 4
    assert trick_winner(ORDER, idx("C7 HK C10")) == 2  # hearts cannot win a clubs trick
    assert trick_winner(ORDER, idx("T2 T21 T1")) == 1


def test_stronger_masks_equal_a_scan_of_the_pack() -> None:
    """``PlayOrder.stronger`` (a table lookup the heuristics use) against the card-by-card count, every game's order."""
    from stich.games.dappen.pack import ORDER as DAPPEN
    from stich.games.dobbm.pack import ORDER as DOBBM
    from stich.games.droggn.pack import play_order
    from stich.games.tapp_tarock.pack import ORDER as TAPP

    for order in (DAPPEN, DOBBM, TAPP, play_order(66), play_order(78)):
        for suit in (NO_SUIT, 0, 1, 2, 3, TRUMP, EXCUSE):
            for above in range(-3, max(order.strength) + 3):
                scan = 0
                for index, (eff, strength) in enumerate(zip(order.eff, order.strength, strict=True)):
                    if suit != NO_SUIT and eff == suit and strength > above:
                        scan |= 1 << index
                assert order.stronger(suit, above) == scan, (suit, above)
