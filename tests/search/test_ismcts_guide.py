"""The heuristic-guided tree of ISMCTS (``ismcts:guide=N``, docs/search.md "Guided nodes").

A guided node (card play, within ``guide`` plies below the root) tries the
mover's heuristic choice in the iteration's world first, favours it in UCB,
and widens to other actions only as its visits grow.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.bots.base import Bot
from stich.bots.heuristic import make_heuristic
from stich.bots.ismcts import GUIDE_DEFAULT, IsmctsBot, make_ismcts
from stich.bots.rollouts import make_rollout
from stich.bots.samplers import prepare_sampler
from stich.core.errors import OptionError
from stich.core.game import Action, Game, Observation, State
from stich.core.registry import make_game
from stich.search.ismcts import ISMCTS, WIDEN_VISITS, Node
from stich.search.perfect_info import in_trick_play


class _OneWorld:
    """A sampler that always draws the true state (so every iteration of a search plays the same world)."""

    def __init__(self, state: State) -> None:
        self.state = state

    def draw(self, rng: random.Random, stop: Callable[[], bool] | None = None) -> State | None:
        return self.state.clone()


def _play_decision(game: Game, seed: int, *, tricks_played: int, next_choices: int = 2) -> State:
    """A card-play state after ``tricks_played`` tricks of heuristic play.

    Its mover has a choice, and after the mover's first legal action the
    next mover has at least ``next_choices``.
    """
    for attempt in range(40):
        state = game.new_state(seed=seed * 100 + attempt)
        bots = [make_heuristic(game, s, s) for s in range(game.num_seats)]
        plays = 0
        while not state.is_terminal():
            seat = state.current_player()
            codes = state.legal_codes()
            if in_trick_play(state) and plays >= tricks_played * game.num_seats and len(codes) > 1:
                after = state.clone()
                after.apply(codes[0])
                if not after.is_terminal() and len(after.legal_codes()) >= next_choices:
                    return state
            if in_trick_play(state):
                plays += 1
            state.apply(bots[seat].choose(state.observation(seat)))
    raise AssertionError("no such decision point")


def _twin_deals(game: Game, seed: int) -> tuple[State, State, int]:
    """Two card-play states whose mover (returned third) sees the same observation, with other hands differing."""
    real = _play_decision(game, seed, tricks_played=2)
    seat = real.current_player()
    obs = real.observation(seat)
    other = prepare_sampler(game, obs).sample(random.Random(5))
    assert other.observation(seat) == obs
    assert any(real.hand_mask(s) != other.hand_mask(s) for s in range(game.num_seats) if s != seat)
    return real, other, seat


def _guides(game: Game) -> list[Bot]:
    return [make_heuristic(game, s, 50 + s) for s in range(game.num_seats)]


def _first_action(state: State) -> tuple[Observation, Action, State]:
    """The mover's observation of ``state``, its first legal action, and the state after that action."""
    obs = state.observation(state.current_player())
    action = obs.legal_actions[0]
    after = state.clone()
    after.apply(action.code)
    return obs, action, after


@pytest.mark.parametrize("name", ["dobbm", "tapp_tarock", "doppelkopf"])
def test_a_guided_node_expands_the_movers_heuristic_choice_first(name: str) -> None:
    game = make_game(name)
    state = _play_decision(game, 3, tricks_played=1)
    obs, root_action, after = _first_action(state)
    mover = after.current_player()
    guides = _guides(game)
    expected = guides[mover].choose(after.observation(mover)).code
    search = ISMCTS(game, make_rollout("random", game, 1), guide=guides, guide_depth=1)
    # The root narrowed to one action: the second iteration reaches the guided node below it.
    result = search.search(obs, _OneWorld(state), random.Random(4), iterations=2, only=[root_action])
    below = result.root.children[root_action.code]
    assert list(below.children) == [expected]
    assert below.guided == {0: expected}


@pytest.mark.parametrize("name", ["dobbm", "tapp_tarock"])
def test_an_unguided_node_expands_at_random(name: str) -> None:
    """Without a guide the node below the root tries its actions in random order: over seeds, not always the heuristic's."""
    game = make_game(name)
    state = _play_decision(game, 3, tricks_played=1)
    obs, root_action, _after = _first_action(state)
    firsts = set()
    for seed in range(12):
        search = ISMCTS(game, make_rollout("random", game, 1))
        result = search.search(obs, _OneWorld(state), random.Random(seed), iterations=2, only=[root_action])
        firsts.update(result.root.children[root_action.code].children)
    assert len(firsts) > 1


