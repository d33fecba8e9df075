"""Run the stich web server for the browser tests: ``python serve_for_tests.py --port N --database URL --grace S``.

``stich serve`` exposes only the settings a person running a server needs
(host, port, database, grace period); the browser tests also need a short
pause after bot moves, so that a whole deal with bots finishes in seconds.
This launcher builds the same app with those settings and serves it with
uvicorn exactly as ``stich serve`` does (same WebSocket frame limit).
"""

from __future__ import annotations

import argparse

import uvicorn

from stich.cli.serve import MAX_WS_BYTES
from stich.web.app import create_app
from stich.web.settings import Settings


def main() -> None:
    """Parse the arguments and serve until terminated."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", required=True, help="SQLAlchemy URL of a fresh database")
    parser.add_argument("--grace", type=float, default=2.0, help="seconds before a stand-in bot plays for an absent player")
    parser.add_argument("--bot-delay", type=float, default=0.05, help="pause after each automatic move")
    args = parser.parse_args()
    settings = Settings(database_url=args.database, grace_seconds=args.grace, bot_delay_seconds=args.bot_delay, next_deal_delay_seconds=0.5)
    uvicorn.run(create_app(settings), host=args.host, port=args.port, ws_max_size=MAX_WS_BYTES, log_level="warning")


if __name__ == "__main__":
    main()
