"""The Tarock-family card-play kernel (``stich.bots.tarock_family.kernel``) and its ISMCTS rollout (``stich.bots.tarock_rollout``).

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

The greedy card play of the playouts (``tarock_kernel.playouts``) must pick
the card :class:`~stich.bots.tarock_family.greedy_playout.GreedyRollout` picks, and the
rollout plays it for the declarer in the defenders' searches and for every seat in his own (``GREEDY_DEFAULT``).
"""

from __future__ import annotations

import random

import pytest

from stich.bots.dobbm.kernel_adapter import DobbmAdapter
from stich.bots.heuristic import make_heuristic
from stich.bots.rollouts import make_rollout
from stich.bots.samplers import prepare_sampler
from stich.bots.tarock_family import kernel as tarock_kernel
from stich.bots.tarock_family.greedy_playout import EPSILON, GreedyRollout
from stich.bots.tarock_family.kernel import TrickPosition, TrickRules, playouts, random_playouts, solve, solve_counting
from stich.bots.tarock_rollout import GREEDY_DEFAULT, SOLVE_TRICKS, TarockKernelRollout
from stich.core.game import State
from stich.core.tricks import NO_SUIT, led_suit
from stich.games.dobbm.pack import ORDER
from stich.games.dobbm.state import DobbmState
from stich.search.ismcts import ISMCTS, MixedRollout, RandomRollout, best_line_scores, bounded_rewards, reward_scale
from stich.search.perfect_info import play_codes, teams

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
@pytest.mark.parametrize("greedy", ["none", "declarer", "all"])
def test_playouts_replay_in_the_engine(preset: str | None, tricks: int, greedy: str) -> None:
    """Every card legal with the engine's legal set; the reported cards, tricks, last winner and scores are the engine's.

    With random card play, and with the greedy rules for the declarer's
    kernel seat or for every seat (10% random cards among them).
    """
    checked = differing = 0
    for state in _positions(tricks, 6, preset):
        adapter = DobbmAdapter(state.game)
        pos = adapter.position(state)
        mask = {"none": 0, "declarer": pos.side, "all": (1 << len(pos.seats)) - 1}[greedy]
        trace: list[list[int]] = []
        epsilon = int(EPSILON * (1 << 32))
        games = tarock_kernel._py_playouts(pos, 4, 1234 + len(state.tricks), trace, greedy=mask, epsilon=epsilon)
        start = len(state.tricks)
        scores = adapter.played_out(state, games)
        for (won, won_tricks, last, last_cards), cards, expected in zip(games, trace, scores, strict=True):
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
            assert _mask(list(replay.tricks[-1][1])) == last_cards
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
                for mask, epsilon in ((0b1111 & ~pos.side, 0.1), ((1 << len(pos.seats)) - 1, 0.0), (pos.side, 0.5)):
                    threshold = int(epsilon * (1 << 32))
                    expected = tarock_kernel._py_playouts(pos, 20, seed, greedy=mask, epsilon=threshold)
                    assert playouts(pos, 20, seed, greedy=mask, epsilon=epsilon) == expected


def _mid_trick(preset: str | None) -> list[DobbmState]:
    """Dobbm states with one to three cards of the current trick played (random cards after heuristic play) and a choice left."""
    found: list[DobbmState] = []
    rng = random.Random(11)
    for tricks in (8, 6, 4, 3):
        for state in _positions(tricks, 10, preset):
            for _ in range(1 + rng.randrange(3)):
                if state.is_terminal():
                    break
                state.apply(rng.choice(play_codes(state)))
                if state.trick_cards and len(play_codes(state)) > 1:
                    found.append(state.clone())  # type: ignore[arg-type]
    return found


