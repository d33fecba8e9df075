"""``stich arena --ray [ADDRESS]``: the deals played on a Ray cluster give the same match as ``--workers``.

The cluster is a local Ray instance that the test starts (two CPUs, no
dashboard: the ``ray_address`` fixture of tests/conftest.py); skipped where
Ray is not installed (``pip install 'stich[ray]'``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess
from typing import Any

import pytest

from stich.arena import duplicate
from stich.arena.duplicate import ArenaError, run_duplicate
from stich.bots import registry
from stich.core.registry import make_game

from .helpers import assert_one_error_line, run_cli

MATCH = ("droggn", "--players", "4", "--bots", "heuristic,random", "--deals", "4", "--seed", "5")
SAME_BYTES = ("deals.csv", "records.jsonl")
RUN_ONLY = ("command", "out", "seconds")
"""What results.json says about the run rather than the match: the command, the folder, wall-clock times (and decision times)."""


def _results(folder: Path) -> dict[str, Any]:
    """results.json of a match without what describes the run (times, the command)."""
    data: dict[str, Any] = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    for key in RUN_ONLY:
        data.pop(key)
    for part in data["parts"]:
        part.pop("seconds")
    data["timing"] = {label: timing["decisions"] for label, timing in data["timing"].items()}
    return data


def _no_local_pool(chunks: object, workers: int) -> None:
    raise AssertionError("--ray played in the local process pool")


def _assert_same_match(one: Path, other: Path) -> None:
    for name in SAME_BYTES:
        assert (one / name).read_bytes() == (other / name).read_bytes(), name
    assert _results(one) == _results(other)


BROKEN = '''
"""A bot that fails at its first decision, as a bug in a bot would."""
from stich.errors import IllegalActionError


class Broken:
    def __init__(self, game, seat, seed):
        pass

    def choose(self, observation):
        raise IllegalActionError("no move today")
'''


def _assert_a_failing_bot_is_the_arena_error_naming_deal_and_seat(tmp_path: Path) -> None:
    """From Python, on the instance this process is connected to: the bot's error, not Ray's wrapping of it."""
    from stich.arena.ray_runner import RayRunner

    (tmp_path / "broken.py").write_text(BROKEN, encoding="utf-8")
    saved = dict(registry.BOTS)
    registry.register_bot("broken", f"{tmp_path / 'broken.py'}:Broken")  # the task registers it again from its chunk
    try:
        with (
            RayRunner() as runner,
            pytest.raises(ArenaError, match=r"^deal 0 \(deal seed \d+\), the rotation .* seat 0 failed at action \d+: no move today$"),
        ):
            run_duplicate(make_game("doppelkopf"), "broken", ["random"], deals=1, seed=1, runner=runner)
    finally:
        registry.BOTS.clear()
        registry.BOTS.update(saved)


def test_ray_plays_the_same_match_as_two_workers_and_passes_a_bot_failure_on(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ray_address: str,
    run_python: Callable[..., CompletedProcess[str]],
) -> None:
    status, _, err = run_cli(capsys, "arena", *MATCH, "--workers", "2", "--out", str(tmp_path / "workers"))
    assert status == 0, err
    # In a process connected to Ray already (the fixture's), --ray plays on that instance, not in a local pool.
    monkeypatch.setattr(duplicate, "_run_parallel", _no_local_pool)
    status, out, err = run_cli(capsys, "arena", *MATCH, "--ray", "--out", str(tmp_path / "ray"), "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["command"] == f"stich arena {' '.join(MATCH)} --ray --out {tmp_path / 'ray'}"
    assert data["workers"] == 2 and data["games_played"] == 4 * 4  # the instance's two CPUs; four games per Droggn deal
    _assert_same_match(tmp_path / "workers", tmp_path / "ray")

    # --ray ADDRESS from another process: a driver that connects to the running instance, as on a real cluster.
    argv = ["arena", *MATCH, "--ray", ray_address, "--out", str(tmp_path / "address"), "--json"]
    done = run_python("-c", "import sys; from stich.cli.main import main; sys.exit(main(sys.argv[1:]))", *argv)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["command"].endswith(f"--ray {ray_address} --out {tmp_path / 'address'}")
    _assert_same_match(tmp_path / "workers", tmp_path / "address")

    # One instance for the module (it takes seconds to start): the failure check runs on it here.
    _assert_a_failing_bot_is_the_arena_error_naming_deal_and_seat(tmp_path)


def test_without_ray_installed_the_error_names_the_extra(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    status, _, err = run_cli(capsys, "arena", *MATCH, "--ray")
    line = assert_one_error_line(status, err)
    assert "--ray needs Ray: pip install 'stich[ray]'" in line


def test_ray_and_workers_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, "arena", *MATCH, "--workers", "2", "--ray")
    line = assert_one_error_line(status, err)
    assert "--ray" in line and "--workers" in line
