"""The ``ismcts`` bot and its search (stich.search.ismcts, stich.bots.ismcts).

Every test fixes ``simulations`` so that results do not depend on the
machine's speed; time budgets are exercised in bench/bench_ismcts.py only.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.bots.base import Bot
from stich.bots.doppelkopf import kernel
from stich.bots.heuristic import make_heuristic
from stich.bots.ismcts import IsmctsBot, is_defender_double, make_ismcts
from stich.bots.registry import make_bot
from stich.bots.rollouts import make_rollout
from stich.bots.samplers import SAMPLERS, prepare_sampler
from stich.core.game import Action, Game, Observation, State
from stich.core.registry import make_game
from stich.errors import OptionError
from stich.search.ismcts import ISMCTS, PLAY_PHASE, HeuristicRollout, MixedRollout, Node, RandomRollout, bounded_rewards, choose_root

from ._doubling_helpers import DOUBLING_PHASES, doubling_decision


def _advance(game: Game, seed: int, moves: int, *, phase: str | None = None) -> State:
    """A deal of ``game`` after up to ``moves`` random actions (stopping early in ``phase`` if given)."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    done = 0
    while not state.is_terminal() and done < moves:
        codes = state.legal_codes()
        state.apply(codes[rng.randrange(len(codes))])
        done += 1
    return state


def _decision_point(game: Game, seed: int, min_moves: int) -> State:
    """A state after at least ``min_moves`` random actions where the player to move has a real choice."""
    rng = random.Random(seed)
    for attempt in range(50):
        state = game.new_state(seed=seed * 100 + attempt)
        done = 0
        while not state.is_terminal():
            codes = state.legal_codes()
            if done >= min_moves and len(codes) > 1:
                return state
            state.apply(codes[rng.randrange(len(codes))])
            done += 1
    raise AssertionError("no decision point found")


def _play_out(game: Game, bots: list[Any], dealer: int = 0, seed: int = 3) -> State:
    """Play one deal to the end with one bot per seat."""
    state = game.new_state(seed=seed, dealer=dealer)
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat].choose(state.observation(seat))
        assert action in state.legal_actions()
        state.apply(action)
    return state


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"simulations": 0}, "simulations"),
        ({"simulations": -5}, "simulations"),
        ({"simulations": True}, "simulations"),
        ({"simulations": 2.5}, "simulations"),
        ({"simulations": 10, "level": 2}, "simulations"),
        ({"simulations": 10, "time": 0.1}, "simulations"),
        ({"level": 9}, "level"),
        ({"level": 0}, "level"),
        ({"time": -1.0}, "time"),
        ({"time": "fast"}, "time"),
        ({"rollout": "fast"}, "rollout"),
    ],
)
def test_bad_options_name_the_field(options: dict[str, Any], field: str) -> None:
    with pytest.raises(OptionError, match=field):
        make_ismcts(make_game("doppelkopf"), 0, 1, **options)


@pytest.mark.parametrize("value", [0, -1, True, 2.5, "many"])
def test_bad_call_worlds_are_named(value: Any) -> None:
    with pytest.raises(OptionError, match="call_worlds"):
        make_ismcts(make_game("dappen"), 0, 1, simulations=10, call_worlds=value)


def test_call_worlds_take_the_pimc_bots_bound() -> None:
    """``call_worlds`` sizes a ``pimc`` bot, so it accepts exactly what that bot's ``worlds`` accepts (``MAX_WORLDS``)."""
    from stich.bots.pimc import MAX_WORLDS, PimcBot

    bot = make_ismcts(make_game("dappen"), 0, 1, simulations=10, call_worlds=MAX_WORLDS)
    assert bot.simulator is not None and isinstance(bot.simulator, PimcBot) and bot.simulator.worlds == MAX_WORLDS
    with pytest.raises(OptionError, match=f"call_worlds must be a whole number from 1 to {MAX_WORLDS:,}"):
        make_ismcts(make_game("dappen"), 0, 1, simulations=10, call_worlds=MAX_WORLDS + 1)


def test_call_worlds_needs_the_simulation_calls() -> None:
    """Doppelkopf searches its calls by flat sweeps (``calls=auto`` is ``heuristic`` there): no pimc to size."""
    with pytest.raises(OptionError, match="calls=simulation"):
        make_ismcts(make_game("doppelkopf"), 0, 1, simulations=10, call_worlds=4)


