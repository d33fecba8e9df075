"""What a table's clients get after a change, built once: each view once per moment, each message encoded once per audience.

After every action each client of a table gets a ``state`` message with its
own view (:mod:`stich.web.runtime.table`).  The clients of one table fall into
*audiences*: the people at seat 0, 1, ... (a person may have several tabs
open) and the spectators, who all get the same
:func:`~stich.web.protocol.public_view`.  Everybody in one audience gets the
same bytes, so:

* :class:`StateViews` builds each seat's observation (and its JSON) at most
  once for the moment; the spectators' view is made from those same seat
  views instead of building every observation again;
* :func:`send_per_audience` builds and encodes (:func:`encode`) one message
  per audience present and queues the same text on each of its sockets, and
  a message for everybody (``table``, ``deal_end``...) is encoded once
  (:func:`encode`, by the caller) instead of once per socket.

What a client receives is unchanged, and a socket only ever gets its own
audience's text: the text is looked up by the connection's seat, so a seat
never receives another seat's view.  Compression (permessage-deflate) stays
per socket: each socket's deflate stream keeps its own context, in the
WebSocket server below the app, so compressed bytes cannot be shared
without giving up that context (and the better compression it brings).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

import orjson

from stich.core.game import Observation, State
from stich.web.protocol import public_view


def encode(message: Mapping[str, Any]) -> str:
    """A message as the text frame every client gets (compact JSON, UTF-8 as is).

    Encoded with orjson at about an eighth of the CPU of ``json.dumps``: the
    same JSON, and the same text for strings, integers, lists and objects
    with string keys (a float may be spelled otherwise, ``1e16`` for
    ``1e+16``, and a NaN becomes ``null``, which is valid JSON where ``NaN``
    was not).  The standard encoder takes over where orjson refuses (a key
    that is not a string, an integer beyond 64 bits), so such a message is
    encoded as before.
    """
    try:
        return orjson.dumps(message).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class StateViews:
    """The views of one moment of a deal, each built at most once (and only if some client needs it)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self._seats: dict[int, tuple[Observation, dict[str, Any]]] = {}
        self._public: dict[str, Any] | None = None

    def seat(self, seat: int) -> tuple[Observation, dict[str, Any]]:
        """Seat ``seat``'s observation and its JSON (``observation.to_json()``); callers only read the JSON."""
        found = self._seats.get(seat)
        if found is None:
            observation = self.state.observation(seat)
            found = (observation, observation.to_json())
            self._seats[seat] = found
        return found

    def public(self) -> dict[str, Any]:
        """The spectators' view, made from the seats' views (built here once for all of them)."""
        if self._public is None:
            seats = range(self.state.game.num_seats)
            self._public = public_view(self.state, [self.seat(seat)[1] for seat in seats])
        return self._public


class Recipient(Protocol):
    """A client socket as far as sending goes: its audience (its seat, ``None`` for a spectator) and its queue."""

    @property
    def seat(self) -> int | None:
        """The seat it plays, or ``None`` when it watches."""

    def send_text(self, text: str) -> None:
        """Queue an encoded message."""


def send_per_audience(recipients: Iterable[Recipient], build: Callable[[int | None], Mapping[str, Any] | None]) -> int:
    """Send each recipient its audience's message, built by ``build(seat)`` and encoded once per audience; returns the encodings made.

    ``build`` returning ``None`` sends that audience nothing.
    """
    texts: dict[int | None, str | None] = {}
    for recipient in recipients:
        audience = recipient.seat
        if audience not in texts:
            message = build(audience)
            texts[audience] = None if message is None else encode(message)
        text = texts[audience]
        if text is not None:
            recipient.send_text(text)
    return len(texts)
