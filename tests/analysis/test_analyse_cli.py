"""``stich analyse RECORD``: the analysis of a finished deal at the terminal, the same numbers as the library (and the web API)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stich.analysis import analyse_record
from stich.cli.main import main
from stich.core.records import dumps_record
from stich.core.registry import game_from_string

from ._blunder import blunder_deal


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``stich argv...`` in-process; return (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _record_file(tmp_path: Path) -> tuple[Path, dict[str, object], int, int, str]:
    record, seat, index, played, _ = blunder_deal(game_from_string("doppelkopf"))
    path = tmp_path / "deal.json"
    path.write_text(dumps_record(record), encoding="utf-8")
    return path, record, seat, index, played


def test_json_gives_the_librarys_numbers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, record, seat, _, _ = _record_file(tmp_path)
    status, out, _ = run_cli(capsys, "analyse", str(path), "--seat", str(seat), "--budget", "2", "--seed", "9", "--json")
    assert status == 0
    assert json.loads(out) == analyse_record(record, seat, budget=2, seed=9).to_json()


@pytest.mark.parametrize(("lang", "words"), [("en", ("played", "cost", "(exact)")), ("de", ("gespielt", "Kosten", "(exakt)"))])
def test_the_costly_decision_is_printed_in_either_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str, words: tuple[str, ...]
) -> None:
    path, _, seat, index, played = _record_file(tmp_path)
    status, out, err = run_cli(capsys, "analyse", str(path), "--seat", str(seat), "--budget", "3", "--lang", lang)
    assert status == 0
    row = next(line for line in out.splitlines() if line.startswith(f"#{index} "))
    assert played in row and all(word in row for word in words)
    assert ("decision" if lang == "en" else "Entscheidung") in err


def test_a_running_deal_and_a_bad_seat_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, record, _, _, _ = _record_file(tmp_path)
    running = tmp_path / "running.json"
    running.write_text(dumps_record(dict(record, actions=record["actions"][:10], result=None)), encoding="utf-8")  # type: ignore[index]
    status, _, err = run_cli(capsys, "analyse", str(running))
    assert status == 2 and "not finished" in err
    status, _, err = run_cli(capsys, "analyse", str(path), "--seat", "7")
    assert status == 2 and "seat" in err