@pytest.mark.parametrize("preset", PRESETS)
def test_greedy_card_is_the_greedy_rollouts_choice(preset: str | None) -> None:
    """The kernel's rule-based card (Python and compiled) is the one ``GreedyRollout.pick`` plays in the engine."""
    cases: set[tuple[bool, bool, bool]] = set()
    states = _mid_trick(preset)
    assert len(states) >= 40
    for state in states:
        adapter = DobbmAdapter(state.game)
        pos = adapter.position(state)
        codes = sorted(play_codes(state))
        expected = GreedyRollout(state.game).pick(
            codes, list(state.trick_cards), list(state.trick_seats), state.current_player(), teams(state), ORDER, len(state.active)
        )
        m = len(pos.seats)
        led, best_pos, best_key, points = pos.trick_state()
        p = (pos.leader + len(pos.trick)) % m
        mine = (pos.side >> p & 1) == (pos.side >> ((pos.leader + best_pos) % m) & 1)
        last = len(pos.trick) == m - 1
        legal = pos.rules.legal(pos.hands[p], led)
        assert legal == _mask(codes)
        assert tarock_kernel._py_greedy_card(pos.rules, legal, led, best_key, mine, last, points) == expected
        if tarock_kernel.available():
            ctx = tarock_kernel._arrays(pos).ctx
            assert tarock_kernel._core.greedy_card(ctx, legal, led, best_key, mine, last, points) == expected
        cases.add((mine, last, any(pos.rules.follow_key(c, led) > best_key for c in codes)))
    assert len(cases) >= 6, f"only the rule cases {sorted(cases)} came up"


def test_greedy_defence_costs_the_declarer_points() -> None:
    """Defenders following by the rules (smear on a partner's trick, take the declarer's) leave him fewer points than random ones."""
    from stich.games.dobbm.pack import points_of

    random_total = greedy_total = 0
    for state in _positions(8, 20, None):
        pos = DobbmAdapter(state.game).position(state)
        defenders = ((1 << len(pos.seats)) - 1) & ~pos.side
        random_total += sum(points_of(won) for won, _t, _l, _c in random_playouts(pos, 200, 3))
        greedy_total += sum(points_of(won) for won, _t, _l, _c in playouts(pos, 200, 3, greedy=defenders))
    assert greedy_total < 0.97 * random_total  # 212,521 against 224,234 when written: twelve standard errors apart


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
    with pytest.raises(ValueError, match="epsilon"):
        playouts(TrickPosition(rules, (0, 1), 1, (1, 2), (), 0, 1), 1, 1, epsilon=1.5)
    with pytest.raises(ValueError, match="mask of the 2 kernel seats"):
        playouts(TrickPosition(rules, (0, 1), 1, (1, 2), (), 0, 1), 1, 1, greedy=0b100)


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


def test_rollout_plays_greedy_cards_for_the_searching_sides_opponents_and_the_declarer() -> None:
    far = _play_state(8)
    assert isinstance(far, DobbmState) and far.declarer is not None
    assert GREEDY_DEFAULT == "opposed"
    rollout = TarockKernelRollout(far.game)
    pos = rollout.adapter.position(far)
    everyone = (1 << len(pos.seats)) - 1
    declarer_only = 1 << pos.seats.index(far.declarer)
    assert pos.side == declarer_only
    defenders = [s for s in pos.seats if s != far.declarer]
    assert rollout._greedy_mask(pos) == 0  # not told whose search it is: random play
    for defender in defenders:  # a defender's search: the declarer (its opponent) plays greedy, the defenders at random
        rollout.set_root(defender)
        assert rollout._greedy_mask(pos) == declarer_only
    sitting_out = [s for s in range(far.game.num_seats) if s not in pos.seats]
    for seat in sitting_out:  # a seat without cards is on no side
        rollout.set_root(seat)
        assert rollout._greedy_mask(pos) == 0
    declarer_mode = TarockKernelRollout(far.game, greedy="declarer")
    declarer_mode.set_root(defenders[0])
    assert declarer_mode._greedy_mask(pos) == 0
    declarer_mode.set_root(far.declarer)
    assert declarer_mode._greedy_mask(pos) == everyone
    rollout.set_root(far.declarer)
    assert rollout._greedy_mask(pos) == everyone
    scale = reward_scale(far.game)
    rewards = rollout(far.clone(), random.Random(5))
    games = playouts(pos, rollout.playouts, random.Random(5).getrandbits(63), greedy=everyone)
    rows = [bounded_rewards(s, scale) for s in rollout.adapter.played_out(far, games)]
    assert rewards == pytest.approx([sum(col) / len(rows) for col in zip(*rows, strict=True)])
    assert TarockKernelRollout(far.game, greedy="always")._greedy_mask(pos) == everyone
    never = TarockKernelRollout(far.game, greedy="never")
    never.set_root(far.declarer)
    assert never._greedy_mask(pos) == 0
    with pytest.raises(ValueError, match="greedy must be one of never, declarer, opposed, always"):
        TarockKernelRollout(far.game, greedy="sometimes")


