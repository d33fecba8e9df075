"""Views built once and messages encoded once per audience (stich.web.runtime.broadcast), without changing what anybody gets.

Hidden information stays hidden (project standard): a seat's socket only
ever gets its own seat's view, and the spectators' shared view names no card
of any hand.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from stich.core.game import State
from stich.core.registry import game_from_string
from stich.web.protocol import public_faces, public_view
from stich.web.runtime.broadcast import StateViews, encode, send_per_audience

from .helpers import card_words, knowable_faces


@dataclass
class FakeSocket:
    """A connection as far as sending goes: its seat (``None``: a spectator) and the texts queued for it."""

    seat: int | None
    texts: list[str] = field(default_factory=list)

    def send_text(self, text: str) -> None:
        self.texts.append(text)


def _midway(game_name: str, seed: int, steps: int) -> State:
    """A deal of ``game_name`` after ``steps`` random legal actions (fewer if it ends first)."""
    state = game_from_string(game_name).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game_name", ["doppelkopf", "tapp_tarock", "droggn", "dappen"])
@pytest.mark.parametrize("steps", [0, 7, 20])
def test_shared_views_equal_the_views_built_alone(game_name: str, steps: int) -> None:
    """StateViews gives each seat exactly ``observation(seat).to_json()`` and spectators exactly ``public_view(state)``."""
    state = _midway(game_name, seed=11 + steps, steps=steps)
    views = StateViews(state)
    for seat in range(state.game.num_seats):
        observation, view = views.seat(seat)
        assert view == state.observation(seat).to_json()
        assert observation.seat == seat
        assert views.seat(seat)[1] is view  # built once for the moment
    public = views.public()
    assert public == public_view(state)
    assert views.public() is public


def test_spectators_share_one_encoding_and_seats_get_only_their_own_view() -> None:
    """Two spectators get the very same text (encoded once); each seat gets its own view and never another seat's cards."""
    state = _midway("doppelkopf", seed=5, steps=9)
    views = StateViews(state)
    built: list[int | None] = []

    def build(seat: int | None) -> dict[str, Any]:
        built.append(seat)
        view = views.public() if seat is None else views.seat(seat)[1]
        return {"type": "state", "seat": seat, "view": view}

    sockets = [FakeSocket(None), FakeSocket(0), FakeSocket(None), FakeSocket(1), FakeSocket(0)]
    encodings = send_per_audience(sockets, build)
    assert encodings == 3 and sorted(built, key=str) == [0, 1, None]  # one build and one encoding per audience
    first, second = sockets[0].texts, sockets[2].texts
    assert len(first) == len(second) == 1 and first[0] is second[0]  # byte-identical: the same string object
    assert sockets[1].texts[0] is sockets[4].texts[0]  # two tabs of seat 0 share seat 0's text
    for sock in sockets:
        message = json.loads(sock.texts[0])
        assert message["seat"] == sock.seat
        assert message["view"] == (public_view(state) if sock.seat is None else state.observation(sock.seat).to_json())
    for sock in sockets:  # each socket's text names only cards its own seat (a spectator: every seat, held ones excluded) may know
        message = json.loads(sock.texts[0])
        assert not card_words(state.game, message["view"]) - knowable_faces(state, sock.seat)
        if sock.seat is None:
            assert "hand" not in message["view"]
        else:
            assert message["view"]["hand"] == state.observation(sock.seat).to_json()["hand"]


def test_an_audience_without_a_message_gets_nothing() -> None:
    sockets = [FakeSocket(None), FakeSocket(2)]
    send_per_audience(sockets, lambda seat: None if seat is None else {"type": "state", "seat": seat})
    assert sockets[0].texts == [] and sockets[1].texts == ['{"type":"state","seat":2}']


def test_encoding_is_the_compact_utf8_json_clients_always_got() -> None:
    message = {"type": "chat", "text": "Gegenspiel gewinnt – Hälfte", "n": [1, 2]}
    assert encode(message) == json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    assert encode(message) == '{"type":"chat","text":"Gegenspiel gewinnt – Hälfte","n":[1,2]}'


def _reference_public_view(state: State) -> dict[str, Any]:
    """The spectators' view as first written (every comparison and card search through JSON), to hold the faster one to."""
    game = state.game
    views = [state.observation(seat).to_json() for seat in range(game.num_seats)]
    allowed = public_faces(state)

    def same(values: list[Any]) -> bool:
        return len({json.dumps(value, sort_keys=True) for value in values}) == 1

    def scrub(value: Any) -> Any:
        if isinstance(value, dict):
            kept = {key: scrub(item) for key, item in value.items()}
            return {key: item for key, item in kept.items() if item is not _GONE}
        return value if card_words(game, value) <= allowed else _GONE

    events = []
    for index, (actor, text) in enumerate(views[0]["events"]):
        shown = same([view["events"][index][1] for view in views]) and card_words(game, text) <= allowed
        events.append([actor, text if shown else f"{text.split(' ', 1)[0]} ?"])
    public = {}
    for key, value in views[0]["public"].items():
        if all(key in view["public"] for view in views) and same([view["public"][key] for view in views]):
            kept = scrub(value)
            if kept is not _GONE:
                public[key] = kept
    tricks = views[0]["tricks"] if same([view["tricks"] for view in views]) else []
    first = views[0]
    return {
        "game": first["game"],
        "seat": None,
        "phase": first["phase"],
        "to_move": first["to_move"],
        "events": events,
        "tricks": tricks,
        "public": public,
    }


_GONE = object()
"""A value the reference drops (it names a card spectators may not see)."""


@pytest.mark.parametrize("game_name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"])
def test_the_spectator_view_is_what_the_reference_makes_at_every_step(game_name: str) -> None:
    """The faster public_view (facts compared in Python first, faces remembered per text) gives what the JSON-only reference gives."""
    for seed in range(3):
        state = game_from_string(game_name).new_state(seed=seed)
        rng = random.Random(seed)
        while True:
            assert StateViews(state).public() == _reference_public_view(state)
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))


def test_encoding_falls_back_to_the_standard_encoder_where_orjson_refuses() -> None:
    message = {"type": "x", "by_seat": {1: "a"}, "big": 2**70, "nested": [{"ä": None, "t": (1, 2)}], "f": 0.1}
    assert encode(message) == json.dumps(message, separators=(",", ":"), ensure_ascii=False)  # int keys, an int past 64 bits
    plain = {"type": "state", "view": {"events": [[0, "play H10"]], "public": {"multiplier": 2, "x": 1.5, "ok": True}}, "n": None}
    assert encode(plain) == json.dumps(plain, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("game_name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"])
def test_hand_groups_read_only_the_public_facts_their_game_names(game_name: str) -> None:
    """The server sorts a hand again only when the hand or a ``hand_group_facts`` entry changed (TableRuntime._hand_groups)."""
    game = game_from_string(game_name)
    facts = game.hand_group_facts
    contracts: set[Any] = set()
    for seed in range(40):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for seat in range(game.num_seats):
                observation = state.observation(seat)
                only = {key: observation.public[key] for key in facts if key in observation.public}
                assert game.hand_groups(observation.hand, observation.public) == game.hand_groups(observation.hand, only)
                contracts.add(observation.public.get("contract"))
            state.apply(rng.choice(state.legal_actions()))
    if game_name == "doppelkopf":  # solos reorder the trumps: the facts were exercised, not only the normal game
        assert len(contracts - {None, "normal"}) >= 3
