"""The ``pimc`` bot's inference (``inference=heuristic``): worlds resampled by the likelihood of the other seats' decisions.

See :mod:`stich.bots.inference` and docs/decisions/0047-pimc-inference.md.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.bots.heuristic import make_heuristic
from stich.bots.inference import HeuristicModel, InferenceSampler, choose_index, likelihood_weights
from stich.bots.pimc import PimcBot, make_pimc
from stich.bots.samplers import prepare_sampler
from stich.cards import Suit
from stich.core.game import Game, State
from stich.core.registry import make_game
from stich.errors import OptionError
from stich.search.voting import effective_worlds, vote, weighted_winsorized_mean, winsorized_mean

from ._pimc_helpers import play_until, twin_deals


def _inference(game: Game, state: State, seat: int, *, proposals: int = 4, beta: float = 2.0, window: int = 4) -> InferenceSampler:
    """An inference sampler for ``seat``'s observation of ``state``, with fresh heuristic players."""
    model = HeuristicModel([make_heuristic(game, s, 5 + s) for s in range(game.num_seats)], beta)
    return InferenceSampler(prepare_sampler(game, state.observation(seat)), game, seat, model, proposals, window)


# ------------------------------------------------------------------ options


def test_inference_options_reach_the_bot() -> None:
    bot = build_bot(parse_bot_spec("pimc:level=1,inference=heuristic,proposals=6,beta=1.5,window=8"), make_game("doppelkopf"), 0, 3)
    assert isinstance(bot, PimcBot)
    assert (bot.inference, bot.proposals, bot.beta, bot.window) == ("heuristic", 6, 1.5, 8)
    plain = build_bot(parse_bot_spec("pimc:level=1"), make_game("doppelkopf"), 0, 3)
    assert isinstance(plain, PimcBot) and plain.inference == "none"  # off by default


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"inference": "policy"}, "inference"),
        ({"proposals": 0}, "proposals"),
        ({"proposals": 65}, "proposals"),
        ({"proposals": True}, "proposals"),
        ({"beta": -1.0}, "beta"),
        ({"beta": "hot"}, "beta"),
        ({"window": -1}, "window"),
        ({"window": 2.5}, "window"),
    ],
)
def test_bad_inference_options_are_named(options: dict[str, object], named: str) -> None:
    with pytest.raises(OptionError, match=named):
        make_pimc(make_game("tapp_tarock"), 0, 1, **options)  # type: ignore[arg-type]


# ------------------------------------------------------------------ the model


def test_the_heuristic_made_stochastic_is_a_softmax_over_its_pick() -> None:
    game = make_game("doppelkopf")
    state = play_until(game, 4, 10)
    mover = state.current_player()
    legal = state.legal_codes()
    assert len(legal) >= 2
    players = [make_heuristic(game, s, 5 + s) for s in range(game.num_seats)]
    pick = players[mover].choose(state.observation(mover)).code
    model = HeuristicModel(players, beta=2.0)
    probabilities = {code: math.exp(model.log_probability(state, code)) for code in legal}
    assert sum(probabilities.values()) == pytest.approx(1.0)
    assert probabilities[pick] == pytest.approx(math.exp(2.0) / (math.exp(2.0) + len(legal) - 1))
    others = {p for code, p in probabilities.items() if code != pick}
    assert len(others) == 1 and others.pop() == pytest.approx(probabilities[pick] / math.exp(2.0))
    flat = HeuristicModel(players, beta=0.0)
    assert all(flat.log_probability(state, code) == pytest.approx(-math.log(len(legal))) for code in legal)


def test_choose_index_is_proportional_to_the_likelihood() -> None:
    rng = random.Random(1)
    seen = Counter(choose_index([math.log(1.0), math.log(3.0), -math.inf], rng) for _ in range(4000))
    assert seen[2] == 0
    assert 0.70 < seen[1] / 4000 < 0.80  # 3 in 4
    assert {choose_index([-math.inf, -math.inf], rng) for _ in range(50)} == {0, 1}


# ------------------------------------------------------------------ the worlds


