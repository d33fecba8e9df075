"""The four packs, which cards each holds, card names, and which pack each game is played with.

* ``french``: French-suited pack (Kreuz, Pik, Herz, Karo) with German indices
  (B D K A), as Doppelkopf is played in Germany: 2..10, Bube, Dame, König, Ass.
* ``german``: German-suited pack (Eichel, Laub, Herz, Schellen; Daus, König,
  Ober, Unter, 10..6): Dobbm's 36-card pack (dossier dobbm §1), and a choice
  for Doppelkopf (A 10 K O U 9).
* ``tarock``: the Industrie und Glück tarock pack of Tapp Tarock (54 cards,
  dossier tapp_tarock §1), extended with every pip of a 78-card tarock pack
  (black 6..1, red 5..10) for Droggn (dossier droggn §1, §9).
* ``cego``: the 54-card Cego pack of Dappen (dossier dappen §1), with animal
  trumps and the Gstieß.

Card texts are the engine's notation (:attr:`stich.cards.Card.text`); in the
tarock packs the red ace is the pip ``1`` (``H1``), and ``T22`` is the Fool.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from stich.cards import Card, Rank, Suit
from stich.web.card_art.courts import CourtColours
from stich.web.card_art.trumps import roman

SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
_FRENCH_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, *(Rank(n) for n in range(10, 1, -1)))
_GERMAN_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, *(Rank(n) for n in range(10, 5, -1)))
_COURTS = (Rank.KING, Rank.QUEEN, Rank.CAVALIER, Rank.JACK)
_TRUMPS = tuple(Card(Suit.TAROCK, n) for n in range(1, 23))


def _tarock_suit(suit: Suit, full: bool) -> tuple[Card, ...]:
    """One suit of a tarock pack, high to low: courts, then black 10..7 (..1) or red 1..4 (..10)."""
    red = suit in (Suit.HEARTS, Suit.DIAMONDS)
    pips = range(1, 11 if full else 5) if red else range(10, 0 if full else 6, -1)
    return tuple(Card(suit, r) for r in _COURTS) + tuple(Card(suit, p) for p in pips)


@dataclass(frozen=True)
class Pack:
    """One pack of cards: its name in URLs, its title, the suit signs it uses and its cards."""

    name: str
    title: str
    description: str
    suit_style: str
    """``"french"`` or ``"german"`` suit signs."""
    cards: tuple[Card, ...]
    courts: CourtColours
    ranks: dict[int, str]
    """Corner index label per rank of the plain suits."""

    @cached_property
    def card_set(self) -> frozenset[Card]:
        """The cards as a set, for membership tests."""
        return frozenset(self.cards)

    def holds(self, card: Card) -> bool:
        """Whether ``card`` is in this pack."""
        return card in self.card_set


_GERMAN_INDEX: dict[int, str] = {Rank.ACE: "A", Rank.KING: "K", Rank.QUEEN: "D", Rank.CAVALIER: "R", Rank.JACK: "B"}
"""Court indices of French-suited packs as German players know them: Bube, Dame, Reiter, König, Ass."""
_NUMBERS: dict[int, str] = {n: str(n) for n in range(1, 11)}

_FRENCH_COURTS = CourtColours(
    robes={"king": "#b3232f", "queen": "#2a4d8f", "jack": "#2f7d3a", "cavalier": "#6a3d9a"},
    panels=("#e3b324", "#c8102e", "#2a4d8f", "#2f7d3a"),
    frame="#2a4d8f",
    ground="#fbf6e6",
    hair="#6b4a2a",
    queen_hair="#c8962e",
)
_GERMAN_COURTS = CourtColours(
    robes={"king": "#a4262c", "ober": "#2a4d8f", "unter": "#2f7d3a"},
    panels=("#7b4a1e", "#2f8f3a", "#c8102e", "#e3b324"),
    frame="#6b3a12",
    ground="#f8f0dc",
    hair="#5a3a22",
    queen_hair="#b07a30",
)
_TAROCK_COURTS = CourtColours(
    robes={"king": "#8c1d2c", "queen": "#3d5a99", "jack": "#3f7a4a", "cavalier": "#7a4a8c"},
    panels=("#e8b020", "#c8102e", "#2a4d8f", "#2f7d3a"),
    frame="#b5812a",
    ground="#fbf3de",
    hair="#4a3222",
    queen_hair="#d0a040",
)
_CEGO_COURTS = CourtColours(
    robes={"king": "#2f6b4a", "queen": "#8c3a55", "jack": "#b5651d", "cavalier": "#2a5a8f"},
    panels=("#e8b020", "#c8102e", "#f3ead2", "#6a3d9a"),
    frame="#8c3a55",
    ground="#fbeef0",
    hair="#3a2415",
    queen_hair="#8a4a22",
)

PACKS: dict[str, Pack] = {
    p.name: p
    for p in (
        Pack(
            "french",
            "French suits",
            "Kreuz, Pik, Herz, Karo with German indices (B D K A); Doppelkopf's pack.",
            "french",
            tuple(Card(s, r) for s in SUITS for r in _FRENCH_RANKS),
            _FRENCH_COURTS,
            {**_GERMAN_INDEX, **_NUMBERS},
        ),
        Pack(
            "german",
            "German suits",
            "Eichel, Laub, Herz, Schellen with Daus, König, Ober, Unter; Dobbm's pack and a choice for Doppelkopf.",
            "german",
            tuple(Card(s, r) for s in SUITS for r in _GERMAN_RANKS),
            _GERMAN_COURTS,
            {Rank.ACE: "A", Rank.KING: "K", Rank.QUEEN: "O", Rank.JACK: "U", **_NUMBERS},
        ),
        Pack(
            "tarock",
            "Industrie und Glück tarock",
            "22 tarocks with Roman numerals and genre scenes, the Sküs, French suits; all 78 cards (Tapp Tarock uses 54).",
            "french",
            _TRUMPS + tuple(c for s in SUITS for c in _tarock_suit(s, full=True)),
            _TAROCK_COURTS,
            {**_GERMAN_INDEX, **_NUMBERS},
        ),
        Pack(
            "cego",
            "Cego",
            "The 54-card Cego pack of Dappen: animal trumps with Arabic numbers, the Gstieß, French suits.",
            "french",
            _TRUMPS + tuple(c for s in SUITS for c in _tarock_suit(s, full=False)),
            _CEGO_COURTS,
            {**_GERMAN_INDEX, **_NUMBERS},
        ),
    )
}
"""Every pack by name."""

GAME_PACKS: dict[str, tuple[str, str]] = {
    "doppelkopf": ("french", "german"),
    "tapp_tarock": ("tarock", "tarock"),
    "dobbm": ("german", "german"),
    "droggn": ("tarock", "tarock"),
    "dappen": ("cego", "cego"),
}
"""Game -> (default pack, pack when German suits are asked for).  Only Doppelkopf has a German choice;
Dobbm is German-suited anyway and the tarock games keep their French-suited tarock packs."""


def default_pack(game_name: str, german: bool = False) -> str:
    """The pack a game is shown with: ``german`` asks for German suits where the game has that choice."""
    try:
        plain, german_pack = GAME_PACKS[game_name]
    except KeyError:
        raise ValueError(f"unknown game {game_name!r}; games with card art: {', '.join(GAME_PACKS)}") from None
    return german_pack if german else plain


_FRENCH_SUIT_NAMES = {Suit.CLUBS: "Kreuz", Suit.SPADES: "Pik", Suit.HEARTS: "Herz", Suit.DIAMONDS: "Karo"}
_GERMAN_SUIT_NAMES = {Suit.CLUBS: "Eichel", Suit.SPADES: "Laub", Suit.HEARTS: "Herz", Suit.DIAMONDS: "Schellen"}
_RANK_NAMES: dict[int, str] = {Rank.ACE: "Ass", Rank.KING: "König", Rank.QUEEN: "Dame", Rank.CAVALIER: "Reiter", Rank.JACK: "Bube"}
_GERMAN_RANK_NAMES: dict[int, str] = {Rank.ACE: "Daus", Rank.KING: "König", Rank.QUEEN: "Ober", Rank.JACK: "Unter"}
_TRUMP_NAMES = {"tarock": {1: "Pagat", 21: "Mond", 22: "Sküs"}, "cego": {1: "Geiß", 21: "Mund", 22: "Gstieß"}}


def card_name(pack: Pack, card: Card) -> str:
    """The card's name as players of the pack say it: ``Herz Dame``, ``Laub Ober``, ``Tarock XXI (Mond)``, ``Gstieß``."""
    if card.suit is Suit.TAROCK:
        names = _TRUMP_NAMES[pack.name]
        if card.rank == 22:
            return names[22]
        nick = names.get(card.rank)
        number = f"Tarock {roman(card.rank)}" if pack.name == "tarock" else f"Trumpf {card.rank}"
        return number + (f" ({nick})" if nick else "")
    if pack.suit_style == "german":
        return f"{_GERMAN_SUIT_NAMES[card.suit]} {_GERMAN_RANK_NAMES.get(card.rank, str(card.rank))}"
    return f"{_FRENCH_SUIT_NAMES[card.suit]} {_RANK_NAMES.get(card.rank, str(card.rank))}"
