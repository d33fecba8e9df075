"""Deals played up to a decision in a Tarock game's doubling phase (the search bots leave a defender's double to the heuristic)."""

from __future__ import annotations

from stich.bots.heuristic import make_heuristic
from stich.core.game import State
from stich.core.registry import make_game
from stich.search.ismcts import PLAY_PHASE

DOUBLING_PHASES = [("tapp_tarock", "kontra"), ("dobbm", "doubling"), ("droggn", "doubling")]
"""Each game's doubling phase (Tapp Tarock dossier §5, Dobbm §5, Droggn §5.3): a defender's choice there is the heuristic's."""


def doubling_decision(name: str, phase: str, seed: int, defender: bool = True) -> State:
    """A deal played by the heuristic bots up to a choice in its doubling phase, a defender's or the declarer's."""
    game = make_game(name)
    bots = [make_heuristic(game, seat, seat) for seat in range(game.num_seats)]
    for attempt in range(300):
        state = game.new_state(seed=seed * 1000 + attempt, dealer=attempt % game.num_seats)
        while not state.is_terminal() and state.observation(state.current_player()).phase not in (phase, PLAY_PHASE):
            seat = state.current_player()
            state.apply(bots[seat].choose(state.observation(seat)))
        while not state.is_terminal() and state.observation(state.current_player()).phase == phase:
            seat = state.current_player()
            obs = state.observation(seat)
            if len(state.legal_codes()) > 1 and (obs.public["declarer"] != seat) == defender:
                return state
            doubles = [a for a in obs.legal_actions if a.kind not in ("pass", "accept")]
            # Looking for the declarer's answer: the defenders double whenever they may.
            state.apply(doubles[0] if doubles and not defender else bots[seat].choose(obs))
    raise AssertionError(f"no {phase} decision found in {name}")
