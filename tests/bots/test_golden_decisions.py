"""Every built-in bot still makes the decisions frozen in ``golden/decisions.json`` (see :mod:`golden_decisions`)."""

from __future__ import annotations

import json
import os

import pytest

from stich.core.registry import game_names, make_game

from .golden_decisions import CHECKED_DEALS, DEALS, GOLDEN, SPECS, digest, new_deal, play_decisions

FROZEN: dict[str, list[list[str]]] = json.loads(GOLDEN.read_text())


def test_golden_file_covers_every_game_and_bot() -> None:
    assert sorted(FROZEN) == sorted(f"{game} {spec}" for game in game_names() for spec in SPECS)
    assert all(len(decisions) >= 60 for decisions in FROZEN.values())


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("game", game_names())
def test_decisions_match_the_golden_file(game: str, spec: str) -> None:
    frozen = FROZEN[f"{game} {spec}"]
    deals = DEALS[spec] if os.environ.get("STICH_GOLDEN_FULL") else CHECKED_DEALS[spec]
    played = play_decisions(game, spec, deals)
    for index, (now, then) in enumerate(zip(played, frozen, strict=False)):
        assert now == then, f"{game} {spec}: decision {index} differs (observation {now[0]}: {now[1]!r}, frozen {then[0]}: {then[1]!r})"
    if deals == DEALS[spec]:
        assert len(played) == len(frozen)
    else:
        # the played deals end where the frozen list's next deal begins: its first observation comes next
        first = new_deal(make_game(game), deals)
        assert len(played) < len(frozen)
        assert frozen[len(played)][0] == digest(first.observation(first.current_player()))
