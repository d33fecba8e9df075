"""A live table's owner: the authoritative game loop, bots on the server, and what each client is sent.

One :class:`TableRuntime` per open or running table holds the session (the
list of deals), the deal in progress and the connected clients.  Everything
that changes a table happens under the table's ``asyncio.Lock``, in this
order: check (the engine decides legality), store (the action goes to the
database), apply, broadcast.  A refused request changes nothing; a stored
action is never lost, because a restart replays each table's stored actions
(:meth:`TableRuntime.restore`).

A background task per table (the *driver*) makes the moves nobody sends:
the bots', those of a player who has been away longer than the grace
period (a stand-in bot plays for them until they are back), and the one
move of a player whose turn timer ran out (:mod:`stich.web.runtime.turn_clock`).  It
also starts the next deal once every person said "Weiter"
(:mod:`stich.web.runtime.ready_wait`) and ends the table when the list is complete.

Each connected client gets, after every action, a ``state`` message with its
own view: a seat exactly ``state.observation(seat).to_json()`` (plus its hand
in the groups players of the game hold it in), a spectator the
:func:`~stich.web.protocol.public_view`.

Bots think off the event loop and without the table's lock: the driver
takes the seat's observation under the lock, hands it to the manager's
:class:`~stich.web.runtime.bot_pool.BotThinker` (search bots in worker processes, a
fair share per table), and applies the choice only if the deal is still at
the same step.  A slow search bot therefore never holds up other tables, nor
this table's clients (sync, reconnects, the lobby).  Each decision's bot is
seeded by :func:`bot_seed` from the deal's committed seed and salt, the seat
and the step, so it is the same after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from stich.arena.duplicate import parse_bot_spec
from stich.cards import Card
from stich.core.game import Game, Observation, State
from stich.core.records import deal_record, dumps_record
from stich.core.registry import game_from_string
from stich.core.registry import session_class as game_session_class
from stich.core.session import Session
from stich.errors import NotationError, StichError
from stich.tournaments.standings import outcome_from
from stich.web.deals.fairness import Commitment
from stich.web.deals.ratings import SeatHolder, rated_deal
from stich.web.deals.session_kinds import forced_seat, session_rules
from stich.web.deals.table_options import LEARNING, ReplayOf, first_deal_fair, session_class
from stich.web.guards.names import name_key
from stich.web.guards.table_caps import Owner, check_bot_level, is_search_bot
from stich.web.identity import Identity
from stich.web.protocol import (
    WHOLE,
    ActionMessage,
    ApiError,
    ChatMessage,
    ContinueMessage,
    ProtocolError,
    SyncMessage,
    error_message,
    hand_groups,
)
from stich.web.runtime.action_log import ActionLog
from stich.web.runtime.bot_pool import BotJob, BotThinker
from stich.web.runtime.broadcast import StateViews, encode, send_per_audience
from stich.web.runtime.chat import TableChat
from stich.web.runtime.connection import Connection, screen_message
from stich.web.runtime.presence import next_change, shown_away
from stich.web.runtime.ready_wait import ReadyWait, wait_limit
from stich.web.runtime.seats import Seat, bot_seed, table_bot_spec
from stich.web.runtime.tournament_deals import duplicate_commitment, tournament_meta
from stich.web.runtime.turn_clock import TurnClock, sooner
from stich.web.settings import Settings
from stich.web.storage.db import Database, DealRow, Fence, StaleOwner, TableRow
from stich.web.storage.models import as_utc
from stich.web.storage.tournaments import TableLink, add_result

log = logging.getLogger("stich.web")

COMMITMENT_CONSTRUCTION = 'sha256(seed in decimal + ":" + salt), hex'
"""How a deal's commitment is made (sent with every ``deal_start``; see :mod:`stich.web.deals.fairness`)."""


def counted_deals(session: Session | None) -> int:
    """Finished deals that count toward the list: a deal thrown in and dealt again (``redeal`` in its notes) does not.

    The table's header and the lobby say "N von M Spielen gespielt" with it (issue 40, defect 10).
    """
    return 0 if session is None else sum(1 for row in session.rows if not row.notes.get("redeal"))


@dataclass
class CurrentDeal:
    """The deal being played: its database id, its number in the list and its committed seed."""

    id: int
    number: int
    fair: Commitment
    stand_in_seats: set[int] = field(default_factory=set)
    """Seats a stand-in played for while their person was away (the deal is marked and not counted as theirs)."""
    timed_out_moves: list[tuple[int, int]] = field(default_factory=list)
    """``(step, seat)`` of the single moves a stand-in made because a present player's turn clock ran out (issue 40)."""
    hints: set[int] = field(default_factory=set)
    """Seats that were given a hint in this deal (:mod:`stich.web.runtime.hints`; the record's ``meta.hints``)."""


@dataclass(frozen=True)
class Think:
    """A bot decision to compute off the event loop: the moment (deal, step, seat) and what the bot gets."""

    deal: int
    step: int
    job: BotJob

    @property
    def moment(self) -> tuple[int, int, int]:
        """``(deal id, step, seat)``: the stored actions so far fix the state, so this names it exactly."""
        return (self.deal, self.step, self.job.seat)


@dataclass(frozen=True)
class Decision:
    """A bot's chosen action for one moment, waiting for the bot delay (or discarded if play moved on)."""

    moment: tuple[int, int, int]
    code: int


