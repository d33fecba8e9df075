"""OpenSpiel: every game registered, OpenSpiel's random-simulation test, MCTS plays full games, observers."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

from stich.core.registry import game_names
from stich.errors import OptionError
from stich.rl.encoding import Encoding
from stich.rl.history import HistoryEncoding
from stich.rl.openspiel_game import config_of, load

NAMES = [f"stich_{name}" for name in game_names()]


def _deal(state: pyspiel.State, rng: np.random.RandomState) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))


@pytest.mark.parametrize("name", [*NAMES, "stich_dobbm(options=players:5)", "stich_tapp_tarock(preset=four_players)"])
def test_openspiel_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_mcts_bot_plays_a_full_deal(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rng)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    engine = state.engine.state
    assert engine is not None and engine.is_terminal() and len(engine.history) == moves
    assert state.returns() == [float(s) for s in engine.result().scores]


def test_the_deal_is_one_chance_node_per_card_into_the_games_piles() -> None:
    game = pyspiel.load_game("stich_tapp_tarock")
    config = config_of(game)
    state = game.new_initial_state()
    first = state.chance_outcomes()
    assert len(first) == 54 and sum(p for _, p in first) == pytest.approx(1.0)
    _deal(state, np.random.RandomState(3))
    engine = state.engine.state
    assert engine is not None
    assert [pile.bit_count() for pile in engine.dealt] == list(config.piles) == [16, 16, 16, 3, 3]
    # The piles are filled in order: seat 0 gets the first 16 cards drawn.
    assert engine.dealt[0] == sum(1 << c for c in state.dealt[:16])


def test_observers_are_the_encoding_of_the_seats_observation() -> None:
    game = pyspiel.load_game("stich_doppelkopf")
    enc = Encoding(config_of(game).game)
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    # During the deal a seat sees its own cards so far, and nothing else.
    for _ in range(5):
        state.apply_action(int(rng.choice(state.legal_actions())))
    hand = next(i for i in enc.slices() if i.name == "hand")
    tensor = np.array(state.information_state_tensor(0))
    assert tensor[hand.start : hand.stop].sum() == 5 and tensor.sum() == 5
    assert np.array(state.information_state_tensor(1)).sum() == 0
    _deal(state, rng)
    for _ in range(6):
        state.apply_action(int(rng.choice(state.legal_actions())))
    engine = state.engine.state
    assert engine is not None
    for seat in range(4):
        obs = engine.observation(seat)
        info = np.array(state.information_state_tensor(seat), dtype=np.float32)
        assert np.array_equal(info[: enc.size], enc.tensor(obs))  # the observation, then the history (perfect recall)
        assert np.array_equal(info[enc.size :], HistoryEncoding(config_of(game).game).tensor(obs))
        assert np.array_equal(np.array(state.observation_tensor(seat), dtype=np.float32), enc.tensor(obs))
        assert state.information_state_string(seat) == enc.info_state(obs)
        assert "events" not in state.observation_string(seat)


def test_load_takes_an_environment_id_or_a_game_string() -> None:
    assert str(load("stich/doppelkopf-ddv_no_nines-v1")) == "stich_doppelkopf(dealer=0,options=,preset=ddv_no_nines)"
    game = load("doppelkopf(players=5,nines=false)")
    assert game.num_players() == 5
    assert config_of(game).game.canonical == "doppelkopf(preset=ddv,players=5,nines=false)"
    with pytest.raises(OptionError, match="players"):
        pyspiel.load_game("stich_tapp_tarock(options=players:4)")


@pytest.mark.parametrize("name", [f"stich_{name}" for name in game_names()])
def test_the_information_state_tensor_has_perfect_recall(name: str) -> None:
    """Its history block decodes to every event the seat saw, in order, so different histories never share a tensor.

    The observation tensor alone merges histories (the issue: tabular and CFR-style methods would merge information
    sets); across the deals here, equal information-state tensors come exactly with equal information-state strings.
    """
    game = pyspiel.load_game(name)
    history = HistoryEncoding(config_of(game).game)
    assert game.information_state_tensor_size() == config_of(game).encoding.size + history.size
    assert game.observation_tensor_size() == config_of(game).encoding.size
    assert history.max_events + config_of(game).game.deck.size == game.max_game_length()
    rng = np.random.RandomState(11)
    by_string: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    for _ in range(3):
        state = game.new_initial_state()
        _deal(state, rng)
        while not state.is_terminal():
            for seat in range(game.num_players()):
                obs = state.engine.state.observation(seat)
                tensor = np.array(state.information_state_tensor(seat), dtype=np.float32)
                block = tensor[config_of(game).encoding.size :]
                assert set(np.unique(block)) <= {0.0, 1.0}
                assert history.decode(block, seat) == [(s, history.code_of(t)) for s, t in obs.events]
                text, key = state.information_state_string(seat), tensor.tobytes()
                assert by_string.setdefault(text, key) == key and by_tensor.setdefault(key, text) == text
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_a_hidden_action_has_a_code_of_its_own_and_an_unknown_event_is_refused() -> None:
    history = HistoryEncoding(config_of(pyspiel.load_game("stich_droggn")).game)
    assert history.code_of("discard ?") != history.code_of("offer ?")
    assert min(history.code_of("discard ?"), history.code_of("offer ?")) >= len(history.codes)
    with pytest.raises(ValueError, match="neither an action of the game nor a hidden one"):
        history.code_of("shuffle ?!")


def test_an_observer_made_without_a_type_is_the_observation_as_in_openspiels_own_games() -> None:
    """``make_observation(game)`` (no type: the default observation) has no history; the information state has it."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("stich_dobbm")
    size = config_of(game).encoding.size
    assert make_observation(game).tensor.size == size
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert info.tensor.size == game.information_state_tensor_size() > size
    state = game.new_initial_state()
    _deal(state, np.random.RandomState(1))
    state.apply_action(state.legal_actions()[0])
    assert "events" not in make_observation(game).string_from(state, 0)  # was the information state before issue 41
    assert "events" in info.string_from(state, 0)
