"""Doppelkopf's pack and game types as data: trump orders and plain-suit orders.

Faces are numbered ``suit * 6 + rank_index`` with suits C S H D and ranks
A 10 K Q J 9; physical card ``copy * 24 + face``.  Each game type (contract)
is one row of :data:`CONTRACTS`: its trumps high to low and the order of the
plain suits.  :func:`card_order` turns a row (plus the Dullen / Schweine
options) into a :class:`CardOrder` table so that following suit and winning
tricks are a few lookups and bit operations.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from stich.cards import Card, Deck, Rank, Suit

SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)
FACES = tuple(Card(s, r) for s in SUITS for r in RANKS)
N_FACES = 24
FACE_MASK = (1 << N_FACES) - 1
EYES_BY_RANK = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2, Rank.NINE: 0}
EYES = tuple(EYES_BY_RANK[Rank(c.rank)] for c in FACES)
"""Eyes (card points) per face."""
TOTAL_EYES = 240
TRUMP = 4
"""Effective suit of a trump."""


def face(text: str) -> int:
    """Face index of a card in text notation (``"H10"`` -> 13)."""
    return FACES.index(Card.parse(text))


NINES = frozenset(c for c in FACES if c.rank == Rank.NINE)
DECK_48 = Deck(FACES, copies=2)
DECK_40 = Deck(FACES, copies=2, removed=NINES)

H10, CQ, DA, CJ, D9, DK = (face(t) for t in ("H10", "CQ", "DA", "CJ", "D9", "DK"))


@dataclass(frozen=True)
class Contract:
    """A game type: its name, display name, trumps (high to low) and plain order."""

    name: str
    title: str
    trumps: tuple[str, ...]
    plain_ranks: tuple[Rank, ...]
    trump_suit: Suit | None = None
    """The suit whose non-trump-ranked cards are trumps (colour solos), if any."""
    dullen_on_top: bool = False
    """Whether the Dullen head the trumps (when the ``dullen`` option is on)."""
    dulle: str = "H10"
    """The card that is the Dulle: the hearts ten, or the short suit's ten (``dullen_in_color_solo``, decision 0027)."""


_QJ = ("CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ")
_KINGS = ("CK", "SK", "HK", "DK")
_QUEENS = ("CQ", "SQ", "HQ", "DQ")
_JACKS = ("CJ", "SJ", "HJ", "DJ")
_A10K9 = (Rank.ACE, Rank.TEN, Rank.KING, Rank.NINE)
_ALL = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)


def _colour(letter: str) -> tuple[str, ...]:
    return _QJ + tuple(letter + r for r in ("A", "10", "K", "9"))


def _rein(letter: str) -> tuple[str, ...]:
    return tuple(letter + r for r in ("A", "10", "K", "Q", "J", "9"))


