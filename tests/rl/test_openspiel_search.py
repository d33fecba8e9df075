"""OpenSpiel's search bots through our registered games: the resampler from an information state, ISMCTS and MCTS full deals.

The resampler is stich's world sampler (src/stich/bots/<game>/sampling.py):
a resampled state must be one the player cannot tell from the real one, and
must not be the real deal copied (decision 0031, docs/research.md).
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

from stich.core.registry import game_names
from stich.rl.openspiel_bots import ismcts_bots
from stich.rl.openspiel_game import config_of  # registers the games

NAMES = [f"stich_{name}" for name in game_names()]


def _deal(state: pyspiel.State, rng: np.random.RandomState) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))


def _hidden(state: pyspiel.State, player: int) -> tuple[int, ...]:
    """Every seat's hand but ``player``'s (what a resample may change)."""
    engine = state.engine.state
    return tuple(engine.hand_mask(s) for s in range(engine.game.num_seats) if s != player)


@pytest.mark.parametrize("name", NAMES)
def test_a_resampled_state_is_indistinguishable_for_the_player_and_plays_on(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(2)
    state = game.new_initial_state()
    _deal(state, rng)
    for _ in range(8):  # into the deal: bidding, exchanges, the first cards
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(player, sampler) for _ in range(6)]
    for world in worlds:
        assert world.current_player() == player and world.legal_actions() == state.legal_actions()
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.information_state_tensor(player) == state.information_state_tensor(player)
        assert world.engine.state.hand_mask(player) == state.engine.state.hand_mask(player)
        # The chance record is the resampled deal: seat 0's pile is the first cards "dealt", as in a real deal.
        first = config_of(game).piles[0]
        assert world.engine.state.dealt[0] == sum(1 << c for c in world.dealt[:first])
        assert sorted(world.dealt) == sorted(state.dealt)  # the whole pack, each card once
        clone = world.clone()
        while not clone.is_terminal():
            clone.apply_action(int(rng.choice(clone.legal_actions())))
        assert len(clone.returns()) == game.num_players()
    assert len({_hidden(w, player) for w in worlds}) > 1  # drawn anew each time, not the real deal copied


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_ismcts_bot_plays_full_deals_through_the_resampler(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng) for _ in range(game.num_players())]
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rng)
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    engine = state.engine.state
    assert engine.is_terminal() and len(engine.history) == moves
    assert state.returns() == [float(s) for s in engine.result().scores]


def test_ismcts_and_mcts_share_a_table() -> None:
    game = pyspiel.load_game("stich_tapp_tarock")
    rng = np.random.RandomState(6)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=rng),
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, evaluator=evaluator, random_state=rng),
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=rng, max_world_samples=3),
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rng)
            continue
        state.apply_action(bots[state.current_player()].step(state))
    assert state.engine.state.is_terminal()


def test_resampling_during_the_deal_is_refused() -> None:
    state = pyspiel.load_game("stich_dobbm").new_initial_state()
    with pytest.raises(ValueError, match="still being dealt"):
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))


def test_openspiels_own_ismcts_bot_cannot_be_restarted_so_evaluate_bots_fails() -> None:
    """The limitation the shim exists for (docs/research.md): ISMCTSBot implements no restart_at."""
    game = pyspiel.load_game("stich_dobbm")
    rng = np.random.RandomState(0)
    bots = [ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 2, random_state=rng) for _ in range(4)]
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)


@pytest.mark.parametrize("name", NAMES)
def test_the_ismcts_shim_plays_full_deals_in_openspiels_evaluate_bots(name: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, ismcts_bots(game, max_simulations=2, seed=3), np.random.RandomState(3))
    engine = state.engine.state
    assert engine.is_terminal() and list(returns) == [float(s) for s in engine.result().scores]


def test_the_ismcts_shim_is_reproducible_from_its_seed_and_runs_in_the_cpp_evaluate_bots() -> None:
    game = pyspiel.load_game("stich_tapp_tarock")

    def histories(seed: int) -> list[int]:
        state = game.new_initial_state()
        evaluate_bots.evaluate_bots(state, ismcts_bots(game, max_simulations=6, seed=seed), np.random.RandomState(1))
        return state.history()

    assert histories(5) == histories(5)
    state = game.new_initial_state()
    returns = pyspiel.evaluate_bots(state, ismcts_bots(game, max_simulations=2, seed=1), 7)
    assert state.is_terminal() and list(returns) == state.returns()
    bot = ismcts_bots(game)[0]
    assert bot.provides_policy() and not bot.provides_force_action()
