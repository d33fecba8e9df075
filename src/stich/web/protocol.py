"""The wire protocol: errors, the messages a client may send, and the views the server sends.

Every message is a JSON object with a ``type``.  A client message is checked
in full before anything happens: its size, that it is UTF-8 JSON text, that
it is an object, its ``type``, then its fields (pydantic, no unknown fields,
strict types).  Anything wrong is answered with
``{"type": "error", "field": ..., "message": ...}`` and changes nothing;
``field`` names the offending field, or ``"$"`` for the message as a whole.
The REST API answers errors in the same shape, with an HTTP status.

Views: a seat receives exactly ``state.observation(seat).to_json()``, and
its hand in the groups players of the game hold it in (:func:`hand_groups`);
a spectator receives :func:`public_view`, which holds what every seat knows
(no hand, no legal actions, no private facts).
"""

from __future__ import annotations

import json
import re
import weakref
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from stich.cards import Deck, parse_card
from stich.core.game import Game, Observation, State

WHOLE = "$"
"""The ``field`` of an error about the message as a whole."""


class ApiError(Exception):
    """A request the server refuses: HTTP status, the field at fault and a message for people."""

    def __init__(self, status: int, field: str, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.field = field
        self.message = message
        self.headers = dict(headers or {})

    def body(self) -> dict[str, Any]:
        """The JSON body of the error response."""
        return error_message(self.field, self.message)


class ProtocolError(ValueError):
    """A client message that is refused; ``field`` names what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def error_message(field: str, message: str) -> dict[str, Any]:
    """``{"type": "error", "field": ..., "message": ...}``."""
    return {"type": "error", "field": field, "message": message}


_UNION_TAG = re.compile(r"^(str|int|bool|float|bytes|none|list|dict|constrained-.*|function-.*|lax-or-strict|json-or-python|.*\[.*)$")
"""Parts of a pydantic ``loc`` that name a member of a union type, not a field (``constrained-str``, ``list[str]``...)."""


def validation_field(error: Mapping[str, Any], skip: Sequence[str] = ()) -> str:
    """The dotted field name of one pydantic error (``loc``), leaving out leading parts in ``skip`` and union member tags."""
    loc = list(error.get("loc", ()))
    while loc and loc[0] in skip:
        loc.pop(0)
    parts = [str(p) for p in loc if isinstance(p, int) or not _UNION_TAG.match(str(p))]
    return ".".join(parts) or WHOLE


def validation_text(error: Mapping[str, Any]) -> str:
    """A pydantic error message for people, without pydantic's jargon."""
    kind = error.get("type", "")
    if kind == "extra_forbidden":
        return "unknown field"
    if kind == "missing":
        return "required field is missing"
    return str(error.get("msg", "invalid value"))


# ------------------------------------------------------------ client messages
class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class ActionMessage(_Message):
    """Play an action for one's own seat: ``{"type": "action", "action": "play H10"}``.

    ``seat`` may be given and must then be the sender's seat; ``step`` (the
    number of actions of the deal the client has seen) and ``deal`` (the deal
    id) may be given to refuse an action that was meant for an earlier moment.
    """

    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=100)]
    seat: Annotated[int, Field(ge=0)] | None = None
    step: Annotated[int, Field(ge=0)] | None = None
    deal: Annotated[int, Field(ge=1)] | None = None


class SyncMessage(_Message):
    """Ask for the current view again: ``{"type": "sync"}``."""

    type: Literal["sync"]


class PingMessage(_Message):
    """Keep-alive: ``{"type": "ping"}``, answered with ``{"type": "pong"}`` (``id`` is echoed)."""

    type: Literal["ping"]
    id: Annotated[str, Field(max_length=64)] | Annotated[int, Field(ge=0, le=2**53)] | None = None


class ChatMessage(_Message):
    """Say something at the table: ``{"type": "chat", "text": "Hallo"}``, or a quick phrase ``{"type": "chat", "phrase": "thanks"}``.

    Exactly one of ``text`` and ``phrase``; the text's cleaning and length
    cap, the phrase ids and the rate limit are :mod:`stich.web.runtime.chat`'s.
    """

    type: Literal["chat"]
    text: str | None = None
    phrase: Annotated[str, Field(max_length=40)] | None = None