@pytest.mark.parametrize(("name", "stop"), [("doppelkopf", 20), ("tapp_tarock", 20), ("dobbm", 16), ("droggn", 30), ("dappen", 12)])
def test_weighted_worlds_never_contradict_the_observation(name: str, stop: int) -> None:
    game = make_game(name)
    state = play_until(game, 7, stop)
    assert not state.is_terminal()
    seat = state.current_player()
    sampler = _inference(game, state, seat)
    rng = random.Random(2)
    for _ in range(6):
        world = sampler.sample(rng)
        assert world.observation(seat) == state.observation(seat)
    assert sampler.stats.proposals > sampler.stats.worlds  # the worlds were chosen among several proposals
    assert sampler.stats.scored > 0


def test_inference_reads_the_bid_tapp_tarock() -> None:
    """A bid says the bidder holds tarocks: the worlds after it give him more than the plain sampler's (dossier tapp_tarock §4)."""
    game = make_game("tapp_tarock")
    state = game.new_state(seed=3, dealer=0)
    bots = [make_heuristic(game, s, s) for s in range(game.num_seats)]
    state.apply(bots[1].choose(state.observation(1)))
    assert state.observation(2).events == ((1, "bid dreier"),)
    rng = random.Random(4)

    def tarocks(world: State) -> int:
        return sum(1 for card in world.observation(1).hand if card.suit is Suit.TAROCK)

    plain = prepare_sampler(game, state.observation(2))
    inferring = _inference(game, state, 2, proposals=8, beta=3.0)
    n = 150
    plain_mean = sum(tarocks(plain.sample(rng)) for _ in range(n)) / n
    inferred_mean = sum(tarocks(inferring.sample(rng)) for _ in range(n)) / n
    assert inferred_mean > plain_mean + 0.5


# ------------------------------------------------------------------ no leak


@pytest.mark.parametrize("proposals", [1, 4])
@pytest.mark.parametrize(("name", "stop"), [("doppelkopf", 20), ("tapp_tarock", 20), ("dobbm", 16), ("droggn", 30)])
def test_weights_and_decisions_depend_on_the_observation_only(name: str, stop: int, proposals: int) -> None:
    """Unseen cards swapped between the other seats (another deal with the same observation): the same weights, worlds and decision."""
    game = make_game(name)
    compared = 0
    for state, other, seat, observation in twin_deals(game, stop):
        hidden = [s for s in range(game.num_seats) if s != seat]
        first, second = _inference(game, state, seat, proposals=proposals), _inference(game, other, seat, proposals=proposals)
        for draw in range(3):
            a, b = first.sample(random.Random(draw)), second.sample(random.Random(draw))
            assert first.last_weights == second.last_weights
            assert first.log_weight(a) == second.log_weight(b)
            assert [a.hand_mask(s) for s in hidden] == [b.hand_mask(s) for s in hidden]
        assert first.last_weights  # the weights were computed
        bot = make_pimc(game, seat, 99, worlds=3, inference="heuristic", proposals=proposals)
        twin = make_pimc(game, seat, 99, worlds=3, inference="heuristic", proposals=proposals)
        assert bot.choose(observation) == twin.choose(other.observation(seat))
        assert bot._weights == twin._weights
        compared += 1
        if compared == 2:
            break
    assert compared == 2


@pytest.mark.parametrize("name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"])
def test_pimc_with_inference_plays_a_complete_deal(name: str) -> None:
    game = make_game(name)
    state = game.new_state(seed=11, dealer=1)
    bots = [make_pimc(game, s, 20 + s, worlds=2, inference="heuristic") for s in range(game.num_seats)]
    while not state.is_terminal():
        mover = state.current_player()
        state.apply(bots[mover].choose(state.observation(mover)))
    assert sum(bot.fallbacks.total for bot in bots) == 0


# ------------------------------------------------------------------ weighing