def _session_with_seeds(game: Game, deals: int, seeds: Mapping[int, int], replay: ReplayOf | None = None) -> Session:
    """The game's session whose deal ``i`` is dealt from ``seeds[i]`` (the committed seeds) instead of a derived seed.

    A replay table's first deal also takes the original deal's dealer and
    context (:func:`stich.web.deals.table_options.session_class`).
    """
    cls = session_class(game_session_class(game.name), seeds, replay)
    return cls(game, 0, deals)


class TableHost(Protocol):
    """What a table needs of whoever runs it: the one-process :class:`~stich.web.runtime.manager.TableManager`,
    or the cluster's, which builds on it (a protocol, so that the table does not import its manager)."""

    @property
    def settings(self) -> Settings: ...
    @property
    def db(self) -> Database: ...
    @property
    def shared(self) -> bool:
        """Whether other workers run tables too (then the table's writes are fenced by its lease epoch)."""
        ...

    @property
    def actions(self) -> ActionLog: ...
    @property
    def bots(self) -> BotThinker: ...
    async def allow_message(self, conn: Connection) -> bool: ...
    def check_search_tables(self, owner: Owner, field: str, besides: TableRuntime | None = None) -> None: ...
    async def count_search_table(self, runtime: TableRuntime, owner: Owner, field: str) -> None: ...
    def uncount_search_table(self, runtime: TableRuntime) -> None: ...
    def lost_table(self, runtime: TableRuntime) -> None: ...
    def forget(self, runtime: TableRuntime) -> None: ...
    def table_finished(self, runtime: TableRuntime) -> None: ...


