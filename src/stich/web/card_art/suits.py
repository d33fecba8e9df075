"""Suit signs: the French ♣ ♠ ♥ ♦ and the German Eichel, Laub, Herz and Schellen, drawn as SVG.

Every sign is drawn in a unit box from -50 to 50 on both axes, centred on the
origin, and goes into the card's ``<defs>`` once as a ``<symbol>``; pips are
``<use>`` references to it, so a ten costs ten short elements, not ten copies
of the drawing.  The German signs follow the shapes players know from the
Bavarian and William Tell patterns: an acorn with its scaly cup, a green
leaf with veins, a red heart, and a golden bell with its band and slit.
"""

from __future__ import annotations

from stich.cards import Suit
from stich.web.card_art.svg import el, num, path

FRENCH_RED = "#c8102e"
FRENCH_BLACK = "#161616"

_HEART = "M0,45C-20,25-48,8-48-18C-48-38-30-48-17-46C-8-45-2-38 0-30C2-38 8-45 17-46C30-48 48-38 48-18C48 8 20 25 0 45Z"
_DIAMOND = "M0-48C12-30 26-14 38 0C26 14 12 30 0 48C-12 30-26 14-38 0C-26-14-12-30 0-48Z"
_SPADE = (
    "M0-46C-18-26-46-12-46 10C-46 26-32 34-20 32C-10 31-4 25-2 20C-4 32-10 40-18 46L18 46"
    "C10 40 4 32 2 20C4 25 10 31 20 32C32 34 46 26 46 10C46-12 18-26 0-46Z"
)
_CLUB = (
    "M-4 6C-4 28-12 40-20 46L20 46C12 40 4 28 4 6Z"
    "M0-43A21 21 0 1 1 0-1A21 21 0 1 1 0-43Z"
    "M-22-11A21 21 0 1 1-22 31A21 21 0 1 1-22-11Z"
    "M22-11A21 21 0 1 1 22 31A21 21 0 1 1 22-11Z"
)

SUIT_COLOURS: dict[str, dict[Suit, str]] = {
    "french": {Suit.CLUBS: FRENCH_BLACK, Suit.SPADES: FRENCH_BLACK, Suit.HEARTS: FRENCH_RED, Suit.DIAMONDS: FRENCH_RED},
    "german": {Suit.CLUBS: "#6b3a12", Suit.SPADES: "#1e6b2b", Suit.HEARTS: "#c8102e", Suit.DIAMONDS: "#a0560a"},
}
"""Ink of the corner index per suit: black and red for French signs, each sign's own colour for German ones."""


def _french(suit: Suit) -> str:
    shape = {Suit.CLUBS: _CLUB, Suit.SPADES: _SPADE, Suit.HEARTS: _HEART, Suit.DIAMONDS: _DIAMOND}[suit]
    return path(shape, fill=SUIT_COLOURS["french"][suit])


def _eichel() -> str:
    hatch = "M-20-9L-7-31M-4-5L9-33M12-6L21-23M20-9L7-31M4-5L-9-33M-12-6L-21-23"
    return (
        path("M0-49V-36", stroke="#4a2a0c", stroke_width=6, stroke_linecap="round")
        + el("ellipse", cx=0, cy=13, rx=24, ry=34, fill="#d8a23a", stroke="#5a3410", stroke_width=3)
        + path("M-12 6C-16 18-13 30-6 38", fill="none", stroke="#fff3c4", stroke_width=5, stroke_linecap="round", opacity=0.6)
        + path("M-31-7C-31-30-16-38 0-38C16-38 31-30 31-7C16 0-16 0-31-7Z", fill="#7b4a1e", stroke="#3f230a", stroke_width=3)
        + path(hatch, stroke="#c9995c", stroke_width=2.2)
    )


def _laub() -> str:
    leaf = "M0-48C18-30 43-14 41 8C39 27 20 35 0 28C-20 35-39 27-41 8C-43-14-18-30 0-48Z"
    veins = "M0-38V30M0-18L-20-5M0-18L20-5M0 2L-28 15M0 2L28 15"
    return (
        path("M0 26V48", stroke="#1b5424", stroke_width=6, stroke_linecap="round")
        + path(leaf, fill="#2f8f3a", stroke="#17501f", stroke_width=3)
        + path(veins, stroke="#b6e3a8", stroke_width=2.5, stroke_linecap="round", fill="none")
    )


def _herz() -> str:
    return path(_HEART, fill="#d4202c", stroke="#7d0f16", stroke_width=3) + path(
        "M-33-27C-38-16-35-5-27 3", fill="none", stroke="#fff", stroke_width=5, stroke_linecap="round", opacity=0.45
    )


def _schellen() -> str:
    return (
        el("circle", cx=0, cy=-40, r=6, fill="none", stroke="#6b4200", stroke_width=3)
        + el("circle", cx=0, cy=3, r=39, fill="#ebb42c", stroke="#6b4200", stroke_width=3)
        + path("M-37-11Q0-23 37-11L38 0Q0-12-38 0Z", fill="#c0392b", stroke="#6b4200", stroke_width=1.5)
        + el("circle", cx=-16, cy=-22, r=5, fill="#fff6c8", opacity=0.7)
        + el("circle", cx=0, cy=18, r=7, fill="#3a2200")
        + path("M0 22V40", stroke="#3a2200", stroke_width=5)
    )


def suit_drawing(style: str, suit: Suit) -> str:
    """The drawing of ``suit``'s sign in the unit box, for ``style`` ``"french"`` or ``"german"``."""
    if style == "german":
        return {Suit.CLUBS: _eichel, Suit.SPADES: _laub, Suit.HEARTS: _herz, Suit.DIAMONDS: _schellen}[suit]()
    return _french(suit)


def suit_symbol(symbol_id: str, style: str, suit: Suit) -> str:
    """The ``<symbol>`` definition of a suit sign, for the card's ``<defs>``."""
    return el("symbol", suit_drawing(style, suit), id=symbol_id, viewBox="-50 -50 100 100", overflow="visible")


def use(symbol_id: str, x: float, y: float, size: float, flip: bool = False) -> str:
    """A sign of ``size`` centred on ``(x, y)``; ``flip`` turns it upside down (pips in a card's lower half)."""
    half = size / 2
    transform = f"rotate(180 {num(x)} {num(y)})" if flip else None
    return el("use", href=f"#{symbol_id}", x=x - half, y=y - half, width=size, height=size, transform=transform)