class ContinueMessage(_Message):
    """ "Weiter" after a deal's evaluation: ``{"type": "continue", "deal": 17}`` (see :mod:`stich.web.runtime.ready_wait`).

    ``deal`` names the finished deal the player has read; a late "Weiter" for
    an earlier deal changes nothing.
    """

    type: Literal["continue"]
    deal: Annotated[int, Field(ge=1)] | None = None


ClientMessage = ActionMessage | SyncMessage | PingMessage | ChatMessage | ContinueMessage
CLIENT_MESSAGES: dict[str, type[_Message]] = {
    "action": ActionMessage,
    "sync": SyncMessage,
    "ping": PingMessage,
    "chat": ChatMessage,
    "continue": ContinueMessage,
}
"""Message type -> model of every message a client may send."""


def parse_client_message(raw: str | bytes | None, max_bytes: int) -> ClientMessage:
    """Check one incoming WebSocket message; raise :class:`ProtocolError` naming the field at fault."""
    if raw is None:
        raise ProtocolError(WHOLE, "empty message")
    size = len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
    if size > max_bytes:
        raise ProtocolError(WHOLE, f"message too large: {size} bytes, at most {max_bytes}")
    if isinstance(raw, bytes):
        raise ProtocolError(WHOLE, "binary messages are not accepted; send JSON text")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ProtocolError(WHOLE, f"not valid JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise ProtocolError(WHOLE, "not valid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError(WHOLE, "a message must be a JSON object")
    kind = data.get("type")
    if "type" not in data:
        raise ProtocolError("type", f"required field is missing; one of {', '.join(CLIENT_MESSAGES)}")
    if not isinstance(kind, str) or kind not in CLIENT_MESSAGES:
        raise ProtocolError("type", f"unknown message type {json.dumps(kind)[:40]}; one of {', '.join(CLIENT_MESSAGES)}")
    try:
        message = CLIENT_MESSAGES[kind].model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ProtocolError(validation_field(first), validation_text(first)) from None
    assert isinstance(message, (ActionMessage, SyncMessage, PingMessage, ChatMessage, ContinueMessage))
    return message


# -------------------------------------------------------------------- views
def hand_groups(game: Game, observation: Observation) -> list[list[str]]:
    """The seat's hand as players of ``game`` hold it (``game.hand_groups``), as lists of card texts.

    Display only: the groups depend on the hand and the public facts (the
    game type can reorder trumps), so they tell the seat nothing new.
    """
    return [[card.text for card in group] for group in game.hand_groups(observation.hand, observation.public)]


@cache
def _card_regex(faces: tuple[str, ...]) -> re.Pattern[str]:
    texts = sorted(faces, key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, texts)) + r")(?![A-Za-z0-9_])")


class _FaceFinder:
    """A pack's faces as a regex, each face text's canonical spelling, and the faces found in recent texts."""

    MAX_TEXTS = 4096
    """Texts remembered (event texts recur in every view of a deal); the memory is emptied when full."""

    def __init__(self, deck: Deck) -> None:
        texts = tuple(card.text for card in deck.faces)
        self.pattern = _card_regex(texts)
        self.canonical = {text: parse_card(text).text for text in texts}
        self.in_text: dict[str, frozenset[str]] = {}

    def find(self, data: Any) -> set[str] | frozenset[str]:
        """The faces named in ``data`` (as JSON); a string's answer is remembered."""
        if data is None or isinstance(data, int):  # JSON of a number, true, false or null names no card (faces start with a letter)
            return frozenset()
        if isinstance(data, str):
            known = self.in_text.get(data)
            if known is None:
                if len(self.in_text) >= self.MAX_TEXTS:
                    self.in_text.clear()
                known = self.in_text[data] = frozenset(self._search(data))
            return known
        return self._search(data)

    def _search(self, data: Any) -> set[str]:
        return {self.canonical[word] for word in self.pattern.findall(json.dumps(data))}


