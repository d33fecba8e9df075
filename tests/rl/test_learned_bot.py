"""The ``learned`` bot (issue 45, step 3, decisions 0061 and 0062): packaged models, legal play in every phase, no leak, the trainer.

The bot plays the packaged model of the game (``stich/rl/models/<game>.npz``)
through the rl encoding; the trainer ``python -m stich.rl.train_learned``
rebuilds such a file from a seed (tiny budgets here: seconds).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from stich.bots.heuristic import make_heuristic
from stich.bots.inference import PolicyModel
from stich.bots.samplers import prepare_sampler
from stich.bots.spec import build_bot, parse_bot_spec
from stich.core.game import Game, State
from stich.core.registry import make_game
from stich.errors import OptionError
from stich.rl import decision_records, train_learned
from stich.rl.encoding import Encoding
from stich.rl.learned_bot import MODELS, learned_policy, make_learned, model_path, packaged_games
from stich.rl.policy import load_policy

GAMES = ("doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen")


def test_a_model_is_packaged_for_every_game_and_they_are_small() -> None:
    assert packaged_games() == sorted(GAMES)
    sizes = [path.stat().st_size for path in MODELS.glob("*.npz")]
    assert sum(sizes) < 5_000_000, sizes  # "a few MB at most" for all of them
    for name in GAMES:
        game = make_game(name)
        policy = load_policy(model_path(game), game, Encoding(game).size)  # trained on the default preset, this encoding
        assert policy.meta["training"]["trainer"] == "stich.rl.train_learned"


@pytest.mark.parametrize("name", GAMES)
def test_it_plays_whole_deals_legally_in_every_phase(name: str) -> None:
    game = make_game(name)
    spec = parse_bot_spec("learned")
    phases: set[str] = set()
    for deal in range(2):
        state = game.new_state(seed=100 + deal, dealer=deal % game.num_seats)
        bots = [build_bot(spec, game, seat, deal) for seat in range(game.num_seats)]
        while not state.is_terminal():
            seat = state.current_player()
            observation = state.observation(seat)
            action = bots[seat].choose(observation)
            assert action in observation.legal_actions
            if len(observation.legal_actions) > 1:
                phases.add(state.phase_name)
            state.apply(action)
    assert len(phases) >= 2, phases  # it decided before the card play too (bids, reservations, talon, ...)


def _twins(game: Game, base: int, spread: int, wanted: int) -> list[tuple[State, State, int]]:
    """``wanted`` positions (state, other deal, mover) after ``base + seed % spread`` heuristic decisions, over seeds 0..29."""
    found = []
    for seed in range(30):
        twins = _twin(game, seed, base + seed % spread)
        if twins is not None:
            found.append(twins)
        if len(found) == wanted:
            break
    assert len(found) == wanted
    return found


def _twin(game: Game, seed: int, stop: int) -> tuple[State, State, int] | None:
    """A position after ``stop`` heuristic decisions and another deal its mover cannot tell from it (``None``: none here)."""
    bots = [make_heuristic(game, seat, seed) for seat in range(game.num_seats)]
    state = game.new_state(seed=seed, dealer=seed % game.num_seats)
    for _ in range(stop):
        if state.is_terminal():
            break
        state.apply(bots[state.current_player()].choose(state.observation(state.current_player())))
    if state.is_terminal() or len(state.legal_codes()) < 2:
        return None
    seat = state.current_player()
    other = prepare_sampler(game, state.observation(seat)).sample(random.Random(seed))
    if all(other.hand_mask(s) == state.hand_mask(s) for s in range(game.num_seats) if s != seat):
        return None
    return state, other, seat


@pytest.mark.parametrize("name", GAMES)
def test_its_decision_depends_on_the_seats_observation_only(name: str) -> None:
    """Another deal the seat cannot tell from the real one (unseen cards elsewhere): the same probabilities and action."""
    game = make_game(name)
    for state, other, seat in _twins(game, 8, 12, 3):
        first, twin = make_learned(game, seat, 7), make_learned(game, seat, 7)
        a, b = state.observation(seat), other.observation(seat)
        probs = [first.probabilities(a), twin.probabilities(b)]
        full = first.policy.probabilities(first.encoding.tensor(a)[None, :], first.encoding.mask(a)[None, :])[0]
        assert np.allclose(probs[0], full, atol=1e-5)  # the sparse first layer is the network's own forward pass
        assert np.array_equal(probs[0], probs[1])
        assert first.choose(a) == twin.choose(b)


def test_a_variant_of_another_shape_is_refused_by_name() -> None:
    game = make_game("doppelkopf")
    with pytest.raises(OptionError, match="doppelkopf"):
        learned_policy(game, Encoding(game).size + 1)


def test_greedy_false_samples_reproducibly_from_its_seed() -> None:
    game = make_game("tapp_tarock")
    state = game.new_state(seed=3, dealer=0)

    def choices(seed: int) -> list[int]:
        bots = [build_bot(parse_bot_spec("learned:greedy=false"), game, seat, seed + seat) for seat in range(game.num_seats)]
        s = state.clone()
        out = []
        while not s.is_terminal():
            action = bots[s.current_player()].choose(s.observation(s.current_player()))
            out.append(action.code)
            s.apply(action)
        return out

    assert choices(1) == choices(1)


def test_the_trainer_runs_end_to_end_and_is_deterministic_for_a_seed(tmp_path: Path) -> None:
    game = make_game("dobbm")
    records = tmp_path / "teacher.npz"
    decision_records.save(decision_records.generate(game, "heuristic", 2, seed=9), records)
    argv = ["dobbm", "--seed", "5", "--heuristic-deals", "3", "--records", str(records), "--epochs", "2", "--hidden", "16", "--quiet"]
    first, second, third = tmp_path / "a.npz", tmp_path / "b.npz", tmp_path / "c.npz"
    assert train_learned.main([*argv, "--out", str(first)]) == 0
    assert train_learned.main([*argv, "--out", str(second)]) == 0
    assert train_learned.main([*argv[:2], "6", *argv[3:], "--out", str(third)]) == 0
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != third.read_bytes()  # the seed matters
    policy = load_policy(first, game, Encoding(game).size)
    assert [w.shape[1] for w in policy.weights] == [16, len(game.actions)]
    meta = policy.meta["training"]
    assert meta["seed"] == 5 and meta["rows"]["teacher"] > 0 and meta["rows"]["heuristic"] > 0 and meta["records"] == ["teacher.npz"]
    with np.load(first) as data:
        assert data["w0"].dtype == np.float16 and json.loads(str(data["meta"]))["game"] == game.canonical


def test_soft_targets_are_a_softmax_of_the_search_values_else_the_chosen_action() -> None:
    nan = np.nan
    values = np.array([[nan, 0.0, -2.0, nan], [nan, nan, nan, 0.0], [nan, nan, nan, nan]], dtype=np.float32)
    action = np.array([1, 3, 2])
    warm = train_learned.soft_targets(values, action, 1.0, share=1.0)
    assert warm[0, 1] == pytest.approx(1 / (1 + np.exp(-2.0))) and warm[0, 2] == pytest.approx(1 - warm[0, 1])
    assert warm[0, [0, 3]].tolist() == [0.0, 0.0]  # candidates the search did not weigh get nothing
    assert warm[1].tolist() == [0.0, 0.0, 0.0, 1.0] and warm[2].tolist() == [0.0, 0.0, 1.0, 0.0]  # one candidate, none: the choice
    cold = train_learned.soft_targets(values, action, 0.25, share=1.0)
    assert cold[0, 1] > warm[0, 1] > 0.5  # a lower temperature sharpens toward the best value
    tie = np.array([[0.0, 0.0, nan]], dtype=np.float32)  # equal values: the chosen action's share breaks the tie
    assert train_learned.soft_targets(tie, np.array([1]), 1.0).tolist() == [[0.25, 0.75, 0.0]]
    half = train_learned.soft_targets(values, action, 1.0)
    assert half[0, 1] == pytest.approx(0.5 + 0.5 * warm[0, 1]) and half.sum(axis=1) == pytest.approx(1.0)


def test_the_trainer_learns_search_values_at_a_temperature(tmp_path: Path) -> None:
    game = make_game("dobbm")
    records = decision_records.generate(game, "heuristic", 2, seed=9)
    mask, values = records.arrays["mask"].astype(bool), records.arrays["values"]
    values[mask] = np.random.default_rng(3).normal(size=int(mask.sum())) * 3  # search values for every legal candidate
    path = tmp_path / "teacher.npz"
    decision_records.save(records, path)
    argv = ["dobbm", "--seed", "5", "--heuristic-deals", "2", "--records", str(path), "--epochs", "2", "--hidden", "16", "--quiet"]
    hard, soft, again = tmp_path / "hard.npz", tmp_path / "soft.npz", tmp_path / "again.npz"
    assert train_learned.main([*argv, "--out", str(hard)]) == 0
    assert train_learned.main([*argv, "--value-temperature", "2", "--out", str(soft)]) == 0
    assert train_learned.main([*argv, "--value-temperature", "2", "--out", str(again)]) == 0
    assert soft.read_bytes() == again.read_bytes() != hard.read_bytes()
    meta = load_policy(soft, game, Encoding(game).size).meta["training"]
    assert meta["value_temperature"] == 2.0 and meta["value_share"] == 0.5
    assert train_learned.main([*argv, "--value-temperature", "2", "--value-share", "1.5", "--out", str(tmp_path / "x.npz")]) == 2
    assert "value_temperature" not in load_policy(hard, game, Encoding(game).size).meta["training"]


def test_the_trainer_refuses_records_of_another_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "teacher.npz"
    decision_records.save(decision_records.generate(make_game("tapp_tarock"), "heuristic", 1, seed=9), records)
    argv = ["dobbm", "--seed", "5", "--heuristic-deals", "1", "--records", str(records), "--epochs", "1", "--hidden", "8"]
    assert train_learned.main([*argv, "--out", str(tmp_path / "x.npz"), "--quiet"]) == 2
    assert "tapp_tarock" in capsys.readouterr().err and not (tmp_path / "x.npz").exists()


def test_web_tables_offer_it_and_name_the_strongest_bot_per_game() -> None:
    from stich.web.api.history import STRONGEST, offered_bots
    from stich.web.runtime.seats import table_bot_spec

    offers = {offer["spec"]: offer for offer in offered_bots()}
    assert offers["learned"]["level"] is None and offers["learned"]["label"].startswith("Learned")
    assert set(STRONGEST) == set(GAMES)
    for offer in offers.values():
        assert offer["strongest"] == sorted(game for game, best in STRONGEST.items() if best == offer["bot"])
    assert table_bot_spec("learned") is not None


# ------------------------------------------------------------------ pimc's inference with the learned policy


def test_the_policy_model_is_a_distribution_over_the_legal_actions() -> None:
    game = make_game("tapp_tarock")
    state = game.new_state(seed=4, dealer=0)
    players = [make_learned(game, seat, seat) for seat in range(game.num_seats)]
    legal = state.legal_codes()
    assert len(legal) > 1
    for beta, spread in ((1.0, None), (0.0, 1 / len(legal))):
        logs = [PolicyModel(players, beta).log_probability(state, code) for code in legal]
        assert abs(sum(np.exp(logs)) - 1) < 1e-6
        if spread is not None:
            assert np.allclose(np.exp(logs), spread)
    probs = players[state.current_player()].probabilities(state.observation(state.current_player()))
    best = int(np.argmax(probs))
    model = PolicyModel(players)
    assert max(legal, key=lambda code: model.log_probability(state, code)) == best


@pytest.mark.parametrize("name", ["doppelkopf", "dobbm"])
def test_pimc_with_learned_inference_decides_from_the_observation_only(name: str) -> None:
    game = make_game(name)
    for state, other, seat in _twins(game, 20, 10, 2):
        first = build_bot(parse_bot_spec("pimc:worlds=3,inference=learned"), game, seat, 99)
        twin = build_bot(parse_bot_spec("pimc:worlds=3,inference=learned"), game, seat, 99)
        assert first.choose(state.observation(seat)) == twin.choose(other.observation(seat))
        assert first._weights == twin._weights and first._weights  # type: ignore[attr-defined]
