"""``stich arena --resume``: a stopped match goes on from its journal and ends as the same match played in one go."""

from __future__ import annotations

import json
import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from stich.arena import duplicate
from stich.arena.duplicate import PlayedDeals, run_duplicate
from stich.arena.journal import JOURNAL_FILE, JournalError, read_journal
from stich.bots import registry
from stich.core.registry import make_game
from stich.errors import OptionError

from .helpers import assert_one_error_line, run_cli

MATCH = ("doppelkopf", "--bots", "heuristic,random", "--seed", "3", "--workers", "1")
"""With one worker and 8 deals the chunks hold two deals each, so a journal has four chunk lines."""


def arena(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    status, out, err = run_cli(capsys, "arena", *argv, "--json")
    assert status == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def same_files(one: Path, two: Path) -> None:
    """The two folders hold the same match: the same deals, scores and records, byte for byte."""
    for name in ("deals.csv", "records.jsonl"):
        assert (one / name).read_bytes() == (two / name).read_bytes(), name
    first, second = (json.loads((folder / "results.json").read_text(encoding="utf-8")) for folder in (one, two))
    for key in ("deals", "games_played", "pairings", "ratings", "deal_outcomes"):
        assert first[key] == second[key], key
    assert {k: v["decisions"] for k, v in first["timing"].items()} == {k: v["decisions"] for k, v in second["timing"].items()}


@pytest.fixture
def whole(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    """The 8-deal match played in one go."""
    folder = tmp_path / "whole"
    arena(capsys, *MATCH, "--deals", "8", "--out", str(folder))
    return folder


def test_a_finished_match_extended_with_more_deals_is_the_longer_match(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, whole: Path
) -> None:
    folder = tmp_path / "grown"
    arena(capsys, *MATCH, "--deals", "3", "--out", str(folder))
    data = arena(capsys, *MATCH, "--deals", "8", "--out", str(folder), "--resume")
    same_files(folder, whole)
    # The command that repeats the match plays it in one go: no --resume.
    assert data["command"] == f"stich arena doppelkopf --bots heuristic,random --deals 8 --seed 3 --workers 1 --out {folder}"
    assert [(p["first_deal"], p["stop"], p["workers"]) for p in data["parts"]] == [(0, 3, 1), (3, 8, 1)]
    assert data["seconds"] == pytest.approx(sum(p["seconds"] for p in data["parts"]), abs=0.01)
    status, out, _ = run_cli(capsys, "arena", *MATCH, "--deals", "8", "--out", str(folder), "--resume")
    assert status == 0 and "in 2 runs (resumed at deal 3)" in out  # nothing left to play: the outputs are written again
    same_files(folder, whole)


def test_a_run_killed_while_writing_goes_on_from_its_last_whole_chunk(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, whole: Path
) -> None:
    folder = tmp_path / "killed"
    arena(capsys, *MATCH, "--deals", "8", "--out", str(folder))
    journal = folder / JOURNAL_FILE
    lines = journal.read_bytes().split(b"\n")
    assert [next(iter(json.loads(line))) for line in lines[:-1]] == ["match", "run", "chunk", "chunk", "chunk", "chunk"]
    # The kill came while the third chunk's line was being written: its records are in records.jsonl, its line is half there.
    journal.write_bytes(b"\n".join(lines[:4]) + b"\n" + lines[4][: len(lines[4]) // 2])
    (folder / "results.json").unlink()
    read = read_journal(journal)
    assert (read.done, read.target, read.finished) == (4, 8, False)
    assert (folder / "records.jsonl").stat().st_size > read.records_bytes

    status, _out, err = run_cli(capsys, "arena", *MATCH, "--deals", "8", "--out", str(folder))
    assert "holds a stopped match (4 of 8 deals played): go on with it by adding --resume" in assert_one_error_line(status, err)
    data = arena(capsys, *MATCH, "--deals", "8", "--out", str(folder), "--resume")
    same_files(folder, whole)
    assert [(p["first_deal"], p["stop"]) for p in data["parts"]] == [(0, 4), (4, 8)]
    assert read_journal(journal).done == 8


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_ctrl_c_or_sigterm_stops_with_the_command_that_goes_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, whole: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    play = duplicate._play_chunk
    handler = signal.getsignal(signal.SIGTERM)

    def interrupted(chunk: Any, game: Any = None) -> Any:
        if chunk.start == 6:
            if how == "ctrl-c":
                raise KeyboardInterrupt
            os.kill(os.getpid(), signal.SIGTERM)  # as `timeout` sends it; without the arena's handler it would end pytest
            time.sleep(5)  # the handler interrupts this
            raise AssertionError("SIGTERM did not stop the match")
        return play(chunk, game)

    monkeypatch.setattr(duplicate, "_play_chunk", interrupted)
    folder = tmp_path / "stopped"
    status, out, err = run_cli(capsys, "arena", *MATCH, "--deals", "8", "--out", str(folder))
    assert status == 130 and out == ""
    command = f"stich arena doppelkopf --bots heuristic,random --deals 8 --seed 3 --workers 1 --out {folder} --resume"
    assert err.strip() == f"stich: stopped after 6 of 8 deals; to go on: {command}"
    assert not (folder / "results.json").exists()
    assert signal.getsignal(signal.SIGTERM) == handler  # restored

    monkeypatch.setattr(duplicate, "_play_chunk", play)
    arena(capsys, *command.split()[2:])
    same_files(folder, whole)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("--seed", "4"), "seed 3 vs 4"),
        (("--bots", "random,heuristic"), 'candidate "heuristic" vs "random"'),
        (("--reuse-baseline",), "reuse_baseline false vs true"),
        (("--option", "nines=false"), 'game "doppelkopf(preset=ddv)" vs "doppelkopf(preset=ddv,nines=false)"'),
    ],
)
def test_resuming_another_match_names_what_differs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: tuple[str, ...], message: str
) -> None:
    arena(capsys, *MATCH, "--deals", "2", "--out", str(tmp_path))
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    argv = [*MATCH, "--deals", "4", "--out", str(tmp_path), "--resume"]
    if change[0] in argv:
        argv[argv.index(change[0]) + 1] = change[1]
    else:
        argv += change
    status, _out, err = run_cli(capsys, "arena", *argv)
    line = assert_one_error_line(status, err)
    assert "is the journal of another match (journal vs this command: " in line and message in line, line
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before  # nothing lost


