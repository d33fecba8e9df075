"""Exact endgame search through the engine (``stich.search.perfect_info``).

The alpha-beta must give exactly the values of a plain minimax over the same
engine states (every line played with ``clone``/``apply``, no pruning), for
the team structure each game defines: Doppelkopf's parties (rules dossier
doppelkopf §2, §4), the declarer against the defenders in the Tarock family
(tapp_tarock §3-§4, dobbm §3, droggn §3).
"""

from __future__ import annotations

import random

import pytest

from stich.bots.doppelkopf import kernel
from stich.bots.heuristic import make_heuristic
from stich.bots.pimc import doppelkopf_solver
from stich.core.game import State
from stich.core.registry import make_game
from stich.search.perfect_info import (
    AlphaBeta,
    WorldEvaluator,
    doppelkopf_eye_value,
    doppelkopf_leaf,
    final_score,
    in_trick_play,
    minimax,
    play_codes,
    teams,
    tricks_left,
)


def _endgame(name: str, seed: int, tricks: int, preset: str | None = None, *, random_moves: bool = False) -> State | None:
    """A deal played by the heuristic bots (or at random) until ``tricks`` tricks are left in trick play."""
    game = make_game(name, preset)
    bots = [make_heuristic(game, seat, seed) for seat in range(game.num_seats)]
    rng = random.Random(seed)
    state = game.new_state(seed=seed, dealer=seed % game.num_seats)
    while not state.is_terminal():
        if in_trick_play(state) and tricks_left(state) <= tricks and (not state.trick_cards or seed % 2):  # type: ignore[attr-defined]
            return state
        mover = state.current_player()
        if random_moves and in_trick_play(state):
            state.apply(rng.choice(play_codes(state)))
        else:
            state.apply(bots[mover].choose(state.observation(mover)))
    return None


def fine_leaf(state: State, seat: int) -> float:
    """A test leaf finer than the score: the score, then which cards the seat's team won (any fixed function of the end will do)."""
    side = teams(state)
    tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = state.tricks  # type: ignore[attr-defined]
    won = sum(sum(cards) for _seats, cards, winner in tricks if side[winner] == side[seat])
    return final_score(state, seat) * 10_000 + won


def _endgames(name: str, tricks: int, count: int, preset: str | None = None) -> list[State]:
    found = []
    for seed in range(200):
        state = _endgame(name, seed, tricks, preset, random_moves=seed % 3 == 0)
        if state is not None and len(play_codes(state)) > 1:  # a forced card tests no search
            found.append(state)
        if len(found) == count:
            break
    assert len(found) == count, f"only {len(found)} {name} endgames found"
    return found


@pytest.mark.parametrize(
    ("name", "preset", "tricks"),
    [
        ("doppelkopf", None, 2),
        ("tapp_tarock", None, 3),
        ("dobbm", None, 2),
        ("droggn", None, 3),
        ("dappen", None, 2),
    ],
)
def test_alpha_beta_equals_minimax(name: str, preset: str | None, tricks: int) -> None:
    leaf = doppelkopf_leaf if name == "doppelkopf" else fine_leaf
    differing = 0
    # ten positions: a declarer who keeps his trumps often wins every trick of a Tarock endgame whatever is played
    for state in _endgames(name, tricks, 10, preset):
        mover = state.current_player()
        for seat in {mover, (mover + 1) % state.game.num_seats}:
            expected = minimax(state, seat, leaf)
            search = AlphaBeta(seat, leaf)
            assert search.solve(state) == expected
            assert search.value(state) == (max if teams(state)[mover] == teams(state)[seat] else min)(expected.values())
            differing += len(set(expected.values())) > 1
    assert differing, "every position had all cards equal: the test would not catch a wrong search"


def test_alpha_beta_score_leaf_in_doppelkopf_matches_minimax() -> None:
    for state in _endgames("doppelkopf", 2, 4, "house_classic"):
        seat = state.current_player()
        assert AlphaBeta(seat).solve(state) == minimax(state, seat)


