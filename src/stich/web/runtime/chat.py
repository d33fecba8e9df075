"""Table chat (issue 28, decision 0036): two channels per table, quick phrases, free text, a rate limit, recent history.

* **Channels.**  The players of a table write to the ``players`` channel; anyone
  else connected to it (a spectator with a session) writes to the
  ``spectators`` channel.  Players never receive the spectators' channel,
  on no socket of theirs, and a socket without a session does not either
  (:meth:`TableChat.reads`); spectators with a session read both (the
  players' chat holds nothing a spectator may not know: everything in it
  was said to the whole table, opponents included).
* **Quick phrases** are sent and kept as ids (:data:`PHRASES`), so that each
  reader's client words them in its own language.
* **Free text** is cleaned (:func:`clean_text`: NFKC as names are,
  control and invisible formatting characters dropped, white space made
  single spaces) and must then hold 1 to ``chat_max_chars`` characters, a
  very wide character (:data:`WIDE_CHARACTERS`, such as U+FDFD) counting
  as :data:`WIDE_WEIGHT`, with at most :data:`MAX_MARKS` combining marks on
  any one character (issue 42).  It is stored and sent as
  plain text; clients show it as text, never as markup.
* **Rate limit** per person (the account, or the guest session) and table: a
  token bucket of ``chat_burst`` messages refilled at ``chat_per_minute``,
  and one per client address and table (``chat_burst_per_address``,
  ``chat_per_minute_per_address``: twenty guest sessions of one address
  posted 100 lines in 2 s, issue 42); a
  message past it is answered ``{"type": "error", "field": "chat",
  "status": 429, "retry_after": seconds, ...}`` and nothing is sent.  The
  socket stays open (the WebSocket's own message budget still applies).
* **History**: the last ``chat_history`` messages of each channel stay in the
  table's memory and are sent (``chat_history``) to every client that
  connects, so late joiners and reconnecting players see the conversation.
  Nothing is written to the database, and a server restart forgets the chat.
* **Bots never chat**: only connected people post messages.

Everything happens on the event loop without an ``await``, so a post is one
atomic step and needs no table lock.
"""

from __future__ import annotations

import math
import re
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from stich.web.guards.names import name_key
from stich.web.identity import Identity
from stich.web.protocol import ChatMessage, ProtocolError, error_message
from stich.web.settings import Settings

PLAYERS = "players"
"""The channel of the people seated at the table."""
SPECTATORS = "spectators"
"""The channel of everyone else watching the table (players never receive it)."""

PHRASES = ("hello", "good_luck", "well_played", "thanks", "sorry", "wait", "back", "bye")
"""Quick phrase ids, in the order clients offer them; their words are the clients' (``chat.phrase.<id>``)."""

MAX_MARKS = 3
"""Most combining marks one character may carry (enough for any script's accents; ``a`` with 150 marks is a smear over the chat)."""
WIDE_CHARACTERS = frozenset("\ufdfd\u2e3b\ua9c5\u0bf5\U0001242b\U00012031\U00012219")
"""Characters drawn many times as wide as a letter (U+FDFD, the three-em dash, some Javanese, Tamil and cuneiform signs)."""
WIDE_WEIGHT = 10
"""How many characters of the length limit one of :data:`WIDE_CHARACTERS` counts for (200 × U+FDFD filled screens)."""
ZERO_WIDTH_JOINER = "\u200d"
"""The one invisible formatting character kept: it joins emoji such as 👨‍👩‍👧 into one picture."""
_SPACES = re.compile(r"\s+")


class Chatter(Protocol):
    """A connected client as the chat sees it (a table's ``Connection``)."""

    seat: int | None
    identity: Identity | None
    address: str

    def send(self, message: Mapping[str, Any]) -> None:
        """Queue a message for the client."""


