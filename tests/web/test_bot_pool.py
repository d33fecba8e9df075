"""Bots think in their own processes (issue 30, fault 1): apart from the event loop, the database and password hashing.

The bots registered here (tests/web/fake_bots.py, by path) think in the
server's bot worker processes and report through files; see that module.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.bots.registry import BOTS
from stich.core.records import replay_deal
from stich.core.registry import make_game
from stich.web.deals.fairness import Commitment
from stich.web.protocol import card_faces_in
from stich.web.runtime.bot_pool import BotJob, BotPool, _Fair, _Waiting, decide
from stich.web.runtime.seats import bot_seed

from .helpers import Reader, call, connect, create_table, make_settings, new_guest, play_as_seat, run_async, running, svc, wait_for

FAKE_BOTS = Path(__file__).with_name("fake_bots.py")
ROOMY = {"max_search_tables_per_person": 50, "max_search_tables_per_address": 50, "max_tables_per_person": 50, "max_tables_per_address": 50}
"""Caps out of the way, for tests about the pool itself."""


@pytest.fixture
def bot_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Register the fake bots for one test; yields the folder they report to (the gate is opened at the end)."""
    folder = tmp_path / "bots"
    folder.mkdir()
    monkeypatch.setenv("STICH_TEST_BOTS", str(folder))
    for name, attr in (("gate", "GateBot"), ("pid", "PidBot"), ("crash", "CrashBot"), ("raise", "RaiseBot")):
        monkeypatch.setitem(BOTS, name, f"{FAKE_BOTS}:{attr}")
    try:
        yield folder
    finally:
        (folder / "open").touch()


def finished_deals(client: TestClient, table_id: str) -> list[dict[str, Any]]:
    deals: list[dict[str, Any]] = call(client, "GET", f"/api/tables/{table_id}/deals").json()["deals"]
    return [deal for deal in deals if deal["status"] == "finished"]


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended and been reaped."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_search_bots_think_in_worker_processes_that_end_with_the_app(db_url: str, bot_files: Path) -> None:
    with running(make_settings(db_url, **ROOMY)) as client:
        token = new_guest(client)
        table = create_table(client, token, game="doppelkopf", seat=None, bots="pid")
        wait_for(lambda: finished_deals(client, table["id"]), timeout=60, what="the pid bots' deal")
        thinkers = {int(line) for line in (bot_files / "pids").read_text().split()}
        workers = svc(client).tables.bots.worker_pids()  # type: ignore[attr-defined]
        assert thinkers and os.getpid() not in thinkers  # not one decision was made in the server process
        assert thinkers <= workers
    assert all(gone(pid) for pid in thinkers)  # no worker outlives the app


def test_blocked_bots_hold_up_no_database_call_nor_another_table(db_url: str, bot_files: Path) -> None:
    """More thinking bots than the server's default thread pool has threads: logins, tables and play go on.

    Before the pool, bots thought in ``asyncio.to_thread``: eight bots stuck
    in thought held every thread of the default pool, and the database calls
    of everybody else waited behind them.
    """
    with running(make_settings(db_url, **ROOMY)) as client:
        token = new_guest(client, "Ada")
        for _ in range(8):
            create_table(client, token, game="doppelkopf", seat=None, bots="gate")
        wait_for(lambda: (bot_files / "entered").exists(), timeout=60, what="a gate bot to start thinking")
        other = new_guest(client, "Bea")
        table = create_table(client, other, game="tapp_tarock", seat=0, bots="random")
        with connect(client, table["id"], other) as ws:
            end = play_as_seat(Reader(ws))
            assert end["type"] == "deal_end"
        assert not (bot_files / "timed_out").exists()


def test_a_dying_worker_is_replaced_and_the_table_plays_on(db_url: str, bot_files: Path) -> None:
    with running(make_settings(db_url)) as client:
        token = new_guest(client)
        table = create_table(client, token, game="doppelkopf", seat=None, bots="crash")
        deal = wait_for(lambda: finished_deals(client, table["id"]), timeout=90, what="the deal of the crashing bots")[0]
        record = call(client, "GET", deal["record_url"]).json()
        assert replay_deal(record).is_terminal() and record["meta"]["seats"] == ["crash"] * 4
        assert (bot_files / "crashed").exists() and svc(client).tables.bots.restarts == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(("bot", "restarts"), [("crash", 2), ("raise", 0)])
def test_a_bot_that_keeps_failing_gives_way_to_the_heuristic(bot_files: Path, bot: str, restarts: int) -> None:
    """A worker that dies is replaced and asked once more; a bot that raises is not asked again; then the heuristic decides."""
    (bot_files / "crash_always").touch()
    game = make_game("doppelkopf")
    state = game.new_state(seed=8, dealer=0)
    seat = state.current_player()
    job = BotJob("t", bot, game.canonical, seat, 99, state.observation(seat))

    async def in_pool() -> tuple[int, int]:
        pool = BotPool(1, retries=1)
        try:
            return await pool.choose(job), pool.restarts
        finally:
            await pool.close()

    assert run_async(in_pool()) == (decide(job, "heuristic"), restarts)