def test_search_tells_the_rollout_whose_search_it_is() -> None:
    """``ISMCTS.search`` hands the observing seat to a root-aware rollout, through ``MixedRollout`` too."""
    state = _play_state(8)
    seat = state.current_player()
    kernel = TarockKernelRollout(state.game)
    search = ISMCTS(state.game, MixedRollout(state.game, 1, make_heuristic, kernel))
    observation = state.observation(seat)
    search.search(observation, prepare_sampler(state.game, observation), random.Random(1), iterations=2)
    assert kernel.root == seat
    ISMCTS(state.game, RandomRollout(state.game)).search(
        observation, prepare_sampler(state.game, observation), random.Random(1), iterations=2
    )


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


def _tapp_positions(tricks: int, count: int) -> list[State]:
    """Tapp Tarock card-play states with at most ``tricks`` tricks left (every third deal played at random)."""
    found: list[State] = []
    for seed in range(400):
        state = _endgame("tapp_tarock", seed, tricks, None, random_moves=seed % 3 == 0)
        if state is not None and len(play_codes(state)) > 1:
            found.append(state)
        if len(found) == count:
            return found
    raise AssertionError(f"only {len(found)} Tapp Tarock positions found")


@pytest.mark.parametrize("tricks", [16, 5, 2])
def test_tapp_tarock_kernel_games_score_as_the_engine(tricks: int) -> None:
    """Tapp Tarock (dossier tapp_tarock §6-§8): kernel games replayed through the engine score what the adapter says.

    Legal sets equal (§6: follow, else tarock, else anything), the per-card
    thirds add up to the pile's ``3F - 2n`` (§7), the declarer's tricks (Valat
    §8.2) and the last trick's Pagat (ultimo §8.3) as the engine sees them.
    """
    from stich.bots.tapp_tarock.kernel_adapter import TappTarockAdapter
    from stich.games.tapp_tarock.pack import ORDER as TAPP_ORDER
    from stich.games.tapp_tarock.pack import PAGAT

    checked = pagat_last = 0
    for state in _tapp_positions(tricks, 8):
        adapter = TappTarockAdapter(state.game)
        pos = adapter.position(state)
        trace: list[list[int]] = []
        mask = pos.side if len(state.tricks) % 2 else 0  # type: ignore[attr-defined]
        games = tarock_kernel._py_playouts(pos, 6, 99 + len(state.tricks), trace, greedy=mask)  # type: ignore[attr-defined]
        for game, cards, expected in zip(games, trace, adapter.played_out(state, games), strict=True):
            replay = state.clone()
            for card in cards:
                mover = replay.current_player()
                hand = replay.hands[mover]  # type: ignore[attr-defined]
                led = led_suit(TAPP_ORDER, replay.trick_cards) if replay.trick_cards else NO_SUIT  # type: ignore[attr-defined]
                assert _mask(replay.legal_codes()) == pos.rules.legal(hand, led)
                replay.apply(card)
            assert replay.is_terminal()
            assert tuple(replay.result().scores) == expected
            _seats, last_cards, _winner = replay.tricks[-1]  # type: ignore[attr-defined]
            assert _mask(list(last_cards)) == game.last_cards
            pagat_last += PAGAT in last_cards
            checked += 1
    assert checked == 48
    if tricks <= 5:
        assert pagat_last, "no game ended with the Pagat in the last trick: the ultimo was not checked"


def test_tapp_tarock_rollout_leaves_the_endgame_to_the_engine() -> None:
    from stich.bots.tapp_tarock.kernel_adapter import TappTarockAdapter
    from stich.core.registry import make_game
    from stich.search.ismcts import ExactEndgame

    game = make_game("tapp_tarock")
    rollout = make_rollout("kernel", game, 1)
    assert isinstance(rollout, ExactEndgame) and isinstance(rollout.inner, TarockKernelRollout)
    assert rollout.inner.solve_tricks == 0
    rollout.set_root(2)
    assert rollout.inner.root == 2
    state = _tapp_positions(5, 1)[0]
    rewards = rollout(state.clone(), random.Random(3))
    assert len(rewards) == game.num_seats and all(-1.0 < r < 1.0 for r in rewards)
    with pytest.raises(NotImplementedError, match="not monotone"):
        TappTarockAdapter(game).solved(state, 0)
