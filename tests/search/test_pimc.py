"""The ``pimc`` bot: registry and options, forced moves, reproducibility, hidden information, whole deals."""

from __future__ import annotations

import random

import pytest

import stich.bots.pimc as pimc_module
import stich.search.budget as budget_module
from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.bots.base import Bot
from stich.bots.heuristic import make_heuristic
from stich.bots.pimc import MIN_WORLDS, OVERRUN, PimcBot, make_pimc
from stich.bots.registry import bot_names, make_bot
from stich.bots.samplers import SAMPLERS, prepare_sampler
from stich.core.game import Game, State
from stich.core.registry import make_game
from stich.errors import OptionError
from stich.search.budget import LEVELS
from stich.search.voting import vote, winsorized_mean

from ._doubling_helpers import DOUBLING_PHASES, doubling_decision
from ._pimc_helpers import play_until, twin_deals

# ------------------------------------------------------------------ registry and options


def test_pimc_is_registered() -> None:
    game = make_game("tapp_tarock")
    assert "pimc" in bot_names()
    bot = make_bot("pimc", game, 1, 7)
    assert bot.name == "pimc"
    assert isinstance(bot, PimcBot)
    assert bot.budget == LEVELS[3]


def test_arena_spec_options_reach_the_factory() -> None:
    game = make_game("dobbm")
    spec = parse_bot_spec("pimc:level=2,worlds=5")
    bot = build_bot(spec, game, 0, 3)
    assert isinstance(bot, PimcBot)
    assert (bot.budget, bot.worlds, bot.cap) == (LEVELS[2], 5, False)
    timed = build_bot(parse_bot_spec("pimc:time=0.1"), game, 0, 3)
    assert isinstance(timed, PimcBot)
    assert (timed.budget, timed.worlds, timed.cap) == (0.1, None, True)


def test_unknown_option_is_named() -> None:
    with pytest.raises(OptionError, match="depth"):
        parse_bot_spec("pimc:depth=3")


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"level": 0}, "level"),
        ({"level": 7}, "level"),
        ({"time": -1.0}, "time"),
        ({"worlds": 0}, "worlds"),
        ({"worlds": 2.5}, "worlds"),
        ({"rollout": "perfect"}, "rollout"),
        ({"call_worlds": 0}, "call_worlds"),
        ({"call_worlds": True}, "call_worlds"),
        ({"call_worlds": 100_001}, "call_worlds"),
    ],
)
def test_bad_option_values_are_named(options: dict[str, object], named: str) -> None:
    with pytest.raises(OptionError, match=named):
        make_pimc(make_game("tapp_tarock"), 0, 1, **options)  # type: ignore[arg-type]


class _StepClock:
    """A stand-in for the ``time`` module whose clock moves ``step`` seconds at every reading.

    The bot's world count under a time budget then depends on its own logic
    only, not on how loaded the machine running the tests is.
    """

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step

    def monotonic(self) -> float:
        self.now += self.step
        return self.now


def _searched_worlds(spec: str, deals: int, clock: _StepClock, monkeypatch: pytest.MonkeyPatch) -> dict[str, set[int]]:
    """The world counts of every searched Tapp Tarock decision, calls and cards apart, under ``clock``."""
    monkeypatch.setattr(pimc_module, "_time", clock)
    monkeypatch.setattr(budget_module, "_time", clock)
    game = make_game("tapp_tarock")
    seen: dict[str, set[int]] = {"calls": set(), "cards": set()}
    for deal in range(deals):
        state = game.new_state(seed=deal, dealer=deal % game.num_seats)
        bots = [build_bot(parse_bot_spec(spec), game, s, 9 + s) for s in range(game.num_seats)]
        while not state.is_terminal():
            seat = state.current_player()
            bot = bots[seat]
            assert isinstance(bot, PimcBot)
            obs = state.observation(seat)
            state.apply(bot.choose(obs))
            if bot.last.worlds:
                seen["calls" if obs.phase != "play" else "cards"].add(bot.last.worlds)
    return seen


