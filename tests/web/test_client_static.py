"""The browser client as the server serves it: the page, its modules and styles, translations and the UI contract.

The client is plain ES modules without a build step, so what these tests read
is exactly what a browser gets: every module a module imports must be served,
the English and German catalogs must hold the same keys with the same
placeholders, every key the code asks for must exist, the stable
``data-testid`` attributes the browser tests rely on must be in the sources,
and the page must load nothing from outside the server.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from stich.web.app import STATIC_DIR

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

CONTRACT_TESTIDS = (
    # header
    "lang-switch",
    "user-name",
    "logout",
    # login page / panel
    "login-name",
    "login-password",
    "login-submit",
    "register-submit",
    "guest-name",
    "guest-submit",
    # lobby
    "table-list",
    "table-row",
    "join-table",
    "create-game",
    "create-preset",
    "create-deals",
    "create-submit",
    # table page
    "invite-link",
    "seat",
    "join-seat",
    "bot-select",
    "add-bots",
    "hand",
    "card",
    "actions",
    "action",
    "turn",
    "trick",
    "last-trick",
    "evaluation",
    "score-sheet",
    "connection",
    "replay-link",
    "record-download",
    # table chat
    "chat",
    "chat-toggle",
    "chat-unread",
    "chat-log",
    "chat-message",
    "chat-who",
    "chat-text",
    "chat-mute",
    "chat-unmute",
    "chat-phrase",
    "chat-input",
    "chat-error",
    # issue 28: the settings popover, touch tips, the lobby's memory, richer history and statistics
    "settings-panel",
    "hint-tip",
    "hint-bubble",
    "lobby-remembered",
    "lobby-forget",
    "history-party",
    "history-result",
    "stats-details",
    "stats-party",
    "stats-declared",
    "stats-announcements",
    # replay page
    "replay",
    "replay-prev",
    "replay-next",
    "replay-step",
    "replay-hand",
    # stats page
    "stats",
    "stats-row",
)
"""The ``data-testid`` attributes of the UI contract shared with the browser tests (issue 5)."""

CONTRACT_DATA_ATTRIBUTES = ("table-id", "seat", "occupant", "card", "legal", "action", "mine", "state", "game")
"""``data-*`` attributes the contract names (``data-table-id``, ``data-seat``, ``data-legal``...)."""

JS_FILES = sorted((STATIC_DIR / "js").rglob("*.js"))
SOURCES = [STATIC_DIR / "index.html", *JS_FILES]
IMPORT = re.compile(r"""(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']""")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
TEXT_KEY = re.compile(r"""\bt\(\s*["']([A-Za-z0-9_.\-]+)["']""")
LITERAL_TEXT = re.compile(r"""\b(?:text|textContent|placeholder|title)\s*[:=]\s*["'`]([^"'`]*)["'`]""")
LETTER = re.compile(r"[A-Za-zÄÖÜäöüß]{2,}")
INTERPOLATION = re.compile(r"\$\{[^}]*\}+")
BRAND = "stich"
"""The project's name, the one word the page may write without a catalog."""


def _catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC_DIR / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def _source_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in SOURCES)


def _static_url(path: Path) -> str:
    return "/static/" + path.relative_to(STATIC_DIR).as_posix()


# ------------------------------------------------------------------ serving
def test_index_is_the_client_page(client: TestClient) -> None:
    """``/`` serves the single-page client (not the old placeholder), revalidated on every load."""
    answer = client.get("/")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert answer.headers.get("cache-control") == "no-cache"
    page = answer.text
    assert '<script type="module" src="/static/js/main.js">' in page
    assert '<link rel="stylesheet" href="/static/css/app.css">' in page
    assert 'id="app"' in page
    for testid in ("lang-switch", "user-name", "logout"):
        assert f'data-testid="{testid}"' in page


def test_every_module_and_what_it_imports_is_served(client: TestClient) -> None:
    """Starting from main.js, every module a module imports is served as JavaScript (a missing one breaks the page)."""
    pending = [STATIC_DIR / "js" / "main.js"]
    seen: set[Path] = set()
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        answer = client.get(_static_url(path))
        assert answer.status_code == 200, _static_url(path)
        assert "javascript" in answer.headers["content-type"], _static_url(path)
        for target in IMPORT.findall(answer.text):
            assert target.startswith("."), f"{path.name} imports {target!r}: only relative imports of served modules"
            pending.append((path.parent / target).resolve())
    assert {p.resolve() for p in JS_FILES} <= seen, "a module that nothing imports is dead code"


@pytest.mark.parametrize("path", ["/static/css/app.css", "/static/i18n/en.json", "/static/i18n/de.json", "/static/favicon.svg"])
def test_assets_are_served(client: TestClient, path: str) -> None:
    """The stylesheet, both catalogs and the icon are served with their types."""
    answer = client.get(path)
    assert answer.status_code == 200
    kind = {"css": "text/css", "json": "application/json", "svg": "image/svg+xml"}[path.rsplit(".", 1)[1]]
    assert answer.headers["content-type"].startswith(kind)


def test_a_missing_asset_is_404(client: TestClient) -> None:
    """A path outside the client's files is not found (and nothing outside the folder is reachable)."""
    assert client.get("/static/js/nope.js").status_code == 404
    assert client.get("/static/../app.py").status_code == 404


