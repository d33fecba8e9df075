"""Several workers on one PostgreSQL and one Redis (issue 33; docs/decisions/0033-several-workers.md), with real servers.

Two worker processes (the app under uvicorn, as ``stich serve --redis``
runs it) share a fresh PostgreSQL database and an empty Redis.  A guest
creates a table on worker A (so A owns it), a second guest joins and seats
bots through worker B (calls forwarded to A), and each plays from a socket
on its own worker.  Checked: the deal is played to its end; every ``state``
a socket received is its own seat's view with cards from its own dealt hand
only; everything published to worker B's inbox is for B's client's seat;
after A is killed (SIGKILL) in the middle of the deal, B takes the table over
from the stored actions, both players reconnect and finish the deal, and the
record holds every action confirmed before the kill, once, where it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .cluster_helpers import SRC, Player, Worker, fetch_record, hand_within, play_until_deal_end, start_two_workers
from .helpers import run_async
from .postgres import PostgresServer, free_port


class InboxSpy:
    """Everything published on any worker's inbox channel (``stich:inbox:*``), by channel."""

    def __init__(self, redis_url: str) -> None:
        from redis.asyncio import Redis

        self.redis = Redis.from_url(redis_url, decode_responses=True)
        self.pubsub = self.redis.pubsub()
        self.seen: list[tuple[str, dict[str, Any]]] = []
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.pubsub.psubscribe("stich:inbox:*")
        self.task = asyncio.create_task(self._collect())

    async def _collect(self) -> None:
        while True:
            item = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            if item is not None and item["type"] == "pmessage":
                published = json.loads(item["data"])
                for body in published["b"]:  # one step's messages for that worker (stich.web.cluster.remote.Outbox)
                    self.seen.append((item["channel"], body))

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        await self.pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.redis.aclose()


async def _table_across_workers(a: Worker, b: Worker, deals: int = 1) -> tuple[str, Player, Player]:
    """A Doppelkopf table of ``deals`` created on A by its first player (seat 0); the second joins at seat 1 and seats bots through B."""
    first, second = Player(0), Player(1)
    await first.become_guest(a.base)
    await second.become_guest(b.base)
    created = await first.call(a.base, "POST", "/api/tables", {"game": "doppelkopf", "deals": deals, "seat": 0})
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    joined = await second.call(b.base, "POST", f"/api/tables/{table_id}/join", {"seat": 1})
    assert joined.status_code == 200, joined.text  # forwarded to A, which runs the table
    assert joined.json()["your_seat"] == 1
    taken = await second.call(b.base, "POST", f"/api/tables/{table_id}/join", {"seat": 0})
    assert taken.status_code == 409 and taken.json()["field"] == "seat"  # A's refusal, as A words it
    bots = await second.call(b.base, "POST", f"/api/tables/{table_id}/bots", {"bot": "heuristic"})
    assert bots.status_code == 200, bots.text
    assert bots.json()["status"] == "playing"
    return table_id, first, second


def _check_views(player: Player, dealt: list[list[str]]) -> None:
    """Every ``state`` the player's socket got is its own seat's view, with cards from its own dealt hand only."""
    states = player.states()
    assert states
    for message in states:
        assert message["seat"] == player.seat and message["view"]["seat"] == player.seat
        assert hand_within(message["view"]["hand"], dealt[player.seat]), (message["view"]["hand"], dealt[player.seat])


def test_two_workers_play_a_deal_and_each_socket_gets_only_its_own_seat(
    postgres_server: PostgresServer, redis_url: str, tmp_path: Path
) -> None:
    run_async(_two_workers(postgres_server.new_database(), redis_url, tmp_path))


async def _watch(worker: Worker, table_id: str, seen: list[dict[str, Any]]) -> str:
    """A spectator without a cookie on ``worker``: reads five ``state`` messages, then leaves."""
    from websockets.asyncio.client import connect

    async with connect(f"{worker.ws_base}/ws/tables/{table_id}", open_timeout=30) as ws:
        while sum(message["type"] == "state" for message in seen) < 5:
            seen.append(json.loads(await asyncio.wait_for(ws.recv(), timeout=60)))
    return "watched"