def test_a_bot_gets_only_its_seats_observation() -> None:
    """What goes to a worker: spec, game, seat, seed and the seat's observation; no card the seat may not know."""
    game = make_game("doppelkopf")
    state = game.new_state(seed=11, dealer=0)
    for _ in range(9):  # into the play: other hands are hidden, some cards are on the table
        state.apply(state.observation(state.current_player()).legal_actions[0].code)
    seat = state.current_player()
    job = BotJob("t", "pimc:level=1", game.canonical, seat, 5, state.observation(seat))
    assert set(vars(job)) == {"table", "spec", "game", "seat", "seed", "observation"}
    shipped = pickle.loads(pickle.dumps(job))
    knowable = {card.text for card in game.deck.cards(state.knowable_cards(seat))}
    assert card_faces_in(game, shipped.observation.to_json()) <= knowable
    assert shipped.observation == state.observation(seat)


def test_a_decision_depends_only_on_the_job_and_its_seed_only_on_the_moment() -> None:
    game = make_game("doppelkopf")
    state = game.new_state(seed=3, dealer=1)
    seat = state.current_player()
    fair = Commitment(123456789, "ab" * 32, "digest")
    seed = bot_seed(fair, seat, len(state.history))
    assert seed == bot_seed(fair, seat, 0) and 0 <= seed < 2**64
    assert len({seed, bot_seed(fair, seat, 1), bot_seed(fair, (seat + 1) % 4, 0), bot_seed(Commitment(1, fair.salt, ""), seat, 0)}) == 4
    job = BotJob("t", "pimc:level=1", game.canonical, seat, seed, state.observation(seat))

    async def in_pool() -> int:
        pool = BotPool(1)
        try:
            return await pool.choose(job)
        finally:
            await pool.close()

    assert run_async(in_pool()) == decide(job) == decide(job)


def test_a_light_table_goes_before_tables_that_have_thought_longer() -> None:
    """Fair share: whoever has used the least thinking time goes next, and a newcomer starts at the least time so far."""
    game = make_game("doppelkopf")
    state = game.new_state(seed=1, dealer=0)
    observation = state.observation(state.current_player())

    def item(order: int, table: str) -> _Waiting:
        job = BotJob(table, "pimc:level=5", game.canonical, 0, 0, observation)
        return _Waiting(order, job, asyncio.Future(loop=loop))

    loop = asyncio.new_event_loop()
    try:
        fair = _Fair()
        for order in range(20):  # twenty heavy tables have each thought once (6 s) and ask again
            fair.add(item(order, f"heavy{order}"))
        for _ in range(20):
            chosen = fair.next()
            assert chosen is not None
            fair.charge(chosen.job.table, 6.0)
        for order in range(20):
            fair.add(item(20 + order, f"heavy{order}"))
        fair.add(item(40, "light"))  # a light table starts behind all of them
        order = []
        while (chosen := fair.next()) is not None:
            order.append(chosen.job.table)
            fair.charge(chosen.job.table, 0.05 if chosen.job.table == "light" else 6.0)
            if chosen.job.table == "light" and order.count("light") < 5:
                fair.add(item(100 + len(order), "light"))  # its next decision
        assert order[:5] == ["light"] * 5  # served the moment a process is free, decision after decision
        assert order[5:] == [f"heavy{n}" for n in range(20)]  # the heavy tables keep their own order
    finally:
        loop.close()


class _HeldExecutor:
    """A stand-in for the process pool: records what it is given and finishes a decision when the test says so."""

    def __init__(self) -> None:
        self.running: list[tuple[str, Any]] = []

    def submit(self, _work: Any, job: BotJob) -> Any:
        from concurrent.futures import Future

        future: Future[int] = Future()
        self.running.append((job.table, future))
        return future


def test_a_light_table_gets_a_process_while_heavy_searches_fill_the_others() -> None:
    """Issue 42, fault 7: four level-5 tables held both processes, and a guest's level-1 table waited for a 6 s search each decision."""
    game = make_game("doppelkopf")
    state = game.new_state(seed=1, dealer=0)
    observation = state.observation(state.current_player())

    async def main() -> list[str]:
        pool = BotPool(2)
        held = _HeldExecutor()
        pool._pool = lambda: held  # type: ignore[assignment, method-assign, return-value]
        for table in ("heavy0", "heavy1", "heavy2", "heavy3"):
            pool._fair.last[table] = 6.0  # they have searched for 6 s before
        pool._fair.last["light"] = 0.05
        pool._light_asked = time.monotonic()  # the light table's previous decision, a moment ago
        jobs = [
            asyncio.ensure_future(pool.choose(BotJob(table, "pimc:level=5", game.canonical, 0, 0, observation)))
            for table in ("heavy0", "heavy1", "heavy2", "heavy3")
        ]
        await asyncio.sleep(0)
        asked = asyncio.ensure_future(pool.choose(BotJob("light", "pimc:level=1", game.canonical, 0, 0, observation)))
        await asyncio.sleep(0)
        running = [table for table, _ in held.running]
        for _, future in list(held.running):
            future.set_result(observation.legal_actions[0].code)
        await asyncio.sleep(0.05)
        assert asked.done() or "light" not in running
        for job in jobs:
            job.cancel()
        return running

    running = run_async(main())
    assert running == ["heavy0", "light"]  # was ["heavy0", "heavy1"]: the light table waited for a search to end
