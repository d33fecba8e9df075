"""The first learner end to end: the numpy policy's gradients, a tiny training run, and its file as the ``policy`` bot.

Decision 0031: ``policy:file=PATH`` is a bot of the one registry, so every spec
reader takes it; it reads its seat only through the rl encoding; web tables do
not seat it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from stich.arena.duplicate import run_duplicate
from stich.bots.spec import build_bot, parse_bot_spec, parse_bot_specs, required_options
from stich.cli.main import main
from stich.core.records import replay_deal
from stich.core.registry import make_game
from stich.errors import OptionError
from stich.rl.encoding import Encoding
from stich.rl.examples import train_policy
from stich.rl.policy import FORMAT, MLPPolicy, load_policy, masked_softmax

ENV = "stich/tapp_tarock-standard-v1"


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A policy from a tiny run of the example script (seconds): imitation, then policy gradient."""
    out = tmp_path_factory.mktemp("policy") / "tapp.npz"
    argv = ["--env", ENV, "--out", str(out), "--imitation-deals", "12", "--epochs", "2", "--pg-deals", "6", "--batch-deals", "3"]
    assert train_policy.main([*argv, "--hidden", "32", "--quiet"]) == 0
    return out


def test_the_backward_pass_matches_finite_differences() -> None:
    game = make_game("dobbm")
    rng = np.random.default_rng(0)
    policy = MLPPolicy.create(game, observation_size=7, hidden=(5, 4), seed=1)
    for w in policy.weights:
        w[:] = rng.standard_normal(w.shape).astype(np.float32)
    x = rng.standard_normal((3, 7)).astype(np.float32)
    mask = (rng.random((3, len(game.actions))) < 0.3).astype(np.int8)
    mask[:, 0] = 1
    action = np.array([0, 0, 0])
    weight = np.array([1.0, -2.0, 0.5])

    def loss() -> float:  # weighted log-likelihood of the actions: what both phases differentiate
        probs = policy.probabilities(x, mask).astype(np.float64)
        return float(-(weight * np.log(probs[np.arange(3), action])).sum())

    logits, inputs = policy.forward(x)
    grad = masked_softmax(logits, mask).astype(np.float64)
    grad[np.arange(3), action] -= 1.0
    grads = policy.backward(inputs, (grad * weight[:, None]).astype(np.float32))
    for param, analytic in zip(policy.parameters(), grads, strict=True):
        numeric = np.zeros_like(param)
        for index in np.ndindex(param.shape):  # central differences, every entry (a small step: ReLU has kinks)
            saved = float(param[index])
            param[index] = saved + 1e-3
            up = loss()
            param[index] = saved - 1e-3
            down = loss()
            param[index] = saved
            numeric[index] = (up - down) / 2e-3
        assert np.abs(numeric).max() > 0.1
        np.testing.assert_allclose(analytic, numeric, atol=2e-3)


def test_imitation_learns_the_teachers_choices() -> None:
    samples = train_policy.collect_teacher_decisions(ENV, deals=8, seed=5)
    game = make_game("tapp_tarock")
    x, mask, action = samples.arrays()
    assert len(action) > 100 and all(mask[i, a] == 1 for i, a in enumerate(action))  # the teacher plays legal actions
    policy = MLPPolicy.create(game, x.shape[1], (64,), seed=0)
    before = float(np.mean(policy.probabilities(x, mask).argmax(axis=1) == action))
    after = train_policy.imitate(policy, samples, epochs=15, batch=64, lr=3e-3, seed=0, log=False)
    assert after > 0.9 > before + 0.2


def test_a_tiny_training_run_writes_a_policy_file(trained: Path) -> None:
    game = make_game("tapp_tarock")
    policy = load_policy(trained, game, Encoding(game).size)
    assert policy.meta["format"] == FORMAT and policy.meta["game"] == game.canonical
    assert [w.shape for w in policy.weights] == [(Encoding(game).size, 32), (32, len(game.actions))]
    with np.load(trained, allow_pickle=False) as data:  # plain arrays, no pickled objects
        assert sorted(data.files) == ["b0", "b1", "meta", "w0", "w1"]


def test_the_policy_bot_plays_legal_full_games_in_the_arena(trained: Path) -> None:
    game = make_game("tapp_tarock")
    records: list[dict[str, object]] = []
    result = run_duplicate(game, f"policy:file={trained}", ["random", "heuristic"], deals=2, seed=4, record_sink=records.extend)
    assert result.labels[0] == f"policy:file={trained}" and len(result.deals) == 2
    assert result.timings[result.labels[0]].decisions > 0
    assert len(records) == result.games_played == 2 * 2 * (1 + 3)  # per reference: the baseline and three rotations
    for record in records:
        assert replay_deal(record).is_terminal()  # replaying re-checks every action's legality


