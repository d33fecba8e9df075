"""Suit cards: corner indices, number cards, aces and Daus, and the court cards of every pack.

A card is laid out in the 240 × 360 viewBox.  The corner index (rank above
the suit sign) sits in the top-left corner, large enough to read on a phone,
inside the left 58 units so that it shows when only the left ~35 % of a card
is visible in a fanned hand; the same index turned round sits in the
bottom-right corner.
"""

from __future__ import annotations

from stich.cards import Card, Rank, Suit
from stich.web.card_art.courts import CourtColours, court_half, sign_spot
from stich.web.card_art.pips import FRENCH_PIP, GERMAN_PIP, french_pips, german_pips
from stich.web.card_art.suits import SUIT_COLOURS, suit_symbol, use
from stich.web.card_art.svg import CX, CY, GOLD, PAPER, el, group, rotated, text

INDEX_X = 31
"""Centre line of the corner index."""
INDEX_PATCH = el("rect", x=4, y=4, width=54, height=96, rx=9, fill=PAPER)
"""Paper behind an index that overlaps a picture frame (courts, trumps)."""


def index_group(index_id: str, body: str) -> str:
    """The corner index defined once (``<g id>``) and shown top-left and, turned round, bottom-right."""
    return el("g", body, id=index_id) + el("use", href=f"#{index_id}", transform=f"rotate(180 {CX:g} {CY:g})")


def rank_text(label: str, colour: str, y: float = 48, size: float = 44) -> str:
    """The rank of a corner index; two-character labels are squeezed to the index width."""
    squeeze: dict[str, str | float | None] = {"textLength": 48, "lengthAdjust": "spacingAndGlyphs"} if len(label) > 1 else {}
    return text(label, INDEX_X, y, size, fill=colour, **squeeze)


def suit_index(label: str, style: str, suit: Suit, sign_id: str, patch: bool) -> str:
    """Rank label over a suit sign, the index of every suit card."""
    colour = SUIT_COLOURS[style][suit]
    return (INDEX_PATCH if patch else "") + rank_text(label, colour) + use(sign_id, INDEX_X, 76, 32)


def number_card(style: str, count: int, sign_id: str) -> str:
    """The pips of a number card: French layouts (also tarock and Cego suit cards) or German two-column layouts."""
    if style == "german":
        return "".join(use(sign_id, x, y, GERMAN_PIP, flip) for x, y, flip in german_pips(count))
    if count == 1:
        return use(sign_id, CX, CY, 76)
    return "".join(use(sign_id, x, y, FRENCH_PIP, flip) for x, y, flip in french_pips(count))


def ace(style: str, sign_id: str) -> str:
    """A French ace (one large pip) or a German Daus (the large sign in a gold-framed cartouche)."""
    if style == "german":
        frame = el("ellipse", cx=CX, cy=CY, rx=78, ry=116, fill="#fbf1d6", stroke=GOLD, stroke_width=5)
        inner = el("ellipse", cx=CX, cy=CY, rx=70, ry=108, fill="none", stroke="#b5812a", stroke_width=1.5)
        scroll = "M88 298q32 14 64 0M88 62q32-14 64 0"
        return frame + inner + el("path", d=scroll, fill="none", stroke="#b5812a", stroke_width=3) + use(sign_id, CX, CY, 124)
    return use(sign_id, CX, CY, 112)


def court(kind: str, colours: CourtColours, suit: Suit, sign_id: str) -> str:
    """A double-headed court card: frame, the half-figure and the same turned round."""
    x, y, size = sign_spot(kind)
    half = court_half(kind, colours, int(suit), use(sign_id, x, y, size))
    frame = el("rect", x=16, y=16, width=208, height=328, rx=10, fill=colours.ground, stroke=colours.frame, stroke_width=3)
    divider = el("path", d="M16 180H224", stroke=colours.frame, stroke_width=2)
    clip_id = sign_id + "k"
    clip = el("clipPath", el("rect", x=17, y=17, width=206, height=163), id=clip_id)
    halves = group(half, clip_path=f"url(#{clip_id})")
    return clip + frame + halves + rotated(halves) + divider


COURT_KINDS: dict[int, str] = {Rank.KING: "king", Rank.QUEEN: "queen", Rank.CAVALIER: "cavalier", Rank.JACK: "jack"}
GERMAN_COURT_KINDS: dict[int, str] = {Rank.KING: "king", Rank.QUEEN: "ober", Rank.JACK: "unter"}


def suit_card_body(card: Card, style: str, colours: CourtColours, sign_id: str, ace_ranks: frozenset[int]) -> tuple[str, bool]:
    """The picture of a suit card and whether it is a court (its index then needs a paper patch).

    ``ace_ranks`` are the ranks drawn as an ace: ``A`` in French and German packs; the tarock packs' red
    ``1`` is simply a one-pip card.
    """
    kinds = GERMAN_COURT_KINDS if style == "german" else COURT_KINDS
    if card.rank in kinds:
        return court(kinds[card.rank], colours, card.suit, sign_id), True
    if card.rank in ace_ranks:
        return ace(style, sign_id), False
    return number_card(style, card.rank, sign_id), False


def sign_defs(sign_id: str, style: str, suit: Suit) -> str:
    """The ``<symbol>`` of the card's suit sign."""
    return suit_symbol(sign_id, style, suit)
