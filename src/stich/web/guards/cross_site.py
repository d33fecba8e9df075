"""Cross-site request forgery: a state-changing request from another site's page is refused.

The session cookie is ``SameSite=Lax``, which keeps it off requests from
other *sites*, but not off requests from another origin of the same site
(``evil.example.org`` against ``stich.example.org``), and a POST without a
body (``logout``, ``leave``) needs no JSON to be sent by a form.  So
:class:`CrossSiteGuard` checks every request whose method changes state
(anything but ``GET``, ``HEAD`` and ``OPTIONS``):

* ``Sec-Fetch-Site``, when the browser sends it, must be ``same-origin`` or
  ``none`` (typed by the user);
* ``Origin``, when present, must be this server (its host and port as in the
  ``Host`` header, as for the WebSocket) or one of ``allowed_origins`` (where
  ``{host}`` in an entry stands for the hostname of the ``Host`` header).

A request with neither header does not come from a browser page (browsers
send ``Origin`` with every POST) and is let through: a program holding a
cookie needs no forgery.  A refusal is 403 naming ``origin``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from stich.web.guards.request_limits import send_error
from stich.web.settings import HOST_PLACEHOLDER

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing and are never refused here."""
OWN_FETCH_SITES = frozenset({"same-origin", "none"})
"""``Sec-Fetch-Site`` values of a request made by this server's own page, or typed by the user."""


def normal_origins(origins: tuple[str, ...]) -> frozenset[str]:
    """The setting ``allowed_origins`` as compared: lower case, without a trailing slash."""
    return frozenset(origin.rstrip("/").lower() for origin in origins)


def cross_site_reason(method: str, headers: Headers, allowed_origins: frozenset[str]) -> str | None:
    """Why a request must be refused as cross-site, or ``None`` if it may go on."""
    if method.upper() in SAFE_METHODS:
        return None
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site.lower() not in OWN_FETCH_SITES:
        return f"cross-site request refused (Sec-Fetch-Site: {fetch_site})"
    return foreign_origin(headers, allowed_origins)


def foreign_origin(headers: Headers, allowed_origins: frozenset[str]) -> str | None:
    """Why the ``Origin`` of a request (or WebSocket) is not this server nor an allowed one; ``None`` when it is, or is absent.

    The host and port must be those of the ``Host`` header; a request without
    ``Origin`` does not come from a browser page.
    """
    origin = headers.get("origin")
    if origin is None or origin.rstrip("/").lower() in allowed_origins:
        return None
    host = headers.get("host", "").lower()
    if host and _templated_origin(origin.rstrip("/").lower(), host, allowed_origins):
        return None
    if origin == "null" or not host or urlsplit(origin).netloc.lower() != host:
        return f"cross-site request refused: origin {origin[:100]!r} is not this server"
    return None


def _templated_origin(origin: str, host: str, allowed_origins: frozenset[str]) -> bool:
    """Whether ``origin`` is an allowed origin naming ``{host}``, filled with the hostname of this request's ``Host``.

    ``http://{host}:8000`` lets a worker's own port (``stich serve
    --worker-ports``, decision 0068) accept sockets from the pages of the
    shared port on whatever name the browser reached the machine by, and
    from no other origin: the hostname must be the one this request names.
    """
    name = host[: host.rfind(":")] if host.rfind(":") > host.rfind("]") else host
    return any(HOST_PLACEHOLDER in allowed and allowed.replace(HOST_PLACEHOLDER, name) == origin for allowed in allowed_origins)


class CrossSiteGuard:
    """ASGI middleware: refuses state-changing HTTP requests from other origins (403, field ``origin``)."""

    def __init__(self, app: ASGIApp, allowed_origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed_origins = normal_origins(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a cross-site state-changing request, pass everything else on."""
        if scope["type"] == "http":
            reason = cross_site_reason(scope["method"], Headers(scope=scope), self.allowed_origins)
            if reason is not None:
                await send_error(send, 403, reason, field="origin", close=False)
                return
        await self.app(scope, receive, send)
