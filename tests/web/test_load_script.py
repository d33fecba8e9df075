"""The load test script (bench/load_platform.py) in a tiny run: two tables, one deal each, against a real server (the app under uvicorn).

Only the report's shape and its consistency are checked (every action sent
was confirmed, the percentiles are ordered); speed is not: figures belong in
bench/README.md, not in a test.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .helpers import run_async
from .postgres import PostgresServer

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "load_platform.py"


def _module() -> ModuleType:
    """The script as a module (bench/ is not a package); registered in ``sys.modules`` as its dataclasses need."""
    loaded = sys.modules.get("load_platform")
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location("load_platform", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_platform"] = module
    spec.loader.exec_module(module)
    return module


def test_a_tiny_run_reports_every_field(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    command = [sys.executable, str(SCRIPT), "--tables", "2", "--deals", "1", "--timeout", "240", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert json.loads(done.stdout) == report
    assert report["game"] == "doppelkopf" and report["tables"] == 2 and report["clients"] == 8
    assert report["tables_started"] == report["tables_finished"] == 2 and not report["timed_out"]
    assert report["deals_finished"] >= 2  # a thrown-in deal is dealt again and counts too
    assert report["errors"] == {"total": 0, "by_kind": {}, "samples": []}
    assert report["actions_sent"] == report["actions_confirmed"] > 0
    assert report["actions_per_second"] == pytest.approx(report["actions_confirmed"] / report["elapsed_s"], rel=0.01)
    latency = report["latency_ms"]
    assert latency["count"] == report["actions_confirmed"]
    assert 0 < latency["p50"] <= latency["p90"] <= latency["p99"] <= latency["max"]
    assert report["workers"] == 1 and report["kill"] is None and report["pace_s"] is None
    assert report["server_cpu_ms_per_action"] == pytest.approx(report["server_cpu_s"] * 1000 / report["actions_confirmed"], rel=0.01)
    assert report["services_cpu_s"] is None and report["total_cpu_ms_per_action"] is None  # one process: no PostgreSQL, no Redis
    steady = report["steady_cpu_ms_per_action"]  # counted from the moment both tables had started: some of the actions, not more
    assert steady is not None and 0 < steady["actions"] <= report["actions_confirmed"] and steady["servers"] >= 0
    assert steady["services"] is None and steady["total"] is None
    memory = report["server_rss_mb"]
    assert 0 < memory["idle"] <= memory["peak"]


def test_two_workers_at_human_pace_with_one_killed(tmp_path: Path, postgres_server: PostgresServer, redis_url: str) -> None:
    """The several-worker target on the test's PostgreSQL and Redis, a quick pace, and worker 0 killed: every deal still ends."""
    out = tmp_path / "load.json"
    command = [sys.executable, str(SCRIPT), "--tables", "2", "--workers", "2", "--pace", "0.05,0.1", "--kill-after", "1"]
    command += ["--database", postgres_server.new_database(), "--redis", redis_url, "--lease", "1", "--timeout", "240", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["workers"] == 2 and report["pace_s"] == [0.05, 0.1]
    assert report["tables_finished"] == 2 and report["deals_finished"] >= 2 and not report["timed_out"]
    assert report["errors"]["total"] == 0, report["errors"]
    kill = report["kill"]
    assert kill["seats_resumed"] >= 1 and kill["resume_s"]["max"] is not None


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--tables", "0"], "--tables"),
        (["--tables", "501"], "--tables"),
        (["--deals", "0"], "--deals"),
        (["--seconds", "0"], "--seconds"),
        (["--timeout", "99999"], "--timeout"),
        (["--url", "http://192.0.2.1:8000"], "--allow-remote"),
        (["--url", "ftp://127.0.0.1"], "--url"),
        (["--game", "skat"], "--game"),
        (["--pace", "4,2"], "--pace"),
        (["--pace", "fast"], "--pace"),
        (["--workers", "0"], "--workers"),
        (["--kill-after", "5"], "--kill-after"),
        (["--workers", "2", "--kill-after", "5", "--seconds", "30"], "--kill-after"),
    ],
)
def test_out_of_bounds_options_are_refused(args: list[str], named: str, capsys: pytest.CaptureFixture[str]) -> None:
    module = _module()
    with pytest.raises(SystemExit) as stopped:
        module.parse_args(args)
    assert stopped.value.code == 2
    assert named in capsys.readouterr().err


def test_percentiles_use_the_nearest_rank() -> None:
    percentile = _module().percentile
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0 and percentile(values, 90) == 90.0 and percentile(values, 99) == 99.0
    assert percentile(values, 100) == 100.0 and percentile([3.0], 99) == 3.0 and percentile([], 50) is None
    assert percentile([5.0, 1.0, 3.0], 50) == 3.0


def test_the_script_is_bounded_by_default() -> None:
    args = _module().parse_args([])
    assert args.tables == 20 and args.deals == 1 and args.timeout == 300.0 and args.url is None and args.seconds is None


def test_run_from_a_checkout_without_the_script_on_path() -> None:
    """The server is started by the script's own Python, from the same environment: the app and ``stich serve``'s server import there."""
    imports = _module().SERVER.rsplit("settings = Settings(", 1)[0]  # the server's imports, without starting it
    check = imports + "print(callable(create_app), callable(make_server), Settings.__name__)"
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.split() == ["True", "True", "Settings"], done.stderr[-2000:]


def test_the_load_limits_let_one_address_hold_the_run() -> None:
    from stich.web.settings import Settings

    limits = _module().load_limits(200, 4)
    settings = Settings(**limits)
    assert settings.max_tables_per_address >= 200 and settings.max_sockets_per_address >= 800 and settings.max_sockets_per_table >= 4


def test_a_socket_closed_with_1012_reconnects_and_counts_as_sent_away_not_as_an_error() -> None:
    """bench/load_platform.py's seat, like the browser's socket: a 1012 close (the table moved) is answered by reconnecting."""
    import asyncio
    import random

    import httpx
    from websockets.asyncio.server import ServerConnection, serve

    module = _module()
    connections: list[int] = []

    async def server(ws: ServerConnection) -> None:
        connections.append(1)
        if len(connections) == 1:
            await ws.close(1012, "the table moved")  # the first socket is sent away
        else:
            await ws.send(json.dumps({"type": "table_end", "table": "t"}))
            await ws.wait_closed()

    async def main() -> Any:
        stats = module.Stats()
        async with serve(server, "127.0.0.1", 0) as listening, httpx.AsyncClient() as http:
            port = listening.sockets[0].getsockname()[1]
            seat = module.SeatClient(http, stats, random.Random(1))
            await asyncio.wait_for(seat.play(f"ws://127.0.0.1:{port}/ws/tables/t", time.monotonic() + 30), timeout=30)
        return stats

    stats = run_async(main())
    assert len(connections) == 2  # reconnected once, then the table ended
    assert stats.sent_away == 1 and not stats.errors