@pytest.mark.parametrize(
    ("name", "reference"),
    [("dappen", "pimc:worlds=3"), ("tapp_tarock", "pimc:worlds=3"), ("tapp_tarock", "pimc:time=0.01,call_worlds=3")],
)
def test_call_worlds_make_the_calls_of_pimc_with_as_many_worlds(name: str, reference: str) -> None:
    """With ``call_worlds=N`` every decision outside card play is ``pimc:worlds=N``'s with the same seed (the arena's duplicate pairing).

    So is that of a ``pimc`` bot whose cards are timed but whose calls weigh
    ``call_worlds=N``: the ladder's reference when a match is to measure the
    card play alone."""
    game = make_game(name)
    calls = 0
    for deal in range(3):
        state = game.new_state(seed=deal, dealer=deal % game.num_seats)
        searchers = [build_bot(parse_bot_spec("ismcts:simulations=20,call_worlds=3"), game, s, 50 + s) for s in range(game.num_seats)]
        references = [build_bot(parse_bot_spec(reference), game, s, 50 + s) for s in range(game.num_seats)]
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            action = searchers[seat].choose(obs)
            if obs.phase != PLAY_PHASE and len(obs.legal_actions) > 1:
                assert action == references[seat].choose(obs)
                calls += 1
            state.apply(action)
    assert calls >= 6


def test_kernel_rollout_only_for_games_with_a_kernel() -> None:
    """Doppelkopf, Dobbm and Tapp Tarock have a compiled card-play kernel; Droggn (the Gstieß, a laid out Pagat) has none."""
    with pytest.raises(OptionError, match="kernel"):
        make_ismcts(make_game("droggn"), 0, 1, rollout="kernel")


def test_registered_with_arena_options() -> None:
    game = make_game("doppelkopf")
    assert make_bot("ismcts", game, 0, 1).name == "ismcts"
    spec = parse_bot_spec("ismcts:simulations=50")
    bot = build_bot(spec, game, 2, 7)
    assert isinstance(bot, IsmctsBot) and bot.simulations == 50 and bot.seat == 2
    assert isinstance(build_bot(parse_bot_spec("ismcts:level=2"), game, 0, 1), IsmctsBot)
    with pytest.raises(OptionError, match="depth"):
        parse_bot_spec("ismcts:depth=3")


def test_level_sets_the_budget_and_simulations_none() -> None:
    bot = make_ismcts(make_game("doppelkopf"), 0, 1, level=1)
    assert bot.simulations is None and bot.budget is not None and bot.budget > 0


def test_observation_of_another_seat_is_refused() -> None:
    game = make_game("doppelkopf")
    state = game.new_state(seed=1)
    bot = make_ismcts(game, 1, 1, simulations=5)
    with pytest.raises(ValueError, match="seat"):
        bot.choose(state.observation(state.current_player() ^ 1 if state.current_player() != 1 else 2))


# --------------------------------------------------------------------------- behaviour


def test_single_legal_action_is_answered_without_search(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("doppelkopf")
    rng = random.Random(4)
    state = game.new_state(seed=4)
    while len(state.legal_codes()) != 1:
        codes = state.legal_codes()
        state.apply(codes[rng.randrange(len(codes))])
    seat = state.current_player()
    bot = make_ismcts(game, seat, 1, simulations=100)

    def no_sampling(*args: object) -> None:
        raise AssertionError("a forced move must not sample worlds")

    monkeypatch.setattr("stich.bots.ismcts.prepare_sampler", no_sampling)
    obs = state.observation(seat)
    assert bot.choose(obs) == obs.legal_actions[0]
    assert bot.last_result is None


@pytest.mark.parametrize("name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn"])
def test_same_seed_and_simulations_give_the_same_decisions(name: str) -> None:
    game = make_game(name)
    states = [_decision_point(game, seed, min_moves=seed * 3) for seed in range(1, 5)]
    runs = []
    for _ in range(2):
        decisions = []
        for state in states:
            seat = state.current_player()
            bot = make_ismcts(game, seat, 11, simulations=60)
            decisions.append((bot.choose(state.observation(seat)), bot.choose(state.observation(seat))))
        runs.append(decisions)
    assert runs[0] == runs[1]


@pytest.mark.parametrize(("name", "moves"), [("doppelkopf", 14), ("tapp_tarock", 12), ("dobbm", 10), ("droggn", 12)])
def test_decision_ignores_the_hidden_cards(name: str, moves: int) -> None:
    """Two different true deals that give the seat the same observation get the same decision."""
    game = make_game(name)
    real = _decision_point(game, 21, min_moves=moves)
    seat = real.current_player()
    obs = real.observation(seat)
    other = prepare_sampler(game, obs).sample(random.Random(5))
    assert other.observation(seat) == obs
    hidden = [s for s in range(game.num_seats) if s != seat]
    assert any(real.hand_mask(s) != other.hand_mask(s) for s in hidden), "the second deal should hide other cards"
    first = make_ismcts(game, seat, 99, simulations=120).choose(real.observation(seat))
    second = make_ismcts(game, seat, 99, simulations=120).choose(other.observation(seat))
    assert first == second


def _check_node(node: Node, *, is_root: bool) -> int:
    """Assert the tree invariants below ``node``; return the number of nodes."""
    count = 1
    child_visits = sum(ch.visits for ch in node.children.values())
    assert child_visits <= node.visits
    for child in node.children.values():
        assert child.visits >= 1
        assert child.avail >= child.visits
        assert -1.0 <= child.mean() <= 1.0
        count += _check_node(child, is_root=False)
    if is_root:
        assert child_visits == node.visits
    return count


