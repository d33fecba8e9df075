"""Request bodies: refused above a size before they are read, and read against a deadline.

:class:`RequestLimits` is an ASGI middleware in front of the whole app.  For
an HTTP request it

1. refuses a ``Content-Length`` above ``max_body_bytes`` at once with 413,
   without reading a byte of the body (a 200 MB upload used to be read and
   parsed first: server memory 104 → 688 MB);
2. reads the body itself, counting the bytes as they come (a chunked body has
   no ``Content-Length``), and answers 413 the moment the count passes the
   limit;
3. gives the whole body ``timeout`` seconds to arrive, and answers 408 when a
   client sends part of it and stalls;

and only then calls the app with the body it read.  Every refusal, and
every request whose client left before its body arrived, is logged with its
reason (issue 42: no request is dropped without a line in the log).  Refusals carry
``Connection: close``, so the server drops the connection instead of
waiting for the rest of the body.  The answers have the API's error shape
(``{"type": "error", "field": "$", "message": ...}``).  The headers' own
deadline is the server's (:mod:`stich.web.server`): the app is not called
before the headers are complete.
"""

from __future__ import annotations

import asyncio
import json
import logging

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from stich.web.protocol import WHOLE, error_message

log = logging.getLogger("stich.web.requests")


async def send_error(send: Send, status: int, message: str, *, field: str = WHOLE, close: bool = True) -> None:
    """Answer an HTTP request with the API's error shape, closing the connection unless told not to."""
    body = json.dumps(error_message(field, message)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _peer(scope: Scope) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "unknown"


class _Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class RequestLimits:
    """ASGI middleware: a body larger than ``max_body_bytes`` gets 413 unread; one slower than ``timeout`` seconds gets 408."""

    def __init__(self, app: ASGIApp, max_body_bytes: int, timeout: float) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the size, read the body against the deadline, then hand it to the app."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            self._check_length(Headers(scope=scope).get("content-length"))
            body = await self._read(receive)
        except _Refused as refused:
            log.warning(
                "refused %s %s from %s: %d %s", scope.get("method"), scope.get("path"), _peer(scope), refused.status, refused.message
            )
            await send_error(send, refused.status, refused.message)
            return
        if body is None:  # the client went away
            log.info(
                "dropped %s %s from %s: the client went away before its body arrived", scope.get("method"), scope.get("path"), _peer(scope)
            )
            return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: the disconnect, when it comes

        await self.app(scope, replay, send)

    def _check_length(self, declared: str | None) -> None:
        if declared is None:
            return
        if not declared.isdigit():
            raise _Refused(400, "Content-Length is not a number")
        if int(declared) > self.max_body_bytes:
            raise _Refused(413, f"the body is larger than {self.max_body_bytes} bytes")

    async def _read(self, receive: Receive) -> bytes | None:
        """The whole body, or ``None`` if the client disconnected; :class:`_Refused` when too large or too slow."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        chunks: list[bytes] = []
        size = 0
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise _Refused(408, f"the body did not arrive within {self.timeout:g} s") from None
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                raise _Refused(413, f"the body is larger than {self.max_body_bytes} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)
