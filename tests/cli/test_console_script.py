"""The installed ``stich`` command (or ``python -m stich.cli.main``) in a real subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def command() -> list[str]:
    """The console script if installed, else the module."""
    found = shutil.which("stich") or shutil.which("stich", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "stich.cli.main"]


def run(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")])))
    return subprocess.run([*command(), *argv], input=stdin, capture_output=True, text=True, env=env, timeout=120, check=False)


def test_sim_replay_and_an_error_in_a_subprocess(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    sim = run("sim", "doppelkopf", "--games", "3", "--seed", "4", "--bots", "heuristic", "--out", str(out))
    assert sim.returncode == 0, sim.stderr
    assert "games:     3 deals" in sim.stdout
    assert sim.stderr == ""  # no progress bar when stderr is not a terminal
    replay = run("replay", str(out))
    assert replay.returncode == 0 and "3 valid, all valid" in replay.stdout
    bad = run("sim", "doppelkopf", "--preset", "nope", "--games", "1", "--seed", "1")
    assert bad.returncode == 2
    presets = "ddv, ddv_no_nines, house_classic, freedoko_standard, freedoko_tournament"
    assert bad.stderr.splitlines() == [f"stich: error: doppelkopf has no preset 'nope'; presets: {presets}"]


def test_play_quits_on_end_of_input_in_a_subprocess() -> None:
    done = run("play", "doppelkopf", "--seed", "2", "--bots", "random", stdin="help\n")
    assert done.returncode == 0
    assert "Game abandoned." in done.stdout and "Traceback" not in done.stderr