@pytest.mark.parametrize("name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn"])
def test_tree_statistics_add_up(name: str) -> None:
    game = make_game(name)
    state = _decision_point(game, 7, min_moves=4)
    seat = state.current_player()
    obs = state.observation(seat)
    result = ISMCTS(game, RandomRollout(game), pool_size=8).search(obs, prepare_sampler(game, obs), random.Random(1), iterations=300)
    assert result.iterations == 300 == result.root.visits
    assert 1 <= result.worlds <= 8
    assert _check_node(result.root, is_root=True) > len(result.root.children)
    assert set(result.root.children) <= {a.code for a in obs.legal_actions}
    assert result.code in {a.code for a in obs.legal_actions}
    assert result.root.children[result.code].visits == max(ch.visits for ch in result.root.children.values())


def test_search_stops_when_told() -> None:
    game = make_game("doppelkopf")
    state = _decision_point(game, 2, min_moves=0)
    obs = state.observation(state.current_player())
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) >= 3

    result = ISMCTS(game, RandomRollout(game)).search(obs, prepare_sampler(game, obs), random.Random(1), stop=stop)
    assert result.iterations == 3  # asked before every iteration but the first; the third answer stops
    with pytest.raises(ValueError, match="iterations"):
        ISMCTS(game, RandomRollout(game)).search(obs, prepare_sampler(game, obs), random.Random(1))


# --------------------------------------------------------------------------- rewards


def test_bounded_rewards_stay_inside_minus_one_one() -> None:
    rewards = bounded_rewards([0, 3, -3, 10**6, -(10**6)], 4.0)
    assert rewards[0] == 0.0 and rewards[1] == -rewards[2] and 0 < rewards[1] < 1
    assert all(-1.0 <= r <= 1.0 for r in rewards)
    assert rewards[3] > rewards[1] and rewards[4] < rewards[2]


@pytest.mark.parametrize(
    ("name", "kind"), [(n, k) for n in ("doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen") for k in ("random", "heuristic")]
)
def test_rollouts_return_bounded_rewards_per_seat(name: str, kind: str) -> None:
    game = make_game(name)
    rollout = make_rollout(kind, game, 3)
    for seed in range(3):
        state = _advance(game, seed, 6)
        rewards = rollout(state, random.Random(seed))
        assert len(rewards) == game.num_seats
        assert all(-1.0 <= r <= 1.0 for r in rewards)
        if not state.is_terminal():
            # A heuristic rollout hands its last tricks to the exact search (the Doppelkopf kernel, ExactEndgame),
            # which searches copies and leaves the engine state there.
            assert kind == "heuristic" and name != "dappen"
            assert getattr(state, "phase_name", None) == PLAY_PHASE
            continue
        scores = state.result().scores
        assert [math.copysign(1, r) for r in rewards if r] == [math.copysign(1, s) for s in scores if s]


needs_kernel = pytest.mark.skipif(not kernel.available(), reason="numba kernel not installed")


@needs_kernel
def test_kernel_rollout_scores_eyes_by_the_rules() -> None:
    """Without calls Re wins with 121 eyes and Kontra with 120 (dossier §7.1); under-90/60/30 and schwarz add 1 each (§7.2)."""
    from stich.bots.doppelkopf.kernel_rollout import KernelRollout

    rollout = KernelRollout(make_game("doppelkopf"))
    assert rollout.re_value(121, 0, 0) == 1
    assert rollout.re_value(120, 0, 0) == -1
    assert rollout.re_value(240, 0, 0) == 5
    assert rollout.re_value(151, 0, 0) == 2  # Kontra under 90
    # A Re call (§7.2 b) adds 2 for the winner.
    assert rollout.re_value(121, 1, 0) == 3
    assert rollout.re_value(120, 1, 0) == -3


@needs_kernel
def test_kernel_rollout_returns_mean_bounded_rewards() -> None:
    game = make_game("doppelkopf")
    rollout = make_rollout("kernel", game, 1)
    for seed in range(4):
        state = _advance(game, seed, 4 + seed * 9)
        rewards = rollout(state, random.Random(seed))
        assert len(rewards) == 4 and all(-1.0 <= r <= 1.0 for r in rewards)


def test_heuristic_rollout_uses_one_bot_per_seat() -> None:
    game = make_game("tapp_tarock")
    rollout = HeuristicRollout(game, 5, make_heuristic)
    assert [getattr(bot, "seat", i) for i, bot in enumerate(rollout.bots)] == list(range(game.num_seats))


# --------------------------------------------------------------------------- whole deals


DEALS = [
    ("doppelkopf", None, {}),
    ("doppelkopf", "house_classic", {}),
    ("doppelkopf", "ddv_no_nines", {}),
    ("doppelkopf", None, {"players": 5}),
    ("tapp_tarock", None, {}),
    ("tapp_tarock", "four_players", {}),
    ("dobbm", None, {}),
    ("dobbm", "pagat_5", {}),
    ("droggn", None, {}),
    ("droggn", "kroesbacher", {}),
    ("dappen", None, {}),
]


