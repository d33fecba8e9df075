"""ISMCTS variants: sequential halving of paired root sweeps, score-linear rewards, the call simulation's rollout.

Every test fixes ``simulations`` or ``iterations`` so that results do not
depend on the machine's speed.
"""

from __future__ import annotations

import math
import random

import pytest

from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.bots.ismcts import SCORE_SCALE_FACTOR, IsmctsBot, make_ismcts
from stich.bots.rollouts import make_rollout
from stich.bots.samplers import prepare_sampler
from stich.core.game import Game, State
from stich.core.registry import make_game
from stich.errors import OptionError
from stich.search.ismcts import EXPLORATION, ISMCTS, MIN_SWEEPS, Node, bounded_rewards, halve, rescale, reward_scale
from stich.search.scores import score_value


def _decision_point(game: Game, seed: int, min_moves: int, min_legal: int) -> State:
    """A state after at least ``min_moves`` random actions where the mover has at least ``min_legal`` legal actions."""
    for attempt in range(200):
        rng = random.Random(seed * 1000 + attempt)
        state = game.new_state(seed=seed * 1000 + attempt)
        done = 0
        while not state.is_terminal():
            codes = state.legal_codes()
            if done >= min_moves and len(codes) >= min_legal:
                return state
            state.apply(codes[rng.randrange(len(codes))])
            done += 1
    raise AssertionError("no decision point found")


# --------------------------------------------------------------------------- halve


def test_halve_keeps_the_better_half_and_always_the_anchor() -> None:
    codes = [10, 20, 30, 40, 50]
    # Anchor 30 is the worst in every world; 50 and 10 are the best.
    rows = [[0.5, 0.1, -0.9, 0.2, 0.6], [0.4, 0.0, -0.8, 0.1, 0.7], [0.6, 0.2, -1.0, 0.3, 0.5], [0.5, 0.1, -0.9, 0.2, 0.6]]
    kept, columns = halve(rows, codes, 30)
    assert kept == [10, 30, 50]  # three of five: the anchor and the two best others, in their order
    assert columns == [[row[0], row[2], row[4]] for row in rows]


def test_halve_without_an_anchor_ranks_every_action() -> None:
    codes = [1, 2, 3, 4]
    rows = [[0.0, 0.3, 0.2, -0.5], [0.1, 0.4, 0.3, -0.4]]
    kept, columns = halve(rows, codes, None)
    assert kept == [2, 3]  # the first code is only the base of the differences, not kept for it
    assert columns == [[0.3, 0.2], [0.4, 0.3]]


def test_halve_leaves_two_actions_alone() -> None:
    rows = [[0.1, 0.9]]
    assert halve(rows, [4, 8], 4) == ([4, 8], [[0.1, 0.9]])
    assert halve([], [1, 2, 3], 1) == ([1, 2, 3], [])


# --------------------------------------------------------------------------- the paired search


