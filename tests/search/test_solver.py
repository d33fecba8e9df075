"""Tests of the pure-Python full-information solver (stich.bots.doppelkopf.solver).

The solver is checked against hand-worked endgames and, on many seeded
endgames of up to three tricks, against :func:`minimax`, which plays every
line through the engine itself.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stich.bots.doppelkopf.solver import (
    DULLE_ALWAYS,
    DULLE_EXCEPT_LAST,
    DULLE_OFF,
    PlayPosition,
    Solver,
    canonical_hand,
    equivalent_moves,
    minimax,
    position_of,
    random_play_position,
    reaches,
    solve,
    value,
)
from stich.core.registry import game_from_string
from stich.games.doppelkopf.contracts import CONTRACTS, EYES, N_FACES, card_order, face
from stich.games.doppelkopf.game import Doppelkopf
from stich.games.doppelkopf.options import ALL_SOLOS
from stich.games.doppelkopf.state import PLAY, RE, DoppelkopfState

CONFIGS = (
    "doppelkopf",
    "doppelkopf(preset=house_classic)",
    "doppelkopf(players=5,nines=false,second_dulle_beats_first=true,second_dulle_in_solo=true)",
    f"doppelkopf(must_overtrump=true,schweine=both,superschweine=true,armut=true,solos={'+'.join(ALL_SOLOS)})",
)
NORMAL = card_order(CONTRACTS["normal"], True)


def _game(text: str) -> Doppelkopf:
    game = game_from_string(text)
    assert isinstance(game, Doppelkopf)
    return game


def _faces(*texts: str) -> int:
    """Count-form hand of single copies."""
    return sum(1 << face(t) for t in texts)


def _normal_position(hands: tuple[int, ...], *, leader: int, trick: tuple[str, ...], tricks_left: int, **kw: int) -> PlayPosition:
    """A normal-game position with Re = players 0 and 2."""
    return PlayPosition(
        seats=(0, 1, 2, 3),
        hands=hands,
        re=0b0101,
        leader=leader,
        trick=tuple(face(t) for t in trick),
        tricks_left=tricks_left,
        re_eyes=kw.pop("re_eyes", 0),
        eff=NORMAL.eff,
        strength=NORMAL.strength,
        dulle=kw.pop("dulle", DULLE_OFF),
    )


def _mover_is_re(state: DoppelkopfState) -> bool:
    return state.party[state.to_move] == RE


# ------------------------------------------------------------ representation


def test_canonical_hand_counts_copies_not_which_copy() -> None:
    # bit f = at least one copy, bit f + 24 = both copies, whichever copies they are
    cq = face("CQ")
    assert canonical_hand(1 << (cq + N_FACES)) == 1 << cq
    assert canonical_hand(1 << cq) == 1 << cq
    assert canonical_hand(1 << cq | 1 << (cq + N_FACES)) == 1 << cq | 1 << (cq + N_FACES)


def test_position_of_reads_parties_trick_and_won_eyes() -> None:
    state = random_play_position(_game("doppelkopf"), 11, tricks_left=5, cards_in_trick=2)
    pos = position_of(state)
    assert pos.tricks_left == 5 and len(pos.trick) == 2
    assert pos.seats == state.active
    assert pos.seats[pos.to_move] == state.to_move
    assert pos.re == sum(1 << i for i, s in enumerate(state.active) if state.party[s] == RE)
    won = sum(EYES[c % N_FACES] for _s, cards, w in state.tricks if state.party[w] == RE for c in cards)
    assert pos.re_eyes == won
    assert pos.remaining_eyes == sum(EYES[c % N_FACES] for c in state.trick_cards) + sum(
        EYES[i % N_FACES] for s in state.active for i in range(48) if state.hands[s] >> i & 1
    )


def test_position_of_refuses_other_phases() -> None:
    state = _game("doppelkopf").new_state(seed=1)
    with pytest.raises(ValueError, match="play phase"):
        position_of(state)


def test_position_of_refuses_an_unclarified_wedding() -> None:
    # seed 1: seat 3 holds both queens of clubs and announces a wedding (§4.2)
    state = _game("doppelkopf").new_state(seed=1)
    for action in ("gesund", "gesund", "vorbehalt", "gesund", "hochzeit"):
        state.apply(action)
    assert state.phase == PLAY and not state.clarified
    with pytest.raises(ValueError, match="wedding"):
        solve(state)


def test_random_play_position_stops_where_asked() -> None:
    for config in CONFIGS:
        game = _game(config)
        state = random_play_position(game, 3, tricks_left=4, cards_in_trick=3)
        assert state.phase == PLAY
        assert state.n_tricks - len(state.tricks) == 4 and len(state.trick_cards) == 3


# ------------------------------------------------------------- hand-worked


def test_kontra_trumps_in_rather_than_throw_a_king() -> None:
    # P0 (Re) led SA; P1 (Kontra), void in spades, trumps with DJ or throws HK.
    # DJ: P1 takes SA DJ S9 SK (17 for Kontra), then HK H10 HA C9 goes to P2 (Re): Re 25.
    # HK: P0 takes SA HK S9 SK (19), then C9 DJ H10 HA to P2's Dulle: Re 19 + 23 = 42.
    pos = _normal_position(
        (_faces("C9"), _faces("HK", "DJ"), _faces("S9", "H10"), _faces("SK", "HA")),
        leader=0,
        trick=("SA",),
        tricks_left=2,
        re_eyes=100,
    )
    assert solve(pos) == {face("HK"): 142, face("DJ"): 125}
    assert value(pos) == 125
    assert reaches(pos, 125) and not reaches(pos, 126)


@pytest.mark.parametrize(("dulle", "re_eyes"), [(DULLE_OFF, 23), (DULLE_ALWAYS, 0), (DULLE_EXCEPT_LAST, 23)])
def test_second_dulle_in_the_last_trick(dulle: int, re_eyes: int) -> None:
    # [VAR §1.2] P0 (Re) leads H10, P1 (Kontra) plays the other H10; in the last trick
    # the second one wins only with DULLE_ALWAYS.
    pos = _normal_position(
        (0, 0, _faces("DQ"), _faces("D9")),
        leader=0,
        trick=("H10", "H10"),
        tricks_left=1,
        dulle=dulle,
    )
    assert value(pos) == re_eyes
    assert pos.trick_state((face("H10"), face("H10")), 2)[1] == (0 if dulle == DULLE_OFF else 1)


# ------------------------------------------------------------------ merging


def test_neighbouring_queens_are_one_move() -> None:
    pos = _normal_position((_faces("CQ", "SQ", "HQ"), 0, 0, 0), leader=0, trick=(), tricks_left=3)
    assert equivalent_moves(pos, _faces("CQ", "SQ", "HQ"), 0) == [face("CQ")]


def test_a_card_elsewhere_between_or_equal_splits_the_class() -> None:
    pos = _normal_position((0, 0, 0, 0), leader=0, trick=(), tricks_left=3)
    mine = _faces("CQ", "SQ", "HQ")
    # the other SQ elsewhere: it could tie with ours, so SQ stands alone, and it separates CQ from HQ
    assert equivalent_moves(pos, mine, _faces("SQ")) == [face("CQ"), face("SQ"), face("HQ")]
    # a card strictly between two of ours separates them
    assert equivalent_moves(pos, _faces("CQ", "HQ"), _faces("SQ")) == [face("CQ"), face("HQ")]
    # a card lying in the current trick counts as well
    assert equivalent_moves(pos, _faces("CQ", "HQ"), _faces("SQ") | _faces("CA")) == [face("CQ"), face("HQ")]


def test_different_eyes_are_never_merged() -> None:
    pos = _normal_position((0, 0, 0, 0), leader=0, trick=(), tricks_left=3)
    # DQ (3 eyes) and CJ (2 eyes) are neighbours in the trump order
    assert equivalent_moves(pos, _faces("DQ", "CJ"), 0) == [face("DQ"), face("CJ")]
    # SA (11) and S10 (10) are neighbours in spades
    assert equivalent_moves(pos, _faces("SA", "S10"), 0) == [face("SA"), face("S10")]


def test_merged_faces_get_their_class_value() -> None:
    state = random_play_position(_game("doppelkopf"), 5, tricks_left=4)
    merged = Solver(state).solve()
    plain = Solver(state, merge=False).solve()
    assert merged == plain
    assert sorted(merged) == [c for c in state.legal_codes() if c < N_FACES]


# -------------------------------------------------------- against the engine


@pytest.mark.parametrize("config", CONFIGS)
def test_solver_equals_engine_minimax_on_small_endgames(config: str) -> None:
    game = _game(config)
    for seed in range(12):
        for tricks_left in (1, 2, 3):
            state = random_play_position(game, seed * 10 + tricks_left, tricks_left=tricks_left, cards_in_trick=seed % 4)
            expected = minimax(state)
            assert solve(state) == expected, (config, seed, tricks_left)
            best = max(expected.values()) if _mover_is_re(state) else min(expected.values())
            assert value(state) == best
            assert reaches(state, best) and not reaches(state, best + 1)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), tricks_left=st.integers(1, 3), cards=st.integers(0, 3), config=st.sampled_from(CONFIGS))
def test_solver_equals_minimax_property(seed: int, tricks_left: int, cards: int, config: str) -> None:
    state = random_play_position(_game(config), seed, tricks_left=tricks_left, cards_in_trick=cards)
    assert solve(state) == minimax(state)


@pytest.mark.parametrize("config", CONFIGS)
def test_merging_changes_no_value_on_longer_endgames(config: str) -> None:
    game = _game(config)
    for seed in range(4):
        state = random_play_position(game, 100 + seed, tricks_left=4, cards_in_trick=seed)
        assert Solver(state).solve() == Solver(state, merge=False).solve()


@pytest.mark.parametrize("config", CONFIGS[:2])
def test_playing_the_solved_line_gives_the_value(config: str) -> None:
    # Both parties follow the solver to the end; the engine's own count must match the value.
    state = random_play_position(_game(config), 77, tricks_left=5, cards_in_trick=1)
    expected = value(state)
    while not state.is_terminal():
        values = solve(state)
        pick = max if _mover_is_re(state) else min
        state.apply(pick(values, key=lambda f: values[f]))
        if not state.is_terminal():
            assert value(state) == expected
    assert state.result().breakdown["eyes"]["re"] == expected


def test_table_is_reused_between_questions() -> None:
    state = random_play_position(_game("doppelkopf"), 9, tricks_left=5)
    solver = Solver(state)
    v = solver.value()
    first = solver.nodes
    assert solver.reaches(v) and not solver.reaches(v + 1)
    assert solver.nodes - first < first
    assert solver.solve() == Solver(state).solve()


def test_reaches_trivial_targets_without_search() -> None:
    state = random_play_position(_game("doppelkopf"), 2, tricks_left=3)
    solver = Solver(state)
    assert solver.reaches(solver.position.re_eyes)
    assert not solver.reaches(solver.position.re_eyes + solver.position.remaining_eyes + 1)
    assert solver.nodes == 0