def clean_text(raw: str) -> str:
    """``raw`` as shown at the table: NFKC, control characters as spaces, invisible formatting dropped, spaces single, trimmed.

    Control characters (line breaks, tabs, escape sequences) become spaces;
    format characters (bidirectional overrides that turn text around,
    zero-width spaces, byte-order marks) and lone surrogates (which JSON may
    carry but UTF-8 cannot) are dropped, keeping only the zero-width joiner.
    """
    kept: list[str] = []
    for char in raw:
        kind = unicodedata.category(char)
        if kind == "Cc":
            kept.append(" ")
        elif kind == "Cs" or (kind == "Cf" and char != ZERO_WIDTH_JOINER):
            continue
        else:
            kept.append(char)
    text = unicodedata.normalize("NFKC", "".join(kept))  # as names are (stich.web.guards.names): a ligature counts by its letters
    return _SPACES.sub(" ", text).strip()


def most_marks(text: str) -> int:
    """The most combining marks (Unicode ``Mn``, ``Me``) in a row in ``text``: those one character carries."""
    most = run = 0
    for char in text:
        if unicodedata.category(char) in ("Mn", "Me"):
            run += 1
            most = max(most, run)
        else:
            run = 0
    return most


def text_length(text: str) -> int:
    """The length a chat text counts for: its characters, each of :data:`WIDE_CHARACTERS` as :data:`WIDE_WEIGHT`."""
    return len(text) + (WIDE_WEIGHT - 1) * sum(char in WIDE_CHARACTERS for char in text)