def test_a_weighed_world_carries_its_likelihood() -> None:
    game = make_game("doppelkopf")
    state = play_until(game, 7, 20)
    seat = state.current_player()
    weighing = _inference(game, state, seat, proposals=1)
    assert weighing.weighting
    rng = random.Random(3)
    logs = []
    for _ in range(8):
        world = weighing.sample(rng)
        assert world.observation(seat) == state.observation(seat)
        logs.append(weighing.log_weight(world))
        assert logs[-1] == weighing.last_weights[0] < 0
    assert len(set(logs)) > 1  # the worlds explain the others' decisions differently
    assert weighing.stats.proposals == weighing.stats.worlds == 8
    assert weighing.log_weight(state) == 0.0  # a state it did not return weighs nothing special
    resampling = _inference(game, state, seat, proposals=4)
    assert resampling.log_weight(resampling.sample(rng)) == 0.0  # resampled worlds vote with equal weight


def test_pimc_votes_with_the_weights_of_its_worlds() -> None:
    game = make_game("doppelkopf")
    state = next(s for s in (play_until(game, seed, 21) for seed in range(20)) if len(s.legal_codes()) >= 2)
    seat = state.current_player()
    bot = make_pimc(game, seat, 5, worlds=5, inference="heuristic")
    bot.choose(state.observation(seat))
    assert bot.last.worlds == 5
    assert bot._weights is not None and len(bot._weights) == 5 and max(bot._weights) == 1.0
    plain = make_pimc(game, seat, 5, worlds=5)
    plain.choose(state.observation(seat))
    assert plain._weights is None


def test_likelihood_weights_scale_the_likeliest_to_one() -> None:
    assert likelihood_weights([math.log(2.0), math.log(8.0)]) == pytest.approx([0.25, 1.0])
    assert likelihood_weights([-math.inf, -math.inf]) == [1.0, 1.0]


def test_the_weighted_vote_follows_the_heavy_worlds() -> None:
    rows = [[0.0, 10.0], [0.0, 10.0], [0.0, -10.0], [0.0, -10.0], [0.0, -10.0]]
    assert vote(rows, 0)[0] == 0  # unweighted: candidate 1 loses 3 worlds of 5
    assert vote(rows, 0, weights=[1.0, 1.0, 0.1, 0.1, 0.1])[0] == 1  # the worlds it wins are the likely ones
    values = [3.0, -1.0, 7.0, 2.0, 100.0, -50.0, 4.0, 0.0, 1.0, 5.0]
    assert weighted_winsorized_mean(values, [2.0] * 10) == pytest.approx(winsorized_mean(values))
    assert weighted_winsorized_mean([1.0, 3.0], [1.0, 3.0]) == pytest.approx(2.5)
    assert effective_worlds([1.0] * 6) == pytest.approx(6.0)
    assert effective_worlds([1.0, 0.0, 0.0]) == pytest.approx(1.0)
    # The confidence rule counts effective worlds: one heavy world is not four.
    assert vote([[0.0, 5.0]] * 4, 0, confidence=1.0, min_worlds=4, weights=[1.0, 1e-9, 1e-9, 1e-9])[0] == 0
    assert vote([[0.0, 5.0], [0.0, 4.0], [0.0, 6.0], [0.0, 5.0]], 0, confidence=1.0, min_worlds=4, weights=[1.0] * 4)[0] == 1
    with pytest.raises(ValueError, match="weights"):
        weighted_winsorized_mean([1.0, 2.0], [1.0])


def test_pimc_reports_the_values_it_voted_on() -> None:
    """``last.values`` (the decision records' ``values``): every candidate's mean difference to the heuristic's choice, which is 0."""
    game = make_game("tapp_tarock")
    state = next(s for s in (play_until(game, seed, 12) for seed in range(20)) if len(s.legal_codes()) >= 2)
    seat = state.current_player()
    bot = make_pimc(game, seat, 5, worlds=4)
    action = bot.choose(state.observation(seat))
    values = bot.last.values
    assert len(values) == bot.last.candidates >= 2
    assert action.code in values and set(values) <= set(state.legal_codes())
    assert 0.0 in values.values()  # the heuristic's choice, the base of the paired differences
    assert values[action.code] >= 0.0  # chosen: the base, or a candidate that beat it
