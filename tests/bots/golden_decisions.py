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
that file anew, which only a change that means to alter a bot's play may do,
and ``python tests/bots/golden_decisions.py --check`` compares every deal
with it (the test suite replays :data:`CHECKED_DEALS` of them).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.core.game import Game, Observation, State
from stich.core.registry import game_names, make_game
from stich.core.rng import derive_seed

GOLDEN = Path(__file__).parent / "golden" / "decisions.json"
"""The frozen decisions: ``{"game bot": [[observation digest, action], ...]}``."""

SPECS = ("random", "heuristic", "pimc:worlds=3", "ismcts:simulations=24")
"""The bots whose decisions are frozen (their default variants, on a small fixed budget)."""

DEALS: dict[str, int] = {"random": 4, "heuristic": 4, "pimc:worlds=3": 2, "ismcts:simulations=24": 2}
"""Seeded deals played per game and bot (the frozen file holds all of them, deal after deal)."""

CHECKED_DEALS: dict[str, int] = {"random": 4, "heuristic": 4, "pimc:worlds=3": 1, "ismcts:simulations=24": 1}
"""The first deals the test suite replays per bot: every deal of the cheap bots, the first of the search bots.

A search bot's deal costs seconds (about 30 s of the suite for the second
deals alone), and its first deal already takes it through every phase of
every game; the rest of the frozen list is checked with ``STICH_GOLDEN_FULL=1``
or ``python tests/bots/golden_decisions.py --check``.
"""

SEED = 31
"""Seed of the deals and the bots."""


def digest(observation: Observation) -> str:
    """A short, stable fingerprint of everything the bot saw."""
    text = json.dumps(observation.to_json(), sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def new_deal(game: Game, deal: int) -> State:
    """The ``deal``-th seeded deal of :func:`play_decisions`."""
    return game.new_state(seed=derive_seed(SEED, deal), dealer=deal % game.num_seats)


def play_decisions(game_name: str, spec_text: str, deals: int | None = None) -> list[list[str]]:
    """Every decision of the first ``deals`` deals (default ``DEALS[spec_text]``) of ``game_name``, all seats played by ``spec_text``."""
    game = make_game(game_name)
    spec = parse_bot_spec(spec_text)
    decisions: list[list[str]] = []
    for deal in range(DEALS[spec_text] if deals is None else deals):
        deal_seed = derive_seed(SEED, deal)
        bots = [build_bot(spec, game, seat, derive_seed(deal_seed, 100 + seat)) for seat in range(game.num_seats)]
        state = new_deal(game, deal)
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
    if sys.argv[1:] == ["--check"]:
        frozen = json.loads(GOLDEN.read_text())
        differ = sorted(key for key in frozen.keys() | data.keys() if frozen.get(key) != data.get(key))
        print(f"{GOLDEN}: {len(differ)} of {len(frozen)} lists differ {differ}", file=sys.stderr)
        sys.exit(1 if differ else 0)
    GOLDEN.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"{GOLDEN}: {sum(len(v) for v in data.values())} decisions", file=sys.stderr)
