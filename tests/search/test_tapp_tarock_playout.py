"""The compiled Tapp Tarock heuristic card play (``stich.bots.tapp_tarock.playout``) against the bot it twins.

:class:`~stich.bots.tapp_tarock.heuristic.TappTarockHeuristic` plays Tapp
Tarock cards by the rules of its module docstring (the declarer leads no
tarock while it holds a plain card, draws with a boss tarock or the
majority, keeps the Pagat for the last trick after announcing ultimo; a boss
king is cashed while it is likely to hold; a partner's safe trick is
smeared; an opponent's trick is taken with the cheapest card likely to hold,
the Mond kept away from an outstanding Sküs; else the cheapest card).  The
kernel twin must choose the same card in every position the tests reach,
under the play rules of dossier tapp_tarock §6: the talon contracts with
the talon exposed (§4.1: everybody saw the half left lying) or face down
(``talon_half_rule=fixed_unexposed``), Solo (§4.2: the whole talon unseen
by all), tarocks discarded shown or only counted, Pagat ultimo announced
(§5.1) or not, three players or four with the dealer sitting out (§2),
positions from heuristic and partly random play.  Played out, its games
must end as the engine's with the heuristic bots in every seat, card for
card and to the score (§7-§8).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from stich.bots.heuristic import make_heuristic
from stich.bots.ismcts import make_ismcts
from stich.bots.pimc import PimcBot, make_pimc
from stich.bots.rollouts import EXACT_LEAF_TRICKS, make_rollout
from stich.bots.tapp_tarock import playout as tapp_tarock_playout
from stich.bots.tapp_tarock.kernel_adapter import TappTarockAdapter
from stich.bots.tarock_family.kernel import KernelGame
from stich.bots.tarock_rollout import HeuristicFinish, TarockKernelRollout
from stich.core.game import Game
from stich.core.registry import make_game
from stich.games.tapp_tarock.pack import FACES
from stich.games.tapp_tarock.state import TappTarockState
from stich.search.ismcts import (
    ExactEndgame,
    HeuristicRollout,
    MixedRollout,
    best_line_scores,
    bounded_rewards,
    heuristic_step,
    reward_scale,
)
from stich.search.perfect_info import in_trick_play, tricks_left

from ._playout_helpers import check_epsilon_and_seed, compiled_pimc_decides_as_engine_pimc, heuristic_end

needs_numba = pytest.mark.skipif(not tapp_tarock_playout.available(), reason="numba not installed")

TABLES = {
    "standard": {},
    "furr": {"preset": "furr"},  # fixed talon halves face down for Unterer and Oberer, the declarer leads
    "four_players": {"preset": "four_players"},
    "announce_count": {"options": {"forced_tarock_discard": "announce_count", "talon_half_rule": "fixed"}},
}
"""Tables whose knowledge differs: who saw which face-down cards, how many the odds reckon with."""
DEALS = {"standard": 200, "furr": 60, "four_players": 60, "announce_count": 60}
"""Deals walked per table: some rules fire in about one position of a thousand (a pot of exactly 4 on a partner's unsafe
trick, a boss king kept with three tricks left), so the default table gets many."""


def _game(table: str) -> Game:
    return make_game("tapp_tarock", **TABLES[table])  # type: ignore[arg-type]


def _walk(game: Game, deals: int, chance: float = 0.85, ultimo: float = 0.5, first: int = 0) -> list[TappTarockState]:
    """Card-play states of ``deals`` deals where the mover has a choice: the heuristic bots play, a share of moves at random.

    Where the declarer may announce Pagat ultimo it does so with probability
    ``ultimo`` (the bot rarely has the twelve tarocks it wants), so that the
    Pagat kept for the last trick is tried often.
    """
    found: list[TappTarockState] = []
    for seed in range(first, first + deals):
        rng = random.Random(seed)
        state = game.new_state(seed=seed, dealer=seed % game.num_seats)
        bots = [make_heuristic(game, s, s) for s in range(game.num_seats)]
        while not state.is_terminal():
            seat = state.current_player()
            codes = state.legal_codes()
            texts = [a.text for a in state.legal_actions()]
            if in_trick_play(state) and len(codes) > 1:
                assert isinstance(state, TappTarockState)
                found.append(state.clone())
            if "announce ultimo" in texts and rng.random() < ultimo:
                choice = codes[texts.index("announce ultimo")]
            elif rng.random() < chance:
                choice = bots[seat].choose(state.observation(seat)).code
            else:
                choice = rng.choice(codes)
            state.apply(choice)
    return found


def _heuristic_end(state: TappTarockState, game: Game) -> tuple[TappTarockState, list[int]]:
    """The engine deal from ``state`` with the heuristic bots in every seat: its end and the cards played on the way."""
    engine, cards = heuristic_end(state, [make_heuristic(game, s, s) for s in range(game.num_seats)])
    assert isinstance(engine, TappTarockState)
    return engine, cards


def _kernel_game(start: TappTarockState, end: TappTarockState) -> KernelGame:
    """What the kernel reports for the engine deal from ``start`` to ``end``: the declarer's cards and tricks, the last trick."""
    assert start.declarer is not None
    seats = tuple(start.active)
    done = len(start.tricks)
    won = tricks = 0
    for _seats, cards, winner in end.tricks[done:]:
        if winner == start.declarer:
            tricks += 1
            for card in cards:
                won |= 1 << card
    _seats, last_cards, last = end.tricks[-1]
    mask = 0
    for card in last_cards:
        mask |= 1 << card
    return KernelGame(won, tricks, seats.index(last), mask)


