"""Golden OpenSpiel playthroughs: OpenSpiel's own tool replays each game's file and must write it again unchanged."""

from __future__ import annotations

import pytest
from absl import flags
from open_spiel.python.algorithms import generate_playthrough

import stich.rl.openspiel_game  # noqa: F401 - registers the games
from stich.core.registry import game_names
from stich.rl.playthroughs import path_of


@pytest.fixture(autouse=True)
def _absl_flags() -> None:
    # The tool reads its absl flags (their defaults) while replaying; outside an absl program nobody parsed them.
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()


@pytest.mark.parametrize("name", game_names())
def test_the_golden_playthrough_replays_unchanged(name: str) -> None:
    original, fresh = generate_playthrough.replay(str(path_of(name)))
    assert fresh == original, f"run python -m stich.rl.playthroughs after an intended change ({path_of(name).name})"
