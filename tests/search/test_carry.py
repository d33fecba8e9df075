"""Worlds carried from decision to decision (stich.search.carry, WorldSampler.advance, ``ismcts:carry``).

A carried world is a world of the seat's earlier decision brought up to the
present by replaying the actions since; it must pass the same exact check as
a fresh world, and in Dobbm the calls made since must be the heuristic's.
"""

from __future__ import annotations

import random

import pytest

from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.bots.heuristic import make_heuristic
from stich.bots.ismcts import CARRY_DEFAULT, make_ismcts
from stich.bots.samplers import prepare_sampler
from stich.core.errors import OptionError
from stich.core.game import Action, Game, Observation, State
from stich.core.registry import make_game
from stich.search.call_reading import advance_explained
from stich.search.carry import CarriedWorlds, WorldCarry
from stich.search.ismcts import PLAY_PHASE
from stich.search.sampling import SamplingError, advance_world


def _heuristic_deal(game: Game, seed: int) -> list[State]:
    """Every state of a deal the heuristic bots play from ``seed`` (clones, the first one fresh)."""
    bots = [make_heuristic(game, s, seed + s) for s in range(game.num_seats)]
    state = game.new_state(seed=seed)
    states = [state.clone()]
    while not state.is_terminal():
        seat = state.current_player()
        state.apply(bots[seat].choose(state.observation(seat)).code)
        states.append(state.clone())
    return states


def _two_play_decisions(game: Game, seed: int) -> tuple[State, State]:
    """Two card-play decisions of the same seat with a real choice, one trick or more apart."""
    states = _heuristic_deal(game, seed)
    plays = [s for s in states if not s.is_terminal() and s.observation(s.current_player()).phase == PLAY_PHASE]
    first = next(s for s in plays if len(s.legal_codes()) > 1)
    seat = first.current_player()
    later = [s for s in plays if s.current_player() == seat and len(s.history) > len(first.history) + 2 and len(s.legal_codes()) > 1]
    return first, later[0]


@pytest.mark.parametrize("name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"])
def test_the_real_deal_always_carries_over(name: str) -> None:
    """The true state of an earlier decision, advanced, is the true state of the later one."""
    game = make_game(name)
    first, later = _two_play_decisions(game, 4)
    seat = first.current_player()
    advanced = advance_world(game, later.observation(seat), first)
    assert advanced is not None
    assert advanced.history == later.history
    assert [advanced.hand_mask(s) for s in range(game.num_seats)] == [later.hand_mask(s) for s in range(game.num_seats)]
    assert len(first.history) < len(later.history)  # the original world is left as it was


@pytest.mark.parametrize("name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn"])
def test_carried_worlds_fit_exactly_or_are_dropped(name: str) -> None:
    """Worlds drawn at the earlier decision either reproduce the later observation exactly or are dropped; some are dropped."""
    game = make_game(name)
    first, later = _two_play_decisions(game, 7)
    seat = first.current_player()
    sampler = prepare_sampler(game, first.observation(seat))
    rng = random.Random(3)
    target = later.observation(seat)
    kept = dropped = 0
    for _ in range(40):
        world = sampler.sample(rng)
        advanced = advance_world(game, target, world)
        if advanced is None:
            dropped += 1
            continue
        kept += 1
        assert advanced.observation(seat) == target
    assert dropped > 0, "the cards played since should rule out some worlds"
    assert kept > 0, "some worlds of the earlier decision should still fit"


def test_a_world_that_gave_a_played_card_to_another_seat_is_dropped() -> None:
    game = make_game("dobbm")
    first, later = _two_play_decisions(game, 4)
    seat = first.current_player()
    # The first card another seat played after the earlier decision: move it into a third hand.
    new = later.history[len(first.history) :]
    player, code = next((p, c) for p, c in new if p != seat and game.actions[c].kind == "play")
    others = [s for s in range(game.num_seats) if s not in (seat, player) and first.hand_mask(s)]
    assert others, "a third hand to move the card to"
    world = _swap_card(first, game.actions[code], player, others[0])
    assert world is not None
    assert advance_world(game, later.observation(seat), world) is None


def _swap_card(state: State, action: Action, owner: int, receiver: int) -> State | None:
    """``state`` with the card of ``action`` moved from ``owner`` to ``receiver`` in exchange for one of theirs (same deal)."""
    game = state.game
    piles = [list(game.deck.cards(mask)) for mask in state.dealt]
    card = next(c for c in piles[owner] if c.text in action.text.split())
    swap = piles[receiver][0]
    piles[owner][piles[owner].index(card)] = swap
    piles[receiver][0] = card
    world = game.new_state(hands=piles, dealer=state.dealer, context=state.context)
    for _, code in state.history:
        if world.illegal_reason(code) is not None:
            return None
        world.apply(code)
    return world


