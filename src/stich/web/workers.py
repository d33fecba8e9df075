"""``stich serve --workers N``: N worker processes sharing one listening socket, one PostgreSQL and one Redis.

The parent binds the port, starts the workers (fresh interpreters, as
uvicorn's own ``--workers`` does) and hands each the socket; the kernel
spreads the connections over them.  With ``--worker-ports BASE`` worker
*i* also listens on port BASE + *i* and advertises it, so that a table's
sockets are sent to the worker that runs the table instead of relayed
(decision 0068).  A worker that dies is started again
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
from collections.abc import Sequence
from dataclasses import replace
from multiprocessing.process import BaseProcess
from types import FrameType

from stich.web.settings import HOST_PLACEHOLDER, Settings

log = logging.getLogger("stich.web.cluster")

RESTART_PAUSE = 1.0
"""Seconds between a worker's death and its replacement (a worker that dies at once must not spin)."""


def serve_worker(settings: Settings, host: str, port: int, sock: socket.socket | None = None, own: socket.socket | None = None) -> None:
    """Run one worker's server until it is stopped (on ``sock`` when given, else binding ``host:port`` itself; also on ``own``)."""
    from stich.web.app import create_app
    from stich.web.server import make_server

    server = make_server(create_app(settings), settings, host, port)
    server.run(sockets=[s for s in (sock, own) if s is not None] or None)


def worker_settings(settings: Settings, port: int, advertised: str) -> Settings:
    """A worker's settings with its own port (``stich serve --worker-ports``): it advertises ``advertised`` (decision 0068).

    Its own port accepts sockets from the pages of the shared ``port``
    (``http://{host}:PORT``, on whatever name the browser used): the table
    page is loaded there and then sent here.
    """
    shared_pages = f"http://{HOST_PLACEHOLDER}:{port}"
    return replace(settings, worker_url=advertised, allowed_origins=(*settings.allowed_origins, shared_pages))


def run_workers(
    settings: Settings, host: str, port: int, sock: socket.socket, workers: int, own: Sequence[tuple[socket.socket, str]] = ()
) -> None:
    """Serve on ``sock`` with ``workers`` worker processes until SIGINT or SIGTERM, replacing any that dies.

    ``own``: per worker, a socket of its own and the address it advertises
    there (``--worker-ports``); a replaced worker gets its predecessor's.
    """
    context = multiprocessing.get_context("spawn")
    stopping = False

    def start(index: int) -> BaseProcess:
        args: tuple[object, ...] = (settings, host, port, sock)
        if own:
            args = (worker_settings(settings, port, own[index][1]), host, port, sock, own[index][0])
        process = context.Process(target=serve_worker, args=args, name="stich-worker")
        process.start()
        return process

    def stop(_signal: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    previous = {number: signal.signal(number, stop) for number in (signal.SIGINT, signal.SIGTERM)}
    processes = [start(index) for index in range(workers)]
    try:
        while not stopping:
            time.sleep(0.2)
            for index, process in enumerate(processes):
                if not process.is_alive() and not stopping:
                    log.warning("worker %s ended (exit code %s); starting another", process.pid, process.exitcode)
                    time.sleep(RESTART_PAUSE)
                    processes[index] = start(index)
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
