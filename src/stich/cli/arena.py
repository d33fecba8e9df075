"""``stich arena``: a candidate bot against reference bots on duplicate deals, with statistics and ratings.

A sibling of ``stich sim`` with the same conventions: ``GAME`` with
``--preset``/``--option``/``--players``, a required ``--seed`` (deal ``i``
comes from ``derive_seed(S, i)``, dealer ``i % seats``), a progress bar only
when stderr is a terminal, ``--json`` for a one-object summary, and every
mistake as one ``stich: error:`` line.  The method and the formulas are in
``docs/arena.md``; the match itself is :func:`stich.arena.duplicate.run_duplicate`.

This module is imported when the parser is built, so it imports the arena
itself (and matplotlib, via the report) only when the command runs.
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from stich import __version__

if TYPE_CHECKING:
    from stich.arena.duplicate import PlayedDeals
    from stich.arena.journal import Journal, MatchKey

GameArguments = Callable[[argparse.ArgumentParser], None]
IntType = Callable[[str, int, int | None], Callable[[str], int]]


def add_arena_parser(sub: argparse._SubParsersAction[Any], add_game_arguments: GameArguments, int_type: IntType, max_seed: int) -> None:
    """Add the ``arena`` subcommand (``main`` passes its game arguments and integer type, so all commands read alike)."""
    arena = sub.add_parser(
        "arena",
        help="rate a candidate bot against reference bots on duplicate deals",
        description="Play every deal once per seat with the candidate (first of --bots) in that seat and a reference in the others, "
        "and once with the reference everywhere; report the mean score difference per deal, win rates and Elo ratings.",
    )
    add_game_arguments(arena)
    arena.add_argument(
        "--bots",
        metavar="A,B[,...]",
        required=True,
        help="the candidate, then one or more references; options as name:key=value,... (e.g. pimc:time=0.5)",
    )
    arena.add_argument(
        "--register",
        metavar="NAME=TARGET",
        action="append",
        default=[],
        help="make a bot factory usable in --bots as NAME: TARGET is package.module:factory or path/to/file.py:factory, "
        "called as factory(game, seat, seed, **options) (repeatable)",
    )
    arena.add_argument("--deals", metavar="N", type=int_type("--deals", 1, None), required=True, help="deals to play")
    arena.add_argument("--seed", metavar="S", type=int_type("--seed", 0, max_seed), required=True, help="seed of the whole match")
    where = arena.add_mutually_exclusive_group()
    where.add_argument(
        "--workers", metavar="W", type=int_type("--workers", 1, None), help="worker processes (default: the number of CPUs; 1 = in-process)"
    )
    where.add_argument(
        "--ray",
        metavar="ADDRESS",
        nargs="?",
        const="",
        help="play the deals on a Ray cluster (pip install 'stich[ray]'): at ADDRESS (e.g. HEAD:6379), or without one on a new "
        "local Ray instance; same results as --workers",
    )
    arena.add_argument(
        "--reuse-baseline",
        action="store_true",
        help="in each rotation the reference seats replay the baseline's actions until the candidate first plays differently "
        "(takes the noise of time-budgeted references before that out of the comparison, and their time)",
    )
    arena.add_argument(
        "--out", metavar="DIR", help="write results.json, deals.csv, records.jsonl, plots and the match's journal.jsonl into DIR"
    )
    arena.add_argument(
        "--resume",
        action="store_true",
        help="go on with the stopped match in --out DIR (give the same command again, with --resume): play the deals it lacks, "
        "then report the whole match; a larger --deals extends a finished match",
    )
    arena.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    arena.set_defaults(func=cmd_arena)


def command_line(args: argparse.Namespace, workers: int) -> str:
    """The ``stich arena`` command that repeats this match (every setting explicit)."""
    argv = ["stich", "arena", args.game]
    if args.preset is not None:
        argv += ["--preset", args.preset]
    for item in args.option:
        argv += ["--option", item]
    if args.players is not None:
        argv += ["--players", str(args.players)]
    for item in args.register:
        argv += ["--register", item]
    argv += ["--bots", args.bots, "--deals", str(args.deals), "--seed", str(args.seed)]
    argv += ["--workers", str(workers)] if args.ray is None else ["--ray", *([args.ray] if args.ray else [])]
    if args.reuse_baseline:
        argv.append("--reuse-baseline")
    if args.out is not None:
        argv += ["--out", args.out]
    return shlex.join(argv)


def _progress(total: int, done: int = 0) -> tuple[AbstractContextManager[Any], Callable[[int], None]]:
    """A rich progress bar on stderr when it is a terminal, else nothing; returns (context, advance by k deals).

    ``done``: deals an earlier run of the match played (the bar starts there).

    The bar refreshes only when deals finish (no refresh thread), so no thread
    is running when worker processes are started.
    """
    if not sys.stderr.isatty():
        return nullcontext(), lambda k: None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    progress = Progress(
        TextColumn("deals"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        auto_refresh=False,
    )
    task = progress.add_task("deals", total=total, completed=done)

    def advance(k: int) -> None:
        progress.advance(task, k)
        progress.refresh()

    return progress, advance


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """While a journalled match runs, SIGTERM (``timeout``, ``kill``) stops it as Ctrl-C does.

    The journal is whole after every chunk either way; this way the workers
    are ended at once and the command that goes on is printed.  Outside the
    main thread (no signal handlers there) nothing changes.
    """

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _journal_to_resume(path: Path, key: MatchKey, deals: int) -> Journal:
    """The journal of the stopped match to go on with; a usage error if there is none or it is another match."""
    from stich.arena.journal import read_journal
    from stich.cli.common import UsageError

    if not path.exists():
        raise UsageError(f"--resume: {path} does not exist; there is no stopped match in {path.parent} (run without --resume to start one)")
    journal = read_journal(path)
    differences = journal.key.differences(key)
    if differences:
        raise UsageError(f"--resume: {path} is the journal of another match (journal vs this command: {'; '.join(differences)})")
    if deals < journal.done:
        raise UsageError(
            f"--deals {deals}: the match in {path.parent} has played {journal.done} deals already; give --deals {journal.done} or more"
        )
    return journal


def _refuse_to_overwrite(path: Path) -> None:
    """A new match must not wipe out a stopped one that could go on (a finished, empty or unreadable journal is replaced)."""
    from stich.arena.journal import JournalError, read_journal
    from stich.cli.common import UsageError

    if not path.exists():
        return
    try:
        journal = read_journal(path)
    except JournalError:
        return
    if not journal.finished and journal.done > 0:
        raise UsageError(
            f"--out {path.parent} holds a stopped match ({journal.done} of {journal.target} deals played): "
            f"go on with it by adding --resume, or remove {path} to start again"
        )


def cmd_arena(args: argparse.Namespace) -> int:
    """``stich arena GAME [--register NAME=TARGET] --bots A,B[,...] --deals N --seed S [--workers W | --ray [ADDRESS]] ...``.

    The rest is ``[--reuse-baseline] [--out DIR [--resume]] [--json]``; :func:`add_arena_parser` says what each option does.
    With ``--out`` the match keeps a journal (:mod:`stich.arena.journal`), so
    that a run stopped by Ctrl-C or killed can go on with ``--resume``.
    """
    from stich.arena.duplicate import ArenaError, parse_bot_specs, run_duplicate
    from stich.arena.journal import JOURNAL_FILE, JournalWriter, MatchKey
    from stich.arena.report import RECORDS_FILE, RecordWriter, prepare_out_dir, print_summary, summarize, write_outputs
    from stich.bots.registry import register_bot
    from stich.cli.common import UsageError, build_game

    game = build_game(args.game, args.preset, args.option, args.players)
    registered = []
    for item in args.register:
        name, eq, target = item.partition("=")
        if not eq or not name.strip() or not target.strip():
            raise UsageError(f"--register {item!r}: expected NAME=TARGET, e.g. lead=variants.py:make_bot")
        register_bot(name.strip(), target.strip())
        registered.append((name.strip(), target.strip()))
    specs = parse_bot_specs(args.bots)
    if len(specs) < 2:
        raise UsageError(f"--bots names {len(specs)} bot; give the candidate and at least one reference, e.g. --bots heuristic,random")
    if args.resume and args.out is None:
        raise UsageError("--resume needs --out DIR, the folder of the stopped match")
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    command = command_line(args, workers)
    key = MatchKey(game.canonical, args.seed, specs[0].text, tuple(spec.text for spec in specs[1:]), args.reuse_baseline, tuple(registered))
    out = prepare_out_dir(args.out) if args.out is not None else None
    resume = None
    if out is not None and args.resume:
        resume = _journal_to_resume(out / JOURNAL_FILE, key, args.deals)
        older = sorted(set(resume.versions) - {__version__})
        if older:
            print(f"stich: warning: earlier runs of this match used stich {', '.join(older)}, this is {__version__}", file=sys.stderr)
    elif out is not None:
        _refuse_to_overwrite(out / JOURNAL_FILE)
    runner = None
    if args.ray is not None:
        from stich.arena.ray_runner import RayRunner

        runner = RayRunner(args.ray or None)
        workers = runner.workers
    writer = journal = None
    if out is not None:
        writer = RecordWriter(out / RECORDS_FILE, keep=resume.records_bytes if resume is not None else None)
        journal = JournalWriter(out / JOURNAL_FILE, key, deals=args.deals, workers=workers, command=command, resume=resume)
    context, advance = _progress(args.deals, resume.done if resume is not None else 0)

    def note(played: PlayedDeals) -> None:
        if journal is not None and writer is not None:
            journal.chunk(played, writer.size())

    try:
        with (
            runner if runner is not None else nullcontext(),
            writer if writer is not None else nullcontext(),
            journal if journal is not None else nullcontext(),
            _terminate_as_interrupt() if journal is not None else nullcontext(),
            context,
        ):
            result = run_duplicate(
                game,
                specs[0],
                specs[1:],
                args.deals,
                args.seed,
                workers,
                progress=advance,
                record_sink=writer,
                reuse_baseline=args.reuse_baseline,
                done=resume.played if resume is not None else None,
                on_chunk=note if journal is not None else None,
                runner=runner,
            )
    except KeyboardInterrupt:
        if journal is None:
            raise
        print(f"stich: stopped after {journal.stop} of {args.deals} deals; to go on: {command} --resume", file=sys.stderr)
        return 130
    except ArenaError as exc:
        if journal is None or journal.stop == 0:
            raise
        raise ArenaError(f"{exc} (the {journal.stop} deals before are kept: {command} --resume goes on from there)") from exc
    data = summarize(result, command=command)
    data["out"] = str(out) if out is not None else None
    if out is not None:
        full = summarize(result, command=command, include_deals=True)
        full["out"] = data["out"]
        for warning in write_outputs(out, result, full):
            print(f"stich: warning: {warning}", file=sys.stderr)
    print_summary(data, args.json)
    return 0