@pytest.mark.parametrize(("name", "preset", "options"), DEALS)
@pytest.mark.parametrize("rollout", ["auto", "random"])
def test_whole_deal_with_tiny_simulations(name: str, preset: str | None, options: dict[str, Any], rollout: str) -> None:
    game = make_game(name, preset, options)
    bots = [make_ismcts(game, seat, seat + 1, simulations=6, rollout=rollout) for seat in range(game.num_seats)]
    state = _play_out(game, bots, dealer=1)
    assert state.is_terminal()
    assert len(state.result().scores) == game.num_seats


def test_game_without_sampler_falls_back_to_heuristic() -> None:
    if "dappen" in SAMPLERS:
        pytest.skip("dappen has a world sampler now")
    game = make_game("dappen")
    state = _decision_point(game, 1, min_moves=0)
    seat = state.current_player()
    bot = make_ismcts(game, seat, 1, simulations=10)
    action = bot.choose(state.observation(seat))
    assert action in state.legal_actions() and bot.last_result is None


# --------------------------------------------------------------------------- heuristic prior, mixed rollouts, deadline


def _root_with(stats: dict[int, list[float]]) -> Node:
    """A root whose child ``code`` was visited once per reward in ``stats[code]`` (mover: seat 0)."""
    root = Node(-1)
    for code, rewards in stats.items():
        child = root.children[code] = Node(0)
        child.visits = child.avail = len(rewards)
        child.total = sum(rewards)
        child.squares = sum(r * r for r in rewards)
        root.visits += len(rewards)
    return root


def test_choose_root_keeps_the_anchor_unless_clearly_beaten() -> None:
    noisy = _root_with({1: [0.9, -0.5, 0.4, -0.2, 0.3, 0.1], 2: [0.5, -0.6, 0.2, -0.3]})  # 1 leads by ~0.2, within the noise
    assert choose_root(noisy, {1, 2}, anchor=None) == 1
    assert choose_root(noisy, {1, 2}, anchor=2) == 2
    clear = _root_with({1: [0.8, 0.7, 0.9, 0.8] * 10, 2: [-0.5, -0.4, -0.6] * 5})
    assert choose_root(clear, {1, 2}, anchor=2) == 1
    assert choose_root(clear, {2}, anchor=2) == 2  # only legal actions count
    assert choose_root(clear, {1, 2}, anchor=3) == 1  # an anchor never tried is no evidence
    # A lead of 0.02 with a tiny standard error is still no clear lead (rollout bias), 0.1 is.
    close = _root_with({1: [0.32, 0.30] * 500, 2: [0.30, 0.28] * 500})
    assert choose_root(close, {1, 2}, anchor=2) == 2
    assert choose_root(close, {1, 2}, anchor=2, gap=0.01) == 1


def test_anchor_is_tried_first_and_must_be_legal() -> None:
    game = make_game("tapp_tarock")
    state = _decision_point(game, 3, min_moves=0)
    seat = state.current_player()
    obs = state.observation(seat)
    sampler = prepare_sampler(game, obs)
    codes = sorted(a.code for a in obs.legal_actions)
    anchor = codes[-1]
    result = ISMCTS(game, RandomRollout(game)).search(obs, sampler, random.Random(2), iterations=1, anchor=anchor)
    assert list(result.root.children) == [anchor] and result.code == anchor
    illegal = next(code for code in range(len(game.actions)) if code not in codes)
    with pytest.raises(ValueError, match="anchor"):
        ISMCTS(game, RandomRollout(game)).search(obs, sampler, random.Random(2), iterations=5, anchor=illegal)


@pytest.mark.parametrize("name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"])
def test_short_search_plays_the_heuristic_choice(name: str) -> None:
    """With one iteration only the anchor is ever tried, so the bot plays exactly what the heuristic bot would.

    The same holds for the default ``calls`` outside card play: ``pimc``'s
    simulation (one world here) needs four worlds to overrule the heuristic.
    """
    game = make_game(name)
    for seed in range(3):
        state = _decision_point(game, seed + 1, min_moves=seed * 5)
        seat = state.current_player()
        obs = state.observation(seat)
        expected = make_heuristic(game, seat, 8).choose(obs)
        assert make_ismcts(game, seat, 8, simulations=1).choose(obs) == expected
        bot = make_ismcts(game, seat, 8, simulations=1, calls="heuristic")
        assert bot.choose(obs) == expected
        if is_defender_double(game, obs):
            assert bot.last_result is None  # a defender's double: the heuristic's, no search at all
            continue
        assert bot.last_result is not None and bot.last_result.code == expected.code
        plain = make_ismcts(game, seat, 8, simulations=1, prior=False, calls="heuristic")
        plain.choose(obs)
        assert plain.last_result is not None and plain.last_result.root.visits == 1


def test_prior_option_is_checked() -> None:
    with pytest.raises(OptionError, match="prior"):
        make_ismcts(make_game("dobbm"), 0, 1, prior="yes")  # type: ignore[arg-type]
    assert build_bot(parse_bot_spec("ismcts:simulations=5,prior=false"), make_game("dobbm"), 0, 1).prior is False  # type: ignore[attr-defined]