def test_arena_command_takes_the_spec(trained: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "tapp_tarock", "--bots", f"policy:file={trained},random", "--deals", "2", "--seed", "1", "--workers", "1"]
    assert main([*argv, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == 2 and summary["candidate"] == f"policy:file={trained}"


def test_the_bot_plays_the_policys_choice_from_the_seats_tensor(trained: Path) -> None:
    game = make_game("tapp_tarock")
    state, encoding = game.new_state(seed=9), Encoding(game)
    policy = load_policy(trained)
    while not state.is_terminal():
        seat = state.current_player()
        obs = state.observation(seat)
        probs = policy.probabilities(encoding.tensor(obs)[None, :], encoding.mask(obs)[None, :])[0]
        bot_action = build_bot(parse_bot_spec(f"policy:file={trained}"), game, seat, seed=1).choose(obs)
        assert bot_action.code == int(np.argmax(probs)) and bot_action in obs.legal_actions
        state.apply(bot_action.code)


def test_bad_policy_specs_are_refused_naming_the_problem(trained: Path, tmp_path: Path) -> None:
    assert required_options("policy") == ["file"] and required_options("heuristic") == []
    with pytest.raises(OptionError, match="needs option 'file'"):
        parse_bot_spec("policy")
    with pytest.raises(OptionError, match="no option 'fiel'"):
        parse_bot_spec("policy:fiel=x.npz")
    assert [s.text for s in parse_bot_specs(f"policy:file={trained},greedy=false,heuristic")] == [
        f"policy:file={trained},greedy=false",
        "heuristic",
    ]
    with pytest.raises(OptionError, match="no policy file"):
        build_bot(parse_bot_spec(f"policy:file={tmp_path / 'missing.npz'}"), make_game("tapp_tarock"), 0, 0)
    with pytest.raises(OptionError, match="trained for game 'tapp_tarock\\(preset=standard\\)', not 'doppelkopf"):
        build_bot(parse_bot_spec(f"policy:file={trained}"), make_game("doppelkopf"), 0, 0)
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, w0=np.zeros((2, 2)))
    with pytest.raises(OptionError, match="has no 'meta'"):
        build_bot(parse_bot_spec(f"policy:file={foreign}"), make_game("tapp_tarock"), 0, 0)


def test_sampling_mode_is_seeded_and_legal(trained: Path) -> None:
    game = make_game("tapp_tarock")

    def choices(seed: int) -> list[int]:
        state, out = game.new_state(seed=3), []
        bots = [build_bot(parse_bot_spec(f"policy:file={trained},greedy=false"), game, s, seed) for s in range(3)]
        while not state.is_terminal():
            action = bots[state.current_player()].choose(state.observation(state.current_player()))
            out.append(action.code)
            state.apply(action.code)
        return out

    assert choices(1) == choices(1)


def test_web_tables_neither_offer_nor_seat_it(trained: Path) -> None:
    # A table takes no option but level: a file path sent by a browser must not reach the server's disk (decision 0031).
    from stich.web.api.history import offered_bots
    from stich.web.protocol import ApiError
    from stich.web.runtime.seats import table_bot_spec

    offers = offered_bots()
    assert {"random", "heuristic"} <= {o["bot"] for o in offers} and "policy" not in {o["bot"] for o in offers}
    for spec in ("policy", f"policy:file={trained}"):
        with pytest.raises(ApiError) as refused:
            table_bot_spec(spec)
        assert refused.value.status == 422 and "file" in refused.value.message


def test_the_gymnasium_env_takes_it_as_opponents(trained: Path) -> None:
    from stich.rl.gymnasium_env import StichGymEnv

    env = StichGymEnv(ENV, opponents=f"policy:file={trained}", seat=1)
    obs, _ = env.reset(seed=2)
    terminated = False
    while not terminated:
        obs, _reward, terminated, _truncated, _info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.table.current().is_terminal()
    assert [spec.name for spec in env.specs] == ["policy", "policy"]


def test_the_duplicate_baseline_replays_the_same_deal_the_same_way() -> None:
    # The policy-gradient advantage is the learner's score minus the heuristic's in its seat on the same deal:
    # that needs a twin table that deals and plays the deal exactly as the learner's table did.
    scores = []
    for _ in range(2):
        e = train_policy.raw_env(ENV)
        e.reset(seed=70)
        scores.append(train_policy.play_bots_deal(e, train_policy.bots_for(e, "heuristic", 70)))
        assert scores[-1] == list(e.table.current().result().scores) and any(scores[-1])
    assert scores[0] == scores[1]
    e.reset(seed=72)
    assert train_policy.play_bots_deal(e, train_policy.bots_for(e, "heuristic", 72)) != scores[0]


def test_training_can_start_from_a_saved_policy(trained: Path, tmp_path: Path) -> None:
    out = tmp_path / "more.npz"
    argv = ["--env", ENV, "--init", str(trained), "--imitation-deals", "0", "--pg-deals", "3", "--batch-deals", "3", "--out", str(out)]
    assert train_policy.main([*argv, "--quiet"]) == 0
    before, after = load_policy(trained), load_policy(out)
    assert [w.shape for w in after.weights] == [w.shape for w in before.weights]
    assert any(not np.array_equal(a, b) for a, b in zip(after.weights, before.weights, strict=True))


@pytest.mark.parametrize("hidden", [(), (5, 4)])
def test_one_observations_probabilities_equal_the_batchs(hidden: tuple[int, ...]) -> None:
    """The bots' single-observation path (first layer over the non-zero entries only) is the batch forward pass."""
    game = make_game("doppelkopf")
    policy = MLPPolicy.create(game, observation_size=9, hidden=hidden, seed=3)
    rng = np.random.default_rng(4)
    for _ in range(20):
        x = (rng.random(9) < 0.3).astype(np.float32) * rng.random(9).astype(np.float32)
        mask = (rng.random(len(game.actions)) < 0.1).astype(np.int8)
        mask[rng.integers(len(game.actions))] = 1
        one = policy.probabilities_of_one(x, mask)
        np.testing.assert_allclose(one, policy.probabilities(x[None, :], mask[None, :])[0], rtol=1e-5, atol=1e-7)
        assert one[mask == 0].sum() == 0 and abs(float(one.sum()) - 1.0) < 1e-5
