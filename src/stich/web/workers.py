"""``stich serve --workers N``: N worker processes sharing one listening socket, one PostgreSQL and one Redis.

The parent binds the port, starts the workers (fresh interpreters, as
uvicorn's own ``--workers`` does) and hands each the socket; the kernel
spreads the connections over them.  A worker that dies is started again
(its tables move to the others once their leases lapse, see
:mod:`stich.web.cluster.manager`); SIGINT or SIGTERM stops them all, each
giving its tables' leases up on the way.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import socket
import time
from multiprocessing.process import BaseProcess
from types import FrameType

from stich.web.settings import Settings

log = logging.getLogger("stich.web.cluster")

RESTART_PAUSE = 1.0
"""Seconds between a worker's death and its replacement (a worker that dies at once must not spin)."""


def serve_worker(settings: Settings, host: str, port: int, sock: socket.socket | None = None) -> None:
    """Run one worker's server until it is stopped (on ``sock`` when given, else binding ``host:port`` itself)."""
    from stich.web.app import create_app
    from stich.web.server import make_server

    server = make_server(create_app(settings), settings, host, port)
    server.run(sockets=[sock] if sock is not None else None)


def run_workers(settings: Settings, host: str, port: int, sock: socket.socket, workers: int) -> None:
    """Serve on ``sock`` with ``workers`` worker processes until SIGINT or SIGTERM, replacing any that dies."""
    context = multiprocessing.get_context("spawn")
    stopping = False

    def start() -> BaseProcess:
        process = context.Process(target=serve_worker, args=(settings, host, port, sock), name="stich-worker")
        process.start()
        return process

    def stop(_signal: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    previous = {number: signal.signal(number, stop) for number in (signal.SIGINT, signal.SIGTERM)}
    processes = [start() for _ in range(workers)]
    try:
        while not stopping:
            time.sleep(0.2)
            for index, process in enumerate(processes):
                if not process.is_alive() and not stopping:
                    log.warning("worker %s ended (exit code %s); starting another", process.pid, process.exitcode)
                    time.sleep(RESTART_PAUSE)
                    processes[index] = start()
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()  # SIGTERM: uvicorn shuts the worker down cleanly
        for process in processes:
            process.join(timeout=15)
            if process.is_alive():
                process.kill()
        for number, handler in previous.items():
            signal.signal(number, handler)
