"""Dobbm's pack, card points, contracts and play order as data (dossier §1, §3, §6).

The 36-card German-suited pack is written in the shared notation: Eichel
(acorns) = ``C``, Laub/Gras (leaves) = ``S``, Herz (hearts) = ``H``,
Schellen (bells) = ``D``; Sau/Daus = ``A``, Ober = ``Q``, Unter = ``J``, and
the pips 10 9 8 7 6.  Faces are numbered ``suit * 9 + rank_index`` with suits
C S H D and ranks A 10 K Q J 9 8 7 6 (the trick order, highest first, the same
in every suit); with one copy per face the physical index is the face index.
"""

from __future__ import annotations

from dataclasses import dataclass

from stich.cards import Card, Deck, Rank, Suit, mask_value, value_groups
from stich.core.tricks import TRUMP, PlayOrder, build_order

SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE, Rank.EIGHT, Rank.SEVEN, Rank.SIX)
"""Trick order, highest first, in every suit including trumps (§1)."""
FACES = tuple(Card(s, r) for s in SUITS for r in RANKS)
N_FACES = 36
DECK = Deck(FACES)
POINTS_BY_RANK = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}
POINTS = tuple(POINTS_BY_RANK.get(Rank(c.rank), 0) for c in FACES)
"""Card points per face (§1): Sau 11, Zehner 10, König 4, Ober 3, Unter 2, the rest 0."""
TOTAL_POINTS = 120
HALF = 60
TRUMP_SUIT = Suit.HEARTS
"""Hearts are trumps in every deal (§1)."""
HAND_SIZE = 8
DOBB_SIZE = 4
TRICKS = 8

assert sum(POINTS) == TOTAL_POINTS


def face(text: str) -> int:
    """Face index of a card in text notation (``"HA"`` -> 18)."""
    return FACES.index(Card.parse(text))


_POINT_GROUPS = value_groups(POINTS)


def points_of(mask: int) -> int:
    """Card points of the cards in a mask."""
    return mask_value(mask, _POINT_GROUPS)


def _classify(card: Card) -> tuple[int, int]:
    strength = len(RANKS) - RANKS.index(Rank(card.rank))
    return (TRUMP if card.suit is TRUMP_SUIT else int(card.suit), strength)


ORDER: PlayOrder = build_order(DECK, _classify)
"""Effective suit and strength per card: hearts trump, A 10 K O U 9 8 7 6 in every suit (§1, §6)."""
HEARTS = ORDER.trumps
SOWS = sum(1 << face(s + "A") for s in "CSHD")
"""The four Sows (aces), the heart Sow included."""
PLAIN_SOWS = SOWS & ~HEARTS
NON_SOW_HEARTS = HEARTS & ~SOWS


@dataclass(frozen=True)
class Contract:
    """One call that makes a declarer (§3.1): whether the Dobb is exchanged, the payment factor, bidding rank."""

    name: str
    title: str
    exchanges: bool
    """The declarer takes the Dobb and discards four cards (§4.1); else the Dobb stays untouched (§4.3)."""
    factor: int
    """Payment factor (§8.3): a Solo pays double, won or lost."""
    rank: int
    """Bidding rank: a later call must be higher (§3.1)."""


CONTRACTS: dict[str, Contract] = {
    c.name: c
    for c in (
        Contract("dobbm", "Dobbm", exchanges=True, factor=1, rank=1),
        Contract("solo", "Solo", exchanges=False, factor=2, rank=2),
    )
}