async def _two_workers(db_url: str, redis_url: str, tmp_path: Path) -> None:
    a, b = await start_two_workers(tmp_path, db_url, redis_url)
    spy = InboxSpy(redis_url)
    try:
        await spy.start()
        table_id, first, second = await _table_across_workers(a, b)
        listed = await second.call(b.base, "GET", "/api/tables")
        assert table_id in [entry["id"] for entry in listed.json()["tables"]]  # B's lobby lists A's table
        summary = await second.call(b.base, "GET", f"/api/tables/{table_id}")
        assert summary.json()["your_seat"] == 1
        watched: list[dict[str, Any]] = []
        ends = await asyncio.gather(first.play(a.ws_base, table_id), second.play(b.ws_base, table_id), _watch(b, table_id, watched))
        assert ends[:2] == ["deal_end", "deal_end"]
        deal_id = first.states()[-1]["deal"]
        record = await fetch_record(first, b.base, deal_id)
        for player in (first, second):
            _check_views(player, record["deal"])
            for _deal, step, action in player.sent:  # every action each sent was played, at its step, for its seat
                assert record["actions"][step] == [player.seat, action]
        spectated = [message for message in watched if message["type"] == "state"]
        assert spectated and all(message["seat"] is None and "hand" not in message["view"] for message in spectated)
        await asyncio.sleep(0.2)
        channels = {channel for channel, _body in spy.seen}
        assert len(channels) == 1  # only B has clients of a table another worker runs
        states = [body["m"] for _channel, body in spy.seen if "m" in body and body["m"]["type"] == "state"]
        assert states and all(message["seat"] in (second.seat, None) for message in states)  # B's player's view, B's spectator's
        assert all(hand_within(message["view"]["hand"], record["deal"][second.seat]) for message in states if message["seat"] is not None)
        assert all("hand" not in message["view"] for message in states if message["seat"] is None)
    finally:
        await spy.stop()
        a.stop()
        b.stop()


def test_a_killed_owner_s_table_moves_to_the_other_worker_with_nothing_lost(
    postgres_server: PostgresServer, redis_url: str, tmp_path: Path
) -> None:
    run_async(_failover(postgres_server.new_database(), redis_url, tmp_path))