class TableRuntime:
    """A table in memory: seats, the list being played, the deal in progress and the clients."""

    def __init__(self, manager: TableHost, row: TableRow, creator: Owner | None = None) -> None:
        self.manager = manager
        self.settings = manager.settings
        self.db = manager.db
        self.id = row.id
        self.game = game_from_string(row.game)
        self.deals_requested = row.deals_requested
        self.kind = row.kind
        self.rated = row.rated
        """Whether its complete deals change ratings (issue 44, decision 0055): accounts and bots only."""
        self.private = row.private
        self.invite_token = row.invite_token
        self.status = row.status
        self.creator_session_id = row.creator_session_id
        self.created_at = as_utc(row.created_at).isoformat(timespec="microseconds")
        """When the table was made (ISO 8601, UTC): the lobby's order, the same on every worker."""
        self.seats = [Seat.from_row(seat) for seat in row.seats]
        self.turn_seconds = row.turn_seconds
        self.continue_seconds = row.continue_seconds
        self.options: dict[str, Any] = dict(row.options)
        """The table's own options (``learning``, ``replay_of``: :mod:`stich.web.deals.table_options`)."""
        self.replay = ReplayOf.from_options(self.options)
        """The finished deal this table plays again, or ``None``."""
        self.hint_desk: Any = None
        """The seats' hint state (:class:`stich.web.runtime.hints.HintDesk`), made at the first hint."""
        self.clock = TurnClock(row.turn_seconds)
        """The turn timer of the person to move (:mod:`stich.web.runtime.turn_clock`)."""
        self.ready_wait: ReadyWait | None = None
        """Between deals: who has said "Weiter" (:mod:`stich.web.runtime.ready_wait`)."""
        self._last_waiting: dict[str, Any] | None = None
        if creator is None and row.creator_session_id is not None:
            creator = Owner(("session", row.creator_session_id), None)
        self.creator = creator
        """Whom the table counts against (:mod:`stich.web.guards.table_caps`)."""
        self.search_owner = creator if any(s.kind == "bot" and s.bot and is_search_bot(parse_bot_spec(s.bot)) for s in self.seats) else None
        """Whom the table counts against as a table with search bots (who seated the first one)."""
        self.lock = asyncio.Lock()
        self.session: Session | None = None
        self.seeds: dict[int, int] = {}
        self.state: State | None = None
        self.deal: CurrentDeal | None = None
        self._pending_fair: Commitment | None = None
        self.duplicate: TableLink | None = None
        """The tournament this table plays for (its deals are the tournament's committed ones), or ``None`` (decision 0057)."""
        self.decision: Decision | None = None
        self.connections: set[Connection] = set()
        self.away_since: dict[int, float] = {}
        self.last_action_at = 0.0
        self.next_deal_at = 0.0
        self.broken: str | None = None
        self.epoch: int | None = row.lease_epoch if manager.shared else None
        """The lease epoch this worker took the table over at (several workers; ``None`` in one process: nothing fenced)."""
        self.wake = asyncio.Event()
        self.driver: asyncio.Task[None] | None = None
        self._last_table: dict[str, Any] | None = None
        """The ``table`` message last sent to every client (a presence change that changes nothing sends none)."""
        self._presence_timer: asyncio.TimerHandle | None = None
        self.chat = TableChat(self.settings)
        """The table's chat: players' and spectators' channels and their latest messages (memory only)."""
        self._groups: dict[int, tuple[tuple[Card, ...], list[Any], list[list[str]]]] = {}
        """Per seat: the hand and the public facts its ``hand_groups`` were last sorted for, and those groups (:meth:`_hand_groups`)."""

    # ------------------------------------------------------------- queries
    def seat_of(self, identity: Identity | None) -> int | None:
        """The seat ``identity`` sits in, or ``None``."""
        for index, seat in enumerate(self.seats):
            if seat.owned_by(identity):
                return index
        return None

    def _seated(self, identity: Identity) -> bool:
        """Whether ``identity``'s person sits at the table (the spectators' chat is kept from them on every socket)."""
        return self.seat_of(identity) is not None

    def invite_ok(self, invite: str | None) -> bool:
        """Whether ``invite`` is this table's invite token (compared in constant time)."""
        return invite is not None and secrets.compare_digest(invite.encode(), self.invite_token.encode())

    def may_see(self, identity: Identity | None, invite: str | None) -> bool:
        """Whether ``identity`` may see this table: anyone for a public table; members, the creator or an invite for a private one."""
        if not self.private or self.invite_ok(invite):
            return True
        if identity is None:
            return False
        return self.seat_of(identity) is not None or identity.session_id == self.creator_session_id

    def _connected(self, seat: int) -> bool:
        return any(conn.seat == seat and not conn.closed for conn in self.connections)

    def _stand_in(self, seat: int, now: float) -> bool:
        away = self.away_since.get(seat)
        return self.seats[seat].kind == "human" and away is not None and now >= away + self.settings.grace_seconds

    def seat_json(self, index: int, now: float | None = None) -> dict[str, Any]:
        """A seat for the lobby and the ``table`` message."""
        now = time.monotonic() if now is None else now
        seat = self.seats[index]
        human = seat.kind == "human"
        live = human and self._connected(index)
        grace = min(self.settings.presence_grace_seconds, self.settings.grace_seconds)
        away = shown_away(human=human, live=live, status=self.status, away_since=self.away_since.get(index), now=now, grace=grace)
        return {
            "seat": index,
            "kind": seat.kind,
            "name": seat.player_name(index) if seat.kind != "empty" else None,
            "bot": seat.bot,
            "guest": human and seat.user_id is None,
            "connected": live or (human and self.status != "finished" and not away),
            "away": away,
            "stand_in": human and self.status == "playing" and not self._connected(index) and self._stand_in(index, now),
        }

    def summary(self, identity: Identity | None = None, *, invite: str | None = None) -> dict[str, Any]:
        """The table as the lobby shows it; the invite link only to its members and creator."""
        now = time.monotonic()
        session = self.session
        seat = self.seat_of(identity)
        member = seat is not None or (identity is not None and identity.session_id == self.creator_session_id) or self.invite_ok(invite)
        return {
            "id": self.id,
            "game": self.game.canonical,
            "game_name": self.game.name,
            "title": self.game.title,
            "status": self.status,
            "private": self.private,
            "rated": self.rated,
            "created_at": self.created_at,
            "deals_requested": self.deals_requested,
            "deals_played": counted_deals(session),
            "seats": [self.seat_json(i, now) for i in range(len(self.seats))],
            "totals": list(session.totals) if session else [0] * len(self.seats),
            "your_seat": seat,
            "creator": identity is not None and identity.session_id == self.creator_session_id,
            "invite": self.invite_path() if member else None,
            "socket": f"/ws/tables/{self.id}",
            "broken": self.broken,
            "rules": session_rules(self.game, self.deals_requested, self.kind),
            "turn_seconds": self.turn_seconds,
            "continue_seconds": self.continue_seconds,
            "learning": self.options.get(LEARNING) is True,
            "replay_of": self.replay.deal if self.replay is not None else None,
        }

    def invite_path(self) -> str:
        """The invite link's path (table id and unguessable token)."""
        return f"/tables/{self.id}?invite={self.invite_token}"

    # ---------------------------------------------------------- broadcasts
    def _table_message(self) -> dict[str, Any]:
        session = self.session
        return {
            "type": "table",
            "table": self.id,
            "status": self.status,
            "seats": [self.seat_json(i) for i in range(len(self.seats))],
            "deals_requested": self.deals_requested,
            "deals_played": counted_deals(session),
            "totals": list(session.totals) if session else [0] * len(self.seats),
        }

    def _deal_start_message(self) -> dict[str, Any] | None:
        if self.deal is None or self.state is None:
            return None
        return {
            "type": "deal_start",
            "table": self.id,
            "deal": self.deal.id,
            "number": self.deal.number,
            "dealer": self.state.dealer,
            "commitment": self.deal.fair.digest,
            "construction": COMMITMENT_CONSTRUCTION,
            "forced": forced_seat(self.session),
            "stand_in_seats": sorted(self.deal.stand_in_seats),
        }

    def _state_message(self, seat: int | None, views: StateViews | None = None, now: float | None = None) -> dict[str, Any] | None:
        """The ``state`` message for ``seat`` (``None``: a spectator), its view taken from ``views`` of this moment if given."""
        state, deal = self.state, self.deal
        if state is None or deal is None:
            return None
        if views is None or views.state is not state:
            views = StateViews(state)
        observation: Observation | None = None
        if seat is not None:
            observation, view = views.seat(seat)
        else:
            view = views.public()
        events = view["events"]
        message = {
            "type": "state",
            "table": self.id,
            "deal": deal.id,
            "number": deal.number,
            "step": len(state.history),
            "seat": seat,
            "view": view,
            "last": events[-1] if events else None,
            "commitment": deal.fair.digest,
            "clock": self.clock.to_json(time.monotonic() if now is None else now),
        }
        if observation is not None:  # a spectator has no hand, so no groups either
            message["hand_groups"] = self._hand_groups(observation)
            # the calls' deadlines, from the public facts only: shown next to the call buttons (issue 43)
            deadlines = self.game.call_deadlines(observation.public)
            if deadlines is not None:
                message["deadlines"] = deadlines
        return message

    def _hand_groups(self, observation: Observation) -> list[list[str]]:
        """The seat's ``hand_groups``, sorted again only when its hand or the public facts changed (most actions change neither).

        The groups depend on nothing else (the game's ``hand_group_facts`` name the public facts they read); sorting
        every seat's hand for every action was about a tenth of a broadcast's cost.
        """
        seat, hand = observation.seat, observation.hand
        facts = [observation.public.get(key) for key in self.game.hand_group_facts]
        kept = self._groups.get(seat)
        if kept is not None and kept[0] == hand and kept[1] == facts:
            return kept[2]
        groups = hand_groups(self.game, observation)
        self._groups[seat] = (hand, facts, groups)
        return groups

    def _broadcast(self, message: Mapping[str, Any]) -> None:
        """Send every client the same message, encoded once."""
        text = encode(message)
        for conn in list(self.connections):
            conn.send_text(text)

    def _broadcast_state(self) -> None:
        """Send every client its ``state``: each view built once, one encoding per audience (:mod:`stich.web.runtime.broadcast`)."""
        if self.state is None:
            return
        views, now = StateViews(self.state), time.monotonic()
        send_per_audience(list(self.connections), lambda seat: self._state_message(seat, views, now))

    def _send_snapshot(self, conn: Connection) -> None:
        """Everything a client needs after connecting or asking for ``sync``."""
        conn.send(self._table_message())
        start = self._deal_start_message()
        if start is not None:
            conn.send(start)
        state = self._state_message(conn.seat)
        if state is not None:
            conn.send(state)
        waiting = self._waiting_message()
        if waiting is not None:
            conn.send(waiting)

    # --------------------------------------------------------- connections
    async def attach(self, conn: Connection) -> None:
        """A client connected: a returning player takes their seat back from the stand-in."""
        async with self.lock:
            self.connections.add(conn)
            conn.seat = self.seat_of(conn.identity)
            if conn.seat is not None:
                self.away_since.pop(conn.seat, None)
            conn.send(
                {
                    "type": "welcome",
                    "table": self.id,
                    "role": "player" if conn.seat is not None else "spectator",
                    "seat": conn.seat,
                    "name": conn.identity.name if conn.identity else None,
                    "game": self.game.canonical,
                    "seats": len(self.seats),
                }
            )
            conn.send(self.chat.history_message(conn, self._seated))
            if self.broken:
                conn.send(error_message("table", f"this table cannot continue: {self.broken}"))
            self._send_snapshot(conn)
            self._presence_changed()
        self.wake.set()

    def _broadcast_table(self) -> None:
        """Send every client the ``table`` message (seats, presence, totals)."""
        message = self._table_message()
        self._last_table = message
        self._broadcast(message)

    def _presence_changed(self) -> None:
        """A client came or went: tell the others once the presence interval is over, if the ``table`` message changed.

        Coalesced so that connect/close cycles cannot make a message to every
        client each (issue 30: 300 cycles before 300 spectators made 180,000
        messages); a spectator changes nothing in the ``table`` message, so it
        makes none at all.
        """
        if self._presence_timer is None:
            loop = asyncio.get_running_loop()
            self._presence_timer = loop.call_later(self.settings.presence_interval_seconds, self._flush_presence)

    def _flush_presence(self) -> None:
        self._presence_timer = None
        if self._table_message() != self._last_table:
            self._broadcast_table()

    async def detach(self, conn: Connection) -> None:
        """A client left: a player's grace period starts."""
        async with self.lock:
            self.connections.discard(conn)
            if conn.seat is not None and not self._connected(conn.seat):
                self.away_since[conn.seat] = time.monotonic()
                grace = min(self.settings.presence_grace_seconds, self.settings.grace_seconds)
                later = next_change(self.away_since[conn.seat], time.monotonic(), grace)
                if later is not None:  # the others hear of it once the grace is over, if it is still so then
                    asyncio.get_running_loop().call_later(later + 0.01, self._presence_changed)
            self._presence_changed()
            if self.status == "finished" and not self.connections:
                self.manager.forget(self)
        self.wake.set()

    @property
    def fence(self) -> Fence | None:
        """What the table's writes carry so that they are refused once another worker took the table over (decision 0033)."""
        return None if self.epoch is None else (self.id, self.epoch)

    # ------------------------------------------------------- client input
    async def handle(self, conn: Connection, raw: str | bytes | None) -> None:
        """One message from a client: answered with an error, or applied and broadcast.

        Every message spends one of the client's and the address's budget
        (:mod:`stich.web.guards.socket_limits`); a client past it is disconnected.  A
        player's ``sync`` and ``action`` first check that the session the
        socket was opened with still holds (after a logout it does not).
        """
        message = await screen_message(conn, raw, self.manager.allow_message, self.settings.max_message_bytes)
        if message is None:
            return
        if isinstance(message, ChatMessage):
            names = [seat.name if seat.kind == "human" else None for seat in self.seats]
            self.chat.post(conn, message, self.connections, names, self._seated)
            return
        if isinstance(message, SyncMessage):
            async with self.lock:
                self._send_snapshot(conn)
            return
        if isinstance(message, ContinueMessage):
            await self._continue(conn, message)
            return
        assert isinstance(message, ActionMessage)
        async with self.lock:
            try:
                seat, code = self._check_action(conn, message)
            except ProtocolError as exc:
                conn.send(error_message(exc.field, exc.message))
                return
            try:
                await self._apply(seat, code)
            except StaleOwner:  # another worker runs the table now: this one lets it go, its clients reconnect there
                self.manager.lost_table(self)
                return
            except Exception:
                log.exception("table %s: storing an action failed", self.id)
                conn.send(error_message(WHOLE, "the server could not store the action; nothing changed, try again"))
                return
        self.wake.set()

    async def _continue(self, conn: Connection, message: ContinueMessage) -> None:
        """A player's "Weiter": ready for the next deal (a late one, for an earlier deal, changes nothing)."""
        if conn.seat is None:
            conn.send(error_message("type", "you are watching this table; only its players say Weiter"))
            return
        async with self.lock:
            wait = self.ready_wait
            if wait is None or (message.deal is not None and message.deal != wait.deal):
                return
            wait.ready.add(conn.seat)
            self._send_waiting()
        self.wake.set()

    def _people(self) -> list[int]:
        """The seats of people (not bots)."""
        return [index for index, seat in enumerate(self.seats) if seat.kind == "human"]

    def _excused_from(self, seat: int) -> float | None:
        """When a person counts as ready for the next deal without saying so: once a stand-in would play for them."""
        if self._connected(seat):
            return None
        wait = self.ready_wait
        since = self.away_since.get(seat, wait.started if wait is not None else time.monotonic())
        return since + self.settings.grace_seconds

    def _waiting_message(self) -> dict[str, Any] | None:
        """The ``waiting`` message between deals (who is still reading the evaluation), or ``None`` while a deal runs."""
        wait = self.ready_wait
        if wait is None or self.status != "playing":
            return None
        return wait.message(self.id, self._people(), self._excused_from, time.monotonic())

    def _send_waiting(self) -> None:
        """Tell every client who is still reading, when that changed (the seconds left alone change nothing)."""
        message = self._waiting_message()
        if message is None:
            return
        key = {k: v for k, v in message.items() if k != "remaining"}
        if key != self._last_waiting:
            self._last_waiting = key
            self._broadcast(message)

    def _follow_clock(self) -> None:
        """Point the turn timer at the person to move now (a bot's or a finished deal's moment has no clock)."""
        state, deal, moment = self.state, self.deal, None
        if state is not None and deal is not None and self.status == "playing" and not state.is_terminal():
            seat = state.current_player()
            if self.seats[seat].kind == "human":
                moment = (deal.id, len(state.history), seat)
        self.clock.follow(moment, time.monotonic())

    def _check_action(self, conn: Connection, message: ActionMessage) -> tuple[int, int]:
        """The seat and action code of a client's action, or :class:`ProtocolError` saying why not."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError("type", "you are watching this table; only its players act")
        if message.seat is not None and message.seat != seat:
            raise ProtocolError("seat", f"you sit at seat {seat}; you cannot act for seat {message.seat}")
        state, deal = self.state, self.deal
        if self.broken:
            raise ProtocolError("action", f"this table cannot continue: {self.broken}")
        if self.status != "playing" or state is None or deal is None:
            raise ProtocolError("action", "no deal is being played now")
        if message.deal is not None and message.deal != deal.id:
            raise ProtocolError("deal", f"deal {message.deal} is not the deal being played ({deal.id})")
        if message.step is not None and message.step != len(state.history):
            raise ProtocolError("step", f"the deal has moved on: it is at step {len(state.history)}, not {message.step}")
        to_move = state.current_player()
        if to_move != seat:
            raise ProtocolError("action", f"it is seat {to_move}'s turn, not yours (seat {seat})")
        try:
            action = state.to_action(message.action)
        except NotationError as exc:
            raise ProtocolError("action", str(exc)) from None
        reason = state.illegal_reason(action.code)
        if reason is not None:
            text, rule = reason
            raise ProtocolError("action", f"{action.text}: {text}" + (f" [{rule}]" if rule else ""))
        return seat, action.code

    # ----------------------------------------------------------- the lobby
    async def join(self, identity: Identity, seat: int | None, invite: str | None) -> int:
        """Seat ``identity`` (in ``seat``, or the first free one); starts the table when it is full."""
        async with self.lock:
            if self.status != "open":
                raise ApiError(409, "table", "the table has started; you can watch it")
            if self.private and not self.invite_ok(invite) and identity.session_id != self.creator_session_id:
                raise ApiError(403, "invite", "this table is private; you need its invite link")
            if self.rated and identity.guest:
                raise ApiError(403, "rated", "a rated table is for accounts: log in or register to sit at it")
            current = self.seat_of(identity)
            if current is not None:
                raise ApiError(409, "seat", f"you already sit at seat {current}")
            if seat is None:
                free = [i for i, s in enumerate(self.seats) if s.kind == "empty"]
                if not free:
                    raise ApiError(409, "seat", "the table is full")
                seat = free[0]
            elif not 0 <= seat < len(self.seats):
                raise ApiError(422, "seat", f"{self.game.name} has seats 0..{len(self.seats) - 1}")
            elif self.seats[seat].kind != "empty":
                raise ApiError(409, "seat", f"seat {seat} is taken")
            taken = {name_key(other.name) for other in self.seats if other.kind == "human" and other.name}
            if name_key(identity.name) in taken:  # names at one table are unique: nobody speaks in another's name (issue 42)
                raise ApiError(409, "name", "a player at this table already goes by this name; choose another name to join")
            await self._set_seats({seat: Seat("human", None, identity.name, identity.user_id, identity.session_id)})
            return seat

    async def leave(self, identity: Identity) -> int:
        """Give up one's seat before the table starts."""
        async with self.lock:
            current = self.seat_of(identity)
            if current is None:
                raise ApiError(409, "seat", "you do not sit at this table")
            if self.status != "open":
                raise ApiError(409, "table", "the table has started; seats are kept until the list ends")
            await self._set_seats({current: Seat()})
            return current

    async def add_bots(self, identity: Identity, bot: str, seats: list[int] | None, owner: Owner | None = None) -> list[int]:
        """Fill empty seats with bots (the creator or a seated player); starts the table when it is full.

        The bot's level and the number of tables with search bots are capped
        (:mod:`stich.web.guards.table_caps`); ``owner`` is whom a first search bot
        makes the table count against.
        """
        async with self.lock:
            if identity.session_id != self.creator_session_id and self.seat_of(identity) is None:
                raise ApiError(403, "table", "only the table's creator or its players may add bots")
            if self.status != "open":
                raise ApiError(409, "table", "the table has started")
            spec = table_bot_spec(bot, "bot")
            check_bot_level(self.settings, spec, identity, "bot")
            bot = spec.text
            claim = is_search_bot(spec) and self.search_owner is None
            if claim:
                self.manager.check_search_tables(owner or Owner.of(identity, None), "bot", besides=self)
            if seats is None:
                chosen = [i for i, s in enumerate(self.seats) if s.kind == "empty"]
                if not chosen:
                    raise ApiError(409, "seats", "there is no empty seat")
            else:
                chosen = []
                for position, index in enumerate(seats):
                    if not 0 <= index < len(self.seats):
                        raise ApiError(422, f"seats.{position}", f"{self.game.name} has seats 0..{len(self.seats) - 1}")
                    if self.seats[index].kind != "empty":
                        raise ApiError(409, f"seats.{position}", f"seat {index} is taken")
                    if index in chosen:
                        raise ApiError(422, f"seats.{position}", f"seat {index} is named twice")
                    chosen.append(index)
            if claim:
                await self.manager.count_search_table(self, owner or Owner.of(identity, None), "bot")
                self.search_owner = owner or Owner.of(identity, None)
            try:
                await self._set_seats({index: Seat("bot", bot) for index in chosen})
            except BaseException:
                if claim:
                    self.manager.uncount_search_table(self)
                    self.search_owner = None
                raise
            return chosen

    async def _set_seats(self, changes: Mapping[int, Seat]) -> None:
        """Store seat changes (and the start of play when the table fills), then apply them in memory."""
        seats = list(self.seats)
        for index, seat in changes.items():
            seats[index] = seat
        full = all(seat.kind != "empty" for seat in seats)
        status = "playing" if full else None
        try:
            await asyncio.to_thread(self.db.set_seats, self.id, [seats[i].row(i) for i in changes], status, self.fence)
        except StaleOwner:
            self.manager.lost_table(self)
            raise ApiError(503, "table", "the table has moved to another server; try again", {"Retry-After": "1"}) from None
        self.seats = seats
        for conn in self.connections:
            conn.seat = self.seat_of(conn.identity)
        if full:
            self.status = "playing"
            self.session = _session_with_seeds(self.game, self.deals_requested, self.seeds, self.replay)
            self.next_deal_at = 0.0
            self.wake.set()
        self._broadcast_table()

    # ---------------------------------------------------------------- play
    def _bot_job(self, seat: int, state: State, deal: CurrentDeal) -> BotJob:
        """The decision to ask of the seat's bot (or of the stand-in for an absent player): only the seat's observation goes."""
        info = self.seats[seat]
        spec = info.bot if info.kind == "bot" and info.bot else self.settings.stand_in_bot
        return BotJob(self.id, spec, self.game.canonical, seat, bot_seed(deal.fair, seat, len(state.history)), state.observation(seat))

    async def _apply(self, seat: int, code: int, *, stand_in: bool = False, timed_out: bool = False) -> None:
        """Store and apply an action already checked legal, then tell every client.

        A deal this action ends is finished (record stored, session booked) by
        the driver's next step, so that a failure there never reads as a
        refused action.
        """
        state, deal = self.state, self.deal
        assert state is not None and deal is not None
        text = self.game.actions[code].text
        # on disk before anybody sees it
        await self.manager.actions.store(deal.id, len(state.history), seat, text, stand_in, self.fence, timed_out=timed_out)
        if timed_out:
            deal.timed_out_moves.append((len(state.history), seat))
        state.apply(code)
        self.last_action_at = time.monotonic()
        self._follow_clock()
        self._broadcast_state()
        self.wake.set()

    async def _start_deal(self) -> None:
        session = self.session
        assert session is not None
        if session.is_over():
            await self._finish_table()
            return
        if session.pending is None or self._pending_fair is None:
            self._pending_fair = duplicate_commitment(self.duplicate, session.deal_index) or first_deal_fair(
                self.options, session.deal_index
            )
            self.seeds[session.deal_index] = self._pending_fair.seed
        fair = self._pending_fair
        state = session.next_deal()
        if state is None:  # pragma: no cover - is_over() said otherwise
            await self._finish_table()
            return
        number = session.deal_index
        deal_id = await asyncio.to_thread(self.db.create_deal, self.id, number, state.dealer, fair.seed, fair.salt, fair.digest, self.fence)
        self._pending_fair = None
        self.state = state
        self.deal = CurrentDeal(deal_id, number, fair)
        self.decision = None
        self.ready_wait = None
        self._last_waiting = None
        self._follow_clock()
        start = self._deal_start_message()
        assert start is not None
        self._broadcast(start)
        self._broadcast_state()

    def _record(self, state: State, deal: CurrentDeal) -> dict[str, Any]:
        meta = {
            "server": "stich",
            "table": self.id,
            "deal_id": deal.id,
            "number": deal.number,
            "seats": [seat.bot if seat.kind == "bot" else "human" for seat in self.seats],
            "stand_in_seats": sorted(deal.stand_in_seats),
            "timed_out_moves": [list(move) for move in deal.timed_out_moves],
            "fairness": {"commitment": deal.fair.digest, "salt": deal.fair.salt, "construction": COMMITMENT_CONSTRUCTION},
        }
        if self.duplicate is not None:
            meta["tournament"] = tournament_meta(self.duplicate, self.deals_requested)
        if deal.hints:
            meta["hints"] = sorted(deal.hints)
        if self.replay is not None and deal.number == 0:
            meta["replay_of"] = self.replay.to_json()
        return deal_record(state, players=[seat.player_name(i) for i, seat in enumerate(self.seats)], meta=meta)

    async def _finish_deal(self) -> None:
        state, deal, session = self.state, self.deal, self.session
        assert state is not None and deal is not None and session is not None
        record = self._record(state, deal)
        holders = [SeatHolder(seat.kind, seat.user_id, seat.bot) for seat in self.seats]
        rated = rated_deal(record, holders) if self.rated else None
        await asyncio.to_thread(self.db.finish_deal, deal.id, dumps_record(record), self.fence, rated)
        row = session.book(state)
        if self.duplicate is not None:
            outcome = outcome_from(self.duplicate.position, deal.number, deal.fair.seed, state.dealer, row.scores, record["players"])
            await asyncio.to_thread(
                add_result,
                self.db,
                self.duplicate.tournament_id,
                self.duplicate.position,
                number=deal.number,
                deal_id=deal.id,
                outcome=outcome,
            )
        self.state = None
        self.deal = None
        self.decision = None
        self._follow_clock()
        self.next_deal_at = time.monotonic() + self.settings.next_deal_delay_seconds
        if not session.is_over():
            self.ready_wait = ReadyWait(deal.id, time.monotonic(), wait_limit(self.continue_seconds, self.turn_seconds))
        self._broadcast(
            {
                "type": "deal_end",
                "table": self.id,
                "deal": deal.id,
                "number": deal.number,
                "seed": str(deal.fair.seed),
                "salt": deal.fair.salt,
                "commitment": deal.fair.digest,
                "result": record["result"],
                "result_lines": self.game.describe_result(record["result"]),
                "totals": list(session.totals),
                "record_url": f"/api/deals/{deal.id}/record",
                "stand_in_seats": record["meta"]["stand_in_seats"],
                "timed_out_moves": record["meta"]["timed_out_moves"],
                "hints": record["meta"].get("hints", []),
                "replay_of": record["meta"]["replay_of"]["deal"] if "replay_of" in record["meta"] else None,
            }
        )
        if session.is_over():
            await self._finish_table()
        else:
            self._broadcast_table()
            self._send_waiting()

    async def _finish_table(self) -> None:
        session = self.session
        assert session is not None
        await asyncio.to_thread(self.db.set_status, self.id, "finished", self.fence)
        self.status = "finished"
        self.manager.table_finished(self)
        self._broadcast_table()
        self._broadcast({"type": "table_end", "table": self.id, "totals": list(session.totals), "sheet": session.sheet()})
        if not self.connections:
            self.manager.forget(self)

    async def _advance(self) -> float | Think | None:
        """Make one automatic step; return 0 after a step, else how long to wait (``None``: until woken).

        When a bot is to move and has not decided yet, return a :class:`Think`:
        the driver lets the bot choose off the event loop and outside the lock.
        """
        if self.status != "playing" or self.broken:
            return None
        now = time.monotonic()
        if self.state is None:
            wait = self.ready_wait
            if wait is not None:
                self._send_waiting()
                left = wait.left(self._people(), self._excused_from, now, self.settings.next_deal_delay_seconds)
                if left is None or left > 0:
                    return left
            elif now < self.next_deal_at:
                return self.next_deal_at - now
            await self._start_deal()
            return 0
        state, deal = self.state, self.deal
        assert deal is not None
        if state.is_terminal():  # just ended, or restored after a crash between the last action and the record
            await self._finish_deal()
            return 0
        seat = state.current_player()
        moment = (deal.id, len(state.history), seat)
        if self.seats[seat].kind == "human":
            timed_out = self.clock.expired(moment, now)  # the turn timer ran out: the stand-in makes this one move
            if not timed_out:
                clock_left = self.clock.left(moment, now)
                if self._connected(seat):
                    return clock_left
                away = self.away_since.setdefault(seat, now)
                deadline = away + self.settings.grace_seconds
                if now < deadline:
                    return sooner(deadline - now, clock_left)
            # a present player whose clock ran out lost this one move, not the deal: only an absence marks the seat
            if not (timed_out and self._connected(seat)) and seat not in deal.stand_in_seats:
                deal.stand_in_seats.add(seat)
                self._broadcast_table()
        decision = self.decision
        if decision is None or decision.moment != moment:
            return Think(deal.id, len(state.history), self._bot_job(seat, state, deal))
        ready = self.last_action_at + self.settings.bot_delay_seconds
        if now < ready:
            return ready - now
        self.decision = None
        if not state.is_legal(decision.code):  # pragma: no cover - a bot bug must not stop the table
            raise StichError(f"bot at seat {seat} chose the illegal action {self.game.actions[decision.code].text!r}")
        human = self.seats[seat].kind == "human"
        timed_out = human and self.clock.expired(moment, now)
        if human and not timed_out:  # an absence (the record's stand_in_seats and the stored flags agree)
            deal.stand_in_seats.add(seat)
        await self._apply(seat, decision.code, stand_in=human, timed_out=timed_out and seat not in deal.stand_in_seats)
        if timed_out:  # the clients say so: the stand-in moved because the time ran out, not because the player left
            self._broadcast({"type": "timeout", "table": self.id, "deal": deal.id, "step": moment[1], "seat": seat})
        return 0

    async def _think(self, think: Think) -> None:
        """Let the bot choose (the manager's bot pool), then keep the choice for the moment it was asked for.

        The lock is not held meanwhile; if play moved on (a returning player
        acted, the deal ended), the moment no longer matches and
        :meth:`_advance` asks again.
        """
        code = await self.manager.bots.choose(think.job)
        self.decision = Decision(think.moment, code)

    async def _drive(self) -> None:
        """The driver task: automatic moves, deal starts and the grace period, until the table ends."""
        while self.status != "finished":
            self.wake.clear()
            wait: float | Think | None
            try:
                async with self.lock:
                    wait = await self._advance()
                if isinstance(wait, Think):
                    await self._think(wait)
                    wait = 0
            except asyncio.CancelledError:
                raise
            except StaleOwner:  # another worker took the table over while this one stalled: stop driving it
                self.manager.lost_table(self)
                return
            except Exception:
                log.exception("table %s: automatic step failed; retrying", self.id)
                wait = 1.0
            if wait == 0:
                await asyncio.sleep(0)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout=wait)

    def start_driver(self) -> None:
        """Start the driver task (once)."""
        if self.driver is None or self.driver.done():
            self.driver = asyncio.get_running_loop().create_task(self._drive(), name=f"table {self.id}")

    # ------------------------------------------------------------- restore
    def restore(self, deals: Iterable[DealRow]) -> None:
        """Rebuild a running table from its stored deals by replaying every stored action."""
        session = _session_with_seeds(self.game, self.deals_requested, self.seeds, self.replay)
        self.session = session
        rows = list(deals)
        for position, deal in enumerate(rows):
            if deal.number != session.deal_index:
                raise StichError(f"deal {deal.id} is number {deal.number}, but the list is at deal {session.deal_index}")
            self.seeds[deal.number] = deal.seed
            state = session.next_deal()
            if state is None:
                raise StichError(f"deal {deal.id} is stored, but the list was already complete")
            if state.dealer != deal.dealer:
                raise StichError(f"deal {deal.id} was dealt by seat {deal.dealer}, the replay deals from seat {state.dealer}")
            for index, (seat, text) in enumerate(deal.actions):
                if seat != state.current_player():
                    raise StichError(f"deal {deal.id}, action {index}: seat {seat} acted, seat {state.current_player()} was to move")
                try:
                    state.apply(text)
                except StichError as exc:
                    raise StichError(f"deal {deal.id}, action {index}: {exc}") from None
            if deal.status == "finished":
                if not state.is_terminal():
                    raise StichError(f"deal {deal.id} is marked finished, but its actions do not end it")
                row = session.book(state)
                if self.duplicate is not None:  # a worker that stopped between storing the deal and its result
                    names = [seat.player_name(i) for i, seat in enumerate(self.seats)]
                    outcome = outcome_from(self.duplicate.position, deal.number, deal.seed, deal.dealer, row.scores, names)
                    add_result(self.db, self.duplicate.tournament_id, self.duplicate.position, deal.number, deal.id, outcome)
            elif position != len(rows) - 1:
                raise StichError(f"deal {deal.id} is unfinished, but later deals exist")
            else:
                self.state = state
                fair = Commitment(deal.seed, deal.salt, deal.commitment)
                self.deal = CurrentDeal(deal.id, deal.number, fair, set(deal.stand_in_seats), list(deal.timed_out_moves), set(deal.hints))
        now = time.monotonic()
        for index, info in enumerate(self.seats):
            if info.kind == "human":
                self.away_since[index] = now
        self._follow_clock()  # the person to move gets their whole limit again (decision 0035)
        if self.state is None and rows and rows[-1].status == "finished" and not session.is_over():
            self.ready_wait = ReadyWait(rows[-1].id, now, wait_limit(self.continue_seconds, self.turn_seconds))
