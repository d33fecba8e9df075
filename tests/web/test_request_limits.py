"""Fault 4 of issue 30: oversized bodies are refused before they are read, and slow clients are disconnected.

The size checks run against the ASGI app; the deadlines against a real
server on loopback (uvicorn as ``stich serve`` runs it), with raw sockets
that send half a request, under a short configured timeout.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

import pytest

from stich.web.app import create_app
from stich.web.guards.passwords import Passwords
from stich.web.server import make_server
from stich.web.settings import Settings

from .asgi import started
from .helpers import FAST_HASHER, make_settings, run_async

LIMIT = 4096
HEADERS = b"POST /api/auth/guest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
CHUNK = 1024


class Body:
    """A request body sent in chunks, counting how many chunks the server pulled."""

    def __init__(self, chunks: int) -> None:
        self.chunks = chunks
        self.pulled = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for _ in range(self.chunks):
            self.pulled += 1
            yield b"x" * CHUNK


def test_a_declared_oversized_body_is_refused_unread(db_url: str) -> None:
    async def run() -> tuple[int, dict[str, str], int]:
        async with started(make_settings(db_url, max_body_bytes=LIMIT)) as client:
            body = Body(200_000)  # 200 MB, declared
            headers = {"content-length": str(200_000 * CHUNK), "content-type": "application/json"}
            response = await client.post("/api/auth/guest", content=body, headers=headers)
            return response.status_code, response.json(), body.pulled

    status, answer, pulled = run_async(run())
    assert status == 413 and answer["type"] == "error" and answer["field"] == "$" and str(LIMIT) in answer["message"]
    assert pulled <= 1  # nothing past the first chunk was read (the transport may hand over one)


def test_a_chunked_oversized_body_is_counted_and_refused(db_url: str) -> None:
    async def run() -> tuple[int, int]:
        async with started(make_settings(db_url, max_body_bytes=LIMIT)) as client:
            body = Body(10_000)  # no Content-Length: chunked
            response = await client.post("/api/auth/guest", content=body, headers={"content-type": "application/json"})
            return response.status_code, body.pulled

    status, pulled = run_async(run())
    assert status == 413
    assert pulled <= LIMIT // CHUNK + 2  # refused as soon as the count passed the limit


def test_a_body_within_the_limit_is_served(db_url: str) -> None:
    async def run() -> int:
        async with started(make_settings(db_url, max_body_bytes=LIMIT)) as client:
            response = await client.post("/api/auth/guest", json={"name": "Fritz"})
            return response.status_code

    assert run_async(run()) == 200


@contextmanager
def serving(settings: Settings) -> Iterator[int]:
    """The app under uvicorn, as ``stich serve`` runs it, on a free loopback port; yields the port."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = make_server(create_app(settings, Passwords(FAST_HASHER)), settings, "127.0.0.1", port, log_level="warning")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise AssertionError("the server did not start")
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(20)
        sock.close()


def _closed_within(sock: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Whether the server closed ``sock`` within ``seconds``, and what it sent before."""
    sock.settimeout(0.2)
    received = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            data = sock.recv(4096)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return True, received
        if not data:
            return True, received
        received += data
    return False, received


@pytest.fixture
def slow_server(db_url: str) -> Iterator[int]:
    """A served app that gives a request 0.5 s for its headers and again for its body."""
    with serving(make_settings(db_url, request_timeout_seconds=0.5, max_body_bytes=LIMIT)) as port:
        yield port


def test_half_sent_headers_are_disconnected(slow_server: int) -> None:
    with socket.create_connection(("127.0.0.1", slow_server), timeout=5) as sock:
        sock.sendall(b"POST /api/auth/guest HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # ... and nothing more
        closed, answer = _closed_within(sock, 3.0)
    assert closed and answer.startswith(b"HTTP/1.1 408")


def test_an_idle_connection_is_closed_without_an_answer(slow_server: int) -> None:
    with socket.create_connection(("127.0.0.1", slow_server), timeout=5) as sock:
        closed, answer = _closed_within(sock, 3.0)
    assert closed and answer == b""


def test_a_half_sent_body_is_answered_408_and_disconnected(slow_server: int) -> None:
    with socket.create_connection(("127.0.0.1", slow_server), timeout=5) as sock:
        sock.sendall(HEADERS + b"Content-Length: 100\r\n\r\n{")
        closed, answer = _closed_within(sock, 3.0)
    assert closed and answer.startswith(b"HTTP/1.1 408") and b'"type":"error"' in answer.replace(b" ", b"")


def test_a_declared_oversized_body_closes_the_connection_at_once(slow_server: int) -> None:
    with socket.create_connection(("127.0.0.1", slow_server), timeout=5) as sock:
        sock.sendall(
            b"POST /api/auth/guest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 209715200\r\n\r\n"
        )
        closed, answer = _closed_within(sock, 3.0)
    assert closed and answer.startswith(b"HTTP/1.1 413")


def test_a_prompt_client_is_served_and_kept_alive(slow_server: int) -> None:
    with socket.create_connection(("127.0.0.1", slow_server), timeout=5) as sock:
        for _ in range(2):  # the second request on the same connection gets its own deadline
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.settimeout(5)
            assert sock.recv(4096).startswith(b"HTTP/1.1 200")
            time.sleep(0.3)


def test_forwarded_for_from_loopback_is_not_believed_by_the_server(db_url: str) -> None:
    settings = make_settings(db_url, login_max_failures=2)
    body = b'{"name": "Nobody", "password": "guess"}'
    with serving(settings) as port:
        statuses = []
        for i in range(3):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.sendall(
                    b"POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + f"X-Forwarded-For: 10.1.1.{i}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                    + body
                )
                statuses.append(sock.recv(4096)[:12])
    assert statuses == [b"HTTP/1.1 401", b"HTTP/1.1 401", b"HTTP/1.1 429"]


def test_a_kept_alive_connection_outlives_a_client_idle_limit_of_uvicorn_s_default(db_url: str) -> None:
    """Issue 42, fault 3: uvicorn closed a connection idle for 5 s without a word, just as a client with a 5 s idle limit reused it.

    Table creations failed with a read error on the client and nothing in the
    server's log.  The server's idle limit is now the header deadline (here
    the default 10 s), so a connection idle for 6 s still serves.
    """
    with serving(make_settings(db_url)) as port, socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert sock.recv(4096).startswith(b"HTTP/1.1 200")
        time.sleep(6)
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert sock.recv(4096).startswith(b"HTTP/1.1 200")  # was: b"" (closed after 5 s)


def test_every_connection_the_server_drops_is_logged_with_its_reason(slow_server: int, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="stich.web")
    with socket.create_connection(("127.0.0.1", slow_server), timeout=5) as sock:
        sock.sendall(b"POST /api/auth/guest HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert _closed_within(sock, 3.0)[0]
    with socket.create_connection(("127.0.0.1", slow_server), timeout=5) as sock:
        sock.sendall(HEADERS + b"Content-Length: 100\r\n\r\n{")
        assert _closed_within(sock, 3.0)[0]
    with socket.create_connection(("127.0.0.1", slow_server), timeout=5) as sock:
        assert _closed_within(sock, 3.0)[0]
    lines = [record.getMessage() for record in caplog.records if record.name.startswith("stich.web")]
    assert any("request headers were not complete" in line and "408" in line for line in lines), lines
    assert any("408" in line and "body did not arrive" in line for line in lines), lines
    assert any("idle for" in line for line in lines), lines
