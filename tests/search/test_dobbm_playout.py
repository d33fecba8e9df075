"""The compiled Dobbm heuristic card play (``stich.bots.dobbm.playout``) against the bot it twins.

:class:`~stich.bots.dobbm.heuristic.DobbmHeuristic` plays Dobbm cards by the
rules of its module docstring (leading: the declarer draws trumps from the
bottom, cashes bosses; defenders cash a safe Sow, else lead low from a long
plain suit; following: smear on a partner's safe trick, take with the
cheapest card that holds, else throw the cheapest).  The kernel twin must
choose the same card in every position the tests reach, under the play
rules of dossier dobbm §6: Dobbm and Solo (§4.2-§4.3: in a Solo the Dobb
stays face down, unseen by all; a Dobbm declarer knows his discards, the
defenders do not), four and five players (§2), positions from heuristic
and partly random play.  Played out, its games must end as the engine's
with the heuristic bots in every seat, to the score (§7-§8).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from stich.bots.dobbm import playout as dobbm_playout
from stich.bots.dobbm.kernel_adapter import DobbmAdapter
from stich.bots.heuristic import make_heuristic
from stich.bots.pimc import PimcBot, make_pimc
from stich.bots.rollouts import make_rollout
from stich.bots.tarock_rollout import HeuristicFinish, TarockKernelRollout
from stich.core.game import Game
from stich.core.registry import make_game
from stich.errors import OptionError
from stich.games.dobbm.pack import FACES
from stich.games.dobbm.state import DobbmState
from stich.search.ismcts import MixedRollout
from stich.search.perfect_info import in_trick_play

from ._playout_helpers import check_epsilon_and_seed, compiled_pimc_decides_as_engine_pimc, heuristic_end

needs_numba = pytest.mark.skipif(not dobbm_playout.available(), reason="numba not installed")


def _walk(game: Game, deals: int, chance: float = 0.85) -> list[DobbmState]:
    """Card-play states of ``deals`` deals where the mover has a choice: the heuristic bots play, a share of moves at random."""
    found: list[DobbmState] = []
    for seed in range(deals):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        bots = [make_heuristic(game, s, s) for s in range(game.num_seats)]
        while not state.is_terminal():
            seat = state.current_player()
            codes = state.legal_codes()
            if in_trick_play(state) and len(codes) > 1:
                assert isinstance(state, DobbmState)
                found.append(state.clone())  # type: ignore[arg-type]
            choice = bots[seat].choose(state.observation(seat)).code if rng.random() < chance else rng.choice(codes)
            state.apply(choice)
    return found


@needs_numba
@pytest.mark.parametrize("players", [4, 5])
def test_the_kernel_plays_the_heuristic_card(players: int) -> None:
    game = make_game("dobbm", options={"retour_limit": 2, "players": players})
    adapter = DobbmAdapter(game)
    contracts: Counter[str] = Counter()
    states = _walk(game, 120)
    for state in states:
        seat = state.current_player()
        expected = make_heuristic(game, seat, 0).choose(state.observation(seat)).text
        pos = adapter.position(state)
        card = dobbm_playout.heuristic_card(pos, dobbm_playout.knowledge(state, pos))
        assert f"play {FACES[card].text}" == expected, (state.contract, seat, len(state.tricks))
        contracts[str(state.contract)] += 1
    assert contracts["dobbm"] > 200 and contracts["solo"] > 50, contracts  # both contracts, hence both kinds of face-down cards


@needs_numba
def test_a_heuristic_kernel_game_ends_as_the_engine_game() -> None:
    game = make_game("dobbm", options={"retour_limit": 2})
    adapter = DobbmAdapter(game)
    bots = [make_heuristic(game, s, s) for s in range(game.num_seats)]
    states = _walk(game, 60)[::3]
    assert len(states) > 150
    for state in states:
        pos = adapter.position(state)
        (played,) = dobbm_playout.heuristic_playouts(pos, 1, 0, dobbm_playout.knowledge(state, pos))
        engine, _cards = heuristic_end(state, bots)
        assert adapter.played_out(state, [played])[0] == tuple(engine.result().scores)


@needs_numba
def test_knowledge_hides_the_discards_from_the_defenders_only() -> None:
    game = make_game("dobbm", options={"retour_limit": 2})
    adapter = DobbmAdapter(game)
    seen = Counter[str]()
    for state in _walk(game, 40, chance=1.0):
        pos = adapter.position(state)
        know = dobbm_playout.knowledge(state, pos)
        for k, seat in enumerate(pos.seats):
            if state.contract == "dobbm" and seat == state.declarer:
                assert know.down[k] == 0 and know.dead[k] == 0  # he laid the discards away himself
                seen["declarer"] += 1
            else:
                assert know.down[k].bit_count() == 4 and know.dead[k] == 4
                seen["other"] += 1
    assert seen["declarer"] and seen["other"]


@needs_numba
def test_epsilon_varies_the_games_and_the_seed_fixes_them() -> None:
    game = make_game("dobbm", options={"retour_limit": 2})
    adapter = DobbmAdapter(game)
    state = next(s for s in _walk(game, 5, chance=1.0) if len(s.tricks) == 1)
    pos = adapter.position(state)
    know = dobbm_playout.knowledge(state, pos)
    check_epsilon_and_seed(dobbm_playout.heuristic_playouts, pos, know)


@needs_numba
def test_the_kernel_heuristic_rollout_values_a_leaf_by_the_heuristic_game() -> None:
    game = make_game("dobbm", options={"retour_limit": 2})
    rollout = make_rollout("kernel-heuristic", game, 3)
    assert isinstance(rollout, MixedRollout) and isinstance(rollout.play, TarockKernelRollout)
    assert rollout.play.policy == "heuristic"
    bots = [make_heuristic(game, s, s) for s in range(game.num_seats)]
    # Five tricks or more left: above the solver's horizon, the leaf is played out by the heuristic's rules.
    for state in [s for s in _walk(game, 20, chance=1.0) if len(s.tricks) < 4][:20]:
        engine, _cards = heuristic_end(state, bots)
        expected = rollout.play._bounded(tuple(engine.result().scores))
        assert rollout(state.clone(), random.Random(0)) == pytest.approx(expected)


def test_warmup_compiles_before_any_search() -> None:
    assert dobbm_playout.warmup() is dobbm_playout.available()


def test_the_heuristic_policy_needs_a_compiled_twin() -> None:
    # Dobbm and Tapp Tarock have one (Tapp Tarock's: tests/search/test_tapp_tarock_playout.py), Droggn none
    with pytest.raises(ValueError, match="dobbm, tapp_tarock, not droggn"):
        make_rollout("kernel-heuristic", make_game("droggn"), 1)
    with pytest.raises(ValueError, match="policy"):
        TarockKernelRollout(make_game("dobbm"), policy="clever")


@needs_numba
@pytest.mark.parametrize("players", [4, 5])
def test_heuristic_finish_scores_as_the_engine_heuristic_game(players: int) -> None:
    """§7-§8: HeuristicFinish gives the scores of the engine deal the heuristic bots play out, every seat."""
    game = make_game("dobbm", options={"retour_limit": 2, "players": players})
    finish = HeuristicFinish(game)
    bots = [make_heuristic(game, s, s) for s in range(game.num_seats)]
    states = _walk(game, 40, chance=0.7)[::4]
    assert len(states) > 60
    for state in states:
        engine, _cards = heuristic_end(state, bots)
        assert finish(state) == tuple(engine.result().scores)


@needs_numba
def test_pimc_with_the_compiled_heuristic_decides_as_with_the_engine_one() -> None:
    """pimc ``rollout=kernel-heuristic`` values every world as ``rollout=heuristic`` does: the same decisions, bids to cards."""
    phases = compiled_pimc_decides_as_engine_pimc(make_game("dobbm", options={"retour_limit": 2}), [900, 901, 902], worlds=3)
    assert phases["play"] > 30 and phases["bidding"] > 3, phases


def test_pimc_kernel_heuristic_needs_a_compiled_twin_and_falls_back_without_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    default = make_pimc(make_game("dobbm"), 0, 1, worlds=2)  # rollout=auto
    assert isinstance(default, PimcBot) and default.rollout == "kernel-heuristic"
    assert (default._finish is not None) is dobbm_playout.available()
    droggn = make_pimc(make_game("droggn"), 0, 1, worlds=2)  # no compiled twin: the engine's heuristic
    assert isinstance(droggn, PimcBot) and droggn.rollout == "heuristic" and droggn._finish is None
    with pytest.raises(OptionError, match="rollout 'kernel-heuristic' exists only for dobbm, tapp_tarock, not droggn"):
        make_pimc(make_game("droggn"), 0, 1, rollout="kernel-heuristic")
    monkeypatch.setattr(dobbm_playout, "available", lambda: False)
    bot = make_pimc(make_game("dobbm"), 0, 1, worlds=2, rollout="kernel-heuristic")
    assert isinstance(bot, PimcBot) and bot._finish is None  # the engine's heuristic bots play the rollouts
    with pytest.raises(ValueError, match="numba"):
        HeuristicFinish(make_game("dobbm"))
