"""What every benchmark script shares: the machine and checkout a figure was taken on, and GC-free timing.

The scripts in ``bench/`` run as ``python bench/NAME.py``, so this module is
imported by its plain name (the script's folder is first on ``sys.path``).
"""

from __future__ import annotations

import gc
import os
import platform
import random
import subprocess
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np


def git_revision() -> str:
    """Short commit of the checkout, with ``+dirty`` when the tree has changes (``unknown`` outside git)."""
    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10, check=True)
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def machine_info(dists: Iterable[str] = ("stich", "open_spiel"), **extra: Any) -> dict[str, Any]:
    """The machine, the versions of ``dists`` and the command the figures were taken with; ``extra`` is added as is."""
    model = "unknown"
    with suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    versions: dict[str, str] = {}
    for dist in dists:
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = "not installed"
    load: list[float] = []
    with suppress(OSError):
        load = [round(x, 2) for x in os.getloadavg()]
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "cpu_count": os.cpu_count(),
        "cpu_model": model,
        "python": platform.python_version(),
        "python_impl": platform.python_implementation(),
        "platform": platform.platform(),
        "loadavg_at_start": load,
        "versions": versions,
        **extra,
        "git": git_revision(),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
    }


@contextmanager
def no_gc() -> Iterator[None]:
    """Switch the cyclic garbage collector off for a timing (as timeit does)."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def rounded(x: Any, digits: int = 4) -> Any:
    """``x`` with every float in it (nested dicts and lists too) rounded, for readable JSON reports."""
    if isinstance(x, dict):
        return {k: rounded(v, digits) for k, v in x.items()}
    if isinstance(x, list):
        return [rounded(v, digits) for v in x]
    if isinstance(x, float):
        return round(x, digits)
    return x


def progress(message: str) -> None:
    """A progress line on stderr (the report itself goes to stdout)."""
    print(f"... {message}", file=sys.stderr, flush=True)


def spiel_position(game: Any, rng: Any) -> Any:
    """An OpenSpiel card-play state with a real choice: chance sampled, every decision random, stopping at a random ply.

    ``game`` is a ``pyspiel`` game, ``rng`` a ``random.Random``; the peer positions of the ISMCTS and sampling benches.
    """
    while True:
        state = game.new_initial_state()
        stop_after = rng.randrange(8, 40)
        plies = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            legal = state.legal_actions()
            if plies >= stop_after and len(legal) > 1:
                return state
            state.apply_action(rng.choice(legal))
            plies += 1


def spiel_observation(game: Any) -> str:
    """The observation a ``pyspiel`` game offers, best first: its observation tensor, information-state tensor or string."""
    kind = game.get_type()
    if kind.provides_observation_tensor:
        return "observation_tensor"
    return "information_state_tensor" if kind.provides_information_state_tensor else "information_state_string"


def spiel_deals(game: Any, deals: int) -> int:
    """Play ``deals`` deals of a ``pyspiel`` game (seeds 0..deals-1) with random legal actions; the player actions taken.

    At every player action the state's :func:`spiel_observation` of the player to act is built (what a learner
    reads), then ``legal_actions()`` and a random one of them; chance outcomes are sampled by their probabilities
    and not counted.  The OpenSpiel rows of ``bench_rl.py``, ``bench_batched.py`` and ``bench_frameworks.py``.
    """
    observe = spiel_observation(game)
    steps = 0
    for seed in range(deals):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            getattr(state, observe)(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


def aec_deals(env: Any, deals: int) -> int:
    """Play ``deals`` deals (seeds 0..deals-1) on a PettingZoo AEC ``env`` with random legal actions; the actions taken.

    Per action ``env.last()`` (the acting agent's observation and mask) and ``env.step``, the action drawn from the
    mask; the finished agents' ``step(None)`` calls at the end are not counted.
    """
    steps = 0
    for seed in range(deals):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in env.agent_iter():
            obs, _reward, terminated, _truncated, _info = env.last()
            if terminated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps
