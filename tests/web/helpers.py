"""Helpers for the web server tests: an app on a temporary SQLite file, people with their own cookies, WebSocket readers."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
import warnings
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
from argon2 import PasswordHasher

warnings.filterwarnings("ignore", message=".*httpx.*starlette.testclient.*")

from fastapi.testclient import TestClient  # noqa: E402 - after the warning filter
from starlette.testclient import WebSocketTestSession  # noqa: E402

from stich.cards import parse_card  # noqa: E402
from stich.core.game import Game, State  # noqa: E402
from stich.core.records import replay_deal  # noqa: E402
from stich.core.registry import game_from_string  # noqa: E402
from stich.web.api.services import Services  # noqa: E402
from stich.web.app import create_app  # noqa: E402
from stich.web.guards.passwords import Passwords  # noqa: E402
from stich.web.settings import Settings  # noqa: E402
from stich.web.storage.login_sessions import COOKIE_NAME  # noqa: E402

FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
"""Cheap Argon2 parameters, so that tests stay fast (the server's default is argon2-cffi's)."""


def make_settings(url: str, **changes: Any) -> Settings:
    """Test settings: no bot delay, no pause between deals, a long grace period, no default turn clock unless changed."""
    values: dict[str, Any] = {
        "database_url": url,
        "bot_delay_seconds": 0.0,
        "next_deal_delay_seconds": 0.0,
        "grace_seconds": 60.0,
        "public_turn_seconds": None,
    }
    values.update(changes)
    return Settings(**values)


@contextmanager
def running(settings: Settings, **client_args: Any) -> Iterator[TestClient]:
    """A started app (lifespan run: migrations, tables resumed) and its test client."""
    app = create_app(settings, Passwords(FAST_HASHER))
    with TestClient(app, **client_args) as client:
        yield client


def svc(client: TestClient) -> Services:
    """The server's services (database, tables) behind a test client."""
    services: Services = client.app.state.services  # type: ignore[attr-defined]
    return services


def wait_for(condition: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
    """Poll ``condition`` until it returns something truthy; returns that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def call(client: TestClient, method: str, url: str, token: str | None = None, **kwargs: Any) -> Any:
    """One request as the person holding ``token`` (no cookie for ``None``); returns the response."""
    client.cookies.clear()
    headers = dict(kwargs.pop("headers", {}))
    if token is not None:
        headers["cookie"] = f"{COOKIE_NAME}={token}"
    response = client.request(method, url, headers=headers, **kwargs)
    client.cookies.clear()
    return response


def session_token(response: Any) -> str:
    """The session token a response sets."""
    for header in response.headers.get_list("set-cookie"):
        match = re.match(rf"{COOKIE_NAME}=([^;]+)", header)
        if match:
            return match.group(1)
    raise AssertionError(f"no session cookie in {response.headers}")


def new_guest(client: TestClient, name: str | None = None) -> str:
    """A new guest session; returns its token."""
    response = call(client, "POST", "/api/auth/guest", json={} if name is None else {"name": name})
    assert response.status_code == 200, response.text
    return session_token(response)


def create_table(client: TestClient, token: str, **body: Any) -> dict[str, Any]:
    """Create a table as ``token``; returns the table summary."""
    response = call(client, "POST", "/api/tables", token, json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def connect(client: TestClient, table_id: str, token: str | None = None, invite: str | None = None) -> WebSocketTestSession:
    """Open the table WebSocket as ``token`` (a spectator without one)."""
    client.cookies.clear()
    headers = {"cookie": f"{COOKIE_NAME}={token}"} if token else {}
    path = f"/ws/tables/{table_id}" + (f"?invite={invite}" if invite else "")
    return client.websocket_connect(path, headers=headers)


class Reader:
    """Reads a test WebSocket with a timeout (a stuck server fails the test instead of hanging it)."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self.pending: list[dict[str, Any]] = []

    def push_back(self, message: dict[str, Any]) -> None:
        """Make ``message`` the next one :meth:`next` returns again (it stays counted once in ``seen``)."""
        self.pending.insert(0, message)

    def next(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message."""
        if self.pending:
            return self.pending.pop(0)

        async def receive() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        message = self.ws.portal.call(receive)
        if message["type"] == "websocket.close":
            raise ConnectionError(f"closed with code {message.get('code')}")
        data: dict[str, Any] = json.loads(message["text"])
        self.seen.append(data)
        return data

    def until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """Read until a message satisfies ``predicate``; returns it."""
        while True:
            message = self.next(timeout)
            if predicate(message):
                return message

    def send(self, data: Any) -> None:
        """Send JSON."""
        self.ws.send_json(data)


def first_and_close(ws: WebSocketTestSession) -> tuple[dict[str, Any], str]:
    """The first message of a socket the server then closes, and the close (``closed with code N``)."""
    reader = Reader(ws)
    message = reader.next()
    try:
        reader.next()
    except ConnectionError as exc:
        return message, str(exc)
    raise AssertionError(f"the socket stayed open after {message}")


def first_legal(view: dict[str, Any]) -> str:
    """The first legal action of a view."""
    actions: list[str] = view["legal_actions"]
    return actions[0]


def play_as_seat(
    reader: Reader, choose: Callable[[dict[str, Any]], str] = first_legal, *, until: tuple[str, ...] = ("deal_end",), ready: bool = True
) -> dict[str, Any]:
    """Play every turn of this seat until a message of a type in ``until`` arrives; returns that message.

    At each deal's end the seat says "Weiter" (``continue``), as the evaluation's button does, unless ``ready`` is false
    (the next deal waits for every person at the table: :mod:`stich.web.runtime.ready_wait`).
    """
    acted: set[tuple[int, int]] = set()
    while True:
        message = reader.next()
        if message["type"] == "deal_end" and ready:
            reader.send({"type": "continue", "deal": message["deal"]})
        if message["type"] in until:
            return message
        if message["type"] == "error":
            raise AssertionError(f"server error: {message}")
        if message["type"] == "state" and message["view"]["legal_actions"]:
            key = (message["deal"], message["step"])
            if key not in acted:
                acted.add(key)
                reader.send({"type": "action", "action": choose(message["view"]), "step": message["step"], "deal": message["deal"]})


@dataclass
class WatchedDeal:
    """One deal a guest played at a seat against random bots while a spectator watched (:func:`play_watched_deal`)."""

    end: dict[str, Any]  # the seat's ``deal_end`` message
    record: dict[str, Any]
    game: Game
    states: list[State]  # the deal after 0, 1, 2, ... actions
    seat_states: list[dict[str, Any]]  # the seat's ``state`` messages of this deal (at least one)
    seat_seen: list[dict[str, Any]]  # every message the seat got
    spectator_seen: list[dict[str, Any]]  # every message the spectator got


def play_watched_deal(client: TestClient, game: str, seat: int, name: str = "Ada") -> WatchedDeal:
    """A guest creates a ``game`` table at ``seat``, fills it with random bots and plays one deal while a spectator watches.

    Returns what both saw and the deal's record, replayed step by step, to read their messages against.
    """
    token = new_guest(client, name)
    table = create_table(client, token, game=game, seat=seat)
    with connect(client, table["id"]) as spectator_ws, connect(client, table["id"], token) as player_ws:
        spectator, player = Reader(spectator_ws), Reader(player_ws)
        assert call(client, "POST", f"/api/tables/{table['id']}/bots", token, json={"bot": "random"}).status_code == 200
        end = play_as_seat(player)
        spectator.until(lambda m: m["type"] == "deal_end" and m["deal"] == end["deal"])
    record = call(client, "GET", end["record_url"]).json()
    views = [m for m in player.seen if m["type"] == "state" and m["deal"] == end["deal"]]
    assert views
    return WatchedDeal(end, record, game_from_string(record["game"]), states_by_step(record), views, player.seen, spectator.seen)


# ------------------------------------------------------------ leak checks
def card_words(game: Game, data: Any) -> set[str]:
    """Card faces of ``game`` named as words in ``data`` (found independently of the server's code)."""
    faces = sorted({card.text for card in game.deck.faces}, key=len, reverse=True)
    pattern = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, faces)) + r")(?![A-Za-z0-9_])")
    return {parse_card(word).text for word in pattern.findall(json.dumps(data))}