def test_call_worlds_fix_the_calls_and_leave_the_cards_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    """``call_worlds=1``: every searched decision outside card play weighs one world, every searched card at least ``MIN_WORLDS``.

    Each clock reading costs a millisecond of a 20 ms budget, so a card gets
    several worlds whatever the machine (on a real clock a loaded machine
    may legitimately stop after one world, see the next test).
    """
    seen = _searched_worlds("pimc:time=0.02,call_worlds=1", 4, _StepClock(0.001), monkeypatch)
    assert seen["calls"] == {1}
    assert seen["cards"] and min(seen["cards"]) >= MIN_WORLDS and max(seen["cards"]) > MIN_WORLDS


def test_a_world_that_would_overrun_the_budget_is_the_only_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time budget stops after one world when a second would end past ``OVERRUN`` times the budget.

    Each clock reading costs 8 ms of a 20 ms budget: the first world is
    measured at 8 ms or more, a second would end past 25 ms (1.25 x 20 ms).
    """
    assert OVERRUN * 0.02 < 0.02 + 0.008
    seen = _searched_worlds("pimc:time=0.02", 6, _StepClock(0.008), monkeypatch)  # one world often passes every bid
    assert seen["cards"] == {1} and seen["calls"] == {1}


# ------------------------------------------------------------------ voting


def test_winsorized_mean_clips_the_outliers() -> None:
    assert winsorized_mean([1.0, 2.0, 3.0]) == 2.0
    values = [0.0] * 9 + [1000.0]
    assert winsorized_mean(values) == 0.0  # one world with a huge stake cannot outvote nine
    assert winsorized_mean([float(v) for v in range(20)]) == pytest.approx(9.5)


def test_vote_pairs_worlds_and_prefers_the_base_on_ties() -> None:
    rows = [[10.0, 11.0, 10.0], [-50.0, -49.0, -50.0], [0.0, 1.0, 0.0]]
    assert vote(rows, 0)[0] == 1  # candidate 1 is one point better in every world
    assert vote([[1.0, 1.0], [2.0, 2.0]], 1)[0] == 1  # tie: the base stays
    noisy = [[0.0, 5.0], [0.0, -4.0], [0.0, 3.0], [0.0, -3.0]]
    assert vote(noisy, 0)[0] == 1
    assert vote(noisy, 0, confidence=1.0, min_worlds=2)[0] == 0  # not clearly better: the base stays
    assert vote([[0.0, 2.0]] * 3, 0, confidence=1.0, min_worlds=4)[0] == 0  # too few worlds to overrule


# ------------------------------------------------------------------ decisions


def test_single_legal_action_is_played_without_search() -> None:
    game = make_game("doppelkopf")
    for seed in range(50):
        state = play_until(game, seed, 20)
        while not state.is_terminal() and len(state.legal_codes()) != 1:
            state.apply(state.legal_codes()[0])
        if not state.is_terminal():
            break
    else:  # pragma: no cover - Doppelkopf always ends with forced cards
        pytest.fail("no forced move found")
    observation = state.observation(state.current_player())
    bot = make_pimc(game, observation.seat, 1, worlds=50)
    assert isinstance(bot, PimcBot)
    assert bot.choose(observation) == observation.legal_actions[0]
    assert (bot.last.mode, bot.last.worlds) == ("forced", 0)


@pytest.mark.parametrize("name", ["doppelkopf", "tapp_tarock", "dobbm", "droggn"])
def test_same_seed_same_decisions(name: str) -> None:
    game = make_game(name)
    decisions = []
    for _ in range(2):
        actions: list[str] = []
        for deal in range(5, 15):
            bots = [make_pimc(game, seat, 11 + seat, worlds=2) for seat in range(game.num_seats)]
            state = game.new_state(seed=deal, dealer=deal % game.num_seats)
            while not state.is_terminal() and len(actions) < 16:
                mover = state.current_player()
                action = bots[mover].choose(state.observation(mover))
                actions.append(action.text)
                state.apply(action)
        decisions.append(actions)
    assert decisions[0] == decisions[1]
    assert len(decisions[0]) == 16  # a real sequence of decisions was compared


@pytest.mark.parametrize(("name", "stop"), [("doppelkopf", 20), ("tapp_tarock", 20), ("dobbm", 16), ("droggn", 30)])
def test_decision_depends_on_the_observation_only(name: str, stop: int) -> None:
    """Two different true deals with the same observation give the same decision (the bot never sees the state)."""
    game = make_game(name)
    compared = 0
    for _state, other, seat, observation in twin_deals(game, stop):
        first = make_pimc(game, seat, 99, worlds=4).choose(observation)
        second = make_pimc(game, seat, 99, worlds=4).choose(other.observation(seat))
        assert first == second
        compared += 1
        if compared == 2:
            break
    assert compared == 2


# ------------------------------------------------------------------ whole deals


CONFIGS = [
    ("doppelkopf", None, {}),
    ("doppelkopf", None, {"players": 5}),
    ("doppelkopf", "house_classic", {}),
    ("tapp_tarock", None, {}),
    ("tapp_tarock", "four_players", {}),
    ("dobbm", None, {}),
    ("dobbm", "pagat_5", {}),
    ("droggn", None, {}),
    ("droggn", "pack78", {}),
    ("dappen", None, {}),
    ("dappen", "buchenbach", {}),
]


@pytest.mark.parametrize(("name", "preset", "options"), CONFIGS, ids=[f"{n}-{p}-{'-'.join(o)}" for n, p, o in CONFIGS])
def test_pimc_plays_complete_deals(name: str, preset: str | None, options: dict[str, object]) -> None:
    if name not in SAMPLERS:
        pytest.skip(f"{name} has no world sampler yet")
    game = make_game(name, preset, options)
    for deal in (1,):
        bots = [make_pimc(game, seat, 1000 * deal + seat, worlds=2) for seat in range(game.num_seats)]
        state = game.new_state(seed=deal, dealer=deal % game.num_seats)
        searched = 0
        while not state.is_terminal():
            mover = state.current_player()
            observation = state.observation(mover)
            action = bots[mover].choose(observation)
            assert action in observation.legal_actions
            searched += bots[mover].last.worlds > 0  # type: ignore[attr-defined]
            state.apply(action)
        result = state.result()
        assert len(result.scores) == game.num_seats
        assert searched or result.thrown_in


# ------------------------------------------------------------------ reading the calls (Dobbm)


def _dobbm_defender_to_double() -> State:
    """A Dobbm deal of heuristic bots at a defender's first doubling decision after a bid Dobbm with earlier passes."""
    game = make_game("dobbm")
    for seed in range(200):
        state = play_until(game, seed, 0)
        from stich.bots.heuristic import make_heuristic

        bots = [make_heuristic(game, seat, seed) for seat in range(game.num_seats)]
        while state.phase_name != "doubling" and not state.is_terminal():  # type: ignore[attr-defined]
            mover = state.current_player()
            state.apply(bots[mover].choose(state.observation(mover)))
        if state.is_terminal() or state.contract != "dobbm":  # type: ignore[attr-defined]
            continue
        declarer = state.declarer  # type: ignore[attr-defined]
        if "pass" in state.bids.values() and state.current_player() != declarer:  # type: ignore[attr-defined]
            return state
    raise AssertionError("no Dobbm deal with a pass before the bid found")


