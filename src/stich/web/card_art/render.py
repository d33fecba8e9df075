"""Rendering a card of a pack to SVG text, with clear errors for unknown packs and cards.

:func:`card_svg` is the one entry point: it takes the pack name and the
card's notation text exactly as :attr:`stich.cards.Card.text` writes it (or
``back``), checks both, and returns the standalone SVG document.  Results
are cached: a card's drawing never changes while the server runs.
"""

from __future__ import annotations

from functools import cache

from stich.cards import Card, Suit, parse_card
from stich.errors import NotationError
from stich.web.card_art.backs import back_body
from stich.web.card_art.faces import index_group, sign_defs, suit_card_body, suit_index
from stich.web.card_art.packs import PACKS, Pack, card_name
from stich.web.card_art.svg import document, outline
from stich.web.card_art.trumps import CEGO, INDUSTRIE, fool_body, fool_index, number_index, trump_body

BACK = "back"
"""The card name of a pack's back."""
ART_VERSION = "1"
"""Changes whenever the drawings change, so that clients can bust their caches (``?v=``)."""


class CardArtError(LookupError):
    """An unknown pack or card: ``field`` is ``"pack"`` or ``"card"``."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def _shown(text: str) -> str:
    """``text`` quoted for an error message, cut short: names come from URLs anyone can type."""
    return repr(text if len(text) <= 24 else text[:24] + "…")


def find_pack(name: str) -> Pack:
    """The pack called ``name``; :class:`CardArtError` (field ``pack``) if there is none."""
    pack = PACKS.get(name)
    if pack is None:
        raise CardArtError("pack", f"no pack {_shown(name)}; packs: {', '.join(PACKS)}")
    return pack


def find_card(pack: Pack, text: str) -> Card:
    """The card written ``text`` in ``pack``; :class:`CardArtError` (field ``card``) if malformed or not in the pack.

    Only the exact notation is accepted (``H10``, not ``h10``), so every card has one URL and caches stay small.
    """
    if not (text.isascii() and text.isalnum() and 2 <= len(text) <= 3):
        # Checked before parse_card, whose cache must not fill with whatever a URL holds.
        raise CardArtError("card", f"not a card: {_shown(text)} (cards are written like H10, CQ, DA, T21)")
    try:
        card = parse_card(text)
    except NotationError:
        raise CardArtError("card", f"not a card: {_shown(text)} (cards are written like H10, CQ, DA, T21)") from None
    if card.text != text:
        raise CardArtError("card", f"write the card as {card.text!r}, not {_shown(text)}")
    if not pack.holds(card):
        raise CardArtError("card", f"{text} is not in the {pack.name} pack")
    return card


def _uid(pack: Pack, name: str) -> str:
    return pack.name[0] + name


def _face(pack: Pack, card: Card) -> str:
    uid = _uid(pack, card.text)
    title = card_name(pack, card)
    if card.suit is Suit.TAROCK:
        style = CEGO if pack.name == "cego" else INDUSTRIE
        if card.rank == 22:
            body, index = fool_body(style), fool_index(style)
        else:
            body, index = trump_body(style, card.rank, uid), number_index(style, card.rank)
        return document(title, "", outline() + body + index_group(uid + "i", index))
    sign_id = uid + "s"
    ace_ranks = frozenset({15})
    body, is_court = suit_card_body(card, pack.suit_style, pack.courts, sign_id, ace_ranks)
    index = suit_index(pack.ranks[card.rank], pack.suit_style, card.suit, sign_id, is_court)
    return document(title, sign_defs(sign_id, pack.suit_style, card.suit), outline() + body + index_group(uid + "i", index))


@cache
def card_svg(pack_name: str, card_text: str) -> str:
    """The SVG document of ``card_text`` (or ``back``) in pack ``pack_name``; raises :class:`CardArtError`."""
    pack = find_pack(pack_name)
    if card_text == BACK:
        return document(f"{pack.title}: back", "", back_body(pack.name, _uid(pack, BACK)))
    return _face(pack, find_card(pack, card_text))


def index_label(pack_name: str, card_text: str) -> str:
    """The text of a card's corner index (``10``, ``D``, ``O``, ``21``; empty for the Fool, whose index is a cap)."""
    pack = find_pack(pack_name)
    card = find_card(pack, card_text)
    if card.suit is Suit.TAROCK:
        return "" if card.rank == 22 else str(card.rank)
    return pack.ranks[card.rank]
