"""tools/first_divergence.py: rotations paired with their baseline and grouped by the first action where they left it."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

TOOL = Path(__file__).resolve().parents[1] / "tools" / "first_divergence.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("first_divergence", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the tool is loaded
    spec.loader.exec_module(module)
    return module


def _record(
    deal: int, role: str, rotation: int | None, actions: list[list[Any]], scores: list[int], declarer: int | None = None
) -> dict[str, Any]:
    meta: dict[str, Any] = {"deal_index": deal, "reference": "pimc", "role": role}
    if rotation is not None:
        meta["rotation"] = rotation
    result: dict[str, Any] = {"scores": scores}
    if declarer is not None:
        result["declarer"] = declarer
    return {"actions": actions, "result": result, "meta": {"arena": meta}}


BASE = [[0, "gesund"], [1, "gesund"], [0, "play SK"], [1, "play S10"]]


def _match() -> list[dict[str, Any]]:
    return [
        _record(0, "baseline", None, BASE, [2, -2]),
        # seat 1 announced where the baseline played: lost 3 more
        _record(0, "rotation", 1, [*BASE[:3], [1, "announce kontra"], [1, "play S10"]], [4, -4]),
        # seat 0 played another card: gained 4
        _record(0, "rotation", 0, [*BASE[:2], [0, "play SA"], [1, "play S10"]], [6, -6]),
        _record(1, "baseline", None, BASE, [0, 0], declarer=0),
        _record(1, "rotation", 0, BASE, [0, 0], declarer=0),
        _record(1, "rotation", 1, [[0, "gesund"], [1, "vorbehalt"]], [3, -3], declarer=0),
    ]


def test_rotations_are_paired_with_their_baseline_and_named_by_the_first_difference() -> None:
    tool = _tool()
    found = {(r.deal, r.seat): r for r in tool.rotations(_match())}
    assert found[(0, 1)].kind == "play -> announce kontra" and found[(0, 1)].difference == -2 and found[(0, 1)].index == 3
    assert found[(0, 0)].kind == "play" and found[(0, 0)].difference == 4 and found[(0, 0)].index == 2
    assert found[(1, 0)].kind == "same" and found[(1, 0)].index is None
    assert found[(1, 1)].kind == "defender gesund -> vorbehalt" and found[(1, 1)].difference == -3
    rows = tool.summary(list(found.values()))
    assert [row["kind"] for row in rows] == ["defender gesund -> vorbehalt", "play -> announce kontra", "same", "play"]
    assert rows[-1] == {"kind": "play", "rotations": 1, "sum": 4, "mean": 4.0}


def test_a_first_difference_made_by_another_seat_is_marked() -> None:
    """A reference in seat 1 chose differently before the candidate in seat 0 did: the kind says so."""
    tool = _tool()
    records = [
        _record(0, "baseline", None, BASE, [2, -2]),
        _record(0, "rotation", 0, [*BASE[:1], [1, "vorbehalt"], [0, "play SA"]], [-1, 1]),
    ]
    (found,) = tool.rotations(records)
    assert found.kind == "other seat: gesund -> vorbehalt" and found.index == 1 and found.difference == -3


def test_a_rotation_without_baseline_names_the_deal() -> None:
    tool = _tool()
    with pytest.raises(ValueError, match="deal 0"):
        tool.rotations(_match()[1:3])
    with pytest.raises(ValueError, match=r"meta\.arena"):
        tool.rotations([{"actions": [], "result": {"scores": []}}])


def test_command_line_prints_the_table_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = _tool()
    (tmp_path / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _match()), encoding="utf-8")
    assert tool.main([str(tmp_path), "--worst", "1"]) == 0
    out = capsys.readouterr().out
    assert "4 rotations, summed difference -1.0" in out and "deal 1 seat 1: -3" in out
    assert tool.main([str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rotations"] == 4 and data["rows"][0]["kind"] == "defender gesund -> vorbehalt"
    assert tool.main([str(tmp_path / "missing")]) == 2
    assert "records.jsonl" in capsys.readouterr().err


def test_heuristic_tag_says_whose_action_the_heuristic_would_have_chosen(tmp_path: Path) -> None:
    """Against the deterministic Dobbm heuristic as reference, the baseline's action is always the heuristic's."""
    from stich.cli.main import main as stich_main

    out = tmp_path / "match"
    arena = ["arena", "dobbm", "--bots", "random,heuristic", "--deals", "3", "--seed", "4", "--workers", "1"]
    assert stich_main([*arena, "--out", str(out)]) == 0
    tool = _tool()
    records = [json.loads(line) for line in (out / "records.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    plain = tool.rotations(records)
    tagged = tool.rotations(records, heuristic=True)
    assert len(plain) == len(tagged) and any(r.index is not None for r in tagged)
    for before, after in zip(plain, tagged, strict=True):
        if before.index is None:
            assert after.kind == "same"
        else:
            assert after.kind == f"{before.kind} [heuristic: baseline]", (before, after)


def test_side_shares_add_up_to_the_mean_per_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Deal 0 names no declarer (+1 per rotation on average), deal 1's defender lost 3 over two rotations (-1.5)."""
    tool = _tool()
    found = tool.rotations(_match())
    shares = {row["side"]: row for row in tool.side_shares(found)}
    assert set(shares) == {"none", "declarer", "defender"}
    assert shares["none"]["share"] == pytest.approx(0.5) and shares["none"]["rotations"] == 2
    assert shares["declarer"]["share"] == pytest.approx(0.0) and shares["declarer"]["rotations"] == 1
    assert shares["defender"]["share"] == pytest.approx(-0.75)
    half = 12.7062 * 0.75  # Student's t for one degree of freedom times the standard error of (0, -1.5)
    assert shares["defender"]["low"] == pytest.approx(-0.75 - half, rel=1e-5)
    assert shares["defender"]["high"] == pytest.approx(-0.75 + half, rel=1e-5)
    assert sum(row["share"] for row in shares.values()) == pytest.approx((1.0 - 1.5) / 2)  # the match's mean per deal
    (tmp_path / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _match()), encoding="utf-8")
    assert tool.main([str(tmp_path), "--sides"]) == 0
    assert "defender share of the mean per deal: -0.750" in capsys.readouterr().out
    assert tool.main([str(tmp_path), "--sides", "--json"]) == 0
    assert {row["side"] for row in json.loads(capsys.readouterr().out)["sides"]} == {"none", "declarer", "defender"}
    (single,) = tool.side_shares(tool.rotations(_match()[:3]))  # deal 0 alone
    assert single["share"] == pytest.approx(1.0) and single["low"] is None and single["high"] is None
