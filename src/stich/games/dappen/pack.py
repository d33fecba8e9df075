"""Dappen's 54-card Cego pack, card points, play order, deal tables, contracts and scoring tables as data.

Faces (one physical card each, so a face index is a physical index):

* ``T1`` .. ``T22`` are indices 0..21 (``T22`` is the Gstieß, ``T21`` the
  Mund, ``T1`` the Geiß) [§1];
* then the suits clubs, spades, hearts, diamonds, eight cards each from high
  to low: black ``K Q C J 10 9 8 7``, red ``K Q C J 1 2 3 4`` (the red ace
  ``1`` is the highest pip) [§1].

Card points: Gstieß, Mund, Geiß and the kings 5 (the "five-pointers"), queens
4, cavaliers 3, jacks 2, everything else 1; 106 in all [§1].
"""

from __future__ import annotations

from dataclasses import dataclass

from stich.cards import Card, Deck, Rank, Suit
from stich.core.tricks import TRUMP, PlayOrder, build_order

SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
BLACK_RANKS = (Rank.KING, Rank.QUEEN, Rank.CAVALIER, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
RED_RANKS = (Rank.KING, Rank.QUEEN, Rank.CAVALIER, Rank.JACK, Rank.ONE, Rank.TWO, Rank.THREE, Rank.FOUR)
"""Ranks of a suit from high to low; red pips run 1 (ace, highest) to 4 [§1]."""

TRUMP_FACES = tuple(Card(Suit.TAROCK, n) for n in range(1, 23))
SUIT_FACES = tuple(Card(s, r) for s in SUITS for r in (BLACK_RANKS if s in (Suit.CLUBS, Suit.SPADES) else RED_RANKS))
FACES = TRUMP_FACES + SUIT_FACES
N_FACES = len(FACES)
FULL_MASK = (1 << N_FACES) - 1
DECK = Deck(FACES)

_RANK_POINTS = {Rank.KING: 5, Rank.QUEEN: 4, Rank.CAVALIER: 3, Rank.JACK: 2}


def face(text: str) -> int:
    """Face (and physical) index of a card in text notation (``"T22"`` -> 21)."""
    return DECK.face_index[Card.parse(text)]


def bit(text: str) -> int:
    """Single-card mask of a card in text notation."""
    return 1 << face(text)


def card_points(card: Card) -> int:
    """Face value of a card [§1]."""
    if card.suit is Suit.TAROCK:
        return 5 if card.rank in (1, 21, 22) else 1
    return _RANK_POINTS.get(Rank(card.rank), 1)


POINTS = tuple(card_points(c) for c in FACES)
"""Face value per face index."""
TOTAL_POINTS = sum(POINTS)
assert TOTAL_POINTS == 106

GSTIESS, MUND, GEISS = face("T22"), face("T21"), face("T1")
GSTIESS_BIT, MUND_BIT, GEISS_BIT = 1 << GSTIESS, 1 << MUND, 1 << GEISS
TRUMPS = sum(1 << i for i in range(22))
"""Mask of all 22 trumps."""
ONE_POINT_TRUMPS = TRUMPS & ~(GSTIESS_BIT | MUND_BIT | GEISS_BIT)
"""Trumps 2..20 [§6.3]."""
SUIT_CARDS = FULL_MASK & ~TRUMPS
KINGS = sum(1 << face(s + "K") for s in "CSHD")
FIVES = KINGS | GSTIESS_BIT | MUND_BIT | GEISS_BIT
"""The seven five-pointers [§1]."""
EMPTY_SUIT_CARDS = sum(1 << i for i in range(N_FACES) if i >= 22 and POINTS[i] == 1)
"""The 1-point suit cards (Leere, Brettle) [§1]."""
ULTI_CARDS = {3: face("T3"), 2: face("T2"), 1: face("T1")}
"""Ulti trump number -> face index [§5.1]."""
ULTI_POINTS = {3: 10, 2: 20, 1: 30}
"""Ulti points per laid-out trump [§5.1]."""


def _classify(card: Card) -> tuple[int, int]:
    if card.suit is Suit.TAROCK:
        return TRUMP, card.rank
    ranks = BLACK_RANKS if card.suit in (Suit.CLUBS, Suit.SPADES) else RED_RANKS
    return int(card.suit), len(ranks) - ranks.index(Rank(card.rank))


ORDER: PlayOrder = build_order(DECK, _classify)
"""Effective suit and strength per card: trumps by number, suit cards K high to the lowest pip [§6.1]."""


def trump_count_and_top(hand: int) -> tuple[int, int]:
    """Number of trumps ``T`` held and the number ``H`` of the highest (0 without trumps) [§3.2 rule (a)]."""
    trumps = hand & TRUMPS
    return trumps.bit_count(), trumps.bit_length()


def has_trump_stop(hand: int) -> bool:
    """Rule (a): ``T + H > 22`` — a trump an opponent leading from the top cannot catch [§3.2.5]."""
    t, h = trump_count_and_top(hand)
    return t > 0 and t + h > 22


# ----------------------------------------------------------------- deals

EACH, DAPP = "each", "dapp"
Packet = tuple[str, int]

DEAL_TABLES: dict[tuple[str, int], tuple[Packet, ...]] = {
    # Black Forest [§2]: 6 players 4 each, 6 Dapp, 3 each, 6 Dapp; 7 players 3 each, 6 Dapp, 3 each, 6 Dapp.
    ("black_forest", 6): ((EACH, 4), (DAPP, 6), (EACH, 3), (DAPP, 6)),
    ("black_forest", 7): ((EACH, 3), (DAPP, 6), (EACH, 3), (DAPP, 6)),
    # Jeu du Tarot [§8.4]: talon packets in brackets in the notes.
    ("jeu_du_tarot", 3): ((DAPP, 6), (EACH, 3), (EACH, 3), (EACH, 3), (EACH, 3), (EACH, 4)),
    ("jeu_du_tarot", 4): ((DAPP, 6), (EACH, 3), (EACH, 3), (EACH, 3), (EACH, 3)),
    ("jeu_du_tarot", 5): ((DAPP, 3), (EACH, 3), (DAPP, 3), (EACH, 3), (DAPP, 3), (EACH, 3)),
    ("jeu_du_tarot", 6): ((DAPP, 6), (EACH, 3), (DAPP, 6), (EACH, 4)),
    ("jeu_du_tarot", 7): ((DAPP, 6), (EACH, 3), (DAPP, 6), (EACH, 3)),
}
"""Packets of a deal, in order, per deal table and number of active players."""


def dapp_first(packets: tuple[Packet, ...]) -> tuple[Packet, ...]:
    """The Black Forest deal with each Dapp packet laid before the players' packet it follows [§2, ``dapp_first``]."""
    out = list(packets)
    for i in range(0, len(out) - 1, 2):
        out[i], out[i + 1] = out[i + 1], out[i]
    return tuple(out)


def hand_and_dapp_size(packets: tuple[Packet, ...]) -> tuple[int, int]:
    """Cards per player and in the Dapp."""
    return sum(k for kind, k in packets if kind == EACH), sum(k for kind, k in packets if kind == DAPP)


# ------------------------------------------------------------- contracts


@dataclass(frozen=True)
class Contract:
    """A game the lone player can end up playing [§3, §8]."""

    name: str
    title: str
    takes_dapp: bool
    """Whether the lone player picks up the Dapp and discards [§4] (not in a Solo)."""
    two_bidders: bool
    """A second bidder took part (the Furtwangen doubling, §8.1, and the Marsch liability)."""
    king_requirement: int = 0
    """Kings a Hannes bidder (or holder) must hold [§3.4]."""
    needs_geiss: bool = False
    """A Geiß bidder must hold trump 1 [§3.4]."""


CONTRACTS: dict[str, Contract] = {
    c.name: c
    for c in (
        Contract("solo", "Solo", False, False),
        Contract("solo_strecken", "Strecken (against a Solo)", True, True),
        Contract("dapp", "Dappen", True, False),
        Contract("strecken", "Strecken", True, True),
        Contract("stupfen", "Stupfen", True, True),
        Contract("ein_hannes", "Ein Hannes", True, True, king_requirement=1),
        Contract("zwei_hannes", "Zwei Hannes", True, True, king_requirement=2),
        Contract("geiss", "Geiß", True, True, needs_geiss=True),
    )
}

LADDERS: dict[str, tuple[str, ...]] = {
    "none": ("dapp",),
    "strecken": ("dapp", "strecken"),
    "strecken+stupfen": ("dapp", "strecken", "stupfen"),
    "hannes_ladder": ("dapp", "ein_hannes", "zwei_hannes", "geiss"),
}
"""The Dapp round's bids per ``raise_levels`` option, lowest first [§3.2, §3.3, §3.4]."""


def meets_requirement(contract: Contract, hand: int) -> bool:
    """Whether a hand may bid or hold ``contract`` (Hannes: kings; Geiß: trump 1) [§3.4]."""
    if (hand & KINGS).bit_count() < contract.king_requirement:
        return False
    return not (contract.needs_geiss and not hand & GEISS_BIT)


# --------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Scoring:
    """One version's payment rule [§8]: how the game value is rounded and each contract's factor (won, lost)."""

    name: str
    rounding: str
    """``nearest5_min5`` (Furtwangen, §8.1), ``ceil10_after_factor`` (Breitnau, Buchenbach, §8.2-§8.3) or
    ``game_value_by_5`` (Jeu du Tarot, §8.4)."""
    factors: dict[str, tuple[int, int]]
    """Contract name -> (factor if the lone player wins, factor if the lone player loses)."""


SCORINGS: dict[str, Scoring] = {
    s.name: s
    for s in (
        # §8.1: won Solo ×2, lost Solo ×1, two bidders ×2 (won or lost), simple dapp ×1.
        Scoring(
            "furtwangen",
            "nearest5_min5",
            {"solo": (2, 1), "solo_strecken": (2, 2), "dapp": (1, 1), "strecken": (2, 2), "stupfen": (2, 2)},
        ),
        # §8.2: Solo 2 (won or lost), Dappen 1, Strecken (or selber after it) 2, Stupfen (or selber after it) 3.
        Scoring("breitnau", "ceil10_after_factor", {"solo": (2, 2), "dapp": (1, 1), "strecken": (2, 2), "stupfen": (3, 3)}),
        # §8.3: Solo 1 won / 2 lost, Strecken against a Solo 2, Dappen 1, Ein Hannes 2, Zwei Hannes 3, Geiß 4.
        Scoring(
            "buchenbach",
            "ceil10_after_factor",
            {
                "solo": (1, 2),
                "solo_strecken": (2, 2),
                "dapp": (1, 1),
                "ein_hannes": (2, 2),
                "zwei_hannes": (3, 3),
                "geiss": (4, 4),
            },
        ),
        # §8.4: the notes know only the dapp; its value is floor((35 - losers' points) / 5) + 1.
        Scoring("jeu_du_tarot", "game_value_by_5", {"dapp": (1, 1)}),
    )
}
