"""How many tables and how strong bots one person or one address may have: the caps of issue 30.

A search bot at level 5 thinks for 6 s per decision; however fairly the bot
pool shares its processes (:mod:`stich.web.runtime.bot_pool`), a guest who opens a
hundred such tables takes the processes from everybody else.  So:

* the highest search ``level`` a seat may get: ``guest_max_bot_level`` for a
  guest, ``account_max_bot_level`` for an account (a bot that takes a
  ``level`` but is seated without one counts as level 5, its strongest);
* unfinished tables with search bots (any bot that is not a quick one) per
  person and per client address: ``max_search_tables_per_person`` /
  ``_per_address``; a table counts against whoever seated its first search bot;
* unfinished tables created per person and per address:
  ``max_tables_per_person`` / ``_per_address``.

A *person* is an account, or a guest's session.  A refusal is an
:class:`~stich.web.protocol.ApiError` naming the request's field (``bot``,
``bots`` or ``tables``): 403 for a level, 429 for a count.  The counts are
taken from the tables this server runs; a table resumed after a restart
counts against its creator's session (the address is not stored).

These counts are of one process.  With several workers (a Redis,
:mod:`stich.web.cluster`) the same caps are counted across all workers, in
Redis (:mod:`stich.web.cluster.shared_caps`), with the same refusals.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from stich.arena.duplicate import BotSpec, parse_bot_spec
from stich.errors import OptionError
from stich.web.identity import Identity
from stich.web.protocol import ApiError
from stich.web.settings import Settings

QUICK_BOTS = frozenset({"random", "heuristic"})
"""Bots that do not search (well under a millisecond a decision): they think on a thread of the server process
and count towards no search cap."""
HIGHEST_LEVEL = 5
"""The strongest search level; a search bot seated without a ``level`` counts as this one."""


@dataclass(frozen=True)
class Owner:
    """Whom a table counts against: the person (``("user", id)`` or ``("session", id)``) and the client address (if known)."""

    person: tuple[str, int]
    address: str | None

    @classmethod
    def of(cls, identity: Identity, address: str | None) -> Owner:
        """The owner for ``identity`` asking from the client ``address`` (``None``: not known)."""
        person = ("user", identity.user_id) if identity.user_id is not None else ("session", identity.session_id)
        return cls(person, address)

    def shares(self, other: Owner | None) -> tuple[bool, bool]:
        """Whether ``other`` is the same person, and whether it is the same (known) address."""
        if other is None:
            return False, False
        return other.person == self.person, self.address is not None and other.address == self.address


def is_search_bot(spec: BotSpec) -> bool:
    """Whether the bot searches (everything but the quick bots), so that it counts towards the search caps."""
    return spec.name not in QUICK_BOTS


def takes_level(name: str) -> bool:
    """Whether the bot ``name`` takes a strength ``level`` option (the search bots)."""
    try:
        parse_bot_spec(f"{name}:level=1")
    except OptionError:
        return False
    return True


def bot_level(spec: BotSpec) -> int | None:
    """The level a bot counts as: its ``level``; :data:`HIGHEST_LEVEL` for a bot that takes one but was given none; else ``None``."""
    level = dict(spec.options).get("level")
    if isinstance(level, int) and not isinstance(level, bool):
        return level
    return HIGHEST_LEVEL if is_search_bot(spec) and takes_level(spec.name) else None


def check_bot_level(settings: Settings, spec: BotSpec, identity: Identity, field: str) -> None:
    """Refuse (403, naming ``field``) a search bot stronger than the person may seat."""
    level = bot_level(spec)
    if level is None:
        return
    if identity.guest:
        highest, who = settings.guest_max_bot_level, "guests"
    else:
        highest, who = settings.account_max_bot_level, "accounts"
    if level > highest:
        hint = " (log in for stronger ones)" if identity.guest and settings.account_max_bot_level > highest else ""
        allowed = f"up to level {highest}" if highest > 0 else "no search bots"
        raise ApiError(403, field, f"bot {spec.text!r} counts as level {level}; {who} may seat {allowed}{hint}")


def check_count(owners: Iterable[Owner | None], owner: Owner, per_person: int, per_address: int, field: str, what: str) -> None:
    """Refuse (429, naming ``field``) one more of ``what`` when ``owner``'s person or address already has its cap of them."""
    person = address = 0
    for other in owners:
        same_person, same_address = owner.shares(other)
        person += same_person
        address += same_address
    if person >= per_person:
        raise refusal("person", person, field, what)
    if address >= per_address:
        raise refusal("address", address, field, what)


def refusal(whose: str, count: int, field: str, what: str) -> ApiError:
    """The 429 naming ``field`` for ``whose`` (``"person"`` or ``"address"``) having ``count`` unfinished ``what`` already."""
    if whose == "person":
        return ApiError(429, field, f"you already have {count} unfinished {what}, the most one person may have; finish or leave one first")
    return ApiError(429, field, f"your address already has {count} unfinished {what}, the most one address may have")