@pytest.mark.parametrize("name", ["tapp_tarock", "dobbm", "droggn"])
def test_halving_drops_half_the_root_actions_at_each_doubling(name: str) -> None:
    game = make_game(name)
    state = _decision_point(game, 3, 10, 5)
    seat = state.current_player()
    observation = state.observation(seat)
    codes = sorted(a.code for a in observation.legal_actions)
    k = len(codes)
    half = max(2, (k + 1) // 2)
    anchor = codes[-1]
    search = ISMCTS(game, make_rollout("mixed", game, 1), paired=True, halving=True)
    iterations = MIN_SWEEPS * k + MIN_SWEEPS * half  # four full sweeps, then four sweeps of the kept half
    result = search.search(observation, prepare_sampler(game, observation), random.Random(2), iterations=iterations, anchor=anchor)
    visits = {code: child.visits for code, child in result.root.children.items()}
    assert sorted(visits) == codes  # every action was tried in the first sweeps
    assert sorted(visits.values()) == [MIN_SWEEPS] * (k - half) + [2 * MIN_SWEEPS] * half
    assert visits[anchor] == 2 * MIN_SWEEPS  # the anchor is never dropped
    assert result.worlds == 2 * MIN_SWEEPS  # one world per sweep
    assert visits[result.code] == 2 * MIN_SWEEPS  # the choice is one of the actions still standing


def test_halving_needs_paired_sweeps() -> None:
    game = make_game("tapp_tarock")
    with pytest.raises(ValueError, match="halving"):
        ISMCTS(game, make_rollout("mixed", game, 1), halving=True)


# --------------------------------------------------------------------------- rewards=score


def test_rescale_reaches_every_rollout_a_rollout_hands_over_to() -> None:
    game = make_game("tapp_tarock")
    rollout = rescale(make_rollout("heuristic", game, 1), 1234.0)
    parts = [rollout, rollout.finish, rollout.finish.inner]  # type: ignore[attr-defined]
    assert all(part.scale == 1234.0 for part in parts)
    mixed = rescale(make_rollout("mixed", game, 1), 4321.0)
    assert mixed.scale == 4321.0 and mixed.play.scale == 4321.0  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", ["heuristic", "random"])
def test_rescaled_rollouts_value_the_end_by_the_new_scale(kind: str) -> None:
    """One game a leaf, so each reward undoes to the leaf's score (the kernel's leaves average several games)."""
    game = make_game("tapp_tarock")
    scale = 1000.0
    state = _decision_point(game, 5, 14, 2)
    rollout = rescale(make_rollout(kind, game, 3), scale)
    twin = make_rollout(kind, game, 3)
    rewards = rollout(state.clone(), random.Random(7))
    bounded = twin(state.clone(), random.Random(7))  # the same play at the game's own scale
    # Undo each squeeze: both give the same scores, the new scale nearly linearly.
    small = reward_scale(game)
    for new, old in zip(rewards, bounded, strict=True):
        assert math.atanh(new) * scale == pytest.approx(math.atanh(old) * small, rel=1e-6, abs=1e-6)
        assert abs(new) < 0.2  # tanh at a hundred times the scale: nowhere near saturation


def test_the_search_values_deal_ends_by_its_scale() -> None:
    game = make_game("tapp_tarock")
    state = game.new_state(seed=11)
    rng = random.Random(3)
    while not state.is_terminal():
        codes = state.legal_codes()
        state.apply(codes[rng.randrange(len(codes))])
    scores = state.result().scores
    search = ISMCTS(game, make_rollout("random", game, 1), scale=500.0)
    rewards = search._finish([Node(-1), Node(0)], state, 0, random.Random(1))  # a deal end the tree reached
    assert rewards == [math.tanh(score_value(s) / 500.0) for s in scores]
    assert rewards != bounded_rewards(scores, reward_scale(game)) or all(s == 0 for s in scores)
    with pytest.raises(ValueError, match="scale"):
        ISMCTS(game, make_rollout("random", game, 1), scale=0.0)


def test_rewards_score_scales_the_rewards_and_the_exploration() -> None:
    game = make_game("dobbm")
    bot = build_bot(parse_bot_spec("ismcts:simulations=5,paired=true,halving=true,rewards=score"), game, 0, 1)
    assert isinstance(bot, IsmctsBot)
    assert bot.search.scale == pytest.approx(SCORE_SCALE_FACTOR * reward_scale(game))
    assert bot.search.exploration == pytest.approx(EXPLORATION / SCORE_SCALE_FACTOR)
    assert bot.search.halving is True
    plain = build_bot(parse_bot_spec("ismcts:simulations=5"), game, 0, 1)
    assert isinstance(plain, IsmctsBot)
    assert plain.search.scale == reward_scale(game) and plain.search.exploration == EXPLORATION and not plain.search.halving


def test_bad_halving_and_rewards_are_named() -> None:
    game = make_game("dobbm")
    with pytest.raises(OptionError, match="halving needs paired"):
        make_ismcts(game, 0, 1, simulations=5, halving=True, tuned=False)
    with pytest.raises(OptionError, match="halving must be"):
        make_ismcts(game, 0, 1, simulations=5, paired=True, halving="yes")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="rewards must be one of bounded, score"):
        make_ismcts(game, 0, 1, simulations=5, rewards="linear")


@pytest.mark.parametrize(("rollout", "expected"), [("kernel-heuristic", "kernel-heuristic"), ("mixed", "kernel-heuristic")])
def test_the_call_simulation_plays_out_as_the_leaves_do(rollout: str, expected: str) -> None:
    """With compiled leaves the calls' ``pimc`` simulation is compiled too; otherwise it is ``pimc``'s default (compiled in Tapp Tarock)."""
    from stich.bots.tarock_rollout import heuristic_available

    if not heuristic_available("tapp_tarock"):
        pytest.skip("numba is not available")
    bot = make_ismcts(make_game("tapp_tarock"), 0, 1, level=1, rollout=rollout, calls="simulation")
    assert bot.simulator is not None
    assert bot.simulator.rollout == expected  # type: ignore[attr-defined]