@needs_numba
@pytest.mark.parametrize("table", list(TABLES))
def test_the_kernel_plays_the_heuristic_card(table: str) -> None:
    game = _game(table)
    adapter = TappTarockAdapter(game)
    seen: Counter[str] = Counter()
    states = _walk(game, DEALS[table])
    for state in states:
        seat = state.current_player()
        expected = make_heuristic(game, seat, 0).choose(state.observation(seat)).text
        pos = adapter.position(state)
        know = tapp_tarock_playout.knowledge(state, pos)
        card = tapp_tarock_playout.heuristic_card(pos, know)
        assert f"play {FACES[card].text}" == expected, (table, state.contract, seat == state.declarer, len(state.tricks))
        assert state.contract is not None
        seen[state.contract.name] += 1
        seen["declarer" if seat == state.declarer else "defender"] += 1
        seen["lead" if not state.trick_cards else "follow"] += 1
        seen["ultimo"] += know.ultimo
        seen["ultimo, Pagat in hand" if know.ultimo and state.hands[seat] & 1 and seat == state.declarer else "other"] += 1
    deals = DEALS[table]
    assert len(states) > 18 * deals, len(states)
    # both kinds of contract (talon and Solo), both sides, leads and follows, the Pagat kept for ultimo
    assert seen["dreier"] > 8 * deals and seen["solo"] > deals and seen["unterer"] + seen["oberer"] > deals // 2, seen
    assert seen["declarer"] > 5 * deals and seen["defender"] > 10 * deals, seen
    assert seen["lead"] > 6 * deals and seen["follow"] > 9 * deals, seen
    assert seen["ultimo"] > 2 * deals and seen["ultimo, Pagat in hand"] > deals // 2, seen


