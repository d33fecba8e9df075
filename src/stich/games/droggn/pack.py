"""Droggn's pack, card points, counting in threes, the bids as data and the play order.

Faces (one physical copy each, physical index = face index): the trumps
``T1`` (Pagat) .. ``T21`` (Mond), the Gstieß ``T22`` (an excuse, not a
trump, dossier §1, §10.3), then the four suits.  Black suits (C, S) rank
K Q C(Reiter) J 10 9 .. 1, red suits (H, D) rank K Q C J 1 2 .. 10 (the red
ace ``H1`` is the highest pip).  The 66-card pack removes the three lowest
cards of each suit (black 3 2 1, red 8 9 10) [§1]; the 78-card variant
[§9] keeps them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from stich.cards import Card, Deck, Rank, Suit, mask_value, value_groups
from stich.core.tricks import EXCUSE, TRUMP, PlayOrder, build_order

PAGAT, MOND, GSTIESS = 0, 20, 21
"""Face indices of T1, T21 and T22 (the Trull cards)."""
TRULL = (1 << PAGAT) | (1 << MOND) | (1 << GSTIESS)

_COURTS = (Rank.KING, Rank.QUEEN, Rank.CAVALIER, Rank.JACK)
_BLACK_PIPS = tuple(range(10, 0, -1))
_RED_PIPS = tuple(range(1, 11))
SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)


def _suit_faces(suit: Suit) -> tuple[Card, ...]:
    pips = _RED_PIPS if suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK_PIPS
    return tuple(Card(suit, int(r)) for r in _COURTS) + tuple(Card(suit, p) for p in pips)


FACES: tuple[Card, ...] = tuple(Card(Suit.TAROCK, n) for n in range(1, 23)) + tuple(c for s in SUITS for c in _suit_faces(s))
"""All 78 faces: T1..T22, then each suit from its highest card to its lowest."""
N_FACES = len(FACES)
FACE_INDEX = {c: i for i, c in enumerate(FACES)}

REMOVED_66 = frozenset(Card(s, p) for s in SUITS for p in ((8, 9, 10) if s in (Suit.HEARTS, Suit.DIAMONDS) else (1, 2, 3)))
"""The three lowest cards of each suit, absent from the 66-card pack [§1]."""
DECK_66 = Deck(FACES, removed=REMOVED_66)
DECK_78 = Deck(FACES)

_COURT_POINTS = {Rank.KING: 5, Rank.QUEEN: 4, Rank.CAVALIER: 3, Rank.JACK: 2}


def _points(card: Card) -> int:
    if card.suit is Suit.TAROCK:
        return 5 if card.rank in (1, 21, 22) else 1
    return _COURT_POINTS.get(Rank(card.rank), 1) if card.rank > 10 else 1


POINTS: tuple[int, ...] = tuple(_points(c) for c in FACES)
"""Face value (card points before counting in threes) per face [§1]."""
_POINT_GROUPS = value_groups(POINTS)
KINGS = sum(1 << i for i, c in enumerate(FACES) if c.suit is not Suit.TAROCK and c.rank == Rank.KING)
TRUMPS_2_20 = sum(1 << i for i in range(1, 20))
"""The trumps II..XX, the only trumps that may be discarded [§4.1]."""
BARRED_DISCARDS = TRULL
"""Never discarded: Gstieß, Mond, Pagat [§4.1]."""


def deck_for(pack_size: int) -> Deck:
    """The 66- or 78-card pack."""
    return DECK_78 if pack_size == 78 else DECK_66


def face_of(text: str) -> int:
    """Face index of a card in text notation (``"T21"`` -> 20)."""
    return FACE_INDEX[Card.parse(text)]


def mask_of(text: str) -> int:
    """Mask of the cards named in ``text`` (``"T1 T21 SK"``)."""
    mask = 0
    for word in text.split():
        mask |= 1 << face_of(word)
    return mask


def face_value(mask: int) -> int:
    """Sum of the face values of the cards in ``mask``."""
    return mask_value(mask, _POINT_GROUPS)


def count_points(face_sum: int, cards: int) -> int:
    """Card points of a pile of ``cards`` cards worth ``face_sum`` in face values [§7].

    Groups of three count their sum minus 2; one or two leftover cards count
    their sum minus 1: ``F - 2*floor(n/3) - (1 if n mod 3 else 0)``.
    """
    return face_sum - 2 * (cards // 3) - (1 if cards % 3 else 0)


def pile_points(mask: int) -> int:
    """Card points of a pile given as a mask [§7]."""
    return count_points(face_value(mask), mask.bit_count())


@cache
def total_points(deck: Deck) -> int:
    """Card points of the whole pack: 74 (66 cards) or 78 (78 cards) [§1, §9]."""
    return pile_points(deck.full_mask)


def _classify(card: Card) -> tuple[int, int]:
    """Effective suit and strength for trick play: trumps by number, the Gstieß an excuse, suits K Q C J then pips."""
    if card.suit is Suit.TAROCK:
        return (EXCUSE, 0) if card.rank == 22 else (TRUMP, card.rank)
    if card.rank > 10:
        return int(card.suit), card.rank  # K 14, Q 13, C 12, J 11
    if card.suit in (Suit.HEARTS, Suit.DIAMONDS):
        return int(card.suit), 11 - card.rank  # red: 1 highest
    return int(card.suit), card.rank  # black: 10 highest


@cache
def play_order(pack_size: int) -> PlayOrder:
    """The trick order of the pack (the same in every contract) [§6.1, §6.2]."""
    return build_order(deck_for(pack_size), _classify)


@dataclass(frozen=True)
class Contract:
    """A bid as data [§3.1]: its level, base value and what it does with the talon."""

    name: str
    title: str
    level: int
    value: int
    exchange: bool
    """The declarer takes the talon and discards as many cards [§4.1]."""
    buy: bool
    """The declarer may buy one named card [§4.2]."""
    mord: bool = False
    """The declarer must take every trick; fixed value [§8.3]."""


CONTRACTS: tuple[Contract, ...] = (
    Contract("ansager", "Ansager", 0, 20, True, True),
    Contract("solo", "Solo", 1, 40, True, False),
    Contract("super", "Super", 2, 80, False, False),
    Contract("super_mord", "Super Mord", 3, 80, False, False, True),
)
"""The bids, low to high [§3.1]."""
BY_NAME = {c.name: c for c in CONTRACTS}
MORD_BONUS = 50
"""Super Mord: 80 (Super) + all card points + 50 [§8.3]."""
LAID_OUT_BONUS = 20
"""A laid-out Pagat (or Gstieß in a Super Mord) [§8.4, §8.3]."""
SILENT_ULTIMO = 10
PAGAT_CAPTURE = 5