def test_dobbm_worlds_explain_the_bidding() -> None:
    """A Dobbm defender's worlds give the declarer a hand the heuristic bids Dobbm with, and each passer one it
    passes with (dobbm §3.1): without this the defenders valued a Schwacher against random declarer hands and
    doubled far too often (the cause of pimc losing to heuristic in Dobbm)."""
    from stich.bots.dobbm.heuristic import DOBB_GAIN, DOBBM_TRICKS, estimate_tricks
    from stich.bots.heuristic import make_heuristic
    from stich.games.dobbm.pack import DECK
    from stich.search.call_reading import CallReadingSampler

    state = _dobbm_defender_to_double()
    game, seat = state.game, state.current_player()
    declarer, bids = state.declarer, dict(state.bids)  # type: ignore[attr-defined]
    players = [make_heuristic(game, s, 0) for s in range(game.num_seats)]

    def rating(world: State, s: int) -> float:
        dealt = world.dealt[s]
        return estimate_tricks([i for i in range(len(DECK.faces)) if dealt >> i & 1]) + DOBB_GAIN

    def explained(world: State) -> bool:
        passers = [s for s, bid in bids.items() if bid == "pass" and s != seat]
        return rating(world, declarer) >= DOBBM_TRICKS and all(rating(world, s) < DOBBM_TRICKS for s in passers)

    plain = prepare_sampler(game, state.observation(seat))
    reading = CallReadingSampler(prepare_sampler(game, state.observation(seat)), game, seat, players)
    rng_plain, rng_reading = random.Random(5), random.Random(5)
    plain_worlds = [plain.sample(rng_plain) for _ in range(40)]
    reading_worlds = [reading.sample(rng_reading) for _ in range(40)]
    assert not all(explained(w) for w in plain_worlds)  # the plain sampler ignores the bidding
    assert reading.explained == reading.drawn == 40
    assert not reading.ignored  # every call the heuristic made is explained: none is given up
    assert all(explained(w) for w in reading_worlds)
    for world in reading_worlds:  # and every world still fits what the seat has seen
        assert world.observation(seat) == state.observation(seat)