CONTRACTS: dict[str, Contract] = {
    c.name: c
    for c in (
        Contract("normal", "Normalspiel", _colour("D"), _A10K9, Suit.DIAMONDS, True),
        Contract("karo", "Karo-Solo", _colour("D"), _A10K9, Suit.DIAMONDS, True),
        Contract("kreuz", "Kreuz-Solo", _colour("C"), _A10K9, Suit.CLUBS, True),
        Contract("pik", "Pik-Solo", _colour("S"), _A10K9, Suit.SPADES, True),
        Contract("herz", "Herz-Solo", _colour("H"), _A10K9, Suit.HEARTS, True),
        Contract("damen", "Damen-Solo", _QUEENS, (Rank.ACE, Rank.TEN, Rank.KING, Rank.JACK, Rank.NINE)),
        Contract("buben", "Buben-Solo", _JACKS, (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.NINE)),
        Contract("fleischlos", "Fleischloser", (), _ALL),
        Contract("koenig", "König-Solo", _KINGS, (Rank.ACE, Rank.TEN, Rank.QUEEN, Rank.JACK, Rank.NINE)),
        Contract("damen_buben", "Damen-Buben-Solo", _QUEENS + _JACKS, _A10K9),
        Contract("koenig_damen", "König-Damen-Solo", _KINGS + _QUEENS, (Rank.ACE, Rank.TEN, Rank.JACK, Rank.NINE)),
        Contract("koenig_buben", "König-Buben-Solo", _KINGS + _JACKS, (Rank.ACE, Rank.TEN, Rank.QUEEN, Rank.NINE)),
        Contract("koehler", "Köhler", _KINGS + _QUEENS + _JACKS, (Rank.ACE, Rank.TEN, Rank.NINE)),
        # The internal order of the tens is not stated by the seed; C S H D (dossier §1.3).
        Contract("zehner", "Zehner-Solo", ("C10", "S10", "H10", "D10"), (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)),
        Contract("rein_kreuz", "reines Kreuz-Solo", _rein("C"), _ALL, Suit.CLUBS),
        Contract("rein_pik", "reines Pik-Solo", _rein("S"), _ALL, Suit.SPADES),
        Contract("rein_herz", "reines Herz-Solo", _rein("H"), _ALL, Suit.HEARTS),
        Contract("rein_karo", "reines Karo-Solo", _rein("D"), _ALL, Suit.DIAMONDS),
    )
}
SOLO_NAMES = tuple(name for name in CONTRACTS if name != "normal")
SHORT_SUIT_DULLE = {"karo": "H10", "kreuz": "D10", "pik": "C10", "herz": "S10"}
"""[VAR §1.3, decision 0027] the Dulle of each colour solo when the Dullen move to the short suit: the ten of
the suit before the trump suit in the order Kreuz, Pik, Herz, Karo (cyclic), as diamonds go with the hearts tens."""


@cache
def played_contract(name: str, short_suit_dullen: bool = False) -> Contract:
    """The game type ``name`` as played: with ``short_suit_dullen`` a colour solo's Dullen are its short suit's tens."""
    contract = CONTRACTS[name]
    if short_suit_dullen and name in SHORT_SUIT_DULLE:
        return replace(contract, dulle=SHORT_SUIT_DULLE[name])
    return contract


@dataclass(frozen=True)
class CardOrder:
    """Per-face tables of one game type: effective suit and strength.

    ``eff[f]`` is the plain suit (0..3) or :data:`TRUMP`; ``strength[f]`` is
    larger for stronger cards within the effective suit; ``follow[s]`` is the
    physical-card mask of effective suit ``s`` (both copies).
    """

    eff: tuple[int, ...]
    strength: tuple[int, ...]
    follow: tuple[int, ...]
    trump_faces: int
    dulle: int = H10
    """Face of the game's Dulle (the hearts ten unless the Dullen moved, decision 0027); a trump only where it is one."""

    def is_trump(self, f: int) -> bool:
        """Whether face ``f`` is a trump."""
        return self.eff[f] == TRUMP


@cache
def card_order(contract: Contract, dullen: bool, top: tuple[int, ...] = ()) -> CardOrder:
    """Build the order tables of ``contract``.

    ``top`` lists faces that rank above everything else, highest first
    (Superschweine, Schweine); they are taken out of their normal place.
    """
    trumps = [face(t) for t in contract.trumps]
    dulle = face(contract.dulle)
    if dullen and contract.dullen_on_top:
        trumps = [dulle] + [f for f in trumps if f != dulle]
    trumps = list(top) + [f for f in trumps if f not in top]
    eff = [0] * N_FACES
    strength = [0] * N_FACES
    for f, card in enumerate(FACES):
        if f in trumps:
            eff[f] = TRUMP
            strength[f] = len(trumps) - trumps.index(f)
        else:
            eff[f] = SUITS.index(card.suit)
            order = contract.plain_ranks
            strength[f] = len(order) - order.index(Rank(card.rank))
    follow = [0] * 5
    for f in range(N_FACES):
        follow[eff[f]] |= (1 << f) | (1 << (f + N_FACES))
    trump_faces = sum(1 << f for f in trumps)
    return CardOrder(tuple(eff), tuple(strength), tuple(follow), trump_faces, dulle)