async def _failover(db_url: str, redis_url: str, tmp_path: Path) -> None:
    from redis.asyncio import Redis

    a, b = await start_two_workers(tmp_path, db_url, redis_url)
    redis = Redis.from_url(redis_url, decode_responses=True)
    try:
        table_id, first, second = await _table_across_workers(a, b, deals=2)  # the table goes on after the deal, still leased
        owner = await redis.get(f"stich:lease:{table_id}")
        assert owner is not None and owner.split(":")[1] == str(a.process.pid if a.process else None)
        ends = await asyncio.gather(first.play(a.ws_base, table_id, until_step=12), second.play(b.ws_base, table_id, until_step=12))
        assert ends == ["step", "step"]
        deal_id = second.states()[-1]["deal"]
        before = max(message["step"] for message in first.states() + second.states())
        killed = time.monotonic()
        a.kill()
        deadline = time.monotonic() + 120
        await asyncio.gather(play_until_deal_end(first, b, table_id, deadline), play_until_deal_end(second, b, table_id, deadline))
        owner = await redis.get(f"stich:lease:{table_id}") or ""
        resumed = [m for m in second.states() if m["step"] >= before]
        print(f"the moved deal ended {time.monotonic() - killed:.1f} s after the kill")
        assert resumed
        record = await fetch_record(first, b.base, deal_id)
        assert record["result"] is not None
        for player in (first, second):
            _check_views(player, record["deal"])
            for _deal, step, action in player.sent:  # confirmed or not, an action sent is in the record once, where it was sent
                if step < len(record["actions"]) and record["actions"][step] == [player.seat, action]:
                    continue
                assert step >= before, f"seat {player.seat}'s action at step {step}, confirmed before the kill, is lost"
        for message in first.states() + second.states():  # what anybody saw is what the record says happened
            step = message["step"]
            assert step <= len(record["actions"])
            if message["view"]["events"]:
                assert message["last"] == message["view"]["events"][-1]
        history: dict[tuple[int, int], set[str]] = {}
        for player in (first, second):
            for message in player.states():
                history.setdefault((player.seat, message["step"]), set()).add(json.dumps(message["last"], sort_keys=True))
        for seen in history.values():  # each step's last event, as each seat saw it, is one event before and after the move
            assert len(seen) == 1
        assert owner and owner.split(":")[1] == str(b.process.pid if b.process else None)
    finally:
        await redis.aclose()
        a.stop()
        b.stop()


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def _cmdline(pid: int) -> str:
    """The command line of ``pid``, or ``""`` if it has just ended (a worker may die between the listing and the read)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
    except OSError:
        return ""


def test_serve_workers_runs_two_processes_on_one_port_and_replaces_a_dead_one(
    postgres_server: PostgresServer, redis_url: str, tmp_path: Path
) -> None:
    db_url = postgres_server.new_database()
    port = free_port()
    own = free_port()
    while free_port_pair(own) is None or port in (own, own + 1):
        own = free_port()
    command = [sys.executable, "-m", "stich.cli.main", "serve", "--port", str(port), "--workers", "2", "--redis", redis_url]
    command += ["--worker-ports", str(own)]
    log = (tmp_path / "serve.log").open("wb")
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    server = subprocess.Popen([*command, "--database", db_url], stdout=log, stderr=subprocess.STDOUT, env=env)
    try:

        def serving_workers() -> list[int]:
            workers = [pid for pid in _children(server.pid) if "spawn_main" in _cmdline(pid)]
            return workers if len(workers) == 2 else []

        async def healthy(count: int) -> set[int]:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
                deadline = time.monotonic() + 90
                while time.monotonic() < deadline:
                    with contextlib.suppress(httpx.HTTPError):
                        answers = [(await http.get("/api/health")).status_code for _ in range(count)]
                        if answers == [200] * count and serving_workers():
                            return set(serving_workers())
                    await asyncio.sleep(0.2)
            raise AssertionError((tmp_path / "serve.log").read_text(errors="replace")[-3000:])

        first = run_async(healthy(4))
        assert len(first) == 2, first
        victim = sorted(first)[0]
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and (victim in serving_workers() or len(serving_workers()) != 2):
            time.sleep(0.2)
        second = run_async(healthy(4))
        assert len(second) == 2 and victim not in second  # a new worker took the dead one's place
        run_async(_sent_to_the_owner_s_own_port(port, own))  # the new worker listens on the dead one's own port
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=60) == 0
        assert not [pid for pid in second if Path(f"/proc/{pid}").exists()]
    finally:
        if server.poll() is None:  # the test failed: SIGKILL would orphan the workers, which would heartbeat on into the next test's Redis
            orphans = _children(server.pid)
            server.kill()
            server.wait()
            for pid in orphans:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        log.close()


def free_port_pair(port: int) -> int | None:
    """``port`` if it and the next port are free (``--worker-ports``: worker i on port + i), else ``None``."""
    with contextlib.ExitStack() as stack:
        try:
            for candidate in (port, port + 1):
                stack.enter_context(socket.create_server(("127.0.0.1", candidate)))
        except OSError:
            return None
    return port


async def _sent_to_the_owner_s_own_port(port: int, own: int) -> None:
    """``--worker-ports``: the worker that does not run a table sends its socket to the one that does, and the page's origin is let in."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    ada = Player(0)
    await ada.become_guest(f"http://127.0.0.1:{port}")
    created = await ada.call(f"http://127.0.0.1:{own}", "POST", "/api/tables", {"game": "doppelkopf", "seat": 0})
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    headers = {"Cookie": f"stich_session={ada.token}", "Origin": f"http://127.0.0.1:{port}"}  # the table page came from the shared port
    async with connect(f"ws://127.0.0.1:{own + 1}/ws/tables/{table}?follow=1", additional_headers=headers) as ws:
        assert json.loads(await ws.recv()) == {"type": "moved", "url": f"ws://127.0.0.1:{own}"}  # its creator's worker runs it
    async with connect(f"ws://127.0.0.1:{own}/ws/tables/{table}?follow=1", additional_headers=headers) as ws:
        assert json.loads(await ws.recv())["type"] == "welcome"
    foreign = {**headers, "Origin": f"http://127.0.0.1:{own + 1}"}  # a page of another port is no page of this server
    with pytest.raises(InvalidStatus) as refused:
        async with connect(f"ws://127.0.0.1:{own}/ws/tables/{table}", additional_headers=foreign):
            pass
    assert refused.value.response.status_code == 403


