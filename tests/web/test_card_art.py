"""The card art: every card of every game draws in its pack, as small, valid, self-contained SVG; the HTTP routes.

Packs per game follow the dossiers: Doppelkopf French-suited with German suits
as a choice, Dobbm German-suited (dobbm §1), Tapp Tarock the 54-card
Industrie und Glück pack (tapp_tarock §1), Droggn a 66- or 78-card tarock
pack (droggn §1, §9), Dappen the 54-card Cego pack (dappen §1).
"""

from __future__ import annotations

import math
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*starlette.testclient.*")

from fastapi import FastAPI  # noqa: E402 - after the warning filter
from fastapi.testclient import TestClient  # noqa: E402

from stich.cards import Card, Suit, parse_card  # noqa: E402
from stich.core.registry import game_names, make_game  # noqa: E402
from stich.web.api import cards as cards_api  # noqa: E402
from stich.web.card_art import (  # noqa: E402
    ART_VERSION,
    PACKS,
    CardArtError,
    card_name,
    card_svg,
    default_pack,
    index_label,
)
from stich.web.card_art.pips import FRENCH_PIP, GERMAN_PIP, Pip, french_pips, german_pips  # noqa: E402
from stich.web.card_art.trumps import roman  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
INDEX_WIDTH = 240 * 0.35
"""The part of a card that shows in a fanned hand: the corner index must lie inside it."""


def parse(svg: str) -> ET.Element:
    """The SVG document as an element tree (fails on malformed XML)."""
    return ET.fromstring(svg)


def game_decks() -> Iterator[tuple[str, str, list[Card]]]:
    """(game, configuration, every face of its pack) for each game, with Droggn's 78-card variant too."""
    for name in game_names():
        game = make_game(name)
        yield name, game.canonical, list(game.deck.faces)
    yield "droggn", "droggn(pack78)", list(make_game("droggn", "pack78").deck.faces)


# ---------------------------------------------------------------- packs per game


def test_every_game_has_a_default_pack_and_german_is_only_a_choice_for_doppelkopf() -> None:
    for name in game_names():
        assert default_pack(name) in PACKS
    assert default_pack("doppelkopf") == "french"
    assert default_pack("doppelkopf", german=True) == "german"
    assert default_pack("dobbm") == default_pack("dobbm", german=True) == "german"
    assert default_pack("tapp_tarock", german=True) == "tarock"
    assert default_pack("dappen") == "cego"


def test_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'skat'"):
        default_pack("skat")