def test_call_reading_falls_back_to_a_consistent_world() -> None:
    """When no world explains the calls (players unlike the heuristic), a merely consistent world is taken."""
    from stich.core.game import Action, Observation
    from stich.search.call_reading import CallReadingSampler

    class Contrary:
        """Always picks the last legal action: explains none of the heuristic's calls here."""

        name = "contrary"

        def choose(self, observation: Observation) -> Action:
            legal = [a for a in observation.legal_actions if a.text not in ("bid dobbm", "pass", "accept")]
            return legal[-1] if legal else observation.legal_actions[0]

    state = _dobbm_defender_to_double()
    game, seat = state.game, state.current_player()
    reading = CallReadingSampler(prepare_sampler(game, state.observation(seat)), game, seat, [Contrary()] * game.num_seats, attempts=3)
    world = reading.sample(random.Random(1))
    assert world.observation(seat) == state.observation(seat)
    assert (reading.drawn, reading.explained) == (1, 0)
    with pytest.raises(ValueError, match="attempts"):
        CallReadingSampler(prepare_sampler(game, state.observation(seat)), game, seat, [Contrary()] * game.num_seats, attempts=0)


def test_call_reading_gives_up_a_call_no_world_explains() -> None:
    """A call the heuristic makes with no hand the worlds give (a pimc or a human bid) stops being checked after a
    fallback, and the later worlds still give each passer a hand the heuristic passes with (dobbm §3.1)."""
    from stich.bots.dobbm.heuristic import DOBB_GAIN, DOBBM_TRICKS, estimate_tricks
    from stich.core.game import Action, Observation
    from stich.games.dobbm.pack import DECK
    from stich.search.call_reading import CallReadingSampler, checked

    state = _dobbm_defender_to_double()
    game, seat = state.game, state.current_player()
    declarer, bids = state.declarer, dict(state.bids)  # type: ignore[attr-defined]
    passers = [s for s, bid in bids.items() if bid == "pass" and s != seat]
    heuristic = [make_heuristic(game, s, 0) for s in range(game.num_seats)]

    class Unlike:
        """The declarer's seat: always passes, so no world explains the declarer's bid."""

        name = "unlike"

        def choose(self, observation: Observation) -> Action:
            return next((a for a in observation.legal_actions if a.text == "pass"), observation.legal_actions[0])

    def passes(world: State) -> bool:
        dealt = world.dealt  # type: ignore[attr-defined]
        return all(estimate_tricks([i for i in range(len(DECK.faces)) if dealt[s] >> i & 1]) + DOBB_GAIN < DOBBM_TRICKS for s in passers)

    players: list[Bot] = list(heuristic)
    players[declarer] = Unlike()
    assert bids[declarer] != "pass"
    reading = CallReadingSampler(prepare_sampler(game, state.observation(seat)), game, seat, players)
    rng = random.Random(2)
    worlds = [reading.sample(rng) for _ in range(12)]
    proposal = reading.sampler.propose(random.Random(3))
    assert proposal is not None
    replay = game.new_state(hands=proposal.piles, dealer=proposal.dealer, context=proposal.context)
    declarer_calls = set()
    for i, code in enumerate(proposal.codes):
        if checked(game, seat, replay, code) and replay.current_player() == declarer:
            declarer_calls.add(i)
        replay.apply(code)
    assert declarer_calls and declarer_calls <= reading.ignored  # the declarer's calls are no longer checked
    assert reading.explained > 0 and reading.drawn - reading.explained < 3  # the later worlds explain the rest at once
    assert passers and all(passes(w) for w in worlds[-5:])  # and the passers' calls are still read
    plain = prepare_sampler(game, state.observation(seat))
    assert not all(passes(plain.sample(rng)) for _ in range(40))  # which a plain world does not do
    for world in worlds:
        assert world.observation(seat) == state.observation(seat)