class _RecordingBot:
    """Wraps a bot and records the phase of every observation it is asked about."""

    def __init__(self, inner: Bot, phases: list[str]) -> None:
        self.inner = inner
        self.phases = phases

    def choose(self, observation: Observation) -> Action:
        self.phases.append(observation.phase)
        return self.inner.choose(observation)


@pytest.mark.parametrize("name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"])
def test_mixed_rollout_asks_the_heuristic_before_card_play_only(name: str) -> None:
    game = make_game(name)
    rollout = make_rollout("mixed", game, 4)
    assert isinstance(rollout, MixedRollout)
    phases: list[str] = []
    rollout.bots = [_RecordingBot(bot, phases) for bot in rollout.bots]  # type: ignore[misc]
    for seed in range(4):
        state = game.new_state(seed=seed)
        rewards = rollout(state, random.Random(seed))
        # The Doppelkopf kernel plays the cards in compiled code and leaves the engine state at the start of card play.
        assert state.is_terminal() or getattr(state, "phase_name", None) == PLAY_PHASE
        assert len(rewards) == game.num_seats and all(-1.0 <= r <= 1.0 for r in rewards)
    assert phases, "the bidding should have been left to the heuristic"
    assert PLAY_PHASE not in phases


class _CountingDeadline:
    """A fake deadline that expires after it has been asked ``allowed`` times (no wall clock involved)."""

    def __init__(self, allowed: int) -> None:
        self.allowed = allowed
        self.asked = 0

    def expired(self) -> bool:
        self.asked += 1
        return self.asked > self.allowed


@pytest.mark.parametrize("allowed", [1, 5, 40])
def test_budget_is_checked_after_preparation_and_before_each_iteration(allowed: int) -> None:
    game = make_game("droggn")
    state = _decision_point(game, 5, min_moves=6)
    seat = state.current_player()
    bot = make_ismcts(game, seat, 3, level=1)
    clocks: list[_CountingDeadline] = []

    def clock(seconds: float) -> _CountingDeadline:
        assert seconds == bot.budget
        clocks.append(_CountingDeadline(allowed))
        return clocks[-1]

    bot.clock = clock  # type: ignore[assignment]
    action = bot.choose(state.observation(seat))
    assert action in state.legal_actions()
    assert bot.last_result is not None
    # One check after preparing the sampler, then one before every iteration but the first.
    assert bot.last_result.iterations == allowed
    assert clocks[0].asked == allowed + 1


def test_budget_spent_on_preparation_gives_the_heuristic_choice() -> None:
    game = make_game("dobbm")
    state = _decision_point(game, 6, min_moves=3)
    seat = state.current_player()
    obs = state.observation(seat)
    bot = make_ismcts(game, seat, 3, level=1)
    bot.clock = lambda seconds: _CountingDeadline(0)  # type: ignore[assignment,return-value]
    assert bot.choose(obs) == make_heuristic(game, seat, 3).choose(obs)
    assert bot.last_result is None


@pytest.mark.parametrize("name", ["dobbm", "tapp_tarock"])
def test_dobbm_worlds_must_explain_the_calls(name: str) -> None:
    """In Dobbm the bot reads the other seats' bids and doubles as the pimc bot does (call_reading.INFER_GAMES)."""
    from stich.search.call_reading import INFER_GAMES, CallReadingSampler

    game = make_game(name)
    state = _decision_point(game, 2, 4)
    seat = state.current_player()
    bot = make_ismcts(game, seat, 1, simulations=20)
    sampler = bot._sampler(state.observation(seat))
    assert isinstance(sampler, CallReadingSampler) == (name in INFER_GAMES)
    action = bot.choose(state.observation(seat))
    assert action in state.legal_actions()


# --------------------------------------------------------------------------- paired root sweeps


def test_choose_paired_keeps_the_anchor_unless_clearly_beaten() -> None:
    from stich.search.ismcts import MIN_SWEEPS, choose_paired

    codes = [3, 7, 9]
    clear = [[0.0, 0.3, -0.2], [0.5, 0.8, 0.1], [-0.4, -0.1, -0.6], [0.2, 0.5, 0.0]]  # code 7 leads by 0.3 in every world
    assert choose_paired(clear, codes, 3) == 7
    assert choose_paired(clear, codes, 3, gap=0.5) == 3  # the lead is below the game's switch gap
    assert choose_paired(clear[: MIN_SWEEPS - 1], codes, 3) == 3  # too few worlds to overrule
    noisy = [[0.0, 0.6, 0.0], [0.0, -0.5, 0.0], [0.0, 0.5, 0.0], [0.0, -0.4, 0.0]]  # mean lead 0.05, spread 0.5
    assert choose_paired(noisy, codes, 3) == 3
    assert choose_paired(noisy, codes, None) == 7  # without an anchor: the best mean
    assert choose_paired([], codes, 9) == 9 and choose_paired([], codes, None) == 3