def _widening_holds(node: Node, depth: int, guide_depth: int) -> None:
    """Every guided node below ``node`` (one world: the guide always names the same action) obeys the widening bound."""
    for child in node.children.values():
        if 0 < depth + 1 <= guide_depth and child.guided:
            # The children were added at earlier visits, each while below the bound of that visit count.
            assert len(child.children) <= max(1, math.ceil(math.sqrt(child.visits / WIDEN_VISITS)))
        _widening_holds(child, depth + 1, guide_depth)


def test_progressive_widening_bounds_the_other_actions() -> None:
    game = make_game("dobbm")
    # The root action ends a trick, so the node below it is a lead: many actions to widen to.
    state = _play_decision(game, 5, tricks_played=0, next_choices=6)
    obs, root_action, after = _first_action(state)
    legal_below = len(after.legal_codes())
    guided = ISMCTS(game, make_rollout("random", game, 1), guide=_guides(game), guide_depth=3)
    result = guided.search(obs, _OneWorld(state), random.Random(1), iterations=30, only=[root_action])
    below = result.root.children[root_action.code]
    assert below.visits == 30
    bound = math.ceil(math.sqrt(below.visits / WIDEN_VISITS))
    assert 2 <= len(below.children) <= bound < legal_below
    _widening_holds(result.root, 0, 3)
    # The same search unguided tries every action below the root within as many iterations.
    plain = ISMCTS(game, make_rollout("random", game, 1))
    free = plain.search(obs, _OneWorld(state), random.Random(1), iterations=30, only=[root_action])
    assert len(free.root.children[root_action.code].children) == legal_below


def test_nodes_deeper_than_the_guide_are_not_guided() -> None:
    game = make_game("dobbm")
    state = _play_decision(game, 5, tricks_played=0)
    obs, _action, _after = _first_action(state)
    search = ISMCTS(game, make_rollout("random", game, 1), guide=_guides(game), guide_depth=1)
    result = search.search(obs, _OneWorld(state), random.Random(2), iterations=300)

    def guided_depths(node: Node, depth: int) -> set[int]:
        found = {depth} if node.guided else set()
        for child in node.children.values():
            found |= guided_depths(child, depth + 1)
        return found

    assert guided_depths(result.root, 0) == {1}
    with pytest.raises(ValueError, match="guide_depth"):
        ISMCTS(game, make_rollout("random", game, 1), guide=_guides(game), guide_depth=-1)


@pytest.mark.parametrize("bad", [-1, 13, True, 2.5, "deep"])
def test_guide_option_is_checked(bad: object) -> None:
    with pytest.raises(OptionError, match="guide"):
        make_ismcts(make_game("dobbm"), 0, 1, guide=bad)  # type: ignore[arg-type]


def test_guide_option_is_parsed_and_auto_is_the_games_default() -> None:
    game = make_game("dobbm")
    bot = build_bot(parse_bot_spec("ismcts:simulations=5,guide=2"), game, 0, 1)
    assert isinstance(bot, IsmctsBot) and bot.search.guide_depth == 2 and bot.search.guide is not None
    auto = make_ismcts(game, 0, 1, simulations=5)
    assert auto.search.guide_depth == GUIDE_DEFAULT.get("dobbm", 0)
    off = make_ismcts(game, 0, 1, simulations=5, guide=0)
    assert off.search.guide is None


@pytest.mark.parametrize("name", ["dobbm", "tapp_tarock", "droggn"])
def test_guided_decision_ignores_the_hidden_cards(name: str) -> None:
    """The guide plays the worlds' hands, never the real ones: two deals with the same observation get the same decision."""
    game = make_game(name)
    real, other, seat = _twin_deals(game, 21)
    first = make_ismcts(game, seat, 99, simulations=150, guide=3)
    second = make_ismcts(game, seat, 99, simulations=150, guide=3)
    assert first.choose(real.observation(seat)) == second.choose(other.observation(seat))
    # The guide was asked in the sampled worlds (the nodes below the root hold its choices), never on the real deal.
    assert first.last_result is not None
    assert any(child.guided for child in first.last_result.root.children.values())
