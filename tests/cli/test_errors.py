"""Every class of bad input gives exactly one ``stich: error:`` line and exit 2, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import assert_one_error_line, run_cli

SIM = ("sim", "doppelkopf", "--games", "1", "--seed", "1")

CASES = [
    (("sim", "skat", "--games", "1", "--seed", "1"), "unknown game 'skat'; available: doppelkopf"),
    (("sim", "doppelkopf", "--preset", "tournament", "--games", "1", "--seed", "1"), "no preset 'tournament'; presets: ddv"),
    ((*SIM, "--option", "jokers=true"), "no option 'jokers'; options: players, nines"),
    ((*SIM, "--option", "nines=maybe"), "option nines takes true or false, not 'maybe'"),
    ((*SIM, "--option", "players=many"), "option players takes an integer, not 'many'"),
    ((*SIM, "--option", "schweine=sometimes"), "option schweine takes one of off, both"),
    ((*SIM, "--option", "nines"), "expected KEY=VALUE, got 'nines'"),
    ((*SIM, "--option", "superschweine=true"), "superschweine=true needs schweine=both"),
    ((*SIM, "--players", "7"), "option players must be at most 5, not 7"),
    ((*SIM, "--players", "4", "--option", "players=5"), "--players 4 contradicts --option players=5"),
    ((*SIM, "--bots", "alphazero"), "unknown bot 'alphazero'; available: random, heuristic"),
    ((*SIM, "--bots", "random,random"), "--bots names 2 bots, but there are 4 seats"),
    (("sim", "doppelkopf", "--games", "ten", "--seed", "1"), "argument --games: must be an integer, not 'ten'"),
    (("sim", "doppelkopf", "--games", "0", "--seed", "1"), "argument --games: must be at least 1, not 0"),
    (("sim", "doppelkopf", "--seed", "1"), "the following arguments are required: --games"),
    (("sim", "doppelkopf", "--games", "1", "--seed", "-3"), "argument --seed: must be 0..18446744073709551615"),
    (("deal",), "invalid choice: 'deal'"),
    (("rules", "doppelkopf", "--verbose"), "unrecognized arguments: --verbose"),
    (("play", "doppelkopf", "--seat", "4"), "--seat must be a seat 0..3"),
    (("play", "doppelkopf", "--bots", "random,random"), "--bots names 2 bots, but there are 3 other seats"),
    (("play", "doppelkopf", "--deals", "2", "--list"), "argument --list: not allowed with argument --deals"),
    (("play", "doppelkopf", "--option", "armut=perhaps"), "option armut takes true or false"),
]


@pytest.mark.parametrize(("argv", "expected"), CASES, ids=[" ".join(argv) for argv, _ in CASES])
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], expected: str) -> None:
    status, out, err = run_cli(capsys, *argv)
    line = assert_one_error_line(status, err)
    assert expected in line, line
    assert out == ""


def test_unwritable_output_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run_cli(capsys, *SIM, "--out", str(tmp_path / "no" / "such" / "dir.jsonl"))
    line = assert_one_error_line(status, err)
    assert "dir.jsonl" in line and "No such file or directory" in line


def test_a_directory_is_not_a_record_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run_cli(capsys, "replay", str(tmp_path))
    assert "Is a directory" in assert_one_error_line(status, err)


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys)
    assert status == 0
    for command in ("rules", "sim", "replay", "play"):
        assert command in out
