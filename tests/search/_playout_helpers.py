"""Shared pieces of the compiled heuristic card play tests (test_dobbm_playout.py, test_tapp_tarock_playout.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from stich.bots.base import Bot
from stich.bots.pimc import make_pimc
from stich.bots.tarock_family.kernel import KernelGame, TrickPosition
from stich.core.game import Game, State


def heuristic_end(state: State, bots: Sequence[Bot]) -> tuple[State, list[int]]:
    """The engine deal from ``state`` with ``bots`` (the heuristic bots) in every seat: its end and the cards played on the way."""
    engine = state.clone()
    cards: list[int] = []
    while not engine.is_terminal():
        seat = engine.current_player()
        codes = engine.legal_codes()
        code = codes[0] if len(codes) == 1 else bots[seat].choose(engine.observation(seat)).code
        cards.append(code)  # a card's play code is its face index
        engine.apply(code)
    return engine, cards


def check_epsilon_and_seed(playouts: Callable[..., list[KernelGame]], pos: TrickPosition, know: Any) -> None:
    """``playouts`` (a ``heuristic_playouts``) plays one game without ``epsilon``, varied games with it, the same for a seed.

    And it refuses an ``epsilon`` outside [0, 1] and a batch of no games.
    """
    same = playouts(pos, 20, 1, know)
    assert len(set(same)) == 1
    varied = playouts(pos, 200, 1, know, epsilon=0.5)
    assert len(set(varied)) > 5
    assert varied == playouts(pos, 200, 1, know, epsilon=0.5)
    with pytest.raises(ValueError, match="epsilon"):
        playouts(pos, 1, 1, know, epsilon=1.5)
    with pytest.raises(ValueError, match="n must"):
        playouts(pos, 0, 1, know)


def compiled_pimc_decides_as_engine_pimc(game: Game, seeds: Sequence[int], worlds: int) -> Counter[str]:
    """Deals from ``seeds`` played by ``pimc`` with ``rollout=heuristic``; ``rollout=kernel-heuristic`` must choose every action alike.

    Returns the decisions with a choice per phase, for the caller to check
    that the deals reached the phases it means to compare.
    """
    phases: Counter[str] = Counter()
    for deal, seed in enumerate(seeds):
        state = game.new_state(seed=seed, dealer=deal % game.num_seats)
        engine = [make_pimc(game, s, 40 + s, worlds=worlds, rollout="heuristic") for s in range(game.num_seats)]
        compiled = [make_pimc(game, s, 40 + s, worlds=worlds, rollout="kernel-heuristic") for s in range(game.num_seats)]
        while not state.is_terminal():
            seat = state.current_player()
            observation = state.observation(seat)
            action = engine[seat].choose(observation)
            assert compiled[seat].choose(observation) == action
            if len(observation.legal_actions) > 1:
                phases[observation.phase] += 1
            state.apply(action)
    return phases
