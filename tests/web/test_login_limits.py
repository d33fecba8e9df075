"""Fault 2 of issue 30: the login rate limit holds under concurrent guesses, forged addresses and name spraying,
and password hashing cannot hold up other requests."""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

import httpx
import pytest
from starlette.requests import HTTPConnection

from stich.web.guards.client_address import client_address
from stich.web.guards.passwords import Passwords

from .asgi import started
from .helpers import FAST_HASHER, make_settings, run_async

WRONG = {"name": "Target", "password": "not the password"}


async def _register(client: httpx.AsyncClient, name: str = "Target", password: str = "the real password") -> None:
    response = await client.post("/api/auth/register", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    client.cookies.clear()


async def _login(client: httpx.AsyncClient, body: dict[str, str], forwarded: str | None = None) -> httpx.Response:
    headers = {"x-forwarded-for": forwarded} if forwarded else {}
    response = await client.post("/api/auth/login", json=body, headers=headers)
    client.cookies.clear()
    return response


def test_forty_simultaneous_guesses_meet_a_limit_of_five(db_url: str) -> None:
    async def run() -> list[int]:
        async with started(make_settings(db_url)) as client:
            await _register(client)
            answers = await asyncio.gather(*(_login(client, WRONG) for _ in range(40)))
            right = await _login(client, {"name": "Target", "password": "the real password"})
            assert right.status_code == 429  # locked, whatever the password
            return [a.status_code for a in answers]

    statuses = run_async(run())
    assert statuses.count(401) == 5 and statuses.count(429) == 35


def test_forwarded_for_is_ignored_unless_the_peer_is_a_trusted_proxy(db_url: str) -> None:
    async def run(trusted: tuple[str, ...]) -> list[int]:
        async with started(make_settings(db_url, trusted_proxies=trusted)) as client:
            if not trusted:
                await _register(client)
            return [(await _login(client, WRONG, forwarded=f"10.0.0.{i}")).status_code for i in range(8)]

    # from loopback, with no trusted proxy: every guess is the peer's, whatever the header claims
    assert run_async(run(())) == [401] * 5 + [429] * 3
    # behind a configured proxy (the peer 127.0.0.1), each forwarded client has its own count
    assert run_async(run(("127.0.0.1",))) == [401] * 8


def _connection(peer: str, forwarded: list[str]) -> HTTPConnection:
    headers = [(b"x-forwarded-for", value.encode()) for value in forwarded]
    return HTTPConnection({"type": "http", "client": (peer, 1234), "headers": headers})


def test_client_address_reads_the_chain_from_the_right() -> None:
    proxies = ("10.0.0.0/8", "::1")
    assert client_address(_connection("127.0.0.1", ["1.2.3.4"])) == "127.0.0.1"  # no trusted proxies: header ignored
    assert client_address(_connection("8.8.8.8", ["1.2.3.4"]), proxies) == "8.8.8.8"  # the peer is no proxy
    assert client_address(_connection("10.0.0.5", ["1.2.3.4"]), proxies) == "1.2.3.4"
    # a client that writes its own header cannot pick its address: the proxy appended the real one
    assert client_address(_connection("10.0.0.5", ["6.6.6.6, 1.2.3.4"]), proxies) == "1.2.3.4"
    assert client_address(_connection("10.0.0.5", ["6.6.6.6, 1.2.3.4, 10.0.0.9"]), proxies) == "1.2.3.4"
    assert client_address(_connection("10.0.0.5", ["6.6.6.6", "1.2.3.4"]), proxies) == "1.2.3.4"  # repeated headers
    assert client_address(_connection("::1", []), proxies) == "::1"
    with pytest.raises(ValueError):
        make_settings("sqlite://", trusted_proxies=("not an address",))


def test_spraying_names_from_one_address_is_limited(db_url: str) -> None:
    async def run() -> list[int]:
        async with started(make_settings(db_url, login_max_failures_per_address=20)) as client:
            return [(await _login(client, {"name": f"user{i}", "password": "guess"})).status_code for i in range(24)]

    assert run_async(run()) == [401] * 20 + [429] * 4


class BlockingPasswords(Passwords):
    """Password checks that wait for a signal, counting how many run at once."""

    def __init__(self) -> None:
        super().__init__(FAST_HASHER)
        self.release = threading.Event()
        self.asked = 0
        self.running = 0
        self.most = 0
        self._lock = threading.Lock()

    async def check(self, stored: str | None, password: str) -> bool:
        self.asked += 1  # on the event loop, in the same step as the pool's slot is taken (or refused)
        return await super().check(stored, password)

    def verify(self, stored: str | None, password: str) -> bool:
        with self._lock:
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            self.release.wait(20)
            return super().verify(stored, password)
        finally:
            with self._lock:
                self.running -= 1


async def _eventually(condition: Any, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


def test_parallel_logins_do_not_hold_up_a_bystander(db_url: str) -> None:
    passwords = BlockingPasswords()
    count = min(32, (os.cpu_count() or 1) + 4) + 4  # more than asyncio's default worker threads (the database's)

    async def run() -> tuple[int, list[int]]:
        settings = make_settings(db_url, login_max_failures_per_address=100, password_hash_workers=2)
        async with started(settings, passwords) as client:
            logins = [asyncio.create_task(_login(client, {"name": f"user{i}", "password": "guess"})) for i in range(count)]
            await _eventually(lambda: passwords.running >= 2)
            try:
                # every hashing thread is stuck; a request that needs the database still answers
                async with asyncio.timeout(5):
                    bystander = await client.get("/api/tables/no-such-table")  # asks the database
            finally:
                passwords.release.set()
            return bystander.status_code, [r.status_code for r in await asyncio.gather(*logins)]

    bystander, logins = run_async(run())
    assert bystander == 404
    assert logins == [401] * count
    assert passwords.most == 2  # never more hashes at once than the pool's threads


def test_a_full_hashing_queue_answers_503(db_url: str) -> None:
    passwords = BlockingPasswords()

    async def run() -> tuple[list[int], str | None]:
        settings = make_settings(db_url, password_hash_workers=1, password_hash_queue=1)
        async with started(settings, passwords) as client:
            first = [asyncio.create_task(_login(client, {"name": f"user{i}", "password": "guess"})) for i in range(2)]
            # one hashing, one queued: both asked (their account lookups may take a while, as on PostgreSQL)
            await _eventually(lambda: passwords.running == 1 and passwords.asked == 2)
            busy = await _login(client, {"name": "user9", "password": "guess"})
            passwords.release.set()
            statuses = [r.status_code for r in await asyncio.gather(*first)]
            return [*statuses, busy.status_code], busy.headers.get("retry-after")

    statuses, retry = run_async(run())
    assert statuses == [401, 401, 503] and retry == "1"
