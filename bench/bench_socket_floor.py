"""The floor under bench_action_cost.py: what the web stack alone costs per action, with no game, database or session in it.

A table's action, as the server handles it, is one small frame received from
the player who moves and one ``state`` frame sent to each of the table's four
sockets (compressed per socket with permessage-deflate, written by each
socket's own writer task).  This benchmark serves exactly that with the same
stack (FastAPI's WebSocket route under uvicorn in a subprocess, the default
WebSocket implementation and deflate, an asyncio queue and writer task per
socket, as ``stich.web.runtime.connection.Connection`` has) and nothing else: the frames
sent are real Doppelkopf ``state`` messages, encoded before the clients
connect, and the received frame is only parsed as JSON.  The server's CPU
time per action is then the part of bench_action_cost.py's figure that no
change inside stich can remove without changing the stack (or sending
fewer, smaller frames).

    PYTHONPATH=src .venv/bin/python bench/bench_socket_floor.py --tables 16 --actions 100 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench_action_cost import cpu_seconds, free_port
from websockets.asyncio.client import connect

SERVER = """
import asyncio, json, random, sys
import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
import stich.games  # registers the games
from stich.core.registry import make_game
from stich.web.runtime.broadcast import encode

game = make_game("doppelkopf")
texts = []
for seed in range(8):
    state, rng = game.new_state(seed=seed), random.Random(seed)
    while not state.is_terminal():
        for seat in range(4):
            texts.append(encode({"type": "state", "seat": seat, "step": len(state.history), "view": state.observation(seat).to_json()}))
        state.apply(rng.choice(state.legal_actions()))
app = FastAPI()
tables = {}

async def writer(websocket, queue):
    while (text := await queue.get()) is not None:
        await websocket.send_text(text)

@app.websocket("/ws/{table}/{seat}")
async def table_socket(websocket: WebSocket, table: str, seat: int) -> None:
    await websocket.accept()
    queue = asyncio.Queue()
    sockets = tables.setdefault(table, {"queues": {}, "next": 0})
    sockets["queues"][seat] = queue
    task = asyncio.create_task(writer(websocket, queue))
    try:
        while True:
            json.loads(await websocket.receive_text())
            at = sockets["next"]
            sockets["next"] = at + 4
            for index, other in sockets["queues"].items():
                other.put_nowait(texts[(at + index) % len(texts)])
    except WebSocketDisconnect:
        pass
    finally:
        queue.put_nowait(None)
        await task

uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""
"""The server: the same stack as ``stich serve`` (FastAPI, uvicorn's defaults: its WebSocket implementation, permessage-deflate)."""


async def player(url: str, seat: int, actions: int, started: asyncio.Event) -> int:
    """Seat ``seat`` of a table: acts on every fourth message (its turn), ``actions`` times in all; returns the actions it sent."""
    sent = 0
    async with connect(url, max_size=2**22) as ws:
        await started.wait()
        if seat == 0:
            await ws.send('{"type":"action","action":"play H10"}')
            sent += 1
        received = 0
        while sent < actions:
            await ws.recv()
            received += 1
            if received % 4 == seat:
                await ws.send('{"type":"action","action":"play H10"}')
                sent += 1
    return sent


async def one_round(tables: int, actions: int) -> dict[str, Any]:
    """Start a server, play ``tables`` tables of ``actions`` actions per seat, and return its CPU per action."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", SERVER, str(port)], env=os.environ.copy())
    try:
        for _ in range(600):
            try:
                _reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        started = asyncio.Event()
        tasks = [
            asyncio.create_task(player(f"ws://127.0.0.1:{port}/ws/t{table}/{seat}", seat, actions, started))
            for table in range(tables)
            for seat in range(4)
        ]
        await asyncio.sleep(1.0)  # every socket accepted before the clock starts
        before, loop_before, clock = cpu_seconds(process.pid), cpu_seconds(process.pid, process.pid), time.monotonic()
        started.set()
        done = sum(await asyncio.gather(*tasks))
        cpu, loop = cpu_seconds(process.pid) - before, cpu_seconds(process.pid, process.pid) - loop_before
        return {
            "actions": done,
            "wall_s": round(time.monotonic() - clock, 2),
            "cpu_ms_per_action": round(cpu / done * 1000, 3),
            "event_loop_thread_ms_per_action": round(loop / done * 1000, 3),
        }
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)


def main() -> None:
    """Parse the options, run the rounds, print the report as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=16, help="tables of four sockets at once (default 16)")
    parser.add_argument("--actions", type=int, default=100, help="actions per seat (default 100)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each on a fresh server (default 3)")
    args = parser.parse_args()
    rounds = []
    for index in range(args.rounds):
        result = asyncio.run(one_round(args.tables, args.actions))
        print(f"round {index + 1}: {result}", file=sys.stderr)
        rounds.append(result)
    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "tables": args.tables,
        "rounds": rounds,
        "median_cpu_ms_per_action": statistics.median(r["cpu_ms_per_action"] for r in rounds),
        "median_event_loop_thread_ms_per_action": statistics.median(r["event_loop_thread_ms_per_action"] for r in rounds),
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "load_average_1m": round(os.getloadavg()[0], 2)},
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
