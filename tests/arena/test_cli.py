"""``stich arena``: the summary, the files of --out, determinism across --workers, missing matplotlib, bad input."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from stich.arena.report import histogram_edges
from stich.core.records import read_jsonl, replay_any
from stich.core.rng import derive_seed

from .helpers import assert_one_error_line, run_cli

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def arena(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[dict[str, Any], str]:
    """Run ``stich arena ... --json``; return the summary and stderr."""
    status, out, err = run_cli(capsys, "arena", *argv, "--json")
    assert status == 0, err
    data: dict[str, Any] = json.loads(out)
    return data, err


def test_out_writes_every_file_and_they_agree(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "match"
    data, err = arena(
        capsys, "doppelkopf", "--bots", "heuristic,random", "--deals", "6", "--seed", "3", "--workers", "1", "--out", str(out)
    )
    assert err == ""
    assert data["command"] == f"stich arena doppelkopf --bots heuristic,random --deals 6 --seed 3 --workers 1 --out {out}"
    assert data["game"] == "doppelkopf(preset=ddv)" and data["seed"] == 3 and data["deals"] == 6
    assert data["games_played"] == 6 * 5 and data["out"] == str(out)

    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["pairings"] == data["pairings"] and results["ratings"] == data["ratings"]
    assert [d["seed"] for d in results["deal_outcomes"]] == [derive_seed(3, i) for i in range(6)]

    with open(out / "deals.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [int(r["index"]) for r in rows] == list(range(6))
    assert [int(r["seed"]) for r in rows] == [derive_seed(3, i) for i in range(6)]
    diffs = [float(r["difference"]) for r in rows]
    assert diffs == [float(r["candidate_mean"]) - float(r["reference_mean"]) for r in rows]
    assert sum(diffs) / 6 == pytest.approx(data["pairings"][0]["difference"]["mean"])
    wins = sum(1 for d in diffs if d > 0)
    assert data["pairings"][0]["outcomes"]["wins"] == wins

    records = [record for _, record in read_jsonl(out / "records.jsonl")]
    assert len(records) == 30
    for record in records:
        replay_any(record)  # any surprising deal can be replayed
    assert {r["meta"]["arena"]["role"] for r in records} == {"baseline", "rotation"}

    for name in ("score_distribution.png", "ratings.png"):
        assert (out / name).read_bytes()[:8] == PNG_MAGIC


def test_text_summary_names_the_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(
        capsys, "arena", "tapp_tarock", "--bots", "heuristic,random", "--deals", "5", "--seed", "1", "--workers", "1"
    )
    assert status == 0 and err == ""
    assert "heuristic vs random: 5 deals, 15 candidate seats" in out
    assert "95% CI (normal):" in out and "95% CI (t, df 4):" in out
    assert "random       1500  (anchor)" in out
    assert "time per decision:" in out


def test_same_files_with_one_or_two_workers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    common = ("droggn", "--players", "4", "--bots", "heuristic,random", "--deals", "8", "--seed", "5")
    one, _ = arena(capsys, *common, "--workers", "1", "--out", str(tmp_path / "one"))
    two, _ = arena(capsys, *common, "--workers", "2", "--out", str(tmp_path / "two"))
    assert one["pairings"] == two["pairings"]
    for name in ("deals.csv", "records.jsonl"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    # Four at a Droggn table: the dealer sits out, so three rotations per deal.
    assert one["pairings"][0]["rotations"] == 8 * 3 and one["games_played"] == 8 * 4


def test_reuse_baseline_is_echoed_in_the_command_the_summary_and_the_results(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    common = ("tapp_tarock", "--bots", "heuristic,random", "--deals", "3", "--seed", "2", "--workers", "1")
    data, _ = arena(capsys, *common, "--reuse-baseline", "--out", str(tmp_path / "reused"))
    assert data["command"] == f"stich arena {' '.join(common)} --reuse-baseline --out {tmp_path / 'reused'}"
    assert data["reuse_baseline"] is True
    assert json.loads((tmp_path / "reused" / "results.json").read_text(encoding="utf-8"))["reuse_baseline"] is True
    plain, _ = arena(capsys, *common)
    assert plain["reuse_baseline"] is False and "--reuse-baseline" not in plain["command"]
    status, out, _ = run_cli(capsys, "arena", *common, "--reuse-baseline")
    assert status == 0 and "references: random (rotations reuse the baseline's actions)" in out


def test_without_matplotlib_the_plots_are_skipped_with_a_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    data, err = arena(
        capsys, "doppelkopf", "--bots", "heuristic,random", "--deals", "2", "--seed", "1", "--workers", "1", "--out", str(tmp_path)
    )
    assert err.strip() == "stich: warning: matplotlib is not installed, so no plots were drawn (pip install 'stich[plots]')"
    assert (tmp_path / "results.json").exists() and (tmp_path / "deals.csv").exists() and (tmp_path / "records.jsonl").exists()
    assert not (tmp_path / "ratings.png").exists()
    assert data["deals"] == 2


def test_histogram_bins_are_centred_on_the_values() -> None:
    assert histogram_edges([0.0, 0.25, 1.0]) == [-0.125, 0.125, 0.375, 0.625, 0.875, 1.125]
    assert histogram_edges([2.0, 2.0]) == [1.5, 2.5]
    assert len(histogram_edges([float(v) for v in range(1000)])) <= 61


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "heuristic", "--deals", "2", "--seed", "1"], "give the candidate and at least one reference"),
        (["--bots", "foo,random", "--deals", "2", "--seed", "1"], "unknown bot 'foo'; available: random, heuristic"),
        (["--bots", "heuristic:sims=20,random", "--deals", "2", "--seed", "1"], "bot 'heuristic' has no option 'sims'"),
        (["--bots", "heuristic,random", "--deals", "0", "--seed", "1"], "argument --deals: must be at least 1, not 0"),
        (["--bots", "heuristic,random", "--deals", "2", "--seed", "1", "--workers", "0"], "argument --workers: must be at least 1, not 0"),
        (["--bots", "heuristic,random", "--deals", "2", "--seed", "x"], "argument --seed: must be an integer, not 'x'"),
        (["--bots", "heuristic,random", "--deals", "2", "--seed", "1", "--players", "7"], "option players must be at most 5, not 7"),
        (["--bots", "heuristic,random", "--deals", "2", "--seed", "1", "--option", "nines=maybe"], "option nines"),
    ],
)
def test_bad_input_is_one_error_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, _out, err = run_cli(capsys, "arena", "doppelkopf", *argv)
    assert message in assert_one_error_line(status, err)


def test_out_that_is_a_file_and_an_unknown_game_are_one_error_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("x")
    status, _out, err = run_cli(
        capsys, "arena", "doppelkopf", "--bots", "heuristic,random", "--deals", "1", "--seed", "1", "--out", str(blocker)
    )
    assert f"--out {blocker} is a file, not a folder" in assert_one_error_line(status, err)
    status, _out, err = run_cli(capsys, "arena", "tarock", "--bots", "heuristic,random", "--deals", "1", "--seed", "1")
    assert "unknown game 'tarock'" in assert_one_error_line(status, err)
    status, _out, err = run_cli(capsys, "arena", "doppelkopf", "--deals", "1", "--seed", "1")
    assert "required: --bots" in assert_one_error_line(status, err)