def test_a_search_table_counts_on_every_worker_and_through_its_owner_s_kill(
    postgres_server: PostgresServer, redis_url: str, tmp_path: Path
) -> None:
    run_async(_caps_through_a_kill(postgres_server.new_database(), redis_url, tmp_path))


async def _caps_through_a_kill(db_url: str, redis_url: str, tmp_path: Path) -> None:
    """Shared table caps (stich.web.cluster.shared_caps): one search table per person, on A, refused on B before and after A's kill."""
    from redis.asyncio import Redis

    changes = {"max_search_tables_per_person": 1, "max_search_tables_per_address": 5}
    a, b = await start_two_workers(tmp_path, db_url, redis_url, **changes)
    redis = Redis.from_url(redis_url, decode_responses=True)
    try:
        ada = Player(0)
        await ada.become_guest(a.base)
        created = await ada.call(a.base, "POST", "/api/tables", {"game": "doppelkopf", "seat": 0})
        table_id = created.json()["id"]
        seated = await ada.call(a.base, "POST", f"/api/tables/{table_id}/bots", {"bot": "pimc:level=1", "seats": [1]})
        assert seated.status_code == 200, seated.text  # seats 2 and 3 stay empty: the table does not start, nothing searches

        async def refused_on_b() -> None:
            response = await ada.call(b.base, "POST", "/api/tables", {"game": "doppelkopf", "bots": "pimc:level=1"})
            assert response.status_code == 429 and response.json()["field"] == "bots", response.text
            assert "one person" in response.json()["message"]

        await refused_on_b()
        a.kill()
        deadline = time.monotonic() + 60
        while (await redis.get(f"stich:lease:{table_id}") or "").split(":")[1:2] != [str(b.process.pid if b.process else None)]:
            assert time.monotonic() < deadline, "B did not take the killed worker's table over"
            await asyncio.sleep(0.1)
        await refused_on_b()  # the table still counts, now that B runs it; nothing counts twice
        counted = [key for key in await redis.keys("stich:quota:search:*") if table_id in await redis.smembers(key)]
        assert len(counted) == 2  # Ada's set and her address's, as when A counted it
    finally:
        await redis.aclose()
        a.stop()
        b.stop()


def test_a_stopped_owner_s_pending_action_is_refused_after_the_takeover_and_nothing_is_lost(
    postgres_server: PostgresServer, redis_url: str, tmp_path: Path
) -> None:
    run_async(_stalled_owner(postgres_server.new_database(), redis_url, tmp_path))


