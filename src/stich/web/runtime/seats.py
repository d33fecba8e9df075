"""A table's seats: who sits where, the bot specs a table accepts, each bot decision's seed, and a new table's row.

What is stored of a table's seats (``table_seats``) and read back after a restart; no sockets and no clock.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, replace
from typing import Any

from stich.arena.duplicate import BotSpec, parse_bot_spec
from stich.core.game import Game
from stich.errors import OptionError
from stich.web.deals.fairness import Commitment
from stich.web.identity import Identity
from stich.web.protocol import ApiError
from stich.web.storage.db import SeatRow, TableRow

TABLE_BOT_OPTIONS = frozenset({"level"})
"""The bot options a table accepts: the strength ``level`` (1..5) of the search bots.

Options such as ``time`` are refused, so that nobody can seat a bot that
thinks for minutes per card at a shared server.
"""
MAX_BOT_SPEC = 32
"""Longest bot spec text (the ``table_seats.bot`` column)."""


def table_bot_spec(text: str, field_name: str = "bot") -> BotSpec:
    """A bot spec a table accepts (``heuristic``, ``pimc:level=2``...), or an :class:`ApiError` naming ``field_name``.

    The spec is parsed and checked against the bot's factory by
    :func:`stich.arena.duplicate.parse_bot_spec`; beyond that only the options
    in :data:`TABLE_BOT_OPTIONS` are allowed.
    """
    try:
        spec = parse_bot_spec(text)
    except OptionError as exc:
        raise ApiError(422, field_name, str(exc)) from None
    extra = [key for key, _value in spec.options if key not in TABLE_BOT_OPTIONS]
    if extra:
        allowed = ", ".join(sorted(TABLE_BOT_OPTIONS))
        raise ApiError(422, field_name, f"bot {spec.name!r}: option {extra[0]!r} is not offered at tables; tables accept: {allowed}")
    if spec.options:
        level = dict(spec.options).get("level")
        if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 5:
            raise ApiError(422, field_name, f"bot {spec.name!r}: level must be 1, 2, 3, 4 or 5, not {level!r}")
    if len(spec.text) > MAX_BOT_SPEC:  # pragma: no cover - a registered name would have to be absurdly long
        raise ApiError(422, field_name, f"bot spec {spec.text!r} is longer than {MAX_BOT_SPEC} characters")
    return spec


def bot_seed(fair: Commitment, seat: int, step: int) -> int:
    """The seed of the bot deciding for ``seat`` at ``step`` of the deal committed by ``fair``.

    A one-way hash of the deal's secret seed and salt, the seat and the step:
    the bot's choice is the same whenever this moment is reached (after a
    restart, in any worker process), and once the deal ends and its seed is
    revealed anybody can recompute it, while during the deal the bot's
    seed tells nobody anything about the cards.
    """
    text = f"stich bot:{fair.seed}:{fair.salt}:{seat}:{step}"
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


@dataclass
class Seat:
    """One seat in memory (mirrors ``table_seats``)."""

    kind: str = "empty"
    bot: str | None = None
    name: str | None = None
    user_id: int | None = None
    session_id: int | None = None

    @classmethod
    def from_row(cls, row: SeatRow) -> Seat:
        """The seat of a stored row."""
        return cls(row.kind, row.bot, row.name, row.user_id, row.session_id)

    def row(self, index: int) -> SeatRow:
        """The row to store."""
        return SeatRow(index, self.kind, self.bot, self.name, self.user_id, self.session_id)

    def owned_by(self, identity: Identity | None) -> bool:
        """Whether ``identity`` is the person in this seat (same session, or same account)."""
        if identity is None or self.kind != "human":
            return False
        return self.session_id == identity.session_id or (self.user_id is not None and self.user_id == identity.user_id)

    def player_name(self, index: int) -> str:
        """The name written into records."""
        if self.kind == "bot":
            return f"{self.bot} bot"
        return self.name or f"seat {index}"


def new_table_row(
    game: Game,
    deals: int,
    private: bool,
    creator: Identity,
    creator_seat: int | None,
    created_at: Any,
    turn_seconds: int | None = None,
    continue_seconds: int | None = None,
    kind: str | None = None,
    rated: bool = False,
) -> TableRow:
    """A new table's row: fresh id and invite token, the creator in ``creator_seat`` if given, and its time limits."""
    seats = [SeatRow(i, "empty") for i in range(game.num_seats)]
    if creator_seat is not None:
        seats[creator_seat] = replace(
            seats[creator_seat], kind="human", name=creator.name, user_id=creator.user_id, session_id=creator.session_id
        )
    return TableRow(
        id=secrets.token_urlsafe(9),
        game=game.canonical,
        game_name=game.name,
        deals_requested=deals,
        private=private,
        invite_token=secrets.token_urlsafe(24),
        status="open",
        creator_session_id=creator.session_id,
        created_at=created_at,
        seats=tuple(seats),
        turn_seconds=turn_seconds,
        continue_seconds=continue_seconds,
        kind=kind,
        rated=rated,
    )
