"""``stich sim`` and ``stich replay``: seeded records, summaries that add up, verification."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stich.core.records import read_jsonl, replay_any, validate_record
from stich.core.rng import derive_seed

from .helpers import assert_one_error_line, run_cli


def sim(capsys: pytest.CaptureFixture[str], path: Path, *extra: str, games: int = 6, seed: int = 11) -> dict[str, Any]:
    """Run ``stich sim doppelkopf`` writing ``path``; return the JSON summary."""
    status, out, err = run_cli(
        capsys, "sim", "doppelkopf", "--games", str(games), "--seed", str(seed), "--out", str(path), "--json", *extra
    )
    assert status == 0, err
    summary: dict[str, Any] = json.loads(out)
    return summary


def records(path: Path) -> list[dict[str, Any]]:
    return [record for _, record in read_jsonl(path)]


def test_sim_writes_n_valid_records_and_the_summary_adds_up(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "deals.jsonl"
    summary = sim(capsys, out, "--bots", "random,heuristic,random,heuristic", games=8, seed=5)
    recs = records(out)
    assert len(recs) == 8 == summary["games"] == summary["deals"]
    seat_totals = [0, 0, 0, 0]
    for i, record in enumerate(recs):
        validate_record(record)
        replay_any(record)
        assert record["type"] == "deal"
        assert record["seed"] == derive_seed(5, i)
        assert record["dealer"] == i % 4
        assert record["meta"] == {"bots": ["random", "heuristic", "random", "heuristic"]}
        for seat, score in enumerate(record["result"]["scores"]):
            seat_totals[seat] += score
    assert summary["seat_totals"] == seat_totals
    assert summary["bot_totals"] == {"random": seat_totals[0] + seat_totals[2], "heuristic": seat_totals[1] + seat_totals[3]}
    assert summary["bot_seat_deals"] == {"random": 16, "heuristic": 16}
    assert summary["bot_mean_per_deal"]["heuristic"] == pytest.approx(summary["bot_totals"]["heuristic"] / 16, abs=1e-4)
    assert sum(summary["bot_totals"].values()) == 0  # Doppelkopf is zero-sum
    assert summary["seconds"] >= 0 and summary["games_per_second"] >= 0


def test_same_seed_same_file_other_seed_other_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    sim(capsys, a, "--bots", "heuristic", seed=42)
    sim(capsys, b, "--bots", "heuristic", seed=42)
    sim(capsys, c, "--bots", "heuristic", seed=43)
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()


def test_text_summary(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run_cli(capsys, "sim", "doppelkopf", "--games", "3", "--seed", "1", "--out", str(tmp_path / "x.jsonl"))
    assert status == 0
    assert "games:     3 deals" in out
    assert "bot random: total +0 over 12 seat-deals" in out
    assert f"records:   {tmp_path / 'x.jsonl'}" in out


def test_players_option_gives_five_seats(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "five.jsonl"
    summary = sim(capsys, out, "--players", "5", games=5)
    assert summary["game"] == "doppelkopf(preset=ddv,players=5)"
    for i, record in enumerate(records(out)):
        replay_any(record)
        assert len(record["deal"]) == 5
        assert record["deal"][i % 5] == []  # the dealer sits out
        assert record["result"]["scores"][i % 5] == 0


def test_lists_write_list_records_that_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "lists.jsonl"
    summary = sim(capsys, out, "--lists", "--option", "round_games=6", games=2, seed=9)
    recs = records(out)
    assert summary["mode"] == "lists" and summary["games"] == 2 == len(recs)
    assert summary["deals"] == sum(len(r["deals"]) for r in recs)
    totals = [0, 0, 0, 0]
    for j, record in enumerate(recs):
        assert record["type"] == "list" and record["seed"] == derive_seed(9, j)
        assert sum(1 for row in record["sheet"] if not row["notes"].get("redeal")) == 6
        replay_any(record)
        totals = [t + s for t, s in zip(totals, record["totals"], strict=True)]
    assert summary["seat_totals"] == totals


def test_sim_then_replay_exits_0(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "ok.jsonl"
    sim(capsys, out, games=4)
    status, text, _ = run_cli(capsys, "replay", str(out))
    assert status == 0
    assert "4 records (4 deals, 0 lists), 4 valid, all valid" in text
    status, text, _ = run_cli(capsys, "replay", str(out), "--json")
    assert status == 0 and json.loads(text)["valid"] == 4


def test_replay_of_a_tampered_file_names_the_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "tampered.jsonl"
    sim(capsys, out, games=4)
    lines = out.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[2])
    record["result"]["scores"] = [s + 1 for s in record["result"]["scores"]]
    lines[2] = json.dumps(record)
    lines.insert(3, "{not json")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, text, _ = run_cli(capsys, "replay", str(out))
    assert status == 1
    report = text.splitlines()
    assert report[0].startswith("line 3: result.scores: recorded ")
    assert report[1].startswith("line 4: json: not valid JSON: Expecting property name")
    assert "5 records (4 deals, 0 lists), 3 valid, 2 invalid" in report[-1]
    status, text, _ = run_cli(capsys, "replay", str(out), "--json")
    data = json.loads(text)
    assert status == 1 and [e["line"] for e in data["errors"]] == [3, 4]


def test_replay_of_an_illegal_action_names_its_position(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "illegal.jsonl"
    sim(capsys, out, games=1)
    record = json.loads(out.read_text(encoding="utf-8"))
    first_play = next(i for i, (_, text) in enumerate(record["actions"]) if text.startswith("play"))
    seat = record["actions"][first_play][0]
    held = set(record["deal"][seat])
    missing = next(c for c in ("CA", "SA", "HA", "DA", "CK", "SK", "HK", "DK") if c not in held)
    record["actions"][first_play][1] = f"play {missing}"
    out.write_text(json.dumps(record) + "\n", encoding="utf-8")
    status, text, _ = run_cli(capsys, "replay", str(out))
    assert status == 1
    assert text.splitlines()[0].startswith(f"line 1: actions[{first_play}]: illegal action")


def test_replay_of_an_empty_file_fails(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    status, text, _ = run_cli(capsys, "replay", str(empty))
    assert status == 1 and "no records" in text


def test_replay_of_an_unreadable_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run_cli(capsys, "replay", str(tmp_path / "missing.jsonl"))
    line = assert_one_error_line(status, err)
    assert "missing.jsonl" in line and "No such file" in line
    assert out == ""