async def _stalled_owner(db_url: str, redis_url: str, tmp_path: Path) -> None:
    """Decision 0033, "Fencing a stalled owner": A is stopped (SIGSTOP) past its lease with seat 0's action waiting in its socket."""
    from redis.asyncio import Redis
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from stich.web.storage.db import Database

    a, b = await start_two_workers(tmp_path, db_url, redis_url)
    redis = Redis.from_url(redis_url, decode_responses=True)
    db = Database(db_url)
    assert a.process is not None and b.process is not None
    try:
        table_id, first, second = await _table_across_workers(a, b, deals=2)
        ends = await asyncio.gather(first.play(a.ws_base, table_id, until_step=8), second.play(b.ws_base, table_id, until_step=8))
        assert ends == ["step", "step"]
        headers = {"Cookie": f"stich_session={first.token}"}
        seat_1 = asyncio.create_task(second.play(b.ws_base, table_id))  # plays on at B until A's table moves there (1012)
        async with connect(f"{a.ws_base}/ws/tables/{table_id}", additional_headers=headers, open_timeout=30) as ws:
            while True:  # up to seat 0's next turn, at A
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
                if message.get("type") == "state" and message["view"]["to_move"] == 0 and message["view"]["legal_actions"]:
                    break
            deal_id, step, action = message["deal"], message["step"], message["view"]["legal_actions"][0]
            a.process.send_signal(signal.SIGSTOP)
            try:
                await ws.send(json.dumps({"type": "action", "action": action, "deal": deal_id, "step": step}))  # waits in A's socket
                deadline = time.monotonic() + 60
                while (await redis.get(f"stich:lease:{table_id}") or "").split(":")[1:2] != [str(b.process.pid)]:
                    assert time.monotonic() < deadline, "B did not take the stopped worker's table over"
                    await asyncio.sleep(0.1)
                stored = await asyncio.to_thread(db.deals_of, table_id, with_actions=True)
                assert len(stored[-1].actions) == step
            finally:
                a.process.send_signal(signal.SIGCONT)
            code = None
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), timeout=30)
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd else None
            assert code == 1012  # A let the table go: reconnect, to B
        assert await asyncio.wait_for(seat_1, timeout=30) == "closed" and second.closes[-1] == 1012
        await asyncio.sleep(0.5)
        stored = await asyncio.to_thread(db.deals_of, table_id, with_actions=True)
        assert stored[-1].id == deal_id and len(stored[-1].actions) == step  # the stale owner's action was not stored
        deadline = time.monotonic() + 120
        await asyncio.gather(play_until_deal_end(first, b, table_id, deadline), play_until_deal_end(second, b, table_id, deadline))
        record = await fetch_record(first, b.base, deal_id)
        assert record["result"] is not None  # the deal played to its end at B
        assert record["actions"][step][0] == 0  # seat 0's turn, played once, at B
        for player in (first, second):
            _check_views(player, record["deal"])
        history: dict[tuple[int, int], set[str]] = {}
        for player in (first, second):
            for seen in player.states():
                history.setdefault((player.seat, seen["step"]), set()).add(json.dumps(seen["last"], sort_keys=True))
        assert all(len(seen) == 1 for seen in history.values())  # each step happened once, as everybody saw it
        assert "was taken over" in a.log.read_text(errors="replace") or "lost the lease" in a.log.read_text(errors="replace")
    finally:
        db.dispose()
        await redis.aclose()
        a.stop()
        b.stop()


def test_the_open_socket_cap_holds_across_workers_and_a_dead_worker_s_sockets_lapse(
    postgres_server: PostgresServer, redis_url: str, tmp_path: Path
) -> None:
    run_async(_socket_cap(postgres_server.new_database(), redis_url, tmp_path))


async def _first_message(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
    return message


async def _socket_cap(db_url: str, redis_url: str, tmp_path: Path) -> None:
    """Decision 0033, "Shared limits": two sockets per session, one on each worker; a third is refused on either, until one worker dies."""
    from redis.asyncio import Redis
    from websockets.asyncio.client import connect

    changes = {"max_sockets_per_client": 2}
    a, b = await start_two_workers(tmp_path, db_url, redis_url, **changes)
    redis = Redis.from_url(redis_url, decode_responses=True)
    try:
        ada = Player(0)
        await ada.become_guest(b.base)
        created = await ada.call(b.base, "POST", "/api/tables", {"game": "doppelkopf", "seat": 0})
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]  # B runs it; a socket on A is relayed
        headers = {"Cookie": f"stich_session={ada.token}"}

        def socket(worker: Worker) -> Any:
            return connect(f"{worker.ws_base}/ws/tables/{table_id}", additional_headers=headers, open_timeout=30)

        async def refused(worker: Worker) -> None:
            async with socket(worker) as ws:
                message = await _first_message(ws)
                assert message["type"] == "error" and "this session has 2 open, at most 2" in message["message"], message
                await ws.wait_closed()
                assert ws.close_code == 4429

        async with socket(a) as on_a, socket(b) as on_b:
            assert (await _first_message(on_a))["type"] != "error" and (await _first_message(on_b))["type"] != "error"
            await refused(a)
            await refused(b)  # one socket on each worker: the session's cap of 2 is reached on both
            a.kill()  # A's socket is never closed cleanly: its count lapses with A's heartbeat
            deadline = time.monotonic() + 30
            while len(await redis.keys("stich:worker:*")) != 1:  # B's heartbeat only
                assert time.monotonic() < deadline, "A's heartbeat did not lapse"
                await asyncio.sleep(0.1)
            async with socket(b) as again:
                assert (await _first_message(again))["type"] != "error"  # B's socket and this one: 2
                await refused(b)
    finally:
        await redis.aclose()
        a.stop()
        b.stop()
