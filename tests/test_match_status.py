"""tools/match_status.py: a match's standing read from its journal, and two matches paired on their common deals."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from stich.cli.main import main as stich

TOOL = Path(__file__).resolve().parents[1] / "tools" / "match_status.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("match_status", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def _match(folder: Path, candidate: str, seed: int = 2, deals: int = 6) -> dict[str, object]:
    argv = ["arena", "tapp_tarock", "--bots", f"{candidate},random", "--deals", str(deals), "--seed", str(seed), "--workers", "1"]
    assert stich([*argv, "--out", str(folder)]) == 0
    data: dict[str, object] = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    return data


def _differences(results: dict[str, object]) -> list[float]:
    outcomes = results["deal_outcomes"]
    assert isinstance(outcomes, list)
    return [deal["pairings"][0]["difference"] for deal in outcomes]


def test_status_of_a_finished_and_of_a_stopped_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = _tool()
    results = _match(tmp_path / "a", "heuristic")
    capsys.readouterr()
    data = tool.status(tool.load(tmp_path / "a"))
    pairing = results["pairings"][0]  # type: ignore[index]
    assert (data["deals"], data["target"]) == (6, 6)
    assert data["pairings"]["random"]["mean"] == pytest.approx(pairing["difference"]["mean"])
    assert data["pairings"]["random"]["ci_t"] == pytest.approx(pairing["difference"]["ci_t"])
    # A stopped match: the journal cut after its second chunk line (chunks of two deals: four of six).
    journal = tmp_path / "a" / "journal.jsonl"
    journal.write_bytes(b"".join(journal.read_bytes().splitlines(keepends=True)[:4]))
    data = tool.status(tool.load(tmp_path / "a"))
    assert (data["deals"], data["target"]) == (4, 6) and data["seconds_left"] is not None
    assert data["pairings"]["random"]["mean"] == pytest.approx(sum(_differences(results)[:4]) / 4)
    assert tool.main([str(tmp_path / "a")]) == 0
    assert "4 of 6 deals" in capsys.readouterr().out


def test_against_pairs_the_common_deals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = _tool()
    first = _match(tmp_path / "a", "heuristic")
    second = _match(tmp_path / "b", "random")
    (tmp_path / "b" / "journal.jsonl").unlink()  # read from results.json instead
    capsys.readouterr()
    assert tool.main([str(tmp_path / "a"), "--against", str(tmp_path / "b"), "--json"]) == 0
    comparison = json.loads(capsys.readouterr().out)["comparison"]
    paired = comparison["pairings"]["random"]["paired"]
    expected = [x - y for x, y in zip(_differences(first), _differences(second), strict=True)]
    assert comparison["deals"] == 6 and paired["mean"] == pytest.approx(sum(expected) / 6)
    assert all(y == 0 for y in _differences(second))  # random against random: the same seeds, the same games
    _match(tmp_path / "c", "heuristic", seed=3)
    assert tool.main([str(tmp_path / "a"), "--against", str(tmp_path / "c")]) == 2
    assert "the matches differ in seed (2 vs 3)" in capsys.readouterr().err


def test_a_folder_without_a_match_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = _tool()
    assert tool.main([str(tmp_path)]) == 2
    assert "holds no readable journal.jsonl or results.json" in capsys.readouterr().err
    (tmp_path / "results.json").write_text(json.dumps({"game": "x", "seed": 1, "candidate": "a", "references": ["b"]}))
    assert tool.main([str(tmp_path)]) == 2
    assert "has no deal_outcomes" in capsys.readouterr().err