class ChatRefused(ProtocolError):
    """A chat message that is refused because its sender is writing too fast (HTTP's 429)."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("chat", f"too many chat messages; wait {retry_after} s")
        self.retry_after = retry_after

    def error(self) -> dict[str, Any]:
        """The error message sent to the client: the usual shape plus ``status`` 429 and ``retry_after`` seconds."""
        return {**error_message(self.field, self.message), "status": 429, "retry_after": self.retry_after}


class ChatRate:
    """Token buckets per person: ``burst`` messages at once, refilled at ``per_minute`` a minute."""

    def __init__(self, burst: int, per_minute: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.per_minute = per_minute
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> None:
        """Spend one message of ``key``, or raise :class:`ChatRefused` with the seconds until the next one."""
        self.check(key)
        tokens, now = self._level(key)
        self._buckets[key] = (tokens - 1.0, now)

    def check(self, key: str) -> None:
        """Raise :class:`ChatRefused` if ``key`` has no message left now (nothing is spent)."""
        tokens, _ = self._level(key)
        if tokens < 1.0:
            raise ChatRefused(max(1, math.ceil((1.0 - tokens) * 60.0 / self.per_minute)))

    def _level(self, key: str) -> tuple[float, float]:
        now = self.clock()
        tokens, then = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - then) * self.per_minute / 60.0), now


def person_key(identity: Identity) -> str:
    """Whom the rate limit counts: the account (all its sessions together), else the guest session."""
    return f"user:{identity.user_id}" if identity.user_id is not None else f"session:{identity.session_id}"


class TableChat:
    """One table's chat: checks and spreads messages, and keeps the latest of each channel."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.max_chars = settings.chat_max_chars
        self.rate = ChatRate(settings.chat_burst, settings.chat_per_minute, clock)
        self.address_rate = ChatRate(settings.chat_burst_per_address, settings.chat_per_minute_per_address, clock)
        """The same for all the people writing from one client address (twenty guest sessions are one address)."""
        self.history: dict[str, deque[dict[str, Any]]] = {
            PLAYERS: deque(maxlen=settings.chat_history),
            SPECTATORS: deque(maxlen=settings.chat_history),
        }
        self._next_id = 1

    @staticmethod
    def channel_of(client: Chatter) -> str:
        """The channel a client writes to: the players' when seated, else the spectators'."""
        return PLAYERS if client.seat is not None else SPECTATORS

    @staticmethod
    def reads(client: Chatter, channel: str, seated: Callable[[Identity], bool] | None = None) -> bool:
        """Whether ``client`` receives ``channel``: everybody the players' one; the spectators' one only spectators with a session.

        The spectators' chat is kept from each *person* at the table, not
        only from their seated socket (issue 42): a socket without a session
        (anybody's second tab) does not read it, nor does any socket of a
        person ``seated`` at the table (by session or account).
        """
        if channel == PLAYERS:
            return True
        identity = client.identity
        return client.seat is None and identity is not None and not (seated is not None and seated(identity))

    def check(self, message: ChatMessage) -> tuple[str | None, str | None]:
        """The cleaned ``(text, phrase)`` of a chat message (one of them ``None``), or :class:`ProtocolError` naming the field."""
        if message.text is not None and message.phrase is not None:
            raise ProtocolError("phrase", "send either text or a quick phrase, not both")
        if message.phrase is not None:
            if message.phrase not in PHRASES:
                raise ProtocolError("phrase", f"unknown quick phrase {message.phrase[:40]!r}; one of {', '.join(PHRASES)}")
            return None, message.phrase
        if message.text is None:
            raise ProtocolError("text", "required field is missing: send text, or a quick phrase in phrase")
        text = clean_text(message.text)
        if not text:
            raise ProtocolError("text", "the message is empty; write something or pick a quick phrase")
        if most_marks(text) > MAX_MARKS:
            raise ProtocolError("text", f"at most {MAX_MARKS} combining marks (accents) on one character")
        if text_length(text) > self.max_chars:
            extra = f" (a very wide character counts as {WIDE_WEIGHT})" if any(char in WIDE_CHARACTERS for char in text) else ""
            raise ProtocolError("text", f"too long: {text_length(text)} characters, at most {self.max_chars}{extra}")
        return text, None

    def post(
        self,
        sender: Chatter,
        message: ChatMessage,
        clients: Iterable[Chatter],
        seat_names: Sequence[str | None] = (),
        seated: Callable[[Identity], bool] | None = None,
    ) -> dict[str, Any] | None:
        """Check ``sender``'s message, keep it and send it to every client of ``clients`` that reads its channel.

        ``seat_names`` are the names the table's seats go by (``None``: no
        person there).  A player's line carries their seat's name (unique at
        the table: :meth:`stich.web.runtime.table.TableRuntime.join`), not whatever
        their session is called now; a spectator may not chat under a
        player's name; and every line says whether its writer is a ``guest``
        (issue 42: a guest took a player's name and the chat showed only the
        name).  A refused message is answered to the sender alone (an
        ``error``) and changes nothing; returns the ``chat`` message sent, or
        ``None``.
        """
        try:
            identity = sender.identity
            if identity is None:
                raise ProtocolError("chat", "only people with a name may chat: log in or play as a guest")
            name = identity.name
            if sender.seat is not None and sender.seat < len(seat_names) and seat_names[sender.seat]:
                name = str(seat_names[sender.seat])
            elif sender.seat is None and name_key(name) in {name_key(taken) for taken in seat_names if taken}:
                raise ProtocolError("chat", "a player at this table goes by your name; choose another name to chat here")
            text, phrase = self.check(message)
            self.rate.check(person_key(identity))
            self.address_rate.take(sender.address)
            self.rate.take(person_key(identity))
        except ChatRefused as exc:
            sender.send(exc.error())
            return None
        except ProtocolError as exc:
            sender.send(error_message(exc.field, exc.message))
            return None
        channel = self.channel_of(sender)
        said = {
            "type": "chat",
            "id": self._next_id,
            "channel": channel,
            "seat": sender.seat,
            "name": name,
            "key": name_key(name),
            "guest": identity.user_id is None,
            "text": text,
            "phrase": phrase,
            "at": int(time.time() * 1000),
        }
        self._next_id += 1
        self.history[channel].append(said)
        for client in list(clients):
            if self.reads(client, channel, seated):
                client.send(said)
        return said

    def history_message(self, client: Chatter, seated: Callable[[Identity], bool] | None = None) -> dict[str, Any]:
        """``chat_history``: the kept messages ``client`` may read, oldest first, and the text limit."""
        messages = [said for channel, kept in self.history.items() if self.reads(client, channel, seated) for said in kept]
        messages.sort(key=lambda said: int(said["id"]))
        return {"type": "chat_history", "channel": self.channel_of(client), "max_chars": self.max_chars, "messages": messages}