def test_a_hidden_action_since_drops_the_world() -> None:
    """A world cannot be carried over a discard the seat did not see: its placeholder cannot be replayed."""
    game = make_game("dobbm")
    for seed in range(40):
        states = _heuristic_deal(game, seed)
        for i, state in enumerate(states[:-1]):
            later = states[i + 1]
            actor, code = later.history[-1]
            if game.actions[code].kind != "discard":
                continue
            watcher = next(s for s in range(game.num_seats) if s != actor and later.observation(s).events)
            if later.observation(watcher).events[-1][1] != "discard ?":
                continue
            assert advance_world(game, later.observation(watcher), state) is None
            assert advance_world(game, later.observation(actor), state) is not None  # the discarder saw it
            return
    pytest.fail("no hidden discard in 40 deals")


class _Contrarian:
    """A reader that never makes the call that was made: every call since an earlier decision fails to be explained."""

    name = "contrarian"

    def choose(self, observation: Observation) -> Action:
        return observation.legal_actions[-1] if observation.legal_actions[0].kind == "play" else observation.legal_actions[0]


def test_calls_made_since_must_be_the_heuristics_in_dobbm() -> None:
    """advance_explained asks the readers at every new call of another seat; a call they would not make drops the world."""
    game = make_game("dobbm")
    for seed in range(12, 60):
        states = _heuristic_deal(game, seed)
        play = next((s for s in states if s.observation(0).phase == PLAY_PHASE), None)
        if play is not None and play.observation(0).public["declarer"] is not None:
            break
    else:
        pytest.fail("no deal with a declarer")
    # The declarer sees its own discards; between the deal's start and the first card lie the other seats' bids.
    seat = int(play.observation(0).public["declarer"])
    obs = play.observation(seat)
    readers = [make_heuristic(game, s, seed + s) for s in range(game.num_seats)]
    assert advance_explained(game, obs, readers, states[0]) is not None
    contrarians = [_Contrarian() for _ in range(game.num_seats)]
    assert advance_explained(game, obs, contrarians, states[0]) is None


class _Source:
    """A fake sampler: counts its preparation and its fresh draws."""

    def __init__(self, world: State) -> None:
        self.world = world
        self.draws = 0

    def draw(self, rng: random.Random, stop: object = None) -> State | None:
        self.draws += 1
        return self.world


def test_carried_worlds_come_first_and_the_sampler_is_prepared_only_when_they_run_out() -> None:
    game = make_game("dobbm")
    states = _heuristic_deal(game, 5)
    fresh = states[3]
    carried = [states[0], states[1], states[2]]
    prepared: list[_Source] = []

    def prepare() -> _Source:
        prepared.append(_Source(fresh))
        return prepared[-1]

    fits = {id(states[0]), id(states[2])}
    source = CarriedWorlds(lambda w: w if id(w) in fits else None, prepare, carried)
    rng = random.Random(0)
    assert source.draw(rng) is states[0]
    assert source.unused() == [states[1], states[2]]
    assert source.draw(rng) is states[2]  # states[1] no longer fits: dropped
    assert (source.advanced, source.dropped, prepared) == (2, 1, [])
    assert source.draw(rng) is fresh
    assert source.draw(rng) is fresh
    assert len(prepared) == 1 and prepared[0].draws == 2


def test_preparing_past_the_budget_gives_no_world_and_no_sampler_is_an_error() -> None:
    game = make_game("dobbm")
    world = game.new_state(seed=1)
    source = CarriedWorlds(lambda w: None, lambda: _Source(world), [])
    assert source.draw(random.Random(0), stop=lambda: True) is None
    none = CarriedWorlds(lambda w: None, lambda: None, [world])
    with pytest.raises(SamplingError, match="no world sampler"):
        none.draw(random.Random(0))


