"""tools/match_status.py: a match's standing read from its journal, and two matches paired on their common deals."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from stich.cli.main import main as stich

TOOLS = Path(__file__).resolve().parents[1] / "tools"
TOOL = TOOLS / "match_status.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("match_status", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def _ladder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength_ladder", TOOLS / "strength_ladder.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _match(folder: Path, candidate: str, seed: int = 2, deals: int = 6, references: str = "random") -> dict[str, object]:
    argv = ["arena", "tapp_tarock", "--bots", f"{candidate},{references}", "--deals", str(deals), "--seed", str(seed), "--workers", "1"]
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
    assert "has no per-deal outcomes (neither deal_outcomes nor deal_differences)" in capsys.readouterr().err
    assert tool.main([str(tmp_path / "nothing.json")]) == 2
    assert f"{tmp_path / 'nothing.json'} is no readable match folder or results file" in capsys.readouterr().err


@pytest.fixture(scope="module")
def kept_matches(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two matches of two references each, kept by tools/strength_ladder.py: their folders and the folder of the copies.

    Played once for the module (two ``pimc`` matches take seconds); the tests only read them.
    """
    folder = tmp_path_factory.mktemp("kept_matches")
    runs = folder / "runs"
    _match(runs / "a", "heuristic", references="random,pimc:worlds=1")
    _match(runs / "b", "pimc:worlds=1", references="random,pimc:worlds=1")
    assert _ladder().main(["keep", str(runs), "--into", str(folder / "kept")]) == 0
    return runs, folder / "kept"


def test_a_kept_copy_pairs_as_its_results_json(tmp_path: Path, capsys: pytest.CaptureFixture[str], kept_matches: tuple[Path, Path]) -> None:
    tool = _tool()
    runs, kept = kept_matches
    assert "deal_outcomes" not in json.loads((kept / "a.json").read_text(encoding="utf-8"))
    full = tool.compare(tool.load(runs / "a" / "results.json"), tool.load(runs / "b" / "results.json"))
    assert full["deals"] == 6 and full["pairings"]["random"]["paired"]["mean"] != 0
    assert tool.compare(tool.load(kept / "a.json"), tool.load(kept / "b.json")) == full
    differences = [deal.differences[0] for deal in tool.load(kept / "a.json").deals]
    assert any(d != round(d, 3) for d in differences)  # thirds: a copy rounded to a few decimals would not pair equal
    for source in ("a.json", "b.json"):
        status = tool.status(tool.load(kept / source))
        assert status.pop("folder") == str(kept / source)
        expected = tool.status(tool.load(runs / source.removesuffix(".json") / "results.json"))
        expected.pop("folder")
        assert status == expected
    # A folder on one side, a kept copy on the other, through the command line.
    capsys.readouterr()
    assert tool.main([str(runs / "a"), "--against", str(kept / "b.json"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["comparison"] == json.loads(json.dumps(full))
    assert tool.main([str(kept / "b.json"), "--against", str(runs / "a")]) == 0
    assert "on 6 common deals" in capsys.readouterr().out
    # A stopped match (four deals of six in its journal) against a kept copy: the common deals only.
    stopped = shutil.copytree(runs / "a", tmp_path / "a")  # the module's matches stay as played
    journal = stopped / "journal.jsonl"
    journal.write_bytes(b"".join(journal.read_bytes().splitlines(keepends=True)[:4]))
    partial = tool.compare(tool.load(stopped), tool.load(kept / "b.json"))
    a, b = (_differences(json.loads((runs / m / "results.json").read_text(encoding="utf-8"))) for m in ("a", "b"))
    assert partial["deals"] == 4
    assert partial["pairings"]["random"]["paired"]["mean"] == pytest.approx(sum(x - y for x, y in zip(a[:4], b[:4], strict=True)) / 4)


def test_an_old_or_damaged_kept_copy_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kept_matches: tuple[Path, Path]
) -> None:
    tool = _tool()
    _, kept = kept_matches
    good = json.loads((kept / "a.json").read_text(encoding="utf-8"))
    copy = tmp_path / "copy.json"

    def error(data: dict[str, object]) -> str:
        copy.write_text(json.dumps(data), encoding="utf-8")
        capsys.readouterr()
        assert tool.main([str(kept / "b.json"), "--against", str(copy)]) == 2
        return capsys.readouterr().err

    old = {key: value for key, value in good.items() if key != "deal_differences"}
    assert f"{copy} has no per-deal outcomes (neither deal_outcomes nor deal_differences)" in error(old)
    compact = good["deal_differences"]
    damaged = {
        "'deal_differences' must be an object": [],
        "'deal_differences.version' is 2": {**compact, "version": 2},
        "'deal_differences.indices[1]': its first deal": {**compact, "indices": [[0, 3], [2, 6]]},
        "'deal_differences.indices[0]' must be a [first, stop) range": {**compact, "indices": [[0]]},
        "'deal_differences.rotations' must be a whole number, at least 1, not 0": {**compact, "rotations": 0},
        "'deal_differences.rotations' has 2 numbers for 6 deals": {**compact, "rotations": [3, 3]},
        "'deal_differences.difference_sums' must be a list with one list per reference (2)": {
            **compact,
            "difference_sums": compact["difference_sums"][:1],
        },
        "'deal_differences.difference_sums[1]' must be a list of 6 numbers": {
            **compact,
            "difference_sums": [compact["difference_sums"][0], compact["difference_sums"][1][:5]],
        },
        "'deal_differences.difference_sums[0][2]' must be a number, not 'x'": {
            **compact,
            "difference_sums": [
                [*compact["difference_sums"][0][:2], "x", *compact["difference_sums"][0][3:]],
                compact["difference_sums"][1],
            ],
        },
    }
    for message, value in damaged.items():
        assert f"{copy}: field {message}" in error({**good, "deal_differences": value}), message