_FACE_FINDERS: weakref.WeakKeyDictionary[Deck, _FaceFinder] = weakref.WeakKeyDictionary()
"""Per pack, built once (the face texts were built per call: most of a spectator view's cost)."""


def _face_finder(game: Game) -> _FaceFinder:
    """The face finder of ``game``'s pack (made once per pack)."""
    deck = game.deck
    finder = _FACE_FINDERS.get(deck)
    if finder is None:
        finder = _FACE_FINDERS[deck] = _FaceFinder(deck)
    return finder


def card_faces_in(game: Game, data: Any) -> set[str] | frozenset[str]:
    """Every card face of ``game``'s pack named as a word anywhere in the JSON data ``data``."""
    return _face_finder(game).find(data)


def public_faces(state: State) -> set[str]:
    """Faces of the physical cards a spectator may see: known to every seat and in nobody's hand.

    Played cards and an exposed talon qualify; a hand the rules show to the
    table (a thrown-in Doppelkopf hand) does not, so spectators never see a
    card someone holds.
    """
    game = state.game
    common = game.deck.full_mask
    for seat in range(game.num_seats):
        common &= state.knowable_cards(seat)
        common &= ~state.hand_mask(seat)
    return {card.text for card in game.deck.cards(common)}


_DROP = object()


def _scrub(game: Game, value: Any, allowed: set[str]) -> Any:
    """``value`` without the entries that name a card outside ``allowed`` (objects are filtered key by key)."""
    if isinstance(value, dict):
        kept = {key: _scrub(game, item, allowed) for key, item in value.items()}
        return {key: item for key, item in kept.items() if item is not _DROP}
    return value if card_faces_in(game, value) <= allowed else _DROP


_SCALARS = (str, int, bool, type(None))
"""Types whose values of one type are equal exactly when their JSON is (floats are not: ``nan``)."""


def _same(values: list[Any]) -> bool:
    """Whether every seat's view of one fact is the same.

    Values equal in Python count as the same without encoding them (the
    seats' views are built by one game's code from one state, so an equal
    pair of another spelling, ``1`` and ``1.0``, does not arise; a card is a
    string either way); only unequal ones are compared as JSON, where a list
    and a tuple of the same items agree.  Comparing every fact as JSON on
    every action (the tricks of the whole deal among them) was most of the
    spectators' view's cost.
    """
    first = values[0]
    if values.count(first) == len(values):  # C-level ==, with the identity shortcut
        return True
    kind = type(first)
    if kind in _SCALARS and all(type(value) is kind for value in values):
        return False
    encoded = json.dumps(first, sort_keys=True)
    return all(json.dumps(v, sort_keys=True) == encoded for v in values[1:])


def public_view(state: State, views: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """What a spectator sees: what every seat knows, and no card of any hand.

    Built from the seats' own observations: an event is shown as every seat
    saw it (where they saw it differently, as ``"<verb> ?"``), tricks as they
    lie on the table, and only the public facts on which every observation
    agrees, without any entry naming a card beyond :func:`public_faces`.
    ``views`` are the seats' ``observation(seat).to_json()`` in seat order
    when the caller has built them already (:mod:`stich.web.runtime.broadcast`); they
    are only read.
    """
    game = state.game
    if views is None:
        views = [state.observation(seat).to_json() for seat in range(game.num_seats)]
    first = views[0]
    allowed = public_faces(state)
    faces_in = _face_finder(game).find
    events = []
    for index, (actor, text) in enumerate(first["events"]):
        texts = [view["events"][index][1] for view in views]
        shown = _same(texts) and faces_in(text) <= allowed
        events.append([actor, text if shown else f"{text.split(' ', 1)[0]} ?"])
    public: dict[str, Any] = {}
    for key, value in first["public"].items():
        if all(key in view["public"] for view in views) and _same([view["public"][key] for view in views]):
            kept = _scrub(game, value, allowed)
            if kept is not _DROP:
                public[key] = kept
    tricks = first["tricks"] if _same([view["tricks"] for view in views]) else []
    return {
        "game": first["game"],
        "seat": None,
        "phase": first["phase"],
        "to_move": first["to_move"],
        "events": events,
        "tricks": tricks,
        "public": public,
    }
