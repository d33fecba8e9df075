"""The golden decisions: what every built-in bot chose, observation by observation, on seeded deals.

The search and bots layer was rearranged and pruned (issue 31) under one
promise: every bot makes the same decision from the same observation and seed
as before.  :func:`play_decisions` plays :data:`DEALS` seeded deals of every
game with every seat taken by one bot of :data:`SPECS` (the search bots on
a fixed number of worlds or iterations, never a time budget, so that the
decisions are a function of the seeds) and lists each decision as the
digest of the observation the bot saw and the action it chose.
``tests/bots/test_golden_decisions.py`` compares them with the frozen file
``golden/decisions.json``; ``python tests/bots/golden_decisions.py`` writes
that file anew, which only a change that means to alter a bot's play may do.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.core.game import Observation
from stich.core.registry import game_names, make_game
from stich.core.rng import derive_seed

GOLDEN = Path(__file__).parent / "golden" / "decisions.json"
"""The frozen decisions: ``{"game bot": [[observation digest, action], ...]}``."""

SPECS = ("random", "heuristic", "pimc:worlds=3", "ismcts:simulations=24")
"""The bots whose decisions are frozen (their default variants, on a small fixed budget)."""

DEALS: dict[str, int] = {"random": 4, "heuristic": 4, "pimc:worlds=3": 2, "ismcts:simulations=24": 2}
"""Seeded deals played per game and bot."""

SEED = 31
"""Seed of the deals and the bots."""


def digest(observation: Observation) -> str:
    """A short, stable fingerprint of everything the bot saw."""
    text = json.dumps(observation.to_json(), sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def play_decisions(game_name: str, spec_text: str) -> list[list[str]]:
    """Every decision of ``DEALS[spec_text]`` deals of ``game_name`` with all seats played by ``spec_text``."""
    game = make_game(game_name)
    spec = parse_bot_spec(spec_text)
    decisions: list[list[str]] = []
    for deal in range(DEALS[spec_text]):
        deal_seed = derive_seed(SEED, deal)
        bots = [build_bot(spec, game, seat, derive_seed(deal_seed, 100 + seat)) for seat in range(game.num_seats)]
        state = game.new_state(seed=deal_seed, dealer=deal % game.num_seats)
        while not state.is_terminal():
            seat = state.current_player()
            observation = state.observation(seat)
            action = bots[seat].choose(observation)
            decisions.append([digest(observation), action.text])
            state.apply(action)
    return decisions


def all_decisions() -> dict[str, list[list[str]]]:
    """The decisions of every game and bot, keyed ``"game bot"``."""
    return {f"{game} {spec}": play_decisions(game, spec) for game in game_names() for spec in SPECS}


if __name__ == "__main__":
    data = all_decisions()
    GOLDEN.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"{GOLDEN}: {sum(len(v) for v in data.values())} decisions", file=sys.stderr)