def test_alpha_beta_agrees_with_the_doppelkopf_kernel() -> None:
    """Eyes from the engine search equal the kernel's exact eyes (same positions, clarified parties)."""
    for state in _endgames("doppelkopf", 2, 5):
        if not state.clarified:  # type: ignore[attr-defined]
            continue
        seat = state.current_player()
        is_re = teams(state)[seat] == 0
        solved = kernel.KernelSolver(state).solve()  # type: ignore[arg-type]
        assert AlphaBeta(seat, doppelkopf_leaf).solve(state) == {code: doppelkopf_eye_value(eyes, is_re) for code, eyes in solved.items()}


def test_teams_follow_the_state() -> None:
    state = _endgames("doppelkopf", 3, 1)[0]
    party = state.party  # type: ignore[attr-defined]
    assert teams(state) == tuple(party)
    for name in ("tapp_tarock", "dobbm", "droggn"):
        state = _endgames(name, 3, 1)[0]
        declarer = state.declarer  # type: ignore[attr-defined]
        assert teams(state) == tuple(0 if seat == declarer else 1 for seat in range(state.game.num_seats))
    fresh = make_game("tapp_tarock").new_state(seed=1, dealer=0)
    assert teams(fresh) == (0, 1, 2)  # nobody has a partner before the bidding is settled


def test_doppelkopf_eye_value_rewards_the_lines() -> None:
    assert doppelkopf_eye_value(121, True) > doppelkopf_eye_value(120, True) + 1  # winning is worth more than one eye
    assert doppelkopf_eye_value(120, False) == 120 + 30  # Kontra wins with 120
    assert doppelkopf_eye_value(151, True) - doppelkopf_eye_value(150, True) > 1  # keine 90
    assert doppelkopf_eye_value(59, True) < doppelkopf_eye_value(60, True) - 1  # the loser under 60 gives a point more
    assert doppelkopf_eye_value(0, False) == 240 + 4 * 30


def test_world_evaluator_leaves_the_world_unchanged() -> None:
    for name in ("doppelkopf", "tapp_tarock", "dobbm"):
        state = _endgames(name, 6, 1)[0]
        game = state.game
        seat = state.current_player()
        evaluator = WorldEvaluator(game, seat, [make_heuristic(game, s, 0) for s in range(game.num_seats)], solver=doppelkopf_solver)
        before = state.observation(seat), state.history[:]
        codes = play_codes(state)
        values = evaluator.play_values(state, codes)
        assert len(values) == len(codes)
        assert (state.observation(seat), state.history) == before
        scores = evaluator.score_values(state, codes)
        assert all(isinstance(v, float) for v in scores)
        assert (state.observation(seat), state.history) == before


@pytest.mark.parametrize("players", [4, 5])
def test_dobbm_teams_match_who_pays_whom_in_every_contract(players: int) -> None:
    """Dobbm: the declarer (Dobbm or Solo) alone against the other active players, who play as one team [§3.1];
    an idle fifth dealer pays or receives like a defender [§2, §8.3].  So in every scored deal two seats share a
    team label exactly when their scores have the same sign: a wrong label would make the search play for the other side."""
    game = make_game("dobbm", options={"players": players})
    bots = [make_heuristic(game, seat, 0) for seat in range(players)]
    seen: set[str] = set()
    for seed in range(400):
        state = game.new_state(seed=seed, dealer=seed % players)
        rng = random.Random(seed)
        while not state.is_terminal():
            mover = state.current_player()
            if getattr(state, "phase_name", "") == "bidding" and seed % 3 == 0:
                state.apply(rng.choice(state.legal_codes()))  # random bids reach Solo contracts too
            else:
                state.apply(bots[mover].choose(state.observation(mover)))
        scores = state.result().scores
        contract = state.contract  # type: ignore[attr-defined]
        if contract is None or 0 in scores:
            continue  # thrown in or drawn: nobody pays
        side = teams(state)
        declarer = state.declarer  # type: ignore[attr-defined]
        assert side[declarer] == 0 and side.count(0) == 1
        for a in range(players):
            for b in range(players):
                assert (side[a] == side[b]) == ((scores[a] > 0) == (scores[b] > 0)), (seed, contract, scores, side)
        seen.add(contract)
    assert seen == {"dobbm", "solo"}