@needs_numba
def test_knowledge_reads_what_each_seat_saw() -> None:
    """§4.1-§4.2: an exposed talon's unused half is seen by all, the discards by the declarer, shown tarocks by all."""
    seen: Counter[str] = Counter()
    for table in ("standard", "furr", "announce_count"):
        game = _game(table)
        adapter = TappTarockAdapter(game)
        for state in _walk(game, 40, chance=0.7, ultimo=0.0)[::5]:
            pos = adapter.position(state)
            know = tapp_tarock_playout.knowledge(state, pos)
            assert state.contract is not None
            for k, seat in enumerate(pos.seats):
                down = know.down[k]
                if not state.contract.talon:
                    assert down == state.talon[0] | state.talon[1] and know.dead[k] == 6  # a Solo's talon stays face down
                    seen["solo"] += 1
                elif seat == state.declarer:
                    assert down & state.discards == 0
                    assert down == (0 if state.exposed else state.talon[1 - state.taken]) and know.dead[k] == down.bit_count()
                    seen["declarer, exposed" if state.exposed else "declarer, face down"] += 1
                else:
                    assert down & state.shown == 0 and down | state.shown >= state.discards
                    assert know.dead[k] == down.bit_count()
                    seen["defender, exposed" if state.exposed else "defender, face down"] += 1
    assert len(seen) == 5 and min(seen.values()) > 10, seen


@needs_numba
@pytest.mark.parametrize("table", ["standard", "four_players"])
def test_a_heuristic_kernel_game_ends_as_the_engine_game(table: str) -> None:
    """§6-§8: the compiled play-out plays the engine's heuristic cards to the end: the same tricks, the same score."""
    game = _game(table)
    adapter = TappTarockAdapter(game)
    states = _walk(game, 40, chance=0.7)[::4]
    assert len(states) > 180
    for state in states:
        pos = adapter.position(state)
        (played,) = tapp_tarock_playout.heuristic_playouts(pos, 1, 0, tapp_tarock_playout.knowledge(state, pos))
        end, cards = _heuristic_end(state, game)
        # card for card: each card of the engine line is the compiled card of its position
        line = state.clone()
        for card in cards:
            if len(line.legal_codes()) > 1:
                assert isinstance(line, TappTarockState)
                here = adapter.position(line)
                assert tapp_tarock_playout.heuristic_card(here, tapp_tarock_playout.knowledge(line, here)) == card
            line.apply(card)
        assert played == _kernel_game(state, end)
        assert adapter.played_out(state, [played])[0] == tuple(end.result().scores)


@needs_numba
def test_epsilon_varies_the_games_and_the_seed_fixes_them() -> None:
    game = _game("standard")
    adapter = TappTarockAdapter(game)
    state = next(s for s in _walk(game, 5, chance=1.0) if len(s.tricks) == 1)
    pos = adapter.position(state)
    know = tapp_tarock_playout.knowledge(state, pos)
    check_epsilon_and_seed(tapp_tarock_playout.heuristic_playouts, pos, know)


def test_warmup_compiles_before_any_search() -> None:
    assert tapp_tarock_playout.warmup() is tapp_tarock_playout.available()


def test_without_numba_the_compiled_card_play_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game("standard")
    state = _walk(game, 5)[0]
    pos = TappTarockAdapter(game).position(state)
    know = tapp_tarock_playout.knowledge(state, pos)
    monkeypatch.setattr(tapp_tarock_playout, "_core", None)
    assert not tapp_tarock_playout.available() and not tapp_tarock_playout.warmup()
    with pytest.raises(RuntimeError, match="numba"):
        tapp_tarock_playout.heuristic_card(pos, know)
    with pytest.raises(RuntimeError, match="numba"):
        tapp_tarock_playout.heuristic_playouts(pos, 1, 0, know)


def _states_of_every_phase(game: Game, deals: int) -> list[TappTarockState]:
    """States of ``deals`` deals in every phase (bidding to the last tricks), heuristic and partly random play."""
    found: list[TappTarockState] = []
    for seed in range(deals):
        rng = random.Random(1000 + seed)
        state = game.new_state(seed=1000 + seed, dealer=seed % game.num_seats)
        bots = [make_heuristic(game, s, s) for s in range(game.num_seats)]
        while not state.is_terminal():
            assert isinstance(state, TappTarockState)
            if rng.random() < 0.3:
                found.append(state.clone())
            seat = state.current_player()
            state.apply(bots[seat].choose(state.observation(seat)).code if rng.random() < 0.8 else rng.choice(state.legal_codes()))
    return found