@pytest.mark.parametrize("name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"])
def test_paired_search_sweeps_every_root_action_in_every_world(name: str) -> None:
    game = make_game(name)
    state = _decision_point(game, 5, 20)
    seat = state.current_player()
    observation = state.observation(seat)
    codes = sorted(a.code for a in observation.legal_actions)
    search = ISMCTS(game, make_rollout("mixed", game, 1), paired=True)
    sweeps = 6
    result = search.search(observation, prepare_sampler(game, observation), random.Random(2), iterations=sweeps * len(codes))
    assert result.code in codes
    assert sorted(result.root.children) == codes
    assert all(child.visits == sweeps for child in result.root.children.values())
    assert result.worlds == sweeps  # a new world for every sweep
    assert result.root.visits == sweeps * len(codes)


def test_paired_option_is_checked_and_parsed() -> None:
    with pytest.raises(OptionError, match="paired"):
        make_ismcts(make_game("dobbm"), 0, 1, paired="yes")  # type: ignore[arg-type]
    bot = build_bot(parse_bot_spec("ismcts:simulations=5,paired=true"), make_game("dobbm"), 0, 1)
    assert bot.paired is True and bot.search.paired is True  # type: ignore[attr-defined]


@pytest.mark.parametrize("options", [{}, {"halving": True, "rewards": "score"}])
@pytest.mark.parametrize(("name", "moves"), [("doppelkopf", 14), ("tapp_tarock", 12), ("dappen", 12)])
def test_paired_decision_ignores_the_hidden_cards(name: str, moves: int, options: dict[str, Any]) -> None:
    """Two states with the same observation for the mover but different hidden cards get the same paired decision."""
    game = make_game(name)
    state = _decision_point(game, 7, moves)
    seat = state.current_player()
    observation = state.observation(seat)
    other = prepare_sampler(game, observation).sample(random.Random(99))
    assert other.observation(seat) == observation
    decisions = []
    for world in (state, other):
        bot = make_ismcts(game, seat, 4, simulations=60, paired=True, **options)
        decisions.append(bot.choose(world.observation(seat)))
    assert decisions[0] == decisions[1]


@pytest.mark.parametrize("name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"])
def test_calls_are_searched_with_heuristic_rollouts_in_paired_sweeps(name: str) -> None:
    """Outside card play the bot simulates like pimc (heuristic play, exact last tricks), in a search of its own."""
    from stich.search.ismcts import ExactEndgame
    from stich.search.ismcts import HeuristicRollout as Heuristic

    game = make_game(name)
    bot = make_ismcts(game, 0, 1, simulations=5, calls="heuristic")
    assert bot.call_search is not bot.search and bot.call_search.paired
    rollout = bot.call_search.rollout
    assert isinstance(rollout, Heuristic)
    if name in ("tapp_tarock", "dobbm", "droggn"):
        assert isinstance(rollout.finish, ExactEndgame) and rollout.finish_tricks == 2
    for retired in ("same", "kernel"):  # calls=same (the card tree for every call) was retired, docs/search.md
        with pytest.raises(OptionError, match="calls"):
            make_ismcts(game, 0, 1, calls=retired)
    state = _decision_point(game, 3, 0)
    assert state.observation(state.current_player()).phase != PLAY_PHASE
    seat = state.current_player()
    searcher = make_ismcts(game, seat, 1, simulations=12, calls="heuristic")
    action = searcher.choose(state.observation(seat))
    assert action in state.legal_actions()
    result = searcher.last_result
    assert result is not None and result.iterations == 12
    assert sum(child.visits for child in result.root.children.values()) == 12  # every iteration went through the paired root
    # Flat sweeps: the rollout plays on straight after the root action, no node grows below it.
    assert searcher.call_search.flat and all(not child.children for child in result.root.children.values())
    deep = ISMCTS(game, make_rollout("heuristic", game, 1), paired=True)
    deep_result = deep.search(state.observation(seat), prepare_sampler(game, state.observation(seat)), random.Random(1), iterations=40)
    assert any(child.children for child in deep_result.root.children.values())
    with pytest.raises(ValueError, match="paired"):
        ISMCTS(game, make_rollout("random", game, 1), flat=True)


def test_heuristic_rollout_hands_the_last_tricks_to_the_exact_search() -> None:
    from stich.search.ismcts import ExactEndgame

    from .test_perfect_info import _endgames

    game = make_game("tapp_tarock")
    rollout = make_rollout("heuristic", game, 1)
    assert isinstance(rollout, HeuristicRollout) and isinstance(rollout.finish, ExactEndgame)
    for state in _endgames("tapp_tarock", 4, 2):
        rollout(state, random.Random(0))
    assert rollout.finish.solved == 2


