"""Tests of the Dobbm heuristic bot: always legal, sensible decisions, stronger than random play (duplicate)."""

from __future__ import annotations

import pytest

from stich.bots.dobbm_heuristic import DobbmHeuristic, best_discard, estimate_tricks
from stich.bots.heuristic import make_heuristic
from stich.bots.random_bot import RandomBot
from stich.bots.registry import make_bot
from stich.core.game import Game
from stich.core.registry import game_from_string
from stich.games.dobbm.options import DobbmOptions
from stich.games.dobbm.pack import SOWS, face
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
