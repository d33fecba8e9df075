"""Card images over HTTP: ``GET /cards/{pack}/{card}.svg``, ``GET /cards/{pack}/back.svg`` and ``GET /api/cards/packs``.

The drawings come from :mod:`stich.web.card_art`; ``{card}`` is the card's
notation exactly as :attr:`stich.cards.Card.text` writes it (``H10``,
``CQ``, ``T22``).  A card never changes while a version of the art is
served, so answers carry long cache headers and an ETag (a repeated request
with ``If-None-Match`` gets ``304``); a client that adds ``?v=<version>``
(the ``version`` of ``/api/cards/packs``) may cache for good.  An unknown
pack or card is answered ``404`` with the usual error body, e.g.
``{"type": "error", "field": "card", "message": "X9 is not a card ..."}``.

Included in the app with ``app.include_router(cards_api.router)``.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from stich.core.registry import game_names
from stich.web.card_art import ART_VERSION, BACK, PACKS, CardArtError, card_name, card_svg, default_pack
from stich.web.card_art.svg import HEIGHT, WIDTH
from stich.web.protocol import error_message

__all__ = ["CACHE_CONTROL", "CACHE_CONTROL_VERSIONED", "default_pack", "router"]

router = APIRouter(tags=["cards"])

SVG_TYPE = "image/svg+xml"
CACHE_CONTROL = "public, max-age=604800"
"""A week: long enough that a hand of cards is fetched once, short enough that new art arrives."""
CACHE_CONTROL_VERSIONED = "public, max-age=31536000, immutable"
"""For URLs with ``?v=<current version>``: such a URL names one drawing for good."""
_SVG_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {SVG_TYPE: {}}, "description": "The card as a standalone SVG document (viewBox 0 0 240 360)."},
    404: {"description": 'Unknown pack or card: `{"type": "error", "field": "pack" | "card", "message": ...}`.'},
}


@cache
def _etag(pack: str, card: str) -> str:
    digest = hashlib.sha256(card_svg(pack, card).encode()).hexdigest()[:20]
    return f'"{ART_VERSION}-{digest}"'


def _svg_response(request: Request, pack: str, card: str) -> Response:
    try:
        body = card_svg(pack, card)
    except CardArtError as exc:
        return JSONResponse(error_message(exc.field, exc.message), status_code=404)
    versioned = request.query_params.get("v") == ART_VERSION
    headers = {"Cache-Control": CACHE_CONTROL_VERSIONED if versioned else CACHE_CONTROL, "ETag": _etag(pack, card)}
    if request.headers.get("if-none-match") == headers["ETag"]:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=SVG_TYPE, headers=headers)


@router.get("/cards/{pack}/back.svg", response_class=Response, responses=_SVG_RESPONSES)
def card_back(request: Request, pack: str) -> Response:
    """The back of a pack's cards."""
    return _svg_response(request, pack, BACK)


@router.get("/cards/{pack}/{card}.svg", response_class=Response, responses=_SVG_RESPONSES)
def card_face(request: Request, pack: str, card: str) -> Response:
    """One card of a pack, named in the engine's notation (``H10``, ``CQ``, ``T21``; ``back`` for the back)."""
    return _svg_response(request, pack, card)


@router.get("/api/cards/packs")
def packs() -> dict[str, Any]:
    """Every pack with its cards (notation and name), the URL of its back, and each game's default pack.

    ``games`` maps each game to ``{"pack": ..., "german": ...}``: the pack it is shown with, and the
    pack to use when a player asks for German suits (only Doppelkopf has a real choice).
    """
    games = {name: {"pack": default_pack(name), "german": default_pack(name, german=True)} for name in game_names()}
    return {
        "version": ART_VERSION,
        "width": WIDTH,
        "height": HEIGHT,
        "url": "/cards/{pack}/{card}.svg",
        "packs": [
            {
                "name": pack.name,
                "title": pack.title,
                "description": pack.description,
                "suits": pack.suit_style,
                "cards": [card.text for card in pack.cards],
                "names": {card.text: card_name(pack, card) for card in pack.cards},
                "back": f"/cards/{pack.name}/back.svg",
                "games": [name for name, choice in games.items() if choice["pack"] == pack.name],
            }
            for pack in PACKS.values()
        ],
        "games": games,
    }
