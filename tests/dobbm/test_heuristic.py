"""Tests of the Dobbm heuristic bot: always legal, sensible decisions, stronger than random play (duplicate)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from stich.bots.dobbm.heuristic import DobbmHeuristic, best_discard, estimate_tricks
from stich.bots.heuristic import make_heuristic
from stich.bots.random_bot import RandomBot
from stich.bots.registry import make_bot
from stich.core.game import Game
from stich.core.registry import game_from_string
from stich.core.tricks import TRUMP
from stich.games.dobbm.options import DobbmOptions
from stich.games.dobbm.pack import HEARTS, N_FACES, NON_SOW_HEARTS, ORDER, PLAIN_SOWS, POINTS, SOWS, face
from stich.games.dobbm.state import DobbmState

from .helpers import accept_all, act, deal, game

GAMES = (
    "dobbm",
    "dobbm(preset=pagat_5)",
    "dobbm(preset=mussrunde)",
    "dobbm(preset=seed,sow_discard_rule=any_heart_incl_sow,retour_limit=1)",
    "dobbm(preset=high_stake,players=5,mussrunde_allow_overbid=true)",
)


def _play(game: Game, seed: int, kinds: str, forced: bool = False) -> DobbmState:
    """Play one deal; ``kinds`` names each seat's bot (``h`` heuristic, ``r`` random)."""
    dealer = seed % game.num_seats
    context = {"forced_declarer": (dealer + 1) % game.num_seats} if forced else None
    state = game.new_state(seed=seed, dealer=dealer, context=context)
    assert isinstance(state, DobbmState)
    bots = [make_heuristic(game, s, seed + s) if k == "h" else RandomBot(game, s, seed * 31 + s) for s, k in enumerate(kinds)]
    while not state.is_terminal():
        seat = state.current_player()
        observation = state.observation(seat)
        action = bots[seat].choose(observation)
        assert action in observation.legal_actions
        state.apply(action)
    return state


@pytest.mark.parametrize("text", GAMES)
def test_always_legal(text: str) -> None:
    """Alone among random bots and at a table of heuristics, every choice is legal, in every phase."""
    game = game_from_string(text)
    n = game.num_seats
    phases: set[str] = set()
    for seed in range(25):
        for kinds in ("h" * n, "h" + "r" * (n - 1), "r" * (n - 1) + "h"):
            state = _play(game, seed, kinds, forced=seed % 5 == 0)
            assert sum(state.result().scores) == 0
            phases.update(game.actions[c].kind for _, c in state.history)
    assert {"bid", "play"} <= phases


def test_factory_and_registry() -> None:
    """``heuristic`` builds the Dobbm bot, named ``heuristic``."""
    bot = make_bot("heuristic", game(), 2, 7)
    assert isinstance(bot, DobbmHeuristic) and bot.name == "heuristic"


@pytest.mark.parametrize("players", [4, 5])
def test_beats_random_play_in_a_duplicate_comparison(players: int) -> None:
    """Duplicate: each seed and seat is played once with the heuristic and once with a random bot in that seat,
    the other seats' random bots unchanged; the heuristic seat must do better in total and more often."""
    g = game(players=players, retour_limit=2)
    total, better, worse = 0, 0, 0
    for seed in range(40):
        for seat in range(players):
            kinds_h = "".join("h" if s == seat else "r" for s in range(players))
            with_h = _play(g, seed, kinds_h).result().scores[seat]
            with_r = _play(g, seed, "r" * players).result().scores[seat]
            total += with_h - with_r
            better += with_h > with_r
            worse += with_h < with_r
    assert total > 0
    assert better > 1.3 * worse


def test_decisions_are_a_function_of_the_observation() -> None:
    """The same observation gives the same decision."""
    g = game()
    state = g.new_state(seed=8, dealer=1)
    bot = DobbmHeuristic(g, state.current_player(), 3)
    twin = DobbmHeuristic(g, state.current_player(), 99)
    obs = state.observation(state.current_player())
    assert bot.choose(obs) == twin.choose(obs)


def test_bids_solo_with_a_monster_and_passes_with_junk() -> None:
    """Bidding by the hand's expected tricks (§3.1)."""
    s = deal(fixed={0: "HA H10 HK HQ HJ CA SA DA", 1: "C6 C7 C8 S6 S7 S8 D6 D7"}, dobb="C9 S9 D9 D8")
    bot0 = DobbmHeuristic(s.game, 0, 1)
    assert bot0.choose(s.observation(0)).text == "bid solo"
    s = deal(fixed={0: "C6 C7 C8 S6 S7 S8 D6 D7"}, dobb="C9 S9 D9 D8")
    assert DobbmHeuristic(s.game, 0, 1).choose(s.observation(0)).text == "pass"
    assert estimate_tricks([face(t) for t in ["HA", "H10", "HK", "HQ", "HJ", "CA", "SA", "DA"]]) >= 7


def test_forced_mussrunde_bot_declares() -> None:
    """§3.4 a forced bot always declares."""
    s = deal(fixed={0: "C6 C7 C8 S6 S7 S8 D6 D7"}, dobb="C9 S9 D9 D8", context={"forced_declarer": 0})
    assert DobbmHeuristic(s.game, 0, 1).choose(s.observation(0)).text == "bid dobbm"


