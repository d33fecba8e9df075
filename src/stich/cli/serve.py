"""``stich serve``: run the web server (FastAPI + uvicorn) with its database.

The server and its dependencies are imported only when the command runs, so
the other commands stay quick to start.
"""

from __future__ import annotations

import argparse
import errno
import socket
from collections.abc import Callable
from typing import Any

from stich.cli.common import UsageError
from stich.core.extras import MissingExtra, missing_extra, needs_extra


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, not {text!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be 1..65535, not {value}")
    return value


def add_serve_parser(sub: argparse._SubParsersAction[Any], func: Callable[[argparse.Namespace], int] | None = None) -> None:
    """Register ``stich serve`` on the subcommand parsers of ``stich``."""
    serve = sub.add_parser("serve", help="run the web server (lobby, live tables, records)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    serve.add_argument(
        "--database",
        metavar="URL",
        help="SQLAlchemy database URL (default: a SQLite file in your data directory; e.g. postgresql+psycopg://user@host/stich)",
    )
    serve.add_argument(
        "--grace", metavar="SECONDS", type=float, default=60.0, help="how long a player may be away before a bot plays for them"
    )
    serve.add_argument(
        "--workers",
        metavar="N",
        type=_workers,
        default=1,
        help="worker processes sharing the port (more than 1 needs --redis and a PostgreSQL --database; docs/web.md)",
    )
    serve.add_argument(
        "--redis",
        metavar="URL",
        help="Redis shared by the workers of this and other machines (redis://host:6379/0); without it one process runs every table",
    )
    serve.add_argument(
        "--worker-ports",
        metavar="BASE",
        type=_port,
        help="worker i also listens on port BASE+i and table sockets are sent to the worker running the table (with --redis; docs/web.md)",
    )
    serve.add_argument(
        "--worker-url",
        metavar="PATTERN",
        help="what each worker advertises for its own port instead of http://{host}:PORT, e.g. https://{host}/w{port} behind a proxy",
    )
    serve.set_defaults(func=func or cmd_serve)


def _workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, not {text!r}") from None
    if not 1 <= value <= 64:
        raise argparse.ArgumentTypeError(f"must be 1..64, not {value}")
    return value


def _redacted(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def cmd_serve(args: argparse.Namespace) -> int:
    """Check the options, then serve until interrupted."""
    return run_serve(
        args.host,
        args.port,
        args.database,
        grace=args.grace,
        workers=args.workers,
        redis=args.redis,
        worker_ports=args.worker_ports,
        worker_url=args.worker_url,
    )


def run_serve(
    host: str,
    port: int,
    database: str | None,
    *,
    grace: float = 60.0,
    workers: int = 1,
    redis: str | None = None,
    worker_ports: int | None = None,
    worker_url: str | None = None,
) -> int:
    """Serve the app on ``host:port`` with the database at ``database`` (or the default SQLite file)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    if grace < 0:
        raise UsageError(f"--grace must not be negative, not {grace}")
    if database is not None:
        try:
            make_url(database).get_dialect().import_dbapi()
        except ArgumentError:
            raise UsageError(
                f"--database: not a database URL: {database!r} (e.g. sqlite:///stich.db or postgresql+psycopg://...)"
            ) from None
        except ModuleNotFoundError as exc:  # the URL's driver (psycopg: the 'postgresql' extra)
            raise UsageError(str(missing_extra(exc.name or "", f"--database {make_url(database).drivername}"))) from None

    if redis is not None and not redis.startswith(("redis://", "rediss://", "unix://")):
        raise UsageError(f"--redis: not a Redis URL: {redis!r} (e.g. redis://127.0.0.1:6379/0)")
    if workers > 1 and redis is None:
        raise UsageError("--workers above 1 needs --redis URL: the workers share their tables' leases and messages through Redis")
    if redis is not None and (database is None or make_url(database).get_backend_name() == "sqlite"):
        raise UsageError("--redis (several workers) needs a database server all workers share: --database postgresql+psycopg://...")
    if redis is not None:
        try:
            needs_extra("redis", "--redis")
        except MissingExtra as exc:
            raise UsageError(str(exc)) from None

    own_urls = _worker_urls(port, workers, redis, worker_ports, worker_url)

    from stich.web.app import create_app
    from stich.web.server import make_server
    from stich.web.settings import Settings

    settings = Settings(database_url=database or "", grace_seconds=grace, redis_url=redis or "")
    url = settings.resolved_database_url()
    sock = listen_socket(host, port)  # before anything says "serving": a busy port fails here
    own = [(listen_socket(host, own_port), advertised) for own_port, advertised in own_urls]
    shared = f"; {workers} worker{'s' if workers > 1 else ''} sharing {_redacted(redis)}" if redis else ""
    print(f"stich: serving on http://{host}:{port}/ (database {_redacted(url)}{shared}; API documentation at /docs)")
    if own:
        print(f"stich: each worker's own port for the sockets of its tables: {', '.join(str(p) for p, _ in own_urls)}")
    if workers > 1 or own:
        from stich.web.workers import run_workers

        run_workers(settings, host, port, sock, workers, own)
        return 0
    make_server(create_app(settings), settings, host, port).run(sockets=[sock])
    return 0


def _worker_urls(port: int, workers: int, redis: str | None, base: int | None, pattern: str | None) -> list[tuple[int, str]]:
    """Each worker's own port and the address it advertises there (``--worker-ports``, ``--worker-url``; decision 0068)."""
    from stich.web.settings import HOST_PLACEHOLDER, worker_url_problem

    if base is None:
        if pattern is not None:
            raise UsageError("--worker-url needs --worker-ports BASE")
        return []
    if redis is None:
        raise UsageError("--worker-ports needs --redis: a worker's own port serves the tables it runs among several")
    ports = [base + index for index in range(workers)]
    if ports[-1] > 65535 or port in ports:
        raise UsageError(f"--worker-ports {base}: ports {ports[0]}..{ports[-1]} must be free of --port {port} and at most 65535")
    found = []
    for own in ports:
        advertised = (pattern or f"http://{HOST_PLACEHOLDER}:{{port}}").replace("{port}", str(own))
        problem = worker_url_problem(advertised)
        if problem is not None:
            raise UsageError(f"--worker-url: {problem}")
        found.append((own, advertised))
    return found


def listen_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, or a :class:`UsageError` that says why not (a busy port, an unknown host)."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family)
    except OSError as exc:
        why = "the port is in use (is another server running?)" if exc.errno == errno.EADDRINUSE else exc.strerror or str(exc)
        raise UsageError(f"cannot listen on {host}:{port}: {why}") from None
