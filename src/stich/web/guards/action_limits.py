"""Rate limits of the lobby's write requests (issue 44): friends, invites, pings, Schnellstart, Revanche, tournaments, analyses.

Each limited request is one *action* (:data:`ACTIONS`); its name is the
``field`` of the refusal.  Every action kind has its own two sliding windows
of ``action_window_seconds``:

* per client (its session, or its address without one): ``action_limit``
  requests (``online_ping_limit`` for the ``online`` ping, which every open
  page sends each 30 s);
* per client address across its sessions: ``action_limit_per_address``
  (``online_ping_limit_per_address``), so that a script cannot dodge the
  first limit by making a new guest session for every request.

A request is counted *before* its handler runs, in one step of the event
loop, like a login attempt (:mod:`stich.web.guards.login_limit`): requests
sent at once cannot all slip under a limit.  A refused one is not counted
and is answered 429 naming the action, with ``Retry-After``.  Refused or
not, a request stays counted whatever its handler answers: a flood of
wrong requests costs its sender as much as a flood of right ones.

The counts live in memory, per server process; with several workers
:class:`stich.web.cluster.shared_limits.RedisActionLimiter` keeps them in Redis.
The server uses either through :class:`ActionLimits`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from stich.web.guards.login_limit import SlidingWindows

if TYPE_CHECKING:
    from stich.web.settings import Settings

ONLINE = "online"
"""The online ping's action (its own, higher limits)."""

ACTIONS = ("friends", "invites", ONLINE, "quickstart", "rematch", "tournaments", "again", "analysis")
"""The limited action kinds, each the ``field`` of its refusals:

``friends``: add or remove a friend; ``invites``: invite a friend, accept or
decline an invite; ``online``: the page's ping; ``quickstart``: Schnellstart;
``rematch``: Revanche; ``tournaments``: create, join or start a tournament;
``again``: play a finished deal again; ``analysis``: start a deal's analysis.
"""


def limits_of(settings: Settings, action: str) -> tuple[int, int]:
    """The per-client and per-address limits of ``action`` within ``action_window_seconds``."""
    if action == ONLINE:
        return settings.online_ping_limit, settings.online_ping_limit_per_address
    return settings.action_limit, settings.action_limit_per_address


class ActionLimits(Protocol):
    """What the API needs of an action limiter: in memory (:class:`ActionLimiter`) or in Redis (several workers)."""

    async def acount(self, action: str, client: str, address: str) -> int | None:
        """Count one ``action`` of ``client`` from ``address``: ``None`` when counted, else the seconds to wait (nothing counted)."""


class ActionLimiter:
    """The action limits of one server process: two sliding windows per action kind, in memory."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        window = settings.action_window_seconds
        self._windows = {
            action: (SlidingWindows(per_client, window), SlidingWindows(per_address, window))
            for action in ACTIONS
            for per_client, per_address in [limits_of(settings, action)]
        }

    def count(self, action: str, client: str, address: str) -> int | None:
        """Count one ``action`` of ``client`` from ``address``, or, past either limit, return the seconds to wait."""
        per_client, per_address = self._windows[action]
        now = self.clock()
        waits = [w for w in (per_client.wait(client, now), per_address.wait(address, now)) if w is not None]
        if waits:
            return max(waits)
        per_client.add(client, now)
        per_address.add(address, now)
        return None

    async def acount(self, action: str, client: str, address: str) -> int | None:
        """:meth:`count`, as :class:`ActionLimits` asks."""
        return self.count(action, client, address)
