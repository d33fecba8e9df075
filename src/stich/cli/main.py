"""The ``stich`` command line: ``rules``, ``sim``, ``arena``, ``replay``, ``play``, ``serve``, ``verify``, ``analyse`` and ``tournament``.

Every user mistake (an unknown game, preset, option, bot or file, a value of
the wrong type) ends in exactly one line on stderr, ``stich: error: ...``,
saying what is wrong and what is allowed, and exit status 2, never in a
traceback.  ``docs/cli.md`` is a tour of the commands.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from stich import __version__
from stich.bots.registry import bot_names
from stich.cli.common import UsageError, build_game, parse_bot_list
from stich.core.extras import is_missing_extra, missing_extra
from stich.core.game import Game
from stich.core.records import MAX_SEED
from stich.errors import StichError

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors become :class:`UsageError` (one line, exit 2) instead of usage text."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def _int_type(name: str, minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, not {text!r}") from None
        if value < minimum or (maximum is not None and value > maximum):
            limit = f"{minimum}..{maximum}" if maximum is not None else f"at least {minimum}"
            raise argparse.ArgumentTypeError(f"must be {limit}, not {value}")
        return value

    convert.__name__ = name
    return convert


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", help="game name (see: stich rules)")
    parser.add_argument("--preset", metavar="P", help="named rules preset (see: stich rules GAME)")
    parser.add_argument(
        "--option", metavar="KEY=VALUE", action="extend", nargs="+", default=[], help="override one rules option (repeatable)"
    )
    parser.add_argument("--players", metavar="N", type=_int_type("--players", 1), help="players at the table (the option players)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``stich`` with its subcommands."""
    parser = _Parser(prog="stich", description="Doppelkopf and Tarock-family card games: rules, simulation, replay and play.")
    parser.add_argument("--version", action="version", version=f"stich {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    rules = sub.add_parser("rules", help="list the games, or show a game's presets and options")
    rules.add_argument("game", metavar="GAME", nargs="?", help="a game name; without it, list the games")
    rules.add_argument("--json", action="store_true", help="print JSON")
    rules.set_defaults(func=cmd_rules)

    sim = sub.add_parser("sim", help="play many deals between bots and write records")
    _add_game_arguments(sim)
    sim.add_argument("--games", metavar="N", type=_int_type("--games", 1), required=True, help="deals to play (lists with --lists)")
    sim.add_argument("--seed", metavar="S", type=_int_type("--seed", 0, MAX_SEED), required=True, help="seed of the whole run")
    sim.add_argument(
        "--bots",
        metavar="B[,B...]",
        default="random",
        help=f"one bot spec (name or name:key=value,...) for all seats or one per seat ({', '.join(bot_names())})",
    )
    sim.add_argument("--lists", action="store_true", help="play N whole lists (sessions with score sheets) instead of N deals")
    sim.add_argument("--out", metavar="FILE.jsonl", help="write one record per line")
    sim.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    sim.set_defaults(func=cmd_sim)

    from stich.cli.arena import add_arena_parser  # the arena's own arguments and command live in stich.cli.arena

    add_arena_parser(sub, _add_game_arguments, _int_type, MAX_SEED)

    replay = sub.add_parser("replay", help="re-check every record of a JSON Lines file")
    replay.add_argument("file", metavar="FILE.jsonl")
    replay.add_argument("--json", action="store_true", help="print the report as one JSON object")
    replay.set_defaults(func=cmd_replay)

    play = sub.add_parser("play", help="play at the terminal against bots")
    _add_game_arguments(play)
    play.add_argument("--seat", metavar="K", type=_int_type("--seat", 0), default=0, help="your seat (default 0)")
    play.add_argument(
        "--bots",
        metavar="B[,B...]",
        default="heuristic",
        help="one bot spec (name or name:key=value,...) for all other seats or one per seat",
    )
    play.add_argument("--seed", metavar="S", type=_int_type("--seed", 0, MAX_SEED), help="seed (default: a random one, printed)")
    play.add_argument("--german-suits", action="store_true", help="show German suit letters instead of symbols")
    play.add_argument("--lang", choices=("en", "de"), default="en", help="language of the terminal: en (English, default) or de (Deutsch)")
    length = play.add_mutually_exclusive_group()
    length.add_argument("--deals", metavar="N", type=_int_type("--deals", 1), help="play N deals (default 1)")
    length.add_argument("--list", action="store_true", help="play a whole list (a round with its compulsory solos)")
    play.set_defaults(func=cmd_play)

    from stich.cli.serve import add_serve_parser  # the web server's arguments and command live in stich.cli.serve

    add_serve_parser(sub)

    from stich.cli.verify import add_verify_parser  # fair-deal verification lives in stich.cli.verify

    add_verify_parser(sub)

    from stich.cli.analyse import add_analyse_parser  # the analysis of a finished deal lives in stich.cli.analyse

    add_analyse_parser(sub, _int_type, MAX_SEED)
    from stich.cli.tournament import add_tournament_parser  # duplicate tournaments' standings live in stich.cli.tournament

    add_tournament_parser(sub)
    return parser


def _game(args: argparse.Namespace) -> Game:
    return build_game(args.game, args.preset, args.option, args.players)


def cmd_rules(args: argparse.Namespace) -> int:
    """``stich rules [GAME] [--json]``."""
    from stich.cli.rules import run_rules

    return run_rules(args.game, args.json)


def cmd_sim(args: argparse.Namespace) -> int:
    """``stich sim GAME ... --games N --seed S``."""
    from stich.cli.sim import print_summary, run_sim

    game = _game(args)
    bots = parse_bot_list(args.bots, game.num_seats)
    data = run_sim(game, games=args.games, seed=args.seed, bots=bots, lists=args.lists, out=args.out)
    print_summary(data, args.json)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """``stich replay FILE.jsonl [--json]``."""
    from stich.cli.replay import run_replay

    return run_replay(args.file, args.json)


def cmd_play(args: argparse.Namespace) -> int:
    """``stich play GAME ...``."""
    from stich.cli.play import run_play

    game = _game(args)
    n = game.num_seats
    if args.seat >= n:
        raise UsageError(f"--seat must be a seat 0..{n - 1} of {game}, not {args.seat}")
    others = parse_bot_list(args.bots, n - 1, "other seat")
    bots = list(others)
    bots.insert(args.seat, "human")
    deals = None if args.list else (args.deals or 1)
    return run_play(game, seat=args.seat, bots=bots, seed=args.seed, deals=deals, german_suits=args.german_suits, lang=args.lang)


def _error(message: str) -> int:
    text = " ".join(message.split())
    print(f"stich: error: {text}", file=sys.stderr)
    return EXIT_USAGE


def _os_error_text(exc: OSError) -> str:
    if exc.filename is not None:
        return f"cannot open {exc.filename!s}: {exc.strerror or exc}"
    return str(exc.strerror or exc)


def _silence_stdout() -> None:
    """After the reader of a pipe went away (``stich ... | head``), send the rest of stdout nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
        if args.command is None:
            parser.print_help()
            return 0
        status: int = args.func(args)
        return status
    except StichError as exc:
        return _error(str(exc))
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except ModuleNotFoundError as exc:
        if not is_missing_extra(exc):
            raise
        return _error(str(exc) if "stich[" in str(exc) else str(missing_extra(exc.name or "", "this command")))
    except OSError as exc:
        return _error(_os_error_text(exc))
    except KeyboardInterrupt:
        print("stich: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