def states_by_step(record: dict[str, Any]) -> list[State]:
    """The deal of ``record`` after 0, 1, 2, ... actions (replayed from the record, which is itself re-checked)."""
    replay_deal(record)
    game = game_from_string(record["game"])
    state = game.new_state(seed=record["seed"], dealer=record["dealer"], context=record["context"])
    states = [state.clone()]
    for _seat, text in record["actions"]:
        state.apply(text)
        states.append(state.clone())
    return states


def knowable_faces(state: State, seat: int | None) -> set[str]:
    """Faces ``seat`` may know at ``state``; for a spectator (``None``) what every seat may know, no held card included."""
    game = state.game
    if seat is not None:
        mask = state.knowable_cards(seat)
    else:
        mask = game.deck.full_mask
        for other in range(game.num_seats):
            mask &= state.knowable_cards(other) & ~state.hand_mask(other)
    return {card.text for card in game.deck.cards(mask)}


def check_no_leaks(messages: list[dict[str, Any]], record: dict[str, Any], seat: int | None) -> int:
    """Every message of one deal names only cards ``seat`` may know at that step; returns how many were checked."""
    game = game_from_string(record["game"])
    states = states_by_step(record)
    deal_id = record["meta"]["deal_id"]
    step = 0
    checked = 0
    in_deal = False
    for message in messages:
        if message.get("type") == "deal_start":
            in_deal = message["deal"] == deal_id
            step = 0
        if not in_deal:
            continue
        if message.get("type") == "state":
            assert message["deal"] == deal_id
            step = message["step"]
            view = message["view"]
            if seat is None:
                assert "hand" not in view and "private" not in view and "legal_actions" not in view, "a spectator got private fields"
            else:
                assert view["seat"] == seat, "a seat got another seat's observation"
        if message.get("type") == "deal_end":  # reveals the seed, hence every card, by design
            in_deal = False
            continue
        scrubbed = {key: value for key, value in message.items() if key != "table"}  # a random id may look like a card
        leaked = card_words(game, scrubbed) - knowable_faces(states[step], seat)
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} at step {step}: {message['type']}"
        checked += 1
    return checked


T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` on a thread of its own.

    A browser test on the same xdist worker leaves Playwright's event loop
    running on the main thread for the rest of the session, and
    ``asyncio.run`` refuses to start beside a running loop; a fresh thread
    has none.
    """
    out: list[T] = []
    errors: list[BaseException] = []

    def main() -> None:
        try:
            out.append(asyncio.run(coroutine))
        except BaseException as exc:  # handed to the caller's thread
            errors.append(exc)

    thread = threading.Thread(target=main, name="run_async")
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return out[0]
