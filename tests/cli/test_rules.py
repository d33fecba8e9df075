"""``stich rules``: games, presets and options come from the option tables."""

from __future__ import annotations

import json
import re

import pytest

from stich.core.options import format_value
from stich.core.registry import game_class, game_names

from .helpers import assert_one_error_line, run_cli


def test_list_names_every_game_with_title_and_presets(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "rules")
    assert status == 0 and err == ""
    for name in game_names():
        cls = game_class(name)
        line = next(line for line in out.splitlines() if line.strip().startswith(name))
        assert cls.title in line
        for preset in cls.option_table.presets:
            assert preset in line


def test_game_text_shows_presets_with_overrides_and_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "rules", "doppelkopf")
    assert status == 0
    table = game_class("doppelkopf").option_table
    assert re.search(r"ddv_no_nines +nines=false", out)
    for info in table.infos:
        header = next(line for line in out.splitlines() if line.strip().startswith(f"{info.name}  ("))
        assert f"default {format_value(info.default)}" in header
        assert f"§{info.section}" in header
        assert info.doc in out
    assert "allowed: 4..5" in out  # players
    assert "allowed: off, both" in out  # schweine


def test_game_json_matches_the_option_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "rules", "doppelkopf", "--json")
    assert status == 0
    data = json.loads(out)
    table = game_class("doppelkopf").option_table
    assert data["name"] == "doppelkopf"
    assert [o["name"] for o in data["options"]] == [i.name for i in table.infos]
    by_name = {o["name"]: o for o in data["options"]}
    assert by_name["players"]["type"] == "int" and by_name["players"]["min"] == 4 and by_name["players"]["max"] == 5
    assert by_name["schweine"]["choices"] == ["off", "both", "first_played", "second_if_first_won", "holder_choice"]
    assert by_name["nines"]["default"] is True and by_name["nines"]["section"] == "1.1"
    presets = {p["name"]: p for p in data["presets"]}
    assert presets["ddv"]["default"] is True
    assert presets["ddv_no_nines"]["overrides"] == {"nines": False}
    assert presets["house_classic"]["overrides"]["bock_triggers"] == ["120_120", "lost_call"]


def test_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "rules", "--json")
    assert status == 0
    games = json.loads(out)["games"]
    assert [g["name"] for g in games] == game_names()
    assert games[0]["default_preset"] == "ddv"


@pytest.mark.parametrize(("name", "expected"), [("skat", "unknown game 'skat'"), ("doppelkopp", "unknown game 'doppelkopp'")])
def test_unknown_game_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], name: str, expected: str) -> None:
    status, out, err = run_cli(capsys, "rules", name)
    line = assert_one_error_line(status, err)
    assert expected in line and "available: doppelkopf" in line
    assert out == ""
