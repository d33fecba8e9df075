"""Duplicate tournament standings (decision 0057): DDV list scoring, plain sum, duplicate comparison, recompute from records.

The played tournaments here are real: every table's list is dealt from the
same seeds by the game's own session and played to its end by seeded random
players, and the standings are checked against the lists' own totals.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from stich.cli.main import main
from stich.core.records import deal_record
from stich.core.registry import make_game
from stich.core.session import SheetRow
from stich.errors import RecordError
from stich.tournaments.replay import _seeded_session, outcomes_from_records, standings_from_records
from stich.tournaments.standings import Outcome, compute_standings, outcome_from, visible


def play_tournament(game_name: str, tables: int, deals: int, seed: int = 7) -> tuple[list[dict[str, Any]], list[list[SheetRow]], list[Any]]:
    """Play ``tables`` lists of ``deals`` deals from the same seeds; returns the records, each table's sheet rows and sessions."""
    game = make_game(game_name)
    seeds = {n: random.Random(seed * 1000 + n).getrandbits(64) for n in range(deals * 2)}
    records, sheets, sessions = [], [], []
    for table in range(tables):
        session = _seeded_session(game.canonical, deals, seeds)
        chooser = random.Random(100 + table)
        players = [f"T{table}S{seat}" for seat in range(game.num_seats)]
        rows = []
        while (state := session.next_deal()) is not None:
            number = session.deal_index
            while not state.is_terminal():
                state.apply(chooser.choice(state.legal_codes()))
            rows.append(session.book(state))
            meta = {"number": number, "tournament": {"id": "t1", "name": "Test", "table": table, "tables": tables, "deals": deals}}
            records.append(deal_record(state, players=players, meta=meta))
        sheets.append(rows)
        sessions.append(session)
    return records, sheets, sessions


def test_ddv_list_points_are_each_players_list_total_and_the_file_recomputes_them() -> None:
    records, sheets, sessions = play_tournament("doppelkopf", tables=3, deals=6)
    standings = standings_from_records(enumerate(records, start=1))
    assert standings["scoring"] == "ddv_list" and standings["game"] == "doppelkopf"
    assert len(standings["rows"]) == 12
    for row in standings["rows"]:
        table_rows = sheets[row["table"]]
        assert row["points"] == sessions[row["table"]].totals[row["seat"]]  # TSR 7.2.2 / 7.3: the Spielliste's sum
        assert row["won"] == sum(1 for r in table_rows if r.scores[row["seat"]] > 0)  # TSR 7.3.1: each game a win or a loss
        assert row["lost"] == sum(1 for r in table_rows if r.scores[row["seat"]] < 0)
        assert row["deals"] == len(table_rows)
    points = [(r["points"], r["won"]) for r in standings["rows"]]
    assert points == sorted(points, reverse=True)
    assert standings["rows"][0]["rank"] == 1


def test_the_same_deal_number_is_the_same_cards_at_every_table_with_the_same_dealer() -> None:
    records, _, _ = play_tournament("doppelkopf", tables=2, deals=5)
    by_key: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for record in records:
        by_key.setdefault((record["meta"]["number"], record["dealer"]), []).append(record)
    assert any(len(group) == 2 for group in by_key.values())
    for group in by_key.values():
        assert len({json.dumps(r["deal"]) for r in group}) == 1
        assert len({r["seed"] for r in group}) == 1


def test_duplicate_comparison_is_the_score_against_the_other_tables_with_the_same_cards() -> None:
    records, _, _ = play_tournament("doppelkopf", tables=2, deals=4)
    standings = standings_from_records(enumerate(records, start=1), comparison=True)
    _, outcomes = outcomes_from_records(enumerate(records, start=1))
    for row in standings["rows"]:
        other = 1 - row["table"]
        expected = 0
        for mine in (o for o in outcomes if o.table == row["table"]):
            theirs = [o for o in outcomes if o.table == other and o.number == mine.number and o.dealer == mine.dealer]
            if theirs:
                expected += mine.scores[row["seat"]] - theirs[0].scores[row["seat"]]
        assert row["duplicate"] == expected
    for entry in standings["comparison"]:
        assert sum(e["diff"] for e in entry["entries"]) == pytest.approx(0)


