"""Tapp Tarock's pack, card points, contracts and bonuses as data (dossier §1, §3.1, §8).

The 54-card Industrie und Glück pack: 22 tarocks ``T1`` (Pagat) .. ``T21``
(Mond), ``T22`` (Sküs, here simply the highest trump, never an excuse), and
four suits of eight cards.  Faces are numbered: tarock ``n`` is face ``n - 1``
(0..21); suit ``s`` (clubs, spades, hearts, diamonds) rank position ``i``
(high to low) is face ``22 + 8 * s + i``.  Black suits rank K Q C J 10 9 8 7,
red suits K Q C J 1 2 3 4 (the ``1`` is the ace, the highest pip) [§1].
"""

from __future__ import annotations

from dataclasses import dataclass

from stich.cards import Card, Deck, Rank, Suit, mask_value, value_groups
from stich.core.tricks import TRUMP, PlayOrder, build_order

SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
COURTS = (Rank.KING, Rank.QUEEN, Rank.CAVALIER, Rank.JACK)
BLACK_PIPS = (Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
RED_PIPS = (Rank.ONE, Rank.TWO, Rank.THREE, Rank.FOUR)
N_TAROCKS = 22
SUIT_RANKS: dict[Suit, tuple[Rank, ...]] = {
    Suit.CLUBS: COURTS + BLACK_PIPS,
    Suit.SPADES: COURTS + BLACK_PIPS,
    Suit.HEARTS: COURTS + RED_PIPS,
    Suit.DIAMONDS: COURTS + RED_PIPS,
}
"""Ranks of each suit, highest first [§1]."""

FACES: tuple[Card, ...] = tuple(Card(Suit.TAROCK, n) for n in range(1, N_TAROCKS + 1)) + tuple(
    Card(s, r) for s in SUITS for r in SUIT_RANKS[s]
)
N_FACES = len(FACES)
DECK = Deck(FACES)
FACE_OF: dict[Card, int] = {c: i for i, c in enumerate(FACES)}

PAGAT, MOND, SKUES = 0, 20, 21
"""Faces of T1, T21 and T22 (the Trull) [§1]."""
TRULL = (1 << PAGAT) | (1 << MOND) | (1 << SKUES)
TAROCKS = (1 << N_TAROCKS) - 1
PLAIN_TAROCKS = TAROCKS & ~TRULL
"""Tarocks II..XX: the only tarocks that may ever be discarded (§4.1)."""
KINGS = sum(1 << (N_TAROCKS + 8 * s) for s in range(4))
SUIT_CARDS = ((1 << N_FACES) - 1) & ~TAROCKS
DISCARDABLE_SUIT_CARDS = SUIT_CARDS & ~KINGS
"""Suit cards that are not kings: the normal discards (§4.1)."""

_COURT_POINTS: dict[int, int] = {Rank.KING: 5, Rank.QUEEN: 4, Rank.CAVALIER: 3, Rank.JACK: 2}
"""Court card values by rank (``Rank`` members are ints, so a card's plain ``rank`` number finds them too)."""


def card_points(card: Card) -> int:
    """Face value of a card: Trull 5, other tarocks 1, K 5, Q 4, C 3, J 2, pips 1 [§1]."""
    if card.suit is Suit.TAROCK:
        return 5 if card.rank in (1, 21, 22) else 1
    return _COURT_POINTS.get(card.rank, 1)


POINTS = tuple(card_points(c) for c in FACES)
"""Face value per face index."""
_POINT_GROUPS = value_groups(POINTS)
TOTAL_POINTS = 70
WIN_THIRDS = 107
"""The declarer wins with at least 107 thirds (35⅔ rounded up to 36; 35 : 35 loses) [§7]."""


def thirds(cards: list[Card] | tuple[Card, ...]) -> int:
    """Card points of a pile in thirds, counted in packets of three: ``3F - 2n`` [§7]."""
    return 3 * sum(card_points(c) for c in cards) - 2 * len(cards)


def mask_thirds(mask: int) -> int:
    """:func:`thirds` of a physical-card mask."""
    return 3 * mask_value(mask, _POINT_GROUPS) - 2 * mask.bit_count()


def _classify(card: Card) -> tuple[int, int]:
    if card.suit is Suit.TAROCK:
        return TRUMP, card.rank
    ranks = SUIT_RANKS[card.suit]
    return int(card.suit), len(ranks) - ranks.index(Rank(card.rank))


ORDER: PlayOrder = build_order(DECK, _classify)
"""Trick order: tarocks by number (Sküs = 22 highest), suits K Q C J then pips [§1, §6]."""


@dataclass(frozen=True)
class Contract:
    """One positive bid [§3.1]: its level in the bidding ladder, its game value and its talon use."""

    name: str
    title: str
    level: int
    value: int
    talon: bool
    fixed_half: str | None
    """The half this contract must take under ``talon_half_rule=fixed`` (``None``: free choice)."""


CONTRACTS: tuple[Contract, ...] = (
    Contract("dreier", "Dreier", 1, 3, True, None),
    Contract("unterer", "Unterer", 2, 4, True, "lower"),
    Contract("oberer", "Oberer", 3, 5, True, "upper"),
    Contract("solo", "Solo", 4, 8, False, None),
)
CONTRACT_BY_NAME = {c.name: c for c in CONTRACTS}
CONTRACT_BY_LEVEL = {c.level: c for c in CONTRACTS}
SOLO_LEVEL = 4

HALVES = ("lower", "upper")
"""Talon halves: ``lower`` is the packet laid first, ``upper`` the one laid crosswise on it [§2]."""

HAND_BONUSES = {"koepfe": 1, "trull": 3, "royal_trull": 3}
"""Hand bonuses (as dealt by default), never doubled [§8.3]."""
ULTIMO_VALUES = {False: (4, 8), True: (8, 16)}
"""Pagat ultimo (silent, announced) outside Solo and in Solo with ``pagat_solo_values=8/16`` [§8.3]."""
VALAT_FIXED = (12, 24)
"""Valat (silent, announced) with ``valat_mode=fixed_12_24`` [§8.2]."""
VALAT_FACTORS = (4, 8)
"""Valat (silent, announced) as multiples of the game value with ``valat_mode=multiplier_4_8`` [§8.2]."""
DOUBLING_NAMES = ("none", "kontra", "rekontra", "subkontra")
"""Doubling levels of one item: ×1, ×2, ×4, ×8 [§5.2, §8.4]."""
ITEMS = ("game", "ultimo", "valat")
"""Items the defenders may double: the game and each announced bonus [§5.2]."""