@needs_numba
def test_heuristic_finish_scores_as_the_engine_heuristic_game() -> None:
    """§7-§8: HeuristicFinish (pimc's ``rollout=kernel-heuristic``) gives every seat's score of the engine heuristic deal."""
    for table in ("standard", "furr"):
        game = _game(table)
        finish = HeuristicFinish(game)
        states = _walk(game, 30, chance=0.7)[::3]
        assert len(states) > 150
        for state in states:
            end, _cards = _heuristic_end(state, game)
            assert finish(state) == tuple(end.result().scores)


@needs_numba
def test_the_kernel_heuristic_rollout_values_a_leaf_by_the_heuristic_game() -> None:
    """ISMCTS ``rollout=kernel-heuristic``: the heuristic bots to the end of the deal, a leaf with two tricks left searched exactly.

    (``rollout=heuristic`` searches the last two tricks of every rollout; the
    compiled card play goes on to the end, as Dobbm's does.)
    """
    game = _game("standard")
    rollout = make_rollout("kernel-heuristic", game, 3)
    assert isinstance(rollout, MixedRollout) and isinstance(rollout.play, ExactEndgame)
    assert isinstance(rollout.play.inner, TarockKernelRollout) and rollout.play.inner.policy == "heuristic"
    bots = [make_heuristic(game, s, 3 + s) for s in range(game.num_seats)]  # MixedRollout's bidders
    scale = reward_scale(game)
    phases: Counter[str] = Counter()
    for state in _states_of_every_phase(game, 12):
        if in_trick_play(state) and tricks_left(state) <= EXACT_LEAF_TRICKS["tapp_tarock"]:
            _value, scores = best_line_scores(state)
            phases["searched"] += 1
        else:
            engine = state.clone()
            while not engine.is_terminal():
                heuristic_step(engine, bots)
            scores = engine.result().scores
            phases[state.phase_name] += 1
        assert rollout(state.clone(), random.Random(0)) == pytest.approx(bounded_rewards(scores, scale)), state.phase_name
    assert phases["play"] > 60 and phases["bidding"] > 5 and phases["searched"] > 5, phases


@needs_numba
def test_pimc_with_the_compiled_heuristic_decides_as_with_the_engine_one() -> None:
    """pimc ``rollout=kernel-heuristic`` values every world as ``rollout=heuristic`` does: the same decisions, bids to cards."""
    phases = compiled_pimc_decides_as_engine_pimc(_game("standard"), [700, 701], worlds=2)
    assert phases["play"] > 20 and phases["bidding"] > 1, phases


@needs_numba
def test_ismcts_plays_tapp_tarock_with_the_compiled_heuristic() -> None:
    game = _game("standard")
    state = _walk(game, 5)[0]
    seat = state.current_player()
    bot = make_ismcts(game, seat, 1, simulations=30, rollout="kernel-heuristic")
    assert bot.choose(state.observation(seat)) in state.legal_actions()


def test_without_numba_the_rollouts_play_through_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game("standard")
    monkeypatch.setattr(tapp_tarock_playout, "available", lambda: False)
    assert isinstance(make_rollout("kernel-heuristic", game, 1), HeuristicRollout)
    bot = make_pimc(game, 0, 1, worlds=2, rollout="kernel-heuristic")
    assert isinstance(bot, PimcBot) and bot.rollout == "kernel-heuristic" and bot._finish is None
    with pytest.raises(ValueError, match="numba"):
        HeuristicFinish(game)
    default = make_pimc(game, 0, 1, worlds=2)  # rollout=auto is the compiled heuristic in Tapp Tarock (run 5-compiled-heuristic)
    assert isinstance(default, PimcBot) and default.rollout == "kernel-heuristic"