@pytest.mark.parametrize(("name", "config", "faces"), list(game_decks()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_card_of_every_game_renders_in_its_default_pack(name: str, config: str, faces: list[Card]) -> None:
    packs = {default_pack(name), default_pack(name, german=True)}
    for pack in packs:
        for card in faces:
            root = parse(card_svg(pack, card.text))
            assert root.tag == f"{SVG}svg", (config, pack, card)
            assert root.get("viewBox") == "0 0 240 360"


def test_pack_sizes_match_the_dossiers() -> None:
    assert len(PACKS["german"].cards) == 36  # dobbm §1
    assert len(PACKS["cego"].cards) == 54  # dappen §1
    tapp = {c.text for c in make_game("tapp_tarock").deck.faces}
    assert len(tapp) == 54 and tapp <= {c.text for c in PACKS["tarock"].cards}  # tapp_tarock §1
    assert len(PACKS["tarock"].cards) == 78  # droggn §9


# ---------------------------------------------------------------- the drawings


def all_cards() -> Iterator[tuple[str, str]]:
    for pack in PACKS.values():
        for card in pack.cards:
            yield pack.name, card.text
        yield pack.name, "back"


def test_svgs_are_standalone_small_and_free_of_external_assets() -> None:
    for pack, text in all_cards():
        svg = card_svg(pack, text)
        assert len(svg.encode()) < 8000, (pack, text, len(svg))
        assert svg.count("http") == 1  # the namespace, nothing fetched
        for outside in ("<image", "@import", "@font-face", "url(http", "xlink:href"):
            assert outside not in svg
        root = parse(svg)
        ids = [e.get("id") for e in root.iter() if e.get("id")]
        assert len(ids) == len(set(ids))
        for use in root.iter(f"{SVG}use"):
            assert (use.get("href") or "").lstrip("#") in ids
        for e in root.iter():
            for value in e.attrib.values():
                if value.startswith("url(#"):
                    assert value[5:-1] in ids


def test_ids_differ_between_cards_so_several_can_be_inlined_in_one_page() -> None:
    seen: dict[str, tuple[str, str]] = {}
    for pack, text in all_cards():
        for e in parse(card_svg(pack, text)).iter():
            element_id = e.get("id")
            if element_id:
                assert element_id not in seen, (element_id, seen.get(element_id), (pack, text))
                seen[element_id] = (pack, text)


def test_different_cards_give_different_drawings() -> None:
    for pack in PACKS.values():
        drawings = {card_svg(pack.name, c.text) for c in pack.cards} | {card_svg(pack.name, "back")}
        assert len(drawings) == len(pack.cards) + 1, pack.name
    backs = {card_svg(name, "back") for name in PACKS}
    assert len(backs) == len(PACKS)


def corner_texts(svg: str) -> list[tuple[str, float]]:
    """(text, x) of the texts in the corner index group (the ``<g>`` shown in both corners)."""
    root = parse(svg)
    used = {(u.get("href") or "").lstrip("#") for u in root.iter(f"{SVG}use")}
    groups = [g for g in root.iter(f"{SVG}g") if g.get("id") in used]
    assert len(groups) == 1, "one index group, shown twice"
    return [("".join(t.itertext()), float(t.get("x", "0"))) for t in groups[0].iter(f"{SVG}text")]


@pytest.mark.parametrize(
    ("pack", "text", "label"),
    [
        ("french", "H10", "10"),
        ("french", "CQ", "D"),
        ("french", "SJ", "B"),
        ("french", "DA", "A"),
        ("german", "CQ", "O"),
        ("german", "SJ", "U"),
        ("german", "HA", "A"),
        ("german", "D6", "6"),
        ("tarock", "SC", "R"),
        ("tarock", "H1", "1"),
        ("tarock", "T21", "21"),
        ("cego", "T1", "1"),
        ("cego", "DC", "R"),
    ],
)
def test_corner_index_shows_the_rank(pack: str, text: str, label: str) -> None:
    assert index_label(pack, text) == label
    assert [t for t, _ in corner_texts(card_svg(pack, text))] == [label]


def test_every_corner_index_sits_in_the_left_part_that_a_fanned_hand_shows() -> None:
    for pack in PACKS.values():
        for card in pack.cards:
            label = index_label(pack.name, card.text)
            texts = corner_texts(card_svg(pack.name, card.text))
            if card == Card(Suit.TAROCK, 22):
                assert label == "" and texts == []  # the Fool's index is its cap, no number
                continue
            assert [t for t, _ in texts] == [label]
            assert all(x < INDEX_WIDTH / 2 for _, x in texts)  # centred well inside the visible strip


def test_trumps_carry_their_numerals_and_the_fool_is_different() -> None:
    tarock_21 = card_svg("tarock", "T21")
    assert ">XXI<" in tarock_21  # Industrie und Glück: Roman numerals
    assert ">XXI<" not in card_svg("cego", "T21")  # Cego: Arabic numbers only
    for pack in ("tarock", "cego"):
        fool = card_svg(pack, "T22")
        assert "<clipPath" not in fool  # no vignette panels: a full-card figure
        assert all("<clipPath" in card_svg(pack, f"T{n}") for n in range(1, 22))


@pytest.mark.parametrize(
    ("pack", "text", "name"),
    [
        ("french", "HQ", "Herz Dame"),
        ("french", "C10", "Kreuz 10"),
        ("german", "CQ", "Eichel Ober"),
        ("german", "DA", "Schellen Daus"),
        ("german", "SJ", "Laub Unter"),
        ("tarock", "T21", "Tarock XXI (Mond)"),
        ("tarock", "T22", "Sküs"),
        ("tarock", "DC", "Karo Reiter"),
        ("cego", "T1", "Trumpf 1 (Geiß)"),
        ("cego", "T22", "Gstieß"),
    ],
)
def test_card_names_are_the_svg_title(pack: str, text: str, name: str) -> None:
    assert card_name(PACKS[pack], parse_card(text)) == name
    assert parse(card_svg(pack, text)).findtext(f"{SVG}title") == name


def test_unknown_pack_and_card_name_the_field() -> None:
    cases = [
        ("joker", "H10", "pack"),
        ("french", "T5", "card"),
        ("french", "h10", "card"),
        ("french", "ZZ", "card"),
        ("cego", "H5", "card"),
    ]
    for pack, text, field in cases:
        with pytest.raises(CardArtError) as info:
            card_svg(pack, text)
        assert info.value.field == field
    with pytest.raises(CardArtError, match=r"'x{24}…'"):
        card_svg("french", "x" * 500)


# ---------------------------------------------------------------- layouts


def test_roman_numerals() -> None:
    assert [roman(n) for n in (1, 4, 9, 14, 18, 19, 21, 22)] == ["I", "IV", "IX", "XIV", "XVIII", "XIX", "XXI", "XXII"]
    with pytest.raises(ValueError):
        roman(0)


@pytest.mark.parametrize(("layout", "counts", "size"), [(french_pips, range(1, 11), FRENCH_PIP), (german_pips, range(2, 11), GERMAN_PIP)])
def test_pips_do_not_overlap_and_keep_clear_of_the_corner_indices(layout: Callable[[int], list[Pip]], counts: range, size: float) -> None:
    for count in counts:
        pips = layout(count)
        assert len(pips) == count
        for i, (x, y, _) in enumerate(pips):
            assert size / 2 <= x <= 240 - size / 2 and size / 2 <= y <= 360 - size / 2
            in_top_index = x - size / 2 < 58 and y - size / 2 < 100
            in_bottom_index = x + size / 2 > 182 and y + size / 2 > 260
            assert not (in_top_index or in_bottom_index), (count, x, y)
            for x2, y2, _ in pips[i + 1 :]:
                assert math.dist((x, y), (x2, y2)) >= size, (count, (x, y), (x2, y2))
        # symmetric about the vertical middle line
        assert sorted(round(240 - x) for x, _, _ in pips) == sorted(round(x) for x, _, _ in pips)


# ---------------------------------------------------------------- HTTP


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(cards_api.router)
    with TestClient(app) as test_client:
        yield test_client


def test_card_route_serves_svg_with_long_cache_headers(client: TestClient) -> None:
    response = client.get("/cards/french/H10.svg")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert response.text == card_svg("french", "H10")
    max_age = int(response.headers["cache-control"].split("max-age=")[1].split(",")[0])
    assert "public" in response.headers["cache-control"] and max_age >= 7 * 86400
    etag = response.headers["etag"]
    again = client.get("/cards/french/H10.svg", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/cards/french/HA.svg").headers["etag"] != etag
    versioned = client.get(f"/cards/french/H10.svg?v={ART_VERSION}")
    assert "immutable" in versioned.headers["cache-control"]


def test_back_and_tarock_routes(client: TestClient) -> None:
    back = client.get("/cards/cego/back.svg")
    assert back.status_code == 200 and back.text == card_svg("cego", "back")
    fool = client.get("/cards/tarock/T22.svg")
    assert fool.status_code == 200 and "Sküs" in fool.text


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/cards/joker/H10.svg", "pack"),
        ("/cards/joker/back.svg", "pack"),
        ("/cards/french/T22.svg", "card"),
        ("/cards/french/h10.svg", "card"),
        ("/cards/german/H2.svg", "card"),
        ("/cards/tarock/%3Cscript%3E.svg", "card"),
    ],
)
def test_unknown_pack_or_card_is_404_naming_the_field(client: TestClient, url: str, field: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    body = response.json()
    assert body["type"] == "error" and body["field"] == field and body["message"]
    assert "cache-control" not in response.headers


def test_packs_listing_covers_every_games_cards(client: TestClient) -> None:
    listing = client.get("/api/cards/packs").json()
    assert listing["version"] == ART_VERSION
    packs = {p["name"]: p for p in listing["packs"]}
    assert set(packs) == {"french", "german", "tarock", "cego"}
    assert set(listing["games"]) == set(game_names())
    for name, config, faces in game_decks():
        choice = listing["games"][name]
        assert choice == {"pack": default_pack(name), "german": default_pack(name, german=True)}
        for pack in choice.values():
            assert {c.text for c in faces} <= set(packs[pack]["cards"]), (config, pack)
        assert name in packs[choice["pack"]]["games"]
    for pack in packs.values():
        assert set(pack["names"]) == set(pack["cards"])
        assert client.get(pack["back"]).status_code == 200