def test_call_reading_draw_obeys_the_deadline() -> None:
    """``draw`` (the ISMCTS world source) reads the calls like ``sample`` and stops between proposals when told."""
    from stich.bots.heuristic import make_heuristic
    from stich.core.game import Action, Observation
    from stich.search.call_reading import CallReadingSampler

    state = _dobbm_defender_to_double()
    game, seat = state.game, state.current_player()
    observation = state.observation(seat)
    players = [make_heuristic(game, s, 0) for s in range(game.num_seats)]
    reading = CallReadingSampler(prepare_sampler(game, observation), game, seat, players)
    world = reading.draw(random.Random(3))
    assert world is not None and world.observation(seat) == observation
    assert (reading.drawn, reading.explained) == (1, 1)

    class Contrary:
        """Explains none of the heuristic's calls here (as in the test above)."""

        name = "contrary"

        def choose(self, observation: Observation) -> Action:
            legal = [a for a in observation.legal_actions if a.text not in ("bid dobbm", "pass", "accept")]
            return legal[-1] if legal else observation.legal_actions[0]

    asked: list[int] = []

    def stop_at_once() -> bool:
        asked.append(1)
        return True

    contrary = CallReadingSampler(prepare_sampler(game, observation), game, seat, [Contrary()] * game.num_seats)
    world = contrary.draw(random.Random(3), stop_at_once)
    assert len(asked) == 1  # asked before the second proposal, and then no proposal more
    assert contrary.explained == 0
    assert world is None or world.observation(seat) == observation  # the unexplained world found so far, if any


@pytest.mark.parametrize(("name", "phase"), DOUBLING_PHASES)
def test_a_defenders_double_is_the_heuristics_unless_doubles_search(name: str, phase: str) -> None:
    """A defender's Kontra / Schwacher (Tapp Tarock §5, Dobbm §5) is the heuristic's; ``doubles=search`` simulates it."""
    state = doubling_decision(name, phase, 1)
    seat = state.current_player()
    obs = state.observation(seat)
    bot = make_pimc(state.game, seat, 7, worlds=4)
    assert isinstance(bot, PimcBot)
    assert bot.choose(obs) == make_heuristic(state.game, seat, 7).choose(obs)
    assert bot.last.mode == "heuristic (defender double)" and bot.last.worlds == 0
    searching = make_pimc(state.game, seat, 7, worlds=4, doubles="search")
    assert isinstance(searching, PimcBot)
    searching.choose(obs)
    assert searching.last.mode == "simulation" and searching.last.worlds == 4


@pytest.mark.parametrize(("name", "phase"), DOUBLING_PHASES)
def test_the_declarers_answer_to_a_double_is_simulated(name: str, phase: str) -> None:
    state = doubling_decision(name, phase, 1, defender=False)
    seat = state.current_player()
    bot = make_pimc(state.game, seat, 7, worlds=4)
    assert isinstance(bot, PimcBot)
    bot.choose(state.observation(seat))
    assert bot.last.mode == "simulation" and bot.last.worlds == 4


def test_doubles_option_is_checked() -> None:
    with pytest.raises(OptionError, match="doubles must be one of heuristic, search"):
        make_pimc(make_game("dobbm"), 0, 1, doubles="sometimes")


def test_no_world_fits_gives_the_heuristics_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    # A sampler whose inferences exclude every world (a bug: the real world always fits) must not end the
    # deal in an error: the bot plays the heuristic's action and says why (as ismcts does).
    from stich.bots import pimc
    from stich.search.sampling import SamplingError

    def no_world(game: Game, observation: object) -> None:
        raise SamplingError("no placement of the unseen cards fits what seat 0 knows")

    monkeypatch.setattr(pimc, "prepare_sampler", no_world)
    game = make_game("dappen")
    # the first decision from the 40th on with a choice (how many steps lead there depends on the bidding's rules)
    deals = (play_until(game, 3, stop) for stop in range(40, 80))
    state = next(s for s in deals if len(s.observation(s.current_player()).legal_actions) > 1)
    seat = state.current_player()
    observation = state.observation(seat)
    assert len(observation.legal_actions) > 1
    bot = make_pimc(game, seat, 5, worlds=4)
    assert isinstance(bot, PimcBot)
    assert bot.choose(observation) == make_heuristic(game, seat, 5).choose(observation)
    assert bot.last.mode == "heuristic (no world fits)"
