"""Run the stich web server for the browser tests: ``python serve_for_tests.py --port N --database URL --grace S``.

``stich serve`` exposes only the settings a person running a server needs
(host, port, database, grace period); the browser tests also need a short
pause after bot moves, so that a whole deal with bots finishes in seconds.
This launcher builds the same app with those settings and serves it exactly
as ``stich serve`` does (:func:`stich.web.server.make_server`).
"""

from __future__ import annotations

import argparse

from stich.web.app import create_app
from stich.web.server import make_server
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
    # Every browser of the test session connects from 127.0.0.1, and each test opens tables of its own that keep
    # running: the per-address caps, meant for many people behind one address at most, would refuse the later tests.
    settings = Settings(
        database_url=args.database,
        grace_seconds=args.grace,
        analysis_budget=2,
        bot_delay_seconds=args.bot_delay,
        next_deal_delay_seconds=0.5,
        presence_grace_seconds=1.0,
        min_limit_seconds=1,
        max_tables_per_address=100_000,
        max_search_tables_per_address=100_000,
        max_sockets_per_address=100_000,
        max_messages_per_minute_per_address=1_000_000,
        accounts_per_address=100_000,
        # A registration counts as a login attempt (per address, and under one name key for all sign-ups); the tests register many.
        login_max_failures=100_000,
        login_max_failures_per_address=100_000,
        chat_burst_per_address=100_000,
        chat_per_minute_per_address=1_000_000,
        # The lobby's write limits (issue 44): per address, and per client too, since a browser without a session counts as its address.
        action_limit=100_000,
        action_limit_per_address=100_000,
        online_ping_limit=100_000,
        online_ping_limit_per_address=100_000,
        # The tests set their own turn clocks; a public table's default clock (120 s) would add its deadline to every wait.
        public_turn_seconds=None,
        # Hints (issue 43) from a small fixed search, with room for the first one's start-up on a busy machine.
        hint_bot="pimc:worlds=4",
        hint_timeout_seconds=120.0,
    )
    make_server(create_app(settings), settings, args.host, args.port, log_level="warning").run()


if __name__ == "__main__":
    main()
