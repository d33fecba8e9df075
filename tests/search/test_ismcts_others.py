"""ISMCTS with the other seats' cards played by a model (``ismcts:others=heuristic``) and the eager paired switch.

With ``others=heuristic`` the tree branches on the searching seat's own
cards only: wherever another seat plays a card with a choice, its heuristic
bot plays it from that seat's observation of the iteration's world, so in
one world such a node has exactly one child.  ``switch=eager`` leaves the
heuristic's card for any paired lead, as the ``pimc`` bot does.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest

from stich.bots.heuristic import make_heuristic
from stich.bots.ismcts import make_ismcts
from stich.bots.rollouts import make_rollout
from stich.core.game import Observation
from stich.core.registry import make_game
from stich.errors import OptionError
from stich.search.ismcts import ISMCTS, Node, choose_paired

from ._ismcts_helpers import _OneWorld, _play_decision, _twin_deals


class _Counting:
    """A heuristic bot that counts its decisions and checks it is asked for its own seat."""

    def __init__(self, game_name: str, seat: int) -> None:
        self.inner = make_heuristic(make_game(game_name), seat, seat)
        self.seat = seat
        self.asked = 0

    def choose(self, observation: Observation):  # type: ignore[no-untyped-def]
        assert observation.seat == self.seat
        self.asked += 1
        return self.inner.choose(observation)


def _nodes(node: Node) -> Iterator[Node]:
    yield node
    for child in node.children.values():
        yield from _nodes(child)


@pytest.mark.parametrize("name", ["dobbm", "tapp_tarock"])
def test_in_one_world_another_seats_card_has_a_single_child(name: str) -> None:
    game = make_game(name)
    state = _play_decision(game, 4, tricks_played=1)
    observer = state.current_player()
    models = [_Counting(name, s) for s in range(game.num_seats)]
    search = ISMCTS(game, make_rollout("random", game, 1), others=models)  # type: ignore[arg-type]
    result = search.search(state.observation(observer), _OneWorld(state), random.Random(2), iterations=300)
    others = [n for n in _nodes(result.root) if n.children and next(iter(n.children.values())).player != observer]
    own = [n for n in _nodes(result.root) if n.children and next(iter(n.children.values())).player == observer]
    assert others and all(len(n.children) == 1 for n in others)
    assert any(len(n.children) > 1 for n in own[1:])  # below the root the tree still branches on its own cards
    assert sum(m.asked for m in models) > 0 and models[observer].asked == 0


def test_without_a_model_the_tree_branches_on_every_seat() -> None:
    game = make_game("dobbm")
    state = _play_decision(game, 4, tricks_played=1)
    observer = state.current_player()
    search = ISMCTS(game, make_rollout("random", game, 1))
    result = search.search(state.observation(observer), _OneWorld(state), random.Random(2), iterations=300)
    assert any(len(n.children) > 1 for n in _nodes(result.root) if n.children and next(iter(n.children.values())).player != observer)


def test_eager_switch_takes_any_paired_lead() -> None:
    rows = [[0.0, 0.02, -0.1]]  # one world: the second action leads the anchor (code 10) by 0.02
    codes = [10, 11, 12]
    assert choose_paired(rows, codes, 10) == 10  # careful: one sweep, a lead below the gap
    assert choose_paired(rows, codes, 10, eager=True) == 11
    assert choose_paired([[0.0, 0.0, -0.1]], codes, 10, eager=True) == 10  # a tie stays with the anchor


def test_the_options_are_checked_by_name() -> None:
    game = make_game("dobbm")
    bot = make_ismcts(game, 0, 1, simulations=50, paired=True, others="heuristic", switch="eager", rollout="kernel-heuristic")
    assert bot.search.others is not None and bot.search.eager
    assert make_ismcts(game, 0, 1, simulations=50, tuned=False).search.others is None
    with pytest.raises(OptionError, match="others"):
        make_ismcts(game, 0, 1, others="everyone")
    with pytest.raises(OptionError, match="switch"):
        make_ismcts(game, 0, 1, paired=True, switch="bold")
    with pytest.raises(OptionError, match="paired"):
        make_ismcts(game, 0, 1, switch="eager", tuned=False)
    with pytest.raises(OptionError, match="kernel-heuristic"):
        make_ismcts(make_game("droggn"), 0, 1, rollout="kernel-heuristic")


def test_a_model_search_sees_only_the_observation() -> None:
    """The models play the worlds' hands, never the real ones: two deals with the same observation get the same decision."""
    game = make_game("dobbm")
    real, other, seat = _twin_deals(game, 5)
    options = {"simulations": 150, "paired": True, "others": "heuristic", "switch": "eager"}
    first = make_ismcts(game, seat, 9, **options)  # type: ignore[arg-type]
    second = make_ismcts(game, seat, 9, **options)  # type: ignore[arg-type]
    assert first.choose(real.observation(seat)) == second.choose(other.observation(seat))
    assert first.last_result is not None
    assert any(n.guided for n in _nodes(first.last_result.root))  # the models' cards were asked in the sampled worlds


def test_defend_careful_searches_defenders_with_the_careful_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``defend=careful`` and ``switch=eager`` the declarer's card searches take any lead, a defender's need a clear one."""
    from stich.search import ismcts as ismcts_search

    game = make_game("droggn")
    calls: list[tuple[bool, bool]] = []
    current_is_declarer = [False]
    real = ismcts_search.choose_paired

    def spy(rows: Sequence[Sequence[float]], codes: Sequence[int], anchor: int | None, *, gap: float = 0.05, eager: bool = False) -> int:
        calls.append((current_is_declarer[0], eager))
        return real(rows, codes, anchor, gap=gap, eager=eager)

    monkeypatch.setattr(ismcts_search, "choose_paired", spy)
    options = {"simulations": 16, "paired": True, "others": "heuristic", "switch": "eager", "rollout": "heuristic", "defend": "careful"}
    for deal in range(2):
        state = game.new_state(seed=deal, dealer=deal % game.num_seats)
        bots = [make_ismcts(game, s, 50 + s, **options) for s in range(game.num_seats)]  # type: ignore[arg-type]
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            current_is_declarer[0] = obs.public.get("declarer") == seat
            state.apply(bots[seat].choose(obs))
    declarer = {eager for is_declarer, eager in calls if is_declarer}
    defender = {eager for is_declarer, eager in calls if not is_declarer}
    assert declarer == {True} and defender == {False}