def _open_call_in_play(seed: int, *, heuristic_calls: bool) -> State:
    """A Doppelkopf card-play decision where a call (Re, Kontra, ...) is open and the heuristic bot does or does not make one."""
    game = make_game("doppelkopf")
    for attempt in range(200):
        state = game.new_state(seed=seed * 1000 + attempt)
        rng = random.Random(attempt)
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            legal = state.legal_actions()
            open_call = obs.phase == PLAY_PHASE and len({a.kind for a in legal}) > 1
            if open_call and (make_heuristic(game, seat, 7).choose(obs).kind != "play") == heuristic_calls:
                return state
            plays = [a for a in legal if a.kind == "play"] if obs.phase == PLAY_PHASE else legal
            state.apply((plays or legal)[rng.randrange(len(plays or legal))])
    raise AssertionError("no such decision found")


@pytest.mark.parametrize("seed", [1, 2])
def test_open_call_during_play_is_the_heuristics_and_the_tree_searches_cards_only(seed: int) -> None:
    """Doppelkopf announcements during trick play: the heuristic decides the call, the card tree sees only cards."""
    state = _open_call_in_play(seed, heuristic_calls=False)
    game = state.game
    seat = state.current_player()
    obs = state.observation(seat)
    bot = make_ismcts(game, seat, 7, simulations=80)
    action = bot.choose(obs)
    assert action.kind == "play" and action in state.legal_actions()
    assert bot.last_result is not None and bot.last_result.iterations == 80
    assert bot.last_result.root.children and all(game.actions[c].kind == "play" for c in bot.last_result.root.children)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_heuristics_call_during_play_is_made_without_a_search(seed: int) -> None:
    state = _open_call_in_play(seed, heuristic_calls=True)
    seat = state.current_player()
    obs = state.observation(seat)
    expected = make_heuristic(state.game, seat, 7).choose(obs)
    bot = make_ismcts(state.game, seat, 7, simulations=80)
    assert bot.choose(obs) == expected and expected.kind != "play"
    assert bot.last_result is None


@pytest.mark.parametrize("paired", [False, True])
def test_search_only_narrows_the_root(paired: bool) -> None:
    game = make_game("tapp_tarock")
    state = _decision_point(game, 4, min_moves=20)
    seat = state.current_player()
    obs = state.observation(seat)
    legal = list(obs.legal_actions)
    assert len(legal) >= 2
    only = legal[:2]
    search = ISMCTS(game, make_rollout("random", game, 1), paired=paired)
    result = search.search(obs, prepare_sampler(game, obs), random.Random(3), iterations=30, only=only)
    assert set(result.root.children) == {a.code for a in only} and result.code in {a.code for a in only}
    with pytest.raises(ValueError, match="anchor"):
        search.search(obs, prepare_sampler(game, obs), random.Random(3), iterations=5, anchor=legal[-1].code, only=only)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(("name", "phase"), DOUBLING_PHASES)
def test_a_defenders_double_is_the_heuristics_without_a_search(name: str, phase: str, seed: int) -> None:
    state = doubling_decision(name, phase, seed)
    seat = state.current_player()
    obs = state.observation(seat)
    expected = make_heuristic(state.game, seat, 7).choose(obs)
    bot = make_ismcts(state.game, seat, 7, simulations=40)
    assert bot.choose(obs) == expected and bot.last_result is None


@pytest.mark.parametrize(("name", "phase"), DOUBLING_PHASES)
def test_the_declarers_answer_to_a_double_is_searched(name: str, phase: str) -> None:
    state = doubling_decision(name, phase, 1, defender=False)
    seat = state.current_player()
    bot = make_ismcts(state.game, seat, 7, simulations=40, calls="heuristic")
    bot.choose(state.observation(seat))
    assert bot.last_result is not None and bot.last_result.iterations == 40


