"""The arena reports, per bot, the decisions a search bot did not search but left to the heuristic (stich.bots.fallbacks).

A patched ``pimc`` sampler that finds no world at some decisions stands for
a sampler bug; the counts must reach the summary, ``results.json``, the
journal, a resumed match and ``tools/match_status.py``.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from stich.arena.duplicate import run_duplicate
from stich.arena.journal import JOURNAL_FILE, read_journal
from stich.arena.report import fallback_line, summarize, summary_text
from stich.bots import pimc as pimc_bot
from stich.bots.samplers import prepare_sampler
from stich.core.game import Game, Observation
from stich.core.registry import make_game
from stich.search.sampling import SamplingError, WorldSampler

from .helpers import run_cli


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("match_status", Path(__file__).resolve().parents[2] / "tools" / "match_status.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


match_status = _tool()
PIMC = "pimc:worlds=1"
MATCH = ("tapp_tarock", "--bots", f"{PIMC},heuristic", "--seed", "2", "--workers", "1")
"""Four deals with one worker: chunks of one deal each, so the journal has four chunk lines."""


class Buggy:
    """A sampler that finds no world at every third decision it is asked for (by the number of events: deterministic)."""

    def __init__(self) -> None:
        self.failed = 0

    def __call__(self, game: Game, observation: Observation) -> WorldSampler:
        if len(observation.events) % 3 == 0:
            self.failed += 1
            raise SamplingError("no placement of the unseen cards fits (a wrong inference)")
        return prepare_sampler(game, observation)


@pytest.fixture
def buggy(monkeypatch: pytest.MonkeyPatch) -> Buggy:
    sampler = Buggy()
    monkeypatch.setattr(pimc_bot, "prepare_sampler", sampler)
    return sampler


def counts(no_world: int) -> dict[str, int]:
    return {"no_world": no_world, "no_sampler": 0, "out_of_time": 0}


def test_a_match_reports_the_fallbacks_in_the_summary_results_and_journal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, buggy: Buggy
) -> None:
    status, out, err = run_cli(capsys, "arena", *MATCH, "--deals", "4", "--out", str(tmp_path))
    assert status == 0, err
    assert buggy.failed > 0
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    # Only the bot that counts fallbacks has a key; the heuristic reports nothing.
    assert data["fallbacks"] == {PIMC: counts(buggy.failed)}
    decisions = data["timing"][PIMC]["decisions"]
    assert decisions > buggy.failed
    line = f"  {PIMC}: {buggy.failed} of {decisions:,} decisions fell back to the heuristic (no world fits: {buggy.failed})"
    lines = out.splitlines()
    assert line in lines
    assert lines[lines.index(line) - 1].startswith("decisions not searched")
    assert sum("fell back" in text for text in lines) == 1
    # The journal has them chunk by chunk, and they add up to the match's.
    chunks = [json.loads(text)["chunk"] for text in (tmp_path / JOURNAL_FILE).read_text(encoding="utf-8").splitlines()[2:]]
    assert len(chunks) == 4 and all(set(chunk["fallbacks"]) == {PIMC} for chunk in chunks)
    assert sum(chunk["fallbacks"][PIMC]["no_world"] for chunk in chunks) == buggy.failed
    assert read_journal(tmp_path / JOURNAL_FILE).played.fallbacks == {PIMC: counts(buggy.failed)}
    # tools/match_status.py shows the line, from the journal and from results.json alone.
    assert f"  {line.strip()}" in match_status.status_text(match_status.status(match_status.load(tmp_path)))
    assert match_status.status(match_status.load(tmp_path))["fallbacks"] == {PIMC: counts(buggy.failed)}
    (tmp_path / JOURNAL_FILE).unlink()
    assert match_status.status(match_status.load(tmp_path))["fallbacks"] == {PIMC: counts(buggy.failed)}


def test_a_resumed_match_keeps_the_fallbacks_of_its_first_run(capsys: pytest.CaptureFixture[str], tmp_path: Path, buggy: Buggy) -> None:
    status, _out, err = run_cli(capsys, "arena", *MATCH, "--deals", "4", "--out", str(tmp_path / "whole"), "--json")
    assert status == 0, err
    whole = json.loads((tmp_path / "whole" / "results.json").read_text(encoding="utf-8"))["fallbacks"]
    assert whole == {PIMC: counts(buggy.failed)} and buggy.failed > 0
    folder = tmp_path / "resumed"
    for deals, extra in (("2", ()), ("4", ("--resume",))):
        status, _out, err = run_cli(capsys, "arena", *MATCH, "--deals", deals, "--out", str(folder), "--json", *extra)
        assert status == 0, err
    data = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    assert len(data["parts"]) == 2
    assert data["fallbacks"] == whole
    assert read_journal(folder / JOURNAL_FILE).played.fallbacks == whole


def test_a_journal_from_before_the_fallbacks_goes_on_counting_the_new_deals(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, buggy: Buggy
) -> None:
    status, _out, err = run_cli(capsys, "arena", *MATCH, "--deals", "2", "--out", str(tmp_path), "--json")
    assert status == 0, err
    first = buggy.failed
    # As an older stich wrote it: chunk lines without 'fallbacks', results.json without the key.
    journal = tmp_path / JOURNAL_FILE
    lines = []
    for text in journal.read_text(encoding="utf-8").splitlines():
        entry = json.loads(text)
        entry.get("chunk", {}).pop("fallbacks", None)
        lines.append(json.dumps(entry, separators=(",", ":")))
    journal.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert read_journal(journal).played.fallbacks == {}
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    del results["fallbacks"]
    assert match_status.status(match_status.load(tmp_path))["fallbacks"] == {}
    assert summary_text(results)  # an old summary renders without the key
    status, _out, err = run_cli(capsys, "arena", *MATCH, "--deals", "4", "--out", str(tmp_path), "--json", "--resume")
    assert status == 0, err
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert buggy.failed > first
    assert data["fallbacks"] == {PIMC: counts(buggy.failed - first)}  # the old run's counts are missing, read as zero


def test_a_normal_match_reports_zero_fallbacks_and_no_line(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_duplicate(make_game("tapp_tarock"), PIMC, ["heuristic", "random"], 2, 2)
    assert result.fallbacks == {PIMC: counts(0)}
    data = summarize(result)
    assert data["fallbacks"] == {PIMC: counts(0)}
    assert not any("fell back" in line or "not searched" in line for line in summary_text(data))
    # Bots without the counter report nothing at all.
    assert run_duplicate(make_game("tapp_tarock"), "heuristic", ["random"], 2, 2).fallbacks == {}


def test_a_reference_counts_its_fallbacks_and_reused_decisions_are_not_counted_again(buggy: Buggy) -> None:
    # The counts belong to the labels in baselines and rotations alike: pimc as the reference counts too.
    game = make_game("tapp_tarock")
    result = run_duplicate(game, "heuristic", [PIMC], 2, 2)
    assert set(result.fallbacks) == {PIMC} and result.fallbacks[PIMC]["no_world"] == buggy.failed > 0
    reused = run_duplicate(game, "heuristic", [PIMC], 2, 2, reuse_baseline=True)
    # Reused reference decisions are not made again, so they cannot fall back again.
    assert 0 < reused.fallbacks[PIMC]["no_world"] < result.fallbacks[PIMC]["no_world"]


@pytest.mark.parametrize(
    ("counts_", "decisions", "expected"),
    [
        (
            {"no_world": 3, "no_sampler": 0, "out_of_time": 0},
            41220,
            "p: 3 of 41,220 decisions fell back to the heuristic (no world fits: 3)",
        ),
        (
            {"no_world": 1, "no_sampler": 2, "out_of_time": 1200},
            None,
            "p: 1,203 decisions fell back to the heuristic (no world fits: 1, no sampler: 2, out of time before a first world: 1,200)",
        ),
        ({"out_of_time": 0, "no_world": 1}, None, "p: 1 decision fell back to the heuristic (no world fits: 1)"),
        ({"later_reason": 2}, 10, "p: 2 of 10 decisions fell back to the heuristic (later_reason: 2)"),
        ({"no_world": 0}, 10, None),
    ],
)
def test_the_fallback_line(counts_: dict[str, int], decisions: int | None, expected: str | None) -> None:
    assert fallback_line("p", counts_, decisions) == expected