def test_an_invite_link_opens_the_table_in_the_client(client: TestClient) -> None:
    """The API's invite path ``/tables/{id}?invite=T`` redirects to the client's route ``/#/table/{id}?invite=T``."""
    answer = client.get("/tables/AbC-12_x?invite=tok_EN-1", follow_redirects=False)
    assert answer.status_code == 307
    assert answer.headers["location"] == "/#/table/AbC-12_x?invite=tok_EN-1"
    plain = client.get("/tables/AbC", follow_redirects=False)
    assert plain.headers["location"] == "/#/table/AbC"


def test_the_invite_path_of_a_real_table_leads_to_its_route(client: TestClient) -> None:
    """The invite link a created table reports is one the client understands."""
    client.post("/api/auth/guest", json={"name": "Anna"})
    table = client.post("/api/tables", json={"game": "doppelkopf", "private": True}).json()
    answer = client.get(table["invite"], follow_redirects=False)
    token = table["invite"].split("invite=")[1]
    assert answer.headers["location"] == f"/#/table/{table['id']}?invite={token}"


# -------------------------------------------------------------- translations
def test_english_and_german_hold_the_same_keys() -> None:
    """Both catalogs have exactly the same keys, none of them empty."""
    en, de = _catalog("en"), _catalog("de")
    assert sorted(set(en) - set(de)) == []
    assert sorted(set(de) - set(en)) == []
    assert [key for key, text in {**en, **de}.items() if not str(text).strip()] == []


def test_placeholders_agree_between_the_languages() -> None:
    """A text's ``{placeholders}`` are the same in English and German (a missing one would print raw)."""
    en, de = _catalog("en"), _catalog("de")
    differ = {key: (sorted(PLACEHOLDER.findall(en[key])), sorted(PLACEHOLDER.findall(de[key]))) for key in en}
    assert {key: pair for key, pair in differ.items() if pair[0] != pair[1]} == {}


def test_every_text_the_code_asks_for_exists() -> None:
    """Each literal key in ``t("...")`` is in the catalogs (dynamic keys fall back and are not checked here)."""
    en = _catalog("en")
    used = set(TEXT_KEY.findall(_source_text()))
    assert len(used) > 100
    assert sorted(key for key in used if key not in en) == []


def test_no_visible_text_is_written_into_the_code() -> None:
    """Texts shown to people come from the catalogs: no literal words as element text, titles or placeholders."""
    offenders = []
    for path in JS_FILES:
        for literal in LITERAL_TEXT.findall(path.read_text(encoding="utf-8")):
            if LETTER.search(INTERPOLATION.sub("", literal).replace(BRAND, "")):
                offenders.append(f"{path.name}: {literal!r}")
    assert offenders == []


def test_games_own_german_terms_are_kept_in_english() -> None:
    """Re, Kontra, Hochzeit, Armut, Pagat, Sküs, Mond... read the same in English as in German."""
    en, de = _catalog("en"), _catalog("de")
    kept = ("action.announce.re", "action.announce.kontra", "action.hochzeit", "action.armut", "trump.T1", "trump.T21", "trump.T22")
    for key in (*kept, "contract.dreier"):
        assert en[key] == de[key], key
    assert en["trump.T22"] == "Sküs"
    assert en["action.vorbehalt"] == "Vorbehalt"


# ----------------------------------------------------------------- contract
@pytest.mark.parametrize("testid", CONTRACT_TESTIDS)
def test_every_contract_testid_is_in_the_sources(testid: str) -> None:
    """The browser tests find their elements by these exact ``data-testid`` values."""
    pattern = re.compile(r"""(?:testid:\s*|data-testid=)["']""" + re.escape(testid) + r"""["']""")
    assert pattern.search(_source_text()), testid


@pytest.mark.parametrize("name", CONTRACT_DATA_ATTRIBUTES)
def test_contract_data_attributes_are_set(name: str) -> None:
    """``data-table-id``, ``data-seat``, ``data-legal``... are written (as dataset keys or attributes)."""
    camel = re.sub(r"-(\w)", lambda m: m.group(1).upper(), name)
    text = _source_text()
    assert re.search(r"dataset(?:\.|:\s*\{[^}]*\b)" + re.escape(camel) + r"\b", text) or f"data-{name}=" in text, name


def test_hash_routes_of_the_contract_are_handled() -> None:
    """The router knows ``#/``, ``#/login``, ``#/table/{id}``, ``#/replay/{id}``, ``#/stats`` and ``#/history``."""
    main = (STATIC_DIR / "js" / "main.js").read_text(encoding="utf-8")
    for route in ("lobby", "login", "table", "replay", "history", "stats"):
        assert f'name: "{route}"' in main


def test_nothing_is_loaded_from_outside_the_server() -> None:
    """No CDN, no external font or script: the only absolute URLs are the SVG namespace."""
    found: list[Any] = []
    for path in [*SOURCES, STATIC_DIR / "css" / "app.css", STATIC_DIR / "favicon.svg"]:
        for url in re.findall(r"https?://[^\s\"')]+", path.read_text(encoding="utf-8")):
            if url != "http://www.w3.org/2000/svg":
                found.append((path.name, url))
    assert found == []
