"""One bot-spec parser for every command (issue 28, item 11): ``sim`` and ``play`` take what ``arena`` and the web take."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stich.arena import duplicate
from stich.bots import spec
from stich.bots.pimc import PimcBot
from stich.cli.common import make_bots, parse_bot_list
from stich.core.registry import make_game

from .helpers import assert_one_error_line, run_cli


def test_arena_and_the_commands_share_one_parser() -> None:
    assert duplicate.parse_bot_spec is spec.parse_bot_spec
    assert duplicate.parse_bot_specs is spec.parse_bot_specs
    assert duplicate.build_bot is spec.build_bot


def test_sim_takes_a_spec_with_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "deals.jsonl"
    bots = "pimc:level=3,worlds=2,heuristic,random,heuristic"
    status, _, err = run_cli(capsys, "sim", "dobbm", "--games", "1", "--seed", "4", "--bots", bots, "--out", str(out))
    assert status == 0, err
    record = json.loads(out.read_text().splitlines()[0])
    assert record["meta"]["bots"] == ["pimc:level=3,worlds=2", "heuristic", "random", "heuristic"]


def test_one_spec_fills_every_seat_and_builds_the_bot_it_names() -> None:
    game = make_game("doppelkopf")
    names = parse_bot_list("pimc:level=1,worlds=3", game.num_seats)
    assert names == ["pimc:level=1,worlds=3"] * 4
    bots = make_bots(game, names, seed=1, game_index=0)
    assert all(isinstance(bot, PimcBot) and bot.worlds == 3 and bot.budget == 0.05 for bot in bots)


def test_play_builds_the_other_seats_from_specs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", open("/dev/null"))  # noqa: SIM115 - closed by pytest's monkeypatch teardown with the process
    status, out, err = run_cli(capsys, "play", "dappen", "--seed", "2", "--bots", "pimc:level=1,worlds=1")
    assert status == 0, err
    assert "pimc:level=1,worlds=1" in out


@pytest.mark.parametrize(
    ("bots", "expected"),
    [
        ("pimc:nope=1", "bot 'pimc' has no option 'nope'"),
        ("alphazero:level=2", "unknown bot 'alphazero'"),
        ("pimc:level=9", "level must be one of 1, 2, 3, 4, 5"),
    ],
)
def test_bad_specs_are_one_error_line(capsys: pytest.CaptureFixture[str], bots: str, expected: str) -> None:
    status, _, err = run_cli(capsys, "sim", "doppelkopf", "--games", "1", "--seed", "1", "--bots", bots)
    assert expected in assert_one_error_line(status, err)
