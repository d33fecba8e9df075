"""The rule-based card-play rollout of the ISMCTS bot (stich.bots.tarock_family.greedy_playout).

Every rule of the module docstring is checked on positions of real deals
(card play reached by the games' heuristic bots), each against the points
and trick order of the game's own pack; the rollout's whole card play is
replayed through the checked ``State.apply``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from stich.bots.heuristic import make_heuristic
from stich.bots.ismcts import make_ismcts
from stich.bots.rollouts import make_rollout
from stich.bots.tarock_family.greedy_playout import GAMES, GreedyRollout
from stich.core.game import Game, PhasedState
from stich.core.registry import make_game
from stich.core.tricks import led_suit, trick_winner
from stich.errors import OptionError
from stich.games.tapp_tarock.state import TappTarockState
from stich.search.ismcts import PLAY_PHASE, heuristic_step
from stich.search.perfect_info import teams

from .test_ismcts import DEALS

VARIANTS: list[tuple[str, str | None, dict[str, Any]]] = [deal for deal in DEALS if deal[0] in GAMES]
"""The game variants of the ISMCTS whole-deal tests that the greedy rollout plays."""


def _card_play_starts(game: Game, count: int) -> list[PhasedState]:
    """States at the first card of ``count`` deals, bidding and talon played by the heuristic bots."""
    bots = [make_heuristic(game, seat, seat) for seat in range(game.num_seats)]
    starts: list[PhasedState] = []
    seed = 0
    while len(starts) < count and seed < 10 * count:
        state = game.new_state(seed=seed, dealer=seed % game.num_seats)
        seed += 1
        while not state.is_terminal() and getattr(state, "phase_name", PLAY_PHASE) != PLAY_PHASE:
            heuristic_step(state, bots)
        if not state.is_terminal():
            assert isinstance(state, PhasedState)  # every game's state is one: its trick in typed attributes
            starts.append(state)
    assert starts, "no deal reached card play"
    return starts


@pytest.mark.parametrize(("name", "preset", "options"), VARIANTS)
def test_the_rollout_plays_only_legal_actions_to_the_end(name: str, preset: str | None, options: dict[str, Any]) -> None:
    game = make_game(name, preset, options)
    rollout = GreedyRollout(game)
    for index, start in enumerate(_card_play_starts(game, 4)):
        played = start.clone()
        rewards = rollout(played, random.Random(index))
        assert played.is_terminal()
        assert len(rewards) == game.num_seats and all(-1.0 < r < 1.0 for r in rewards)
        replay = start.clone()
        for _seat, code in played.history[len(start.history) :]:
            replay.apply(code)  # the checked path: an illegal card would raise here
        assert replay.is_terminal() and replay.result().scores == played.result().scores


def _following_positions(game: Game, count: int) -> list[PhasedState]:
    """Card-play states where the mover follows to a trick and holds a choice of cards (random play to get there)."""
    rng = random.Random(5)
    found: list[PhasedState] = []
    for start in _card_play_starts(game, 12):
        state = start.clone()
        while not state.is_terminal():
            codes = state.legal_codes()
            if state.trick_cards and len(codes) > 1:
                found.append(state.clone())
            state.apply(codes[rng.randrange(len(codes))])
        if len(found) >= count:
            break
    return found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_rule_picks_the_card_it_names(name: str) -> None:
    game = make_game(name)
    rollout = GreedyRollout(game, epsilon=0.0)
    order_of, points = GAMES[name]()
    seen: set[str] = set()
    for state in _following_positions(game, 150):
        trick, seats = list(state.trick_cards), list(state.trick_seats)
        me = state.current_player()
        codes = state.legal_codes()
        if not all(game.actions[c].kind == "play" for c in codes):
            continue
        side, order = teams(state), order_of(state)
        per_trick = len(state.active)
        code = rollout.pick(codes, trick, seats, me, side, order, per_trick)
        assert code in codes
        last = len(trick) == per_trick - 1
        ours = side[seats[trick_winner(order, trick)]] == side[me]
        wins = [c for c in codes if trick_winner(order, [*trick, c]) == len(trick)]
        fewest = min(points[c] for c in codes)
        if ours and last:
            seen.add("smear")
            assert points[code] == max(points[c] for c in codes)
        elif ours or not wins:
            seen.add("keep")
            assert points[code] == fewest
        elif last:
            seen.add("take last")
            assert code in wins and points[code] == max(points[c] for c in wins)
        elif sum(points[c] for c in trick) >= rollout.threshold:
            seen.add("take early")
            keys = order.keys_by_led[led_suit(order, trick)]
            assert code in wins and keys[code] == max(keys[c] for c in wins)
        else:
            seen.add("duck early")
            assert points[code] == fewest
    assert {"smear", "keep", "take last"} <= seen, seen


def test_leads_are_random_and_seeded() -> None:
    game = make_game("tapp_tarock")
    rollout = GreedyRollout(game)
    start = _card_play_starts(game, 1)[0]
    assert not start.trick_cards
    firsts = set()
    for seed in range(40):
        one, two = start.clone(), start.clone()
        rollout.finish(one, random.Random(seed))
        rollout.finish(two, random.Random(seed))
        assert one.history == two.history
        firsts.add(one.history[len(start.history)][1])
    assert len(firsts) > 1


def test_greedy_card_play_takes_more_of_the_points_than_random_card_play() -> None:
    """Played by the rules against random card play, a team takes more card points: the rules mean something."""
    game = make_game("tapp_tarock")
    starts = _card_play_starts(game, 30)
    greedy = GreedyRollout(game, epsilon=0.0)
    declarer_share = {"greedy": 0.0, "random": 0.0}
    for index, start in enumerate(starts):
        assert isinstance(start, TappTarockState) and start.declarer is not None
        declarer = start.declarer
        for kind in declarer_share:
            state = start.clone()
            rng = random.Random(index)
            while not state.is_terminal():
                codes = state.legal_codes()
                if kind == "greedy" and state.current_player() == declarer and state.trick_cards and len(codes) > 1:
                    side, order = teams(state), greedy.order_of(state)
                    state._apply_code(greedy.pick(codes, state.trick_cards, state.trick_seats, declarer, side, order, 3))
                else:
                    state._apply_code(codes[rng.randrange(len(codes))])
            won = state.won[declarer]
            declarer_share[kind] += sum(greedy.points[f] for f in range(game.deck.n_faces) if won >> f & 1)
    assert declarer_share["greedy"] > declarer_share["random"]


def test_only_the_tarock_family_has_it() -> None:
    with pytest.raises(ValueError, match="greedy rollout knows"):
        GreedyRollout(make_game("doppelkopf"))
    with pytest.raises(ValueError, match="greedy"):
        make_rollout("greedy", make_game("doppelkopf"), 1)
    with pytest.raises(OptionError, match="rollout 'greedy' exists only for"):
        make_ismcts(make_game("doppelkopf"), 0, 1, rollout="greedy")
    assert make_ismcts(make_game("dappen"), 0, 1, rollout="greedy", simulations=4).rollout_kind == "greedy"


@pytest.mark.parametrize(("name", "preset", "options"), VARIANTS)
def test_ismcts_bots_with_greedy_rollouts_play_a_whole_deal(name: str, preset: str | None, options: dict[str, Any]) -> None:
    game = make_game(name, preset, options)
    bots = [make_ismcts(game, seat, seat + 1, simulations=8, rollout="greedy") for seat in range(game.num_seats)]
    state = game.new_state(seed=11, dealer=1)
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat].choose(state.observation(seat))
        state.apply(action)
    assert len(state.result().scores) == game.num_seats
