"""The login and message rate limits hold across workers when counted in Redis (issue 33; a real redis-server).

Two limiters on their own Redis connections stand for two workers; the
limits are those of one process (:mod:`stich.web.guards.login_limit`,
:mod:`stich.web.guards.socket_limits`), now shared: what one worker counted, the
other refuses.  The last test runs two whole apps (two "workers" on one
database and one Redis) and logs in wrongly on both.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from stich.web.cluster.shared_limits import RedisLoginLimiter, SharedBudgets
from stich.web.guards.login_limit import Attempt
from stich.web.identity import Identity
from stich.web.settings import Settings

from .helpers import Reader, call, connect, create_table, make_settings, new_guest, run_async, running


def test_login_attempts_count_on_every_worker(redis_url: str) -> None:
    async def body() -> None:
        from redis.asyncio import Redis

        first, second = Redis.from_url(redis_url, decode_responses=True), Redis.from_url(redis_url, decode_responses=True)
        one, two = RedisLoginLimiter(first, 3, 60.0, 10), RedisLoginLimiter(second, 3, 60.0, 10)
        try:
            attempts = [await (one if i % 2 else two).abegin("anna", "1.2.3.4") for i in range(3)]
            assert all(isinstance(attempt, Attempt) for attempt in attempts)
            for limiter in (one, two):  # the fourth, on either worker, waits for the window
                wait = await limiter.abegin("anna", "1.2.3.4")
                assert isinstance(wait, int) and 55 <= wait <= 60
            assert isinstance(await one.abegin("anna", "5.6.7.8"), Attempt)  # per name and address
            right = attempts[0]
            assert isinstance(right, Attempt)
            await two.asucceeded(right)  # a right password forgets the name's failures from that address
            assert isinstance(await one.abegin("anna", "1.2.3.4"), Attempt)
        finally:
            await first.aclose()
            await second.aclose()

    run_async(body())


def test_guesses_sent_at_once_to_two_workers_cannot_slip_under_the_limit(redis_url: str) -> None:
    async def body() -> None:
        from redis.asyncio import Redis

        first, second = Redis.from_url(redis_url, decode_responses=True), Redis.from_url(redis_url, decode_responses=True)
        one, two = RedisLoginLimiter(first, 5, 60.0, 20), RedisLoginLimiter(second, 5, 60.0, 20)
        try:
            results = await asyncio.gather(*[(one if i % 2 else two).abegin("bert", "9.9.9.9") for i in range(40)])
            assert sum(isinstance(result, Attempt) for result in results) == 5
            sprayed = await asyncio.gather(*[(one if i % 2 else two).abegin(f"name{i}", "8.8.8.8") for i in range(40)])
            assert sum(isinstance(result, Attempt) for result in sprayed) == 20  # per address across names
        finally:
            await first.aclose()
            await second.aclose()

    run_async(body())


def test_a_message_budget_is_spent_on_every_worker(redis_url: str) -> None:
    async def body() -> None:
        from redis.asyncio import Redis

        first, second = Redis.from_url(redis_url, decode_responses=True), Redis.from_url(redis_url, decode_responses=True)
        settings = Settings(max_messages_per_minute=5, max_messages_per_minute_per_address=8)
        one, two = SharedBudgets(first, settings), SharedBudgets(second, settings)
        anna, bert = Identity(1, None, "Anna"), Identity(2, None, "Bert")
        try:
            spent = [await (one if i % 2 else two).allow(anna, "1.1.1.1") for i in range(6)]
            assert spent == [True] * 5 + [False]
            assert await one.allow(bert, "1.1.1.1")  # another session has its own budget...
            assert [await two.allow(bert, "1.1.1.1") for _ in range(3)] == [True, True, False]  # ...but the address's is shared (8)
            assert await one.allow(None, "2.2.2.2")  # without a cookie the address is the client
        finally:
            await first.aclose()
            await second.aclose()

    run_async(body())


def test_failed_logins_on_one_worker_lock_the_name_on_the_other(redis_url: str, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stich.db'}"
    settings = make_settings(url, redis_url=redis_url, login_max_failures=3)
    with running(settings) as a, running(settings) as b:
        registered = call(a, "POST", "/api/auth/register", json={"name": "Clara", "password": "long enough secret"})
        assert registered.status_code == 201, registered.text
        for _ in range(3):
            assert call(a, "POST", "/api/auth/login", json={"name": "Clara", "password": "wrong password!"}).status_code == 401
        refused = call(b, "POST", "/api/auth/login", json={"name": "Clara", "password": "long enough secret"})
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert refused.json()["field"] == "name"


def test_new_accounts_from_one_address_count_on_every_worker(redis_url: str, tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 'stich.db'}", redis_url=redis_url, accounts_per_address=1)
    with running(settings) as a, running(settings) as b:
        assert call(a, "POST", "/api/auth/register", json={"name": "Clara", "password": "long enough secret"}).status_code == 201
        refused = call(b, "POST", "/api/auth/register", json={"name": "Dora", "password": "long enough secret"})
        assert refused.status_code == 429 and refused.json()["field"] == "accounts"
        assert int(refused.headers["Retry-After"]) > 3000  # the hour's window


def test_a_session_s_messages_on_two_workers_share_one_budget(redis_url: str, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stich.db'}"
    settings = make_settings(url, redis_url=redis_url, max_messages_per_minute=6)
    with running(settings) as a, running(settings) as b:
        token = new_guest(a)
        table = create_table(a, token, game="doppelkopf", deals=1, seat=0)  # A runs it; B relays to A
        with connect(a, table["id"], token) as on_a:
            reader = Reader(on_a)
            for number in range(3):  # three of the six, on A
                on_a.send_json({"type": "ping", "id": number})
                reader.until(lambda message: message["type"] == "pong")
        with connect(b, table["id"], token) as on_b:  # the connect is the fourth, on B
            reader = Reader(on_b)
            reader.until(lambda message: message["type"] == "welcome")
            for number in range(2):
                on_b.send_json({"type": "ping", "id": number})
                reader.until(lambda message: message["type"] == "pong")
            on_b.send_json({"type": "ping", "id": 9})
            refused = reader.until(lambda message: message["type"] == "error")
            assert "too many messages" in refused["message"]


def test_a_worker_takes_a_few_tokens_at_once_and_all_workers_together_never_pass_more_than_the_budget(redis_url: str) -> None:
    """Issue 42 (the cluster's cost): one round trip for several messages while the bucket is more than half full, exact near its end."""

    async def body() -> None:
        from redis.asyncio import Redis

        first, second = Redis.from_url(redis_url, decode_responses=True), Redis.from_url(redis_url, decode_responses=True)
        settings = Settings(max_messages_per_minute=40, max_messages_per_minute_per_address=1000)
        one, two = SharedBudgets(first, settings), SharedBudgets(second, settings)
        clara = Identity(3, None, "Clara")
        bucket = "stich:budget:session:3"
        try:
            assert await one.allow(clara, "3.3.3.3")
            left = float(await first.hget(bucket, "tokens"))  # type: ignore[misc]
            assert left == 40 - SharedBudgets.CHUNK  # one took a chunk (40 -> 32)...
            for _ in range(SharedBudgets.CHUNK - 1):
                assert await one.allow(clara, "3.3.3.3")
            assert float(await first.hget(bucket, "tokens")) < left + 1  # type: ignore[misc]  # ...and spent it without asking again
            allowed = SharedBudgets.CHUNK + sum([await (one if i % 2 else two).allow(clara, "3.3.3.3") for i in range(80)])
            assert 40 <= allowed <= 41  # every token the bucket held (and at most one refilled meanwhile), on both workers together
        finally:
            await first.aclose()
            await second.aclose()

    run_async(body())


def test_messages_arriving_together_ask_redis_once_and_a_large_budget_gives_a_larger_chunk(redis_url: str) -> None:
    """Issue 42 (the cluster's cost): concurrent messages of one address waited for one refill, instead of each asking Redis."""

    async def body() -> None:
        from redis.asyncio import Redis

        client = Redis.from_url(redis_url, decode_responses=True)
        budgets = SharedBudgets(client, Settings(max_messages_per_minute=240, max_messages_per_minute_per_address=1200))
        assert budgets.chunk(240) == SharedBudgets.CHUNK and budgets.chunk(1200) == 40 and budgets.chunk(10**9) == SharedBudgets.MAX_CHUNK
        calls = 0
        take = budgets._take

        async def counted(*args: object, **kwargs: object) -> object:
            nonlocal calls
            calls += 1
            return await take(*args, **kwargs)

        budgets._take = counted  # type: ignore[assignment]
        people = [Identity(100 + n, None, f"G{n}") for n in range(8)]
        try:
            allowed = await asyncio.gather(*(budgets.allow(person, "4.4.4.4") for person in people for _ in range(8)))
            assert all(allowed) and len(allowed) == 64
            # each client's bucket once, the address's at most twice (chunks of 40 for 64 messages)
            assert calls <= 10, calls  # before: one call per message (64), each answer replacing the last
            address = float(await client.hget("stich:budget:address:4.4.4.4", "tokens"))  # type: ignore[misc]
            assert 1200 - 80 <= address <= 1200 - 40  # one or two chunks of 40 taken, never one per message
        finally:
            await client.aclose()

    run_async(body())
