"""Tests of the Dappen heuristic bot: legality, strength against random play, specific decisions."""

from __future__ import annotations

import statistics

import pytest

from stich.bots.dappen.heuristic import DappenHeuristic, hand_strength
from stich.bots.heuristic import make_heuristic
from stich.bots.random_bot import RandomBot
from stich.bots.registry import make_bot
from stich.cards import parse_cards
from stich.core.game import Game, State
from stich.games.dappen.pack import DECK

from .helpers import act, begin_play, dapp, deal, game, solo
from .test_rules_bidding import NO_STOP, STOP_AT_2, STOP_AT_2_DAPP
from .test_rules_play import GSTIESS_ALONE
from .test_rules_ulti import ALL_THREE

CONFIGS = [
    ("furtwangen", 6),
    ("furtwangen", 8),
    ("breitnau", 7),
    ("buchenbach", 6),
    ("schollach", 7),
    ("waldau", 6),
    ("jeu_du_tarot", 3),
    ("jeu_du_tarot", 5),
]


def play_out(g: Game, seed: int, kinds: str) -> State:
    """Play one deal; ``kinds`` names each seat's bot (``h`` heuristic, ``r`` random)."""
    state = g.new_state(seed=seed, dealer=seed % g.num_seats)
    bots = [make_heuristic(g, s, seed * 31 + s) if k == "h" else RandomBot(g, s, seed * 31 + s) for s, k in enumerate(kinds)]
    while not state.is_terminal():
        seat = state.current_player()
        observation = state.observation(seat)
        action = bots[seat].choose(observation)
        assert action in observation.legal_actions, (action, observation.legal_actions)
        state.apply(action)
    return state


@pytest.mark.parametrize(("preset", "players"), CONFIGS, ids=[f"{p}-{n}" for p, n in CONFIGS])
def test_always_legal(preset: str, players: int) -> None:
    """Alone among random bots and at a table of heuristics, every choice is legal and the deal ends."""
    g = game(preset, players=players)
    n = g.num_seats
    for seed in range(12):
        for kinds in ("h" * n, "h" + "r" * (n - 1)):
            assert sum(play_out(g, seed, kinds).result().scores) == 0


def test_factory_and_registry() -> None:
    """``heuristic`` builds the Dappen heuristic through the registry, named ``heuristic``."""
    bot = make_bot("heuristic", game(), 2, 7)
    assert isinstance(bot, DappenHeuristic) and bot.name == "heuristic"


@pytest.mark.parametrize("preset", ["furtwangen", "breitnau", "jeu_du_tarot"])
def test_beats_random_in_a_duplicate_comparison(preset: str) -> None:
    """Each deal is played once per seat with the heuristic there and random bots elsewhere; the reference is
    the same deal played by random bots only.  The heuristic gains clearly (about 20 cents a deal in Furtwangen)."""
    g = game(preset)
    diffs: list[int] = []
    for seed in range(60):
        baseline = play_out(g, 5000 + seed, "r" * 6).result().scores
        for seat in range(6):
            kinds = "".join("h" if s == seat else "r" for s in range(6))
            diffs.append(play_out(g, 5000 + seed, kinds).result().scores[seat] - baseline[seat])
    mean = statistics.mean(diffs)
    stderr = statistics.stdev(diffs) / len(diffs) ** 0.5
    assert mean > 0 and mean > 4 * stderr


def test_a_table_of_heuristics_plays_sensible_games() -> None:
    """Heuristic players dapp and stretch with good hands and the lone player wins most games."""
    g = game()
    contracts = []
    wins = 0
    for seed in range(60):
        b = play_out(g, seed, "h" * 6).result().breakdown
        contracts.append(b.get("contract"))
        wins += b.get("winner") == "lone"
    assert {"dapp", "strecken"} <= set(contracts)
    assert wins > 30


def test_bot_obeys_the_compulsory_dapp() -> None:
    """A forced player (only ``bid dapp`` legal) dapps."""
    state = deal(game(), STOP_AT_2, STOP_AT_2_DAPP)
    act(state, *["pass"] * 6, "pass", "pass")
    assert DappenHeuristic(state.game, 2, 1).choose(state.observation(2)).text == "bid dapp"


def test_bot_keeps_trumps_and_lays_away_points() -> None:
    """Discarding, the bot keeps its trumps and lays away its most valuable other cards first."""
    state = dapp(deal(game(), NO_STOP), 1)
    bot = DappenHeuristic(state.game, 1, 3)
    laid = []
    while state.phase_name == "discard":
        action = bot.choose(state.observation(1))
        laid.append(action.text.split()[1])
        state.apply(action)
    assert laid[0] == "SQ"
    kept = {c.text for c in state.observation(1).hand}
    assert {"T22", "T21", "T19", "T4", "T2", "SK"} <= kept


def test_bot_plays_the_gstiess_when_a_trump_is_required() -> None:
    """With the Gstieß as only trump the bot plays it (it wins the trick) rather than keeping it back."""
    state = begin_play(solo(deal(game(), GSTIESS_ALONE), 0))
    state.apply("play T21")
    assert DappenHeuristic(state.game, 1, 1).choose(state.observation(1)).text == "play T22"


def test_lone_player_draws_trumps_from_the_top() -> None:
    """The Solo player leads its highest trump while it is the best one out."""
    state = solo(deal(game(), ALL_THREE), 0)
    state.apply("pass")
    assert DappenHeuristic(state.game, 0, 1).choose(state.observation(0)).text == "play T22"


def test_lone_player_lays_out_the_geiss_with_an_all_trump_hand() -> None:
    """With the Gstieß and nothing but trumps the bot lays out an Ulti with the Geiß."""
    state = solo(deal(game(), ALL_THREE), 0)
    assert DappenHeuristic(state.game, 0, 1).choose(state.observation(0)).text == "announce ulti1"


def test_hand_strength_orders_hands() -> None:
    """The Gstieß and the Mund make a hand strong; low trumps less so."""

    def s(text: str) -> float:
        return hand_strength([DECK.face_index[c] for c in parse_cards(text)])

    assert s("T22 T21 T20 T19 T18 T17 CK") > s("T10 T9 T8 T7 T6 T5 CK") > s("C7 C8 C9 S7 S8 S9 H4")
