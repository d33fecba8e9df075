"""OpenSpiel's ISMCTS on stich's games, anywhere a ``pyspiel.Bot`` goes: ``StichISMCTSBot`` (a shim).

OpenSpiel ships two ISMCTS bots, and neither plays a stich game outside a
hand-written loop:

* the **Python** ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` searches
  correctly through :meth:`StichSpielState.resample_from_infostate`, but it
  implements only ``step``: ``evaluate_bots`` (OpenSpiel's own and
  ``pyspiel.evaluate_bots``) calls ``restart_at`` first and fails with
  ``RestartAt(state) not implemented``, and ``inform_action`` is missing
  too.  Its default resampler also draws from a fresh
  ``pyspiel.UniformProbabilitySampler`` each time, seeded outside the bot, so
  a search is not reproducible from the bot's ``random_state``;
* the **C++** ``pyspiel.ISMCTSBot`` cannot call a Python game's
  ``resample_from_infostate`` (the C++ base method has no Python override
  there): on a stich game it crashes the interpreter.  Do not use it.

:class:`StichISMCTSBot` is the Python bot with what is missing: ``restart``
and ``restart_at`` drop the search tree (it is rebuilt at every ``step``
anyway), ``inform_action``/``inform_actions`` are accepted and ignored (the
bot reads everything it needs from the state at its turn), ``provides_policy``
says ``get_policy`` works, and the resampler is stich's world sampler seeded
from the bot's own ``random_state``, so a seeded bot searches the same way
every time.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stich.core.extras import missing_extra

try:  # the 'openspiel' extra
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ModuleNotFoundError as exc:
    raise missing_extra(exc.name or "pyspiel", __name__) from exc


class StichISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]  # open_spiel ships no type information
    """OpenSpiel's Python ``ISMCTSBot`` as a complete ``pyspiel.Bot`` for a stich game (see the module docstring)."""

    def __init__(self, game: pyspiel.Game, evaluator: Any, uct_c: float, max_simulations: int, **kwargs: Any) -> None:
        super().__init__(game, evaluator, uct_c, max_simulations, **kwargs)
        self.set_resampler(self._resample)

    def _resample(self, state: Any, player: int) -> Any:
        """A world ``player`` cannot tell from ``state``, drawn by stich's sampler from this bot's ``random_state``."""
        draw = float(self._random_state.uniform())
        return state.resample_from_infostate(player, lambda: draw)

    def restart(self) -> None:
        """A new game: forget the search tree."""
        self.reset()

    def restart_at(self, state: pyspiel.State) -> None:
        """Play on from ``state``: forget the search tree (every ``step`` searches from its own state)."""
        self.reset()

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Another player's (or chance's) action: nothing to do, the next ``step`` reads the state it is given."""

    def inform_actions(self, state: pyspiel.State, actions: list[int]) -> None:
        """Simultaneous actions (none in these games): nothing to do."""

    def provides_policy(self) -> bool:
        return True

    def provides_force_action(self) -> bool:
        return False

    def is_clonable(self) -> bool:
        return False


def ismcts_bots(
    game: pyspiel.Game, *, max_simulations: int = 100, uct_c: float = 2.0, rollouts: int = 1, seed: int = 0
) -> list[StichISMCTSBot]:
    """One :class:`StichISMCTSBot` per player with random-rollout evaluation, each seeded from ``seed`` and its seat."""
    bots = []
    for player in range(game.num_players()):
        rng = np.random.RandomState(seed * 1009 + player)
        evaluator = mcts.RandomRolloutEvaluator(rollouts, rng)
        bots.append(StichISMCTSBot(game, evaluator, uct_c, max_simulations, random_state=rng))
    return bots
