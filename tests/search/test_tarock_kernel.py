"""The Tarock-family card-play kernel (``stich.search.tarock_kernel``) and its ISMCTS rollout (``stich.search.tarock_rollout``).

Checked against the engine on Dobbm deals played by the heuristic bots (and
partly at random), at four and five players (dossier dobbm §2: at five the
dealer sits out): every card a kernel game plays must be legal in the engine
and the legal sets must agree (§6: follow suit, else trump, else anything;
hearts trump, A 10 K O U 9 8 7 6 in every suit); replayed through the
engine, a kernel game must end with the cards, tricks and last trick it
reported, and the adapter's scores must be the engine's evaluation (§7
counting, §7.2 a declarer without a trick loses the talon, §8 payment).  The
solver's value must be that of the engine's exact search
(``best_line_scores``) in score, and the compiled kernel must play exactly
the games of the pure-Python path.
"""

from __future__ import annotations

import random

import pytest

from stich.core.game import State
from stich.core.tricks import NO_SUIT, led_suit
from stich.games.dobbm.pack import ORDER
from stich.games.dobbm.state import DobbmState
from stich.search import tarock_kernel
from stich.search.ismcts import best_line_scores, bounded_rewards, make_rollout, reward_scale
from stich.search.perfect_info import play_codes
from stich.search.tarock_kernel import TrickPosition, TrickRules, random_playouts, solve, solve_counting
from stich.search.tarock_rollout import SOLVE_TRICKS, DobbmAdapter, TarockKernelRollout

from .test_perfect_info import _endgame

needs_numba = pytest.mark.skipif(not tarock_kernel.available(), reason="numba not installed")

PRESETS = (None, "pagat_5")


def _positions(tricks: int, count: int, preset: str | None, *, trickless: bool = False) -> list[DobbmState]:
    """Dobbm card-play states with at most ``tricks`` tricks left (every third deal played at random), some mid-trick.

    ``trickless``: only states where the declarer has not won a trick yet.
    """
    found: list[DobbmState] = []
    for seed in range(600):
        state = _endgame("dobbm", seed, tricks, preset, random_moves=seed % 3 == 0)
        if trickless and state is not None and any(w == state.declarer for _s, _c, w in state.tricks):  # type: ignore[attr-defined]
            continue
        if state is not None and len(play_codes(state)) > 1:
            assert isinstance(state, DobbmState)
            found.append(state)
        if len(found) == count:
            return found
    raise AssertionError(f"only {len(found)} positions found")


def _mask(codes: list[int]) -> int:
    out = 0
    for code in codes:
        out |= 1 << code
    return out


def _declarer_won(state: DobbmState, start: int) -> tuple[int, int]:
    """Cards and tricks the declarer won in the tricks from index ``start`` on."""
    won = tricks = 0
    for _seats, cards, winner in state.tricks[start:]:
        if winner == state.declarer:
            tricks += 1
            for card in cards:
                won |= 1 << card
    return won, tricks


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("tricks", [8, 4])
def test_playouts_replay_in_the_engine(preset: str | None, tricks: int) -> None:
    """Every card legal with the engine's legal set; the reported cards, tricks, last winner and scores are the engine's."""
    checked = differing = 0
    for state in _positions(tricks, 6, preset):
        adapter = DobbmAdapter(state.game)
        pos = adapter.position(state)
        trace: list[list[int]] = []
        games = tarock_kernel._py_playouts(pos, 4, 1234 + len(state.tricks), trace)
        start = len(state.tricks)
        scores = adapter.played_out(state, games)
        for (won, won_tricks, last), cards, expected in zip(games, trace, scores, strict=True):
            replay = state.clone()
            assert isinstance(replay, DobbmState)
            for card in cards:
                mover = replay.current_player()
                led = led_suit(ORDER, replay.trick_cards) if replay.trick_cards else NO_SUIT
                assert _mask(replay.legal_codes()) == pos.rules.legal(replay.hands[mover], led)
                replay.apply(card)
            assert replay.is_terminal()
            assert _declarer_won(replay, start) == (won, won_tricks)
            assert replay.tricks[-1][2] == pos.seats[last]
            assert tuple(replay.result().scores) == expected
            checked += 1
        differing += len({s for s in scores}) > 1
    assert checked == 24
    assert differing, "every playout scored alike: the test would not tell the kernel's outcomes apart"


@needs_numba
@pytest.mark.parametrize("preset", PRESETS)
def test_compiled_playouts_are_the_python_games(preset: str | None) -> None:
    for tricks in (8, 5, 2):
        for state in _positions(tricks, 4, preset):
            pos = DobbmAdapter(state.game).position(state)
            for seed in (0, 7, 2**63 + 5):
                assert random_playouts(pos, 20, seed) == tarock_kernel._py_playouts(pos, 20, seed)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("tricks", [2, 3])