@pytest.mark.parametrize("name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"])
def test_calls_simulation_decides_outside_card_play_as_pimc_does(name: str) -> None:
    """``calls=simulation``: every decision before card play is the ``pimc`` bot's (same seed, worlds = simulations / 5)."""
    from stich.bots.pimc import MAX_OTHER_CANDIDATES, make_pimc

    game = make_game(name)
    simulations = 20
    checked = 0
    for seed in range(4):
        state = game.new_state(seed=seed, dealer=seed % game.num_seats)
        bots = [make_ismcts(game, s, 30 + s, simulations=simulations, calls="simulation") for s in range(game.num_seats)]
        twins = [make_pimc(game, s, 30 + s, worlds=simulations // MAX_OTHER_CANDIDATES) for s in range(game.num_seats)]
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            if obs.phase == PLAY_PHASE:
                break
            before = state.clone()
            action = bots[seat].choose(obs)
            if len(obs.legal_actions) > 1:
                assert action == twins[seat].choose(obs), f"{name}: {obs.phase} differs from pimc"
                assert bots[seat].last_result is None  # no tree was grown
                checked += 1
            assert state.observation(seat).to_json() == before.observation(seat).to_json()  # the bot did not touch the state
            state.apply(action)
    assert checked >= 4, f"{name}: only {checked} decisions before card play"


def test_calls_simulation_still_searches_the_cards_with_the_tree() -> None:
    game = make_game("tapp_tarock")
    state = _decision_point(game, 4, min_moves=20)
    seat = state.current_player()
    obs = state.observation(seat)
    assert obs.phase == PLAY_PHASE and len(obs.legal_actions) > 1
    bot = make_ismcts(game, seat, 7, simulations=50, calls="simulation")
    action = bot.choose(obs)
    assert action in state.legal_actions()
    assert bot.last_result is not None and bot.last_result.iterations == 50
    with pytest.raises(OptionError, match="simulation"):
        make_ismcts(game, seat, 7, calls="pimc")


@pytest.mark.parametrize(("name", "phase"), DOUBLING_PHASES)
def test_calls_simulation_leaves_a_defenders_double_to_the_heuristic(name: str, phase: str) -> None:
    state = doubling_decision(name, phase, 1)
    seat = state.current_player()
    obs = state.observation(seat)
    bot = make_ismcts(state.game, seat, 7, simulations=40, calls="simulation")
    assert bot.choose(obs) == make_heuristic(state.game, seat, 7).choose(obs)


@pytest.mark.parametrize("name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"])
def test_calls_auto_is_the_games_choice(name: str) -> None:
    """``calls=auto`` (the default): Doppelkopf's flat sweeps, the Tarock family's ``pimc`` simulation."""
    from stich.bots.ismcts import AUTO_CALLS

    game = make_game(name)
    bot = make_ismcts(game, 0, 1, simulations=10)
    assert bot.calls == AUTO_CALLS[name] == ("heuristic" if name == "doppelkopf" else "simulation")
    assert (bot.simulator is not None) == (bot.calls == "simulation")
    assert make_ismcts(game, 0, 1, simulations=10, calls="auto").calls == bot.calls


class _Clock:
    """A fake ``time.perf_counter`` the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_world_pool_draw_share_caps_the_time_spent_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A world costs 10 time units, an iteration 1: with a share of 0.5 the pool draws while drawing took at most half the time."""
    from stich.search import ismcts as ismcts_module
    from stich.search.ismcts import WorldPool

    clock = _Clock()
    monkeypatch.setattr(ismcts_module.time, "perf_counter", clock)
    state = make_game("dobbm").new_state(seed=1, dealer=0)

    def draw(_rng: random.Random) -> State:
        clock.now += 10.0
        return state

    def drawn(share: float | None) -> int:
        clock.now = 0.0
        pool = WorldPool(draw, random.Random(0), pool_size=64, resample_every=1, draw_share=share)
        for iteration in range(60):
            pool.world(iteration)
            clock.now += 1.0
        return len(pool.worlds)

    assert drawn(None) == 60
    capped = drawn(0.5)
    # 60 iterations take 60 units; drawing at most about half of the total allows about 6 worlds
    assert 4 <= capped <= 8
    with pytest.raises(ValueError, match="draw_share"):
        WorldPool(draw, random.Random(0), pool_size=4, resample_every=1, draw_share=0.0)


@pytest.mark.parametrize("bad", [0, -0.1, 1.5, "half", True])
def test_bad_draw_share_is_named(bad: object) -> None:
    with pytest.raises(OptionError, match="draw_share"):
        make_ismcts(make_game("dobbm"), 0, 1, time=0.05, draw_share=bad)  # type: ignore[arg-type]


def test_draw_share_sets_the_card_play_search_limit() -> None:
    """``auto`` is the game's DRAW_SHARES entry (none outside it), 1 lifts the limit, a share in between is taken as given."""
    from stich.bots.ismcts import DRAW_SHARES

    dobbm, tapp = make_game("dobbm"), make_game("tapp_tarock")
    assert make_ismcts(dobbm, 0, 1, time=0.05, draw_share="auto").search.draw_share == DRAW_SHARES["dobbm"]
    assert make_ismcts(dobbm, 0, 1, time=0.05, tuned=False).search.draw_share == DRAW_SHARES["dobbm"]
    assert make_ismcts(tapp, 0, 1, time=0.05).search.draw_share is None
    assert make_ismcts(dobbm, 0, 1, time=0.05, draw_share=1).search.draw_share is None
    assert make_ismcts(tapp, 0, 1, time=0.05, draw_share=0.5).search.draw_share == 0.5


def test_bad_defend_is_named() -> None:
    with pytest.raises(OptionError, match="defend"):
        make_ismcts(make_game("droggn"), 0, 1, simulations=10, defend="pimc")


def test_retired_variants_are_refused_by_name() -> None:
    """``defend=heuristic``, ``calls=same``, ``carry`` and ``guide`` were measured and retired (docs/search.md, "Retired variants")."""
    game = make_game("droggn")
    with pytest.raises(OptionError, match="defend must be one of tree, careful"):
        make_ismcts(game, 0, 1, simulations=10, defend="heuristic")
    with pytest.raises(OptionError, match="calls must be one of auto, heuristic, simulation"):
        make_ismcts(game, 0, 1, simulations=10, calls="same")
    for option in ("carry=true", "guide=3"):
        with pytest.raises(OptionError, match=f"has no option '{option.split('=')[0]}'"):
            parse_bot_spec(f"ismcts:{option}")
