"""Bots for the web tests that think in the server's bot worker processes (registered by this file's path).

They talk to the test through files in the folder named by the environment
variable ``STICH_TEST_BOTS`` (inherited by the worker processes):

* ``DeepBot`` takes a ``level`` like the search bots, appends it to
  ``levels`` and plays the first legal action;
* ``GateBot`` creates ``entered`` and waits (at most :data:`GATE_SECONDS`)
  until the test creates ``open``, then plays the last legal action; a wait
  that times out creates ``timed_out``;
* ``PidBot`` appends its process id to ``pids`` and plays the first legal action;
* ``CrashBot`` ends its process in its first decision (a worker that dies
  mid-decision), or in every one while ``crash_always`` exists;
* ``RaiseBot`` raises in every decision.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from stich.core.game import Action, Game, Observation

GATE_SECONDS = 20.0
"""Longest a gate bot waits; a gate that times out means the server could not answer while it thought."""


def folder() -> Path:
    """The folder shared with the test."""
    return Path(os.environ["STICH_TEST_BOTS"])


def _append(name: str, text: str) -> None:
    with (folder() / name).open("a", encoding="ascii") as handle:
        handle.write(text + "\n")


class DeepBot:
    """A bot with a strength level, like the search bots; plays the first legal action."""

    def __init__(self, game: Game, seat: int, seed: int, level: int = 3) -> None:
        self.name = f"deep-{level}"
        self.level = level

    def choose(self, observation: Observation) -> Action:
        _append("levels", str(self.level))
        return observation.legal_actions[0]


class GateBot:
    """Blocks in ``choose`` until the test opens the gate, then plays the last legal action."""

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        self.name = "gate"

    def choose(self, observation: Observation) -> Action:
        (folder() / "entered").touch()
        deadline = time.monotonic() + GATE_SECONDS
        while not (folder() / "open").exists():
            if time.monotonic() > deadline:
                (folder() / "timed_out").touch()
                break
            time.sleep(0.01)
        return observation.legal_actions[-1]


class PidBot:
    """Notes the process it thinks in; plays the first legal action."""

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        self.name = "pid"

    def choose(self, observation: Observation) -> Action:
        _append("pids", str(os.getpid()))
        return observation.legal_actions[0]


class CrashBot:
    """Ends its worker process in the middle of its first decision (every decision while ``crash_always`` exists)."""

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        self.name = "crash"

    def choose(self, observation: Observation) -> Action:
        marker = folder() / "crashed"
        if not marker.exists() or (folder() / "crash_always").exists():
            marker.touch()
            os._exit(3)
        return observation.legal_actions[0]


class RaiseBot:
    """Fails with an exception, as a buggy bot would."""

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        self.name = "raise"

    def choose(self, observation: Observation) -> Action:
        raise RuntimeError("this bot always fails")