def test_solver_value_is_the_engine_search_in_score(preset: str | None, tricks: int) -> None:
    """The solved scores are those ``best_line_scores`` (alpha-beta through the engine) reaches, for every seat."""
    differing = no_trick = 0
    for state in _positions(tricks, 12, preset) + _positions(tricks, 3, preset, trickless=True):
        adapter = DobbmAdapter(state.game)
        pos = adapter.position(state)
        before, talon = adapter.bonus(state)
        value = solve(pos, tricks=before, bonus=talon)
        _best, scores = best_line_scores(state)
        assert adapter.solved(state, value) == tuple(scores)
        differing += len({s for s in (random_playouts(pos, 1, k)[0][0] for k in range(8))}) > 1
        no_trick += before == 0
    assert differing, "no position where the cards played change what the declarer wins"
    assert no_trick >= 3


def test_python_solver_agrees_with_the_compiled_one(monkeypatch: pytest.MonkeyPatch) -> None:
    positions = [(DobbmAdapter(s.game), s) for s in _positions(3, 10, None)]
    compiled = [solve_counting(a.position(s), tricks=a.bonus(s)[0], bonus=a.bonus(s)[1]) for a, s in positions]
    monkeypatch.setattr(tarock_kernel, "_core", None)
    python = [solve_counting(a.position(s), tricks=a.bonus(s)[0], bonus=a.bonus(s)[1]) for a, s in positions]
    assert [v for v, _n in compiled] == [v for v, _n in python]
    assert all(n > 0 for _v, n in python)


def test_talon_bonus_needs_a_trick_at_the_end() -> None:
    """Two seats, one trick each way: side 0 gets the bonus only if it takes a trick (dossier dobbm §7.2)."""
    follow = (0b0011, 0b1100, 0, 0, 0, 0)
    rules = TrickRules((0, 0, 1, 1), (2, 1, 2, 1), (5, 0, 4, 0), follow)
    # side 0 (kernel seat 0) holds the low cards of both suits: it cannot win a trick
    weak = TrickPosition(rules, (0, 1), 0b01, (0b1010, 0b0101), (), 0, 2)
    assert solve(weak, bonus=100) == 0
    assert solve(weak, tricks=1, bonus=100) == 100
    # with the high club it takes the club trick (5 points) and the bonus
    strong = TrickPosition(rules, (0, 1), 0b01, (0b1001, 0b0110), (), 0, 2)
    assert solve(strong, bonus=100) == 105


def test_positions_are_checked() -> None:
    rules = TrickRules((0, 0), (2, 1), (1, 0), (0b11, 0, 0, 0, 0, 0))
    with pytest.raises(ValueError, match="hands"):
        TrickPosition(rules, (0, 1), 1, (1,), (), 0, 1)
    with pytest.raises(ValueError, match="trick left"):
        TrickPosition(rules, (0, 1), 1, (1, 2), (), 0, 0)
    with pytest.raises(ValueError, match="at least 1"):
        random_playouts(TrickPosition(rules, (0, 1), 1, (1, 2), (), 0, 1), 0, 1)


def _play_state(tricks: int) -> State:
    return _positions(tricks, 1, None)[0]


def test_rollout_solves_the_last_tricks_and_plays_out_the_rest() -> None:
    near = _play_state(SOLVE_TRICKS)
    rollout = TarockKernelRollout(near.game)
    scale = reward_scale(near.game)
    _best, scores = best_line_scores(near)
    if tarock_kernel.available():
        assert rollout(near.clone(), random.Random(0)) == bounded_rewards(scores, scale)
        assert rollout.solved == 1
    far = _play_state(8)
    assert isinstance(far, DobbmState)
    rng = random.Random(5)
    rewards = rollout(far.clone(), rng)
    games = random_playouts(rollout.adapter.position(far), rollout.playouts, random.Random(5).getrandbits(63))
    rows = [bounded_rewards(s, scale) for s in rollout.adapter.played_out(far, games)]
    assert rewards == pytest.approx([sum(col) / len(rows) for col in zip(*rows, strict=True)])


def test_rollout_plays_calls_at_random_until_card_play() -> None:
    game = _play_state(8).game
    rollout = TarockKernelRollout(game)
    state = game.new_state(seed=3, dealer=0)
    rewards = rollout(state, random.Random(2))
    assert len(rewards) == game.num_seats and all(-1.0 < r < 1.0 for r in rewards)
    assert state.is_terminal() or state.phase_name == "play"  # type: ignore[attr-defined]


def test_rollout_and_kernel_name_their_games() -> None:
    from stich.core.registry import make_game

    with pytest.raises(ValueError, match="dobbm"):
        TarockKernelRollout(make_game("droggn"))
    with pytest.raises(ValueError, match="rollout 'kernel' exists only for"):
        make_rollout("kernel", make_game("droggn"), 1)
    assert isinstance(make_rollout("kernel", make_game("dobbm"), 1), TarockKernelRollout)