def test_world_carry_keeps_a_deals_worlds_and_forgets_another_deals() -> None:
    game = make_game("dobbm")
    a = _heuristic_deal(game, 5)
    b = _heuristic_deal(game, 6)
    seat = a[0].current_player()
    carry = WorldCarry(limit=3)
    offered: list[State] = []

    def advance(world: State) -> State:
        offered.append(world)
        return world

    late_a = next(s for s in a[4:] if s.current_player() == seat)
    first = carry.source(a[0].observation(seat), advance, lambda: _Source(a[0]))
    assert first.draw(random.Random(0)) is a[0]  # nothing carried yet: a fresh draw
    carry.keep([a[0], a[1], a[2], a[3]])
    assert carry.worlds == [a[0], a[1], a[2]]  # at most the limit
    second = carry.source(late_a.observation(seat), advance, lambda: None)
    assert second.draw(random.Random(0)) is a[0]
    carry.keep([a[0]])
    assert carry.worlds == [a[0], a[1], a[2]]  # the used one, then those not reached
    offered.clear()
    late_b = next(s for s in b[6:] if s.current_player() == seat and s.history[:1] != late_a.history[:1])
    other = carry.source(late_b.observation(seat), advance, lambda: _Source(b[0]))
    assert other.draw(random.Random(0)) is b[0]
    assert offered == []  # another deal: the stale worlds are not even tried


def test_carry_option_is_checked_parsed_and_auto_is_the_games_choice() -> None:
    with pytest.raises(OptionError, match="carry"):
        make_ismcts(make_game("dobbm"), 0, 1, carry="yes")
    for name in ("doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"):
        bot = make_ismcts(make_game(name), 0, 1, simulations=5)
        assert (bot.carry is not None) == CARRY_DEFAULT.get(name, False)
    assert build_bot(parse_bot_spec("ismcts:simulations=5,carry=auto"), make_game("dobbm"), 0, 1).carry is None  # type: ignore[attr-defined]
    parsed = build_bot(parse_bot_spec("ismcts:simulations=5,carry=false"), make_game("dobbm"), 0, 1)
    assert parsed.carry is None  # type: ignore[attr-defined]
    assert build_bot(parse_bot_spec("ismcts:simulations=5,carry=true"), make_game("tapp_tarock"), 0, 1).carry is not None  # type: ignore[attr-defined]


def _play_deal(game: Game, bot_seat: int, seed: int, *, carry: bool) -> tuple[list[Action], list[int]]:
    """A deal with an ``ismcts`` bot in ``bot_seat`` and heuristic bots elsewhere: the bot's actions and the worlds it carried in."""
    bot = make_ismcts(game, bot_seat, 9, simulations=40, carry=carry)
    others = [make_heuristic(game, s, seed + s) for s in range(game.num_seats)]
    state = game.new_state(seed=seed)
    actions: list[Action] = []
    carried: list[int] = []
    while not state.is_terminal():
        seat = state.current_player()
        obs = state.observation(seat)
        if seat == bot_seat:
            action = bot.choose(obs)
            actions.append(action)
            if bot.carry is not None and bot.carry._source is None and bot.last_result is not None:
                carried.append(len(bot.carry.worlds))
        else:
            action = others[seat].choose(obs)
        state.apply(action.code)
    return actions, carried


@pytest.mark.parametrize("name", ["dobbm", "tapp_tarock"])
def test_a_carrying_bot_plays_reproducibly_and_keeps_worlds_between_decisions(name: str) -> None:
    game = make_game(name)
    first, kept = _play_deal(game, 1, 8, carry=True)
    second, _ = _play_deal(game, 1, 8, carry=True)
    assert first == second
    assert kept and max(kept) > 1  # its searches handed worlds on


def test_a_carrying_bot_starts_later_searches_from_carried_worlds() -> None:
    game = make_game("dobbm")
    first, later = _two_play_decisions(game, 4)
    seat = first.current_player()
    bot = make_ismcts(game, seat, 2, simulations=60, carry=True)
    bot.choose(first.observation(seat))
    assert bot.carry is not None and bot.carry.worlds
    sources: list[CarriedWorlds] = []
    original = bot.carry.source

    def spy(*args: object) -> CarriedWorlds:
        sources.append(original(*args))  # type: ignore[arg-type]
        return sources[-1]

    bot.carry.source = spy  # type: ignore[method-assign,assignment]
    assert bot.choose(later.observation(seat)) in later.legal_actions()
    assert sources[0].advanced + sources[0].dropped > 0


def test_the_pool_takes_a_carried_world_every_iteration_and_fresh_ones_by_its_schedule() -> None:
    from stich.search.ismcts import WorldPool

    state = make_game("dobbm").new_state(seed=1, dealer=0)
    waiting = [3]  # three carried worlds wait

    def draw(_rng: random.Random) -> State:
        if waiting[0]:
            waiting[0] -= 1
        return state

    pool = WorldPool(draw, random.Random(0), pool_size=64, resample_every=4, ready=lambda: waiting[0] > 0)
    for iteration in range(1, 9):
        pool.world(iteration)
    # iterations 1-3 take the carried worlds, then only iterations 4 and 8 draw by the schedule
    assert len(pool.worlds) == 5