def test_resume_mistakes_are_one_error_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _out, err = run_cli(capsys, "arena", *MATCH, "--deals", "2", "--resume")
    assert "--resume needs --out DIR" in assert_one_error_line(status, err)
    status, _out, err = run_cli(capsys, "arena", *MATCH, "--deals", "2", "--out", str(tmp_path / "empty"), "--resume")
    assert "there is no stopped match in" in assert_one_error_line(status, err)
    arena(capsys, *MATCH, "--deals", "4", "--out", str(tmp_path / "four"))
    status, _out, err = run_cli(capsys, "arena", *MATCH, "--deals", "3", "--out", str(tmp_path / "four"), "--resume")
    assert "has played 4 deals already; give --deals 4 or more" in assert_one_error_line(status, err)
    records = tmp_path / "four" / "records.jsonl"
    records.write_bytes(records.read_bytes()[:100])
    status, _out, err = run_cli(capsys, "arena", *MATCH, "--deals", "5", "--out", str(tmp_path / "four"), "--resume")
    line = assert_one_error_line(status, err)
    assert "records.jsonl has 100 bytes, fewer than the" in line and "cannot write" not in line
    # A match that fails before its first deal (a bad option value) leaves nothing to protect: the next run starts afresh.
    bad = ("doppelkopf", "--bots", "pimc:time=-1,random", "--seed", "3", "--deals", "2", "--out", str(tmp_path / "bad"))
    status, _out, err = run_cli(capsys, "arena", *bad)
    assert "time must be a number of seconds" in assert_one_error_line(status, err)
    assert read_journal(tmp_path / "bad" / JOURNAL_FILE).done == 0
    assert arena(capsys, *MATCH, "--deals", "2", "--out", str(tmp_path / "bad"))["deals"] == 2
    # Killed before its first chunk, and its records removed: the match goes on from nothing.
    journal = tmp_path / "bad" / JOURNAL_FILE
    journal.write_bytes(b"".join(journal.read_bytes().splitlines(keepends=True)[:2]))
    (tmp_path / "bad" / "records.jsonl").unlink()
    assert arena(capsys, *MATCH, "--deals", "2", "--out", str(tmp_path / "bad"), "--resume")["deals"] == 2


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda lines: [lines[0], b"{not json", *lines[1:]], "line 2: not JSON"),
        (lambda lines: lines[1:], "line 1: the journal must begin with a 'match' line"),
        (lambda lines: [lines[0], lines[1], lines[3], lines[2], *lines[4:]], "line 3 'chunk': deal 1 does not follow the 0 deals before"),
        (lambda lines: [lines[0].replace(b'"seed":3', b'"seed":"3"'), *lines[1:]], "line 1 'match': field 'seed' has the wrong type (str)"),
        (
            lambda lines: [lines[0], lines[1], lines[2].replace(b'"games":', b'"played":'), *lines[3:]],
            "line 3 'chunk': missing field 'games'",
        ),
        (
            lambda lines: [lines[0].replace(b"stich-arena-journal", b"other"), *lines[1:]],
            "line 1 'match': field 'format' must be 'stich-arena-journal'; this is not",
        ),
        (
            lambda lines: [lines[0], lines[1], lines[2].replace(b'"fallbacks":{}', b'"fallbacks":[]'), *lines[3:]],
            "line 3 'chunk': field 'fallbacks' must be an object",
        ),
        (
            lambda lines: [*lines[:3], lines[3].replace(b'"fallbacks":{}', b'"fallbacks":{"random":{"no_world":-1}}'), *lines[4:]],
            "line 4 'chunk'.fallbacks['random']: the count of 'no_world' must be a whole number, at least 0, not -1",
        ),
        (
            lambda lines: [*lines[:3], lines[3].replace(b'"fallbacks":{}', b'"fallbacks":{"random":3}'), *lines[4:]],
            "line 4 'chunk'.fallbacks['random']: expected an object of counts by reason",
        ),
    ],
)
def test_a_damaged_journal_names_the_line_and_field(capsys: pytest.CaptureFixture[str], tmp_path: Path, damage: Any, message: str) -> None:
    arena(capsys, *MATCH, "--deals", "4", "--out", str(tmp_path))
    journal = tmp_path / JOURNAL_FILE
    lines = journal.read_bytes().split(b"\n")[:-1]
    journal.write_bytes(b"\n".join(damage(lines)) + b"\n")
    with pytest.raises(JournalError) as caught:
        read_journal(journal)
    assert str(caught.value).startswith(f"journal.jsonl {message}")
    status, _out, err = run_cli(capsys, "arena", *MATCH, "--deals", "4", "--out", str(tmp_path), "--resume")
    assert message in assert_one_error_line(status, err)


