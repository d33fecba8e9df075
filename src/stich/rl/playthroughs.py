"""Golden OpenSpiel playthroughs: one seeded deal per game, written by OpenSpiel's own tool.

``python -m stich.rl.playthroughs`` rewrites ``tests/rl/playthroughs/``; a
test replays every file with OpenSpiel's ``generate_playthrough.replay`` and
fails on any difference (a changed rule, encoding, string or action name).
Refresh them only after an intended change, and say why in the commit.
"""

from __future__ import annotations

from pathlib import Path

from stich.core.registry import game_names
from stich.rl.openspiel_game import short_name

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "tests" / "rl" / "playthroughs"
SEED = 1


def path_of(name: str) -> Path:
    """The golden playthrough of a game."""
    return FOLDER / f"{short_name(name)}.txt"


def playthrough(name: str) -> str:
    """A fresh playthrough of one game's default preset (chance and actions drawn with :data:`SEED`)."""
    from open_spiel.python.algorithms import generate_playthrough

    text: str = generate_playthrough.playthrough(short_name(name), None, seed=SEED)
    return text


def main() -> None:
    """Write every game's playthrough."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in game_names():
        path = path_of(name)
        path.write_text(playthrough(name), encoding="utf-8")
        print(path.relative_to(ROOT), path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