def test_three_tables_compare_with_the_mean_of_the_others() -> None:
    outcomes = [
        outcome_from(0, 0, 5, 0, [3, 3, -3, -3], ["A", "B", "C", "D"]),
        outcome_from(1, 0, 5, 0, [-9, 3, 3, 3], ["E", "F", "G", "H"]),
        outcome_from(2, 0, 5, 0, [1, 1, -1, -1], ["I", "J", "K", "L"]),
    ]
    standings = compute_standings("doppelkopf", outcomes, comparison=True)
    rows = {r["name"]: r for r in standings["rows"]}
    seat0 = next(c for c in standings["comparison"] if c["seat"] == 0)
    assert [(e["name"], e["score"], e["diff"]) for e in seat0["entries"]] == [("A", 3, 7.0), ("E", -9, -11.0), ("I", 1, 4.0)]
    assert "comparison" not in compute_standings("doppelkopf", outcomes)
    assert rows["A"]["duplicate"] == 3 - (-9 + 1) / 2  # 7
    assert rows["E"]["duplicate"] == -9 - (3 + 1) / 2  # -11
    assert rows["G"]["duplicate"] == 3 - (-3 - 1) / 2  # 5
    # A, B, F, G and H have 3 points and one game won each: the comparison orders them (A 7, G and H 5, B and F 1)
    ranked = [(r["name"], r["rank"]) for r in standings["rows"]][:5]
    assert ranked == [("A", 1), ("G", 2), ("H", 2), ("B", 4), ("F", 4)]
    assert rows["E"]["rank"] == 12 and rows["E"]["points"] == -9


def test_ddv_ties_go_to_more_games_won_the_sum_ignores_them() -> None:
    outcomes = [
        outcome_from(0, 0, 1, 0, [4, 4, -4, -4], ["A", "B", "C", "D"]),
        outcome_from(0, 1, 2, 1, [-2, -2, 2, 2], ["A", "B", "C", "D"]),
        outcome_from(1, 0, 1, 0, [-1, 3, -1, -1], ["E", "F", "G", "H"]),
        outcome_from(1, 1, 2, 1, [3, -1, -1, -1], ["E", "F", "G", "H"]),
    ]
    ddv = {r["name"]: r for r in compute_standings("doppelkopf", outcomes)["rows"]}
    assert ddv["A"]["points"] == ddv["E"]["points"] == ddv["F"]["points"] == 2
    assert (ddv["A"]["won"], ddv["E"]["won"], ddv["F"]["won"]) == (1, 1, 1)
    plain = compute_standings("tapp_tarock", outcomes)
    assert plain["scoring"] == "sum" and "won" not in plain["rows"][0]
    # points and wins equal: the comparison with the same cards decides (A against E, seat 0 of both deals)
    a, e = ddv["A"]["duplicate"], ddv["E"]["duplicate"]
    assert a == (4 - (-1)) + (-2 - 3) and e == -a
    assert ddv["A"]["rank"] == ddv["E"]["rank"]  # equal points, wins and comparison: shared place


def test_a_deal_number_shows_only_once_every_table_is_done_with_it() -> None:
    outcomes = [
        Outcome(0, 0, 1, 0, (1, -1, 1, -1), ("A", "B", "C", "D")),
        Outcome(0, 1, 2, 1, (2, -2, 2, -2), ("A", "B", "C", "D")),
        Outcome(1, 0, 1, 0, (3, -3, 3, -3), ("E", "F", "G", "H")),
    ]
    assert {o.number for o in visible(outcomes, 2)} == {0}  # table 1 still plays deal 1's cards
    assert {o.number for o in visible(outcomes, 2, finished_tables={1})} == {0, 1}
    assert visible(outcomes, 3) == []  # table 2 has not finished deal 0


def test_tarock_tournament_is_a_plain_sum_of_the_lists() -> None:
    records, _, sessions = play_tournament("tapp_tarock", tables=2, deals=3)
    standings = standings_from_records(enumerate(records, start=1))
    assert standings["scoring"] == "sum"
    for row in standings["rows"]:
        assert row["points"] == sessions[row["table"]].totals[row["seat"]]


def test_a_changed_record_is_refused_naming_its_line() -> None:
    records, _, _ = play_tournament("doppelkopf", tables=2, deals=2)
    broken = json.loads(json.dumps(records))
    broken[2]["actions"][5], broken[2]["actions"][6] = broken[2]["actions"][6], broken[2]["actions"][5]
    with pytest.raises(RecordError, match="line 3"):
        standings_from_records(enumerate(broken, start=1))
    missing = [r for r in records if not (r["meta"]["tournament"]["table"] == 1 and r["meta"]["number"] == 0)]
    with pytest.raises(RecordError, match="deal 0"):
        standings_from_records(enumerate(missing, start=1))


def test_cli_prints_the_same_standings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, _, _ = play_tournament("doppelkopf", tables=2, deals=3)
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["tournament", "standings", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(standings_from_records(enumerate(records, start=1))))
    assert main(["tournament", "standings", str(path), "--json", "--comparison"]) == 0
    assert json.loads(capsys.readouterr().out)["comparison"]
    assert main(["tournament", "standings", str(path), "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Wertung: DDV-Liste" in out and "T0S0" in out
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "deal"}\n')
    assert main(["tournament", "standings", str(bad)]) == 2