def test_a_journal_written_before_the_fallbacks_were_counted_goes_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, whole: Path
) -> None:
    # Chunk lines without 'fallbacks' (an older stich): read as none, and the match goes on as the same match.
    folder = tmp_path / "old"
    arena(capsys, *MATCH, "--deals", "4", "--out", str(folder))
    journal = folder / JOURNAL_FILE
    text = journal.read_bytes()
    assert text.count(b',"fallbacks":{}') == 4
    journal.write_bytes(text.replace(b',"fallbacks":{}', b""))
    assert read_journal(journal).played.fallbacks == {}
    data = arena(capsys, *MATCH, "--deals", "8", "--out", str(folder), "--resume")
    same_files(folder, whole)
    assert data["fallbacks"] == {}  # heuristic and random count none


def test_run_duplicate_goes_on_from_the_deals_done() -> None:
    game = make_game("tapp_tarock")
    whole = run_duplicate(game, "heuristic", ["random"], 7, 5)
    chunks: list[PlayedDeals] = []
    first = run_duplicate(game, "heuristic", ["random"], 3, 5, on_chunk=chunks.append)
    assert [deal.index for chunk in chunks for deal in chunk.deals] == [0, 1, 2]
    assert sum(chunk.games for chunk in chunks) == first.games_played
    done = PlayedDeals(first.deals, first.timings, first.games_played, first.seconds, first.parts)
    rest = run_duplicate(game, "heuristic", ["random"], 7, 5, done=done)
    assert rest.deals == whole.deals and rest.games_played == whole.games_played
    assert rest.timings["heuristic"].decisions == whole.timings["heuristic"].decisions
    assert [(p.first_deal, p.stop) for p in rest.parts] == [(0, 3), (3, 7)]
    with pytest.raises(OptionError, match="already holds 3 deals; --deals 2 would leave some out"):
        run_duplicate(game, "heuristic", ["random"], 2, 5, done=done)
    gap = PlayedDeals(first.deals[1:], {}, 0, 0.0)
    with pytest.raises(OptionError, match="must be deals 0 to 1 in order"):
        run_duplicate(game, "heuristic", ["random"], 7, 5, done=gap)
    with pytest.raises(OptionError, match="was played against \\['random'\\], not \\['heuristic'\\]"):
        run_duplicate(game, "random", ["heuristic"], 7, 5, done=PlayedDeals(first.deals, {}, 0, 0.0))
    stray = PlayedDeals(first.deals, {}, 0, 0.0, fallbacks={"pimc": {"no_world": 1}})
    with pytest.raises(OptionError, match="have fallbacks of bots not in this match: pimc"):
        run_duplicate(game, "heuristic", ["random"], 7, 5, done=stray)
    carried = PlayedDeals(first.deals, first.timings, first.games_played, first.seconds, first.parts, {"random": {"no_world": 2}})
    assert run_duplicate(game, "heuristic", ["random"], 7, 5, done=carried).fallbacks == {"random": {"no_world": 2}}