def test_discard_keeps_the_sow_rule_and_banks_points() -> None:
    """§4.1 the planned discard is legal and banks loose points rather than trumps."""
    hand = [face(t) for t in ["HA", "H10", "HK", "H9", "CA", "C10", "SK", "S7", "D10", "D9", "D8", "D7"]]
    plan = best_discard(hand, DobbmOptions())
    assert len(plan) == 4
    sows = sum(1 for f in plan if (SOWS >> f) & 1)
    covers = sum(1 for f in plan if f in {face("H10"), face("HK"), face("H9")})
    assert covers >= sows
    assert face("HA") not in plan
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    bot = DobbmHeuristic(s.game, 0, 1)
    while s.phase_name == "exchange":
        s.apply(bot.choose(s.observation(0)))
    assert s.phase_name == "doubling"


def _reference_estimate(hand: list[int], gone: int, opponents: int) -> float:
    """The hand rating as the module docstring words it, written plainly (one loop, no caches): the oracle."""
    strength = ORDER.strength
    by_strength = sorted(range(N_FACES), key=lambda f: -strength[f])
    mine = [f for f in by_strength if ORDER.eff[f] == TRUMP and f in hand]
    outside = [f for f in by_strength if ORDER.eff[f] == TRUMP and f not in hand and not (gone >> f) & 1]
    tricks = 0.0
    spare = len(mine) - len(outside)
    while mine and outside:
        if strength[mine.pop(0)] > strength[outside[0]]:
            tricks += 1
            del outside[max(0, len(outside) - opponents) :]
        else:
            outside.pop(0)
            del outside[max(0, len(outside) - (opponents - 1)) :]
    tricks += len(mine)
    for suit in (0, 1, 3):
        faces = [f for f in by_strength if ORDER.eff[f] == suit]
        if not any(f in hand for f in faces):
            tricks += 0.4 if spare > 0 else 0.0
            continue
        rounds = 0
        for f in faces:
            if (gone >> f) & 1:
                continue
            if f not in hand:
                break
            tricks += 1.0 if rounds == 0 else 0.6 if rounds == 1 else 0.3
            rounds += 1
    return tricks


def test_cached_hand_rating_equals_the_plain_one() -> None:
    """§4.1 (exchange) and the bidding: the cached rating and discard plan match a plain oracle to the last bit.

    The exchange compares close float values, so a rating rounded differently
    would change discards; random hands, discards known gone and 1-4 opponents.
    """
    rng = random.Random(7)
    for _ in range(3000):
        hand = rng.sample(range(N_FACES), rng.randint(1, 12))
        gone = sum(1 << f for f in rng.sample([f for f in range(N_FACES) if f not in hand], rng.randint(0, 4)))
        opponents = rng.randint(1, 4)
        assert estimate_tricks(hand, gone, opponents) == _reference_estimate(hand, gone, opponents)
    for rule in ("distinct_heart_per_sow", "any_heart_incl_sow"):
        opts = DobbmOptions(sow_discard_rule=rule)
        sows, covers = (PLAIN_SOWS, HEARTS) if rule == "any_heart_incl_sow" else (SOWS, NON_SOW_HEARTS)
        for _ in range(60):
            hand = rng.sample(range(N_FACES), 12)
            legal = [c for c in combinations(sorted(hand), 4) if sum((covers >> f) & 1 for f in c) >= sum((sows >> f) & 1 for f in c)]
            rated = [
                15.0 * _reference_estimate([f for f in hand if f not in c], sum(1 << f for f in c), 3) + sum(POINTS[f] for f in c)
                for c in legal
            ]
            assert best_discard(hand, opts) == legal[rated.index(max(rated))]
            assert best_discard(list(reversed(hand)), opts) == best_discard(hand, opts)  # the cache key ignores the order


def test_defender_smears_onto_a_partners_sure_trick() -> None:
    """A defender whose partner holds the trick with the top trump gives it a ten (schmieren)."""
    s = deal(
        fixed={0: "H9 H8 C6 C7 S6 S7 D6 D7", 1: "HA H6 C8 C9 S8 S9 D8 D9", 2: "H7 CQ CJ SQ SJ DQ DJ D10"},
        dobb="CA SA DA HK",
    )
    accept_all(act(s, "bid solo"))
    act(s, "play H9", "play HA")
    assert DobbmHeuristic(s.game, 2, 1).choose(s.observation(2)).text == "play H7"  # must follow hearts
    s = deal(
        fixed={0: "H9 H8 C6 C7 S6 S7 D6 D7", 1: "HA H6 C8 C9 S8 S9 D8 D9", 2: "CQ CJ SQ SJ DQ DJ D10 C10"},
        dobb="CA SA DA HK",
    )
    accept_all(act(s, "bid solo"))
    act(s, "play H9", "play HA")
    choice = DobbmHeuristic(s.game, 2, 1).choose(s.observation(2)).text
    assert choice in ("play D10", "play C10")


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # Five hearts out: the declarer draws with its cheapest heart and keeps the Sow and the Ten.
        ("HA H10 H9 H8 C6 C7 S6 S7", "play H8"),
        # Three hearts out and the Sow is the boss: now it draws with the Sow.
        ("HA H10 HK H9 H8 H7 C6 C7", "play HA"),
        # Three out but the Sow among them: the top heart is no boss, so the cheapest again.
        ("H10 HK H9 H8 H7 H6 C6 C7", "play H6"),
    ],
)
def test_declarer_draws_trumps_from_the_bottom_until_few_are_out(hand: str, expected: str) -> None:
    """Dobbm heuristic lead (hearts always trumps, dossier §1; trick play §6): the heart Sow first only pulls small hearts."""
    s = deal(fixed={0: hand}, dobb="CA SA DA D6")
    accept_all(act(s, "bid solo"))
    assert s.current_player() == 0 and s.phase_name == "play"
    assert DobbmHeuristic(s.game, 0, 1).choose(s.observation(0)).text == expected