def _sleep(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def test_a_stopped_pool_ends_its_workers_at_once() -> None:
    """Ctrl-C must not wait for the running chunks (minutes with search bots): the workers are ended mid-chunk."""
    executor = ProcessPoolExecutor(max_workers=2)
    processes = []
    try:
        for _ in range(4):
            executor.submit(_sleep, 60.0)
        while len(executor._processes or {}) < 2:  # the pool starts its workers on demand
            time.sleep(0.01)
        processes = list((executor._processes or {}).values())
    finally:
        duplicate._stop_now(executor)
    for process in processes:
        process.join(timeout=20)
        assert _ended(process.pid)


def _ended(pid: int | None, timeout: float = 20.0) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie) within ``timeout`` seconds.

    ``Process.is_alive()`` cannot say: the pool's own management thread may
    reap the killed worker first, and a ``waitpid`` that then finds no child
    leaves ``is_alive()`` true for ever.
    """
    assert pid is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_an_orphaned_worker_exits(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker whose main process was killed stops before its next deal instead of playing on for nobody."""
    exits: list[int] = []
    monkeypatch.setattr(os, "_exit", exits.append)
    monkeypatch.setattr(duplicate, "_PARENT", os.getppid())
    duplicate._stop_if_orphaned()
    assert exits == []
    monkeypatch.setattr(duplicate, "_PARENT", os.getppid() + 1)
    duplicate._stop_if_orphaned()
    assert exits == [1]


def test_a_worker_leaves_ctrl_c_to_the_main_process_and_dies_of_sigterm(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers inherit the arena's SIGTERM-as-interrupt handler when forked; they must not catch SIGTERM as a failed chunk."""
    calls: list[tuple[int, Any]] = []
    monkeypatch.setattr(signal, "signal", lambda signum, handler: calls.append((signum, handler)))
    monkeypatch.setattr(duplicate, "_PARENT", None)
    duplicate._init_worker()
    assert (signal.SIGINT, signal.SIG_IGN) in calls and (signal.SIGTERM, signal.SIG_DFL) in calls
    assert os.getppid() == duplicate._PARENT


FAILING = """
from stich.bots.heuristic import make_heuristic
from stich.errors import StichError

BUILT = [0]


class Failing:
    '''The heuristic, except that the bot built 18th (deal 4's first rotation: one build to check the spec, four per deal) fails.'''

    def __init__(self, game, seat, seed):
        BUILT[0] += 1
        self.fails = BUILT[0] == 18
        self.inner = make_heuristic(game, seat, seed)

    def choose(self, observation):
        if self.fails:
            raise StichError("no world fits what the seat knows")
        return self.inner.choose(observation)
"""


def test_a_bot_that_fails_is_named_with_its_deal_and_the_deals_before_are_kept(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bot = tmp_path / "failing.py"
    bot.write_text(FAILING, encoding="utf-8")
    folder = tmp_path / "failed"
    argv = ["doppelkopf", "--register", f"failing={bot}:Failing", "--bots", "failing,random", "--deals", "8", "--seed", "3"]
    saved = dict(registry.BOTS)
    try:
        status, _out, err = run_cli(capsys, "arena", *argv, "--workers", "1", "--out", str(folder))
    finally:  # the registry is shared by every test in the process
        registry.BOTS.clear()
        registry.BOTS.update(saved)
    line = assert_one_error_line(status, err)
    assert line.startswith("stich: error: deal 4 (deal seed ")
    assert "), the rotation with the candidate in seat 0: failing in seat 0 failed at action " in line
    assert ": no world fits what the seat knows (the 4 deals before are kept: stich arena doppelkopf " in line
    assert line.endswith(f"--out {folder} --resume goes on from there)")
    assert read_journal(folder / JOURNAL_FILE).done == 4
