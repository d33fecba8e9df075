"""World sampling: worlds reproduce the observation exactly, follow the uniform law, and read nothing hidden."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from math import prod
from typing import Any

import pytest

from stich.bots.doppelkopf.sampling import TABLE_BUDGET, DoppelkopfWorldSampler
from stich.bots.samplers import prepare_sampler, sample_world
from stich.cards import Card, parse_cards
from stich.games.doppelkopf.state import DoppelkopfState
from stich.search import SamplingError
from stich.search.sampling import Allocation, Constraints

from ._sampling_helpers import check_world, complete, doppelkopf, positions

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("ddv", {}),
    ("ddv_no_nines", {}),
    ("house_classic", {}),
    ("ddv", {"players": 5}),
    ("ddv", {"armut": True, "armut_no_taker": "last_must_take", "stille_hochzeit": False}),
    ("ddv", {"must_overtrump": True, "schweine": "both", "superschweine": True}),
    ("ddv", {"armut": True, "armut_two_poor": "play", "schmeissen": "five_nines+max_trump_le_dj", "hochzeit_before_armut": True}),
    ("ddv", {"hochzeit_rule": "first_trump", "hochzeit_announcement_timing": "normal_with_conversion", "schweine": "both"}),
    ("ddv", {"players": 5, "nines": False, "armut": True, "schweine": "both", "second_dulle_beats_first": True}),
]

# Chi-square critical values at p = 0.001 (a seeded test: a failure means a biased sampler, not bad luck).
CHI2_0001 = {1: 10.83, 2: 13.82}


def chi2(observed: Counter[Any], expected: dict[Any, Fraction], n: int) -> float:
    """Pearson's statistic of ``observed`` counts against probabilities ``expected``."""
    assert set(observed) <= set(expected), f"impossible outcome drawn: {set(observed) - set(expected)}"
    return sum(float((observed[k] - n * p) ** 2 / (n * p)) for k, p in expected.items())


def sampler_of(state: DoppelkopfState, seat: int) -> DoppelkopfWorldSampler:
    sampler = prepare_sampler(state.game, state.observation(seat))
    assert isinstance(sampler, DoppelkopfWorldSampler)
    return sampler


def check_all_seats(state: DoppelkopfState, rng: random.Random, worlds: int = 2) -> None:
    """Every seat's sampler admits the real world and draws worlds it cannot tell from it."""
    for seat in range(state.game.num_seats):
        sampler = sampler_of(state, seat)
        assert sampler.admits(state), f"seat {seat}'s sampler excludes the real world"
        for _ in range(worlds):
            check_world(sampler.sample(rng), state, seat, rng)


# ------------------------------------------------------------------ consistency


@pytest.mark.parametrize(("preset", "options"), CONFIGS, ids=[f"{p}-{'-'.join(o) or 'default'}" for p, o in CONFIGS])
def test_worlds_reproduce_the_observation(preset: str, options: dict[str, Any]) -> None:
    # Random deals (reservations, solos, weddings, poverty, calls), random points, random seats.
    game = doppelkopf(preset, **options)
    rng = random.Random(f"{preset}{options}")
    states = positions(game, rng, deals=30)
    phases = set()
    for state in rng.sample(states, 150):
        seat = rng.randrange(game.num_seats)
        sampler = sampler_of(state, seat)
        assert sampler.admits(state), "the sampler excludes the real world"
        for _ in range(2):
            check_world(sampler.sample(rng), state, seat, rng)
        phases.add(state.phase_name)
    assert {"reservation", "play"} <= phases


def test_poverty_at_every_step_for_every_seat() -> None:
    # §4.5: the poor player, the taker and the others each know different cards of the exchange.
    game = doppelkopf("ddv", armut=True)
    poor = "CA CA C10 C10 CK CK SA SA S10 HA HK DA"
    state = game.new_state(hands=complete(game, {1: poor}), dealer=3)
    rng = random.Random(4)
    for text in ("gesund", "vorbehalt", "gesund", "gesund", "armut"):
        state.apply(text)
    cases = set()
    while len(state.tricks) < 2:
        check_all_seats(state, rng)
        cases |= {sampler_of(state, s).case for s in range(4)}
        if state.phase_name == "armut_offer":
            state.apply("accept" if state.current_player() == 3 else "decline")
        else:
            state.apply(rng.choice(state.legal_codes()))
    assert state.kind == "armut" and state.armut_taker == 3
    assert cases == {"poor", "taker", "outside_before", "outside_after"}


def test_poverty_nobody_takes_and_two_poor_hands() -> None:
    # §4.5 [VAR]: nobody takes -> thrown in with the cards in the pile; a second poor hand -> thrown in.
    game = doppelkopf("ddv", armut=True)
    rng = random.Random(5)
    state = game.new_state(hands=complete(game, {1: "CA CA C10 C10 CK CK SA SA S10 HA HK DA"}), dealer=3)
    for text in ("gesund", "vorbehalt", "gesund", "gesund", "armut"):
        state.apply(text)
    while not state.is_terminal():
        state.apply("decline" if state.phase_name == "armut_offer" else rng.choice(state.legal_codes()))
        check_all_seats(state, rng)
    assert state.observation(0).public["thrown"]["reason"] == "armut_not_taken"
    two = complete(game, {1: "CA CA C10 C10 CK CK SA SA S10 HA HK DA", 2: "C9 C9 S10 SK SK S9 S9 HK H9 H9 DA D9"})
    state = game.new_state(hands=two, dealer=3)
    for text in ("gesund", "vorbehalt", "gesund", "gesund", "armut"):
        state.apply(text)
    assert state.observation(0).public["thrown"]["reason"] == "two_poor"
    check_all_seats(state, rng, worlds=4)


POOR = "CA CA C10 C10 CK CK SA SA S10 HA HK"
"""Eleven plain cards: with one trump more, a poor hand [§4.5]."""


def test_poverty_seen_from_outside_keeps_the_taker_healthy() -> None:
    """§4.5 procedure, §4.3 with ``stille_hochzeit=false``: the exchange an outside seat did not see must let the taker say "gesund".

    The poor player hands over its one trump, a queen of clubs; the taker,
    who said "gesund", plays both queens of clubs.  The taker was dealt one
    of them, so the handed-over cards held a queen of clubs: the sampler
    used to hand over plain cards whenever it could, found no world, and
    raised.
    """
    game = doppelkopf("ddv", armut=True, stille_hochzeit=False)
    hands = {1: "CQ " + POOR, 2: "CQ SQ SQ HQ HQ DQ DQ CJ CJ C9 C9 S10", 0: "H10 H10 DA DA D10 D10 DK DK D9 D9 DJ DJ"}
    state = game.new_state(hands=complete(game, hands), dealer=3)
    exchange = ("discard CQ", "discard CA", "discard CK", "accept", "discard C9", "discard C9", "discard S10")
    for text in ("gesund", "vorbehalt", "gesund", "gesund", "armut", *exchange, "play DA", "play SA", "play CQ", "play HJ", "play CQ"):
        state.apply(text)
    rng = random.Random(13)
    for seat in (0, 3):
        sampler = sampler_of(state, seat)
        assert sampler.case == "outside_after" and sampler.admits(state)
        for _ in range(3):
            check_world(sampler.sample(rng), state, seat, rng)


def test_poverty_seen_from_outside_keeps_the_reservation_query() -> None:
    """§4.5 procedure, §4.6 ``max_trump_le_dj``, §3.2 query order: the poor hand as dealt held a trump above DJ.

    Seat 1 (poor, its one trump a queen of spades) and seat 3 (a wedding)
    reserve; both pass their solo questions and seat 1 names poverty.  Had
    seat 1 been able to throw in (no trump above DJ), it would have been
    asked that first, so the handed-over cards held its queen: the sampler
    used to hand over plain cards, leaving no trump, and found no world.
    """
    game = doppelkopf("ddv", armut=True, schmeissen="max_trump_le_dj")
    hands = {1: "SQ " + POOR, 3: "CQ CQ H10 H10 DA DA D10 D10 DK DK D9 D9", 2: "SQ HQ HQ DQ DQ CJ CJ SJ SJ C9 C9 S10"}
    state = game.new_state(hands=complete(game, hands), dealer=3)
    exchange = ("discard SQ", "discard CA", "discard CK", "accept", "discard C9", "discard C9", "discard S10")
    for text in ("gesund", "vorbehalt", "gesund", "vorbehalt", "pass", "pass", "armut", *exchange):
        state.apply(text)
    assert state.armut_taker == 2 and state.phase_name == "play"
    rng = random.Random(14)
    sampler = sampler_of(state, 0)
    assert sampler.case == "outside_after" and sampler.admits(state)
    for _ in range(3):
        check_world(sampler.sample(rng), state, 0, rng)


def test_poverty_being_handed_over_keeps_the_table_small() -> None:
    """§4.5 procedure with two reservers and throw-in conditions (§4.6): optional facts stay within the table budget.

    Seat 1 (a wedding) and seat 2 (poor) reserve; seat 2 has laid one card
    into the pile.  The throw-in tests of the reservers are optional; they
    used to be admitted before the poverty's counters existed, and the
    counting table of an outside seat grew to 54,000 counter values (5 s to
    prepare one sampler; up to 30 s seen in play).
    """
    game = doppelkopf("ddv", armut=True, schmeissen="five_nines+seven_full_cards")
    hands = {2: "SQ CA CK CK C9 SA SK SK S9 HK HK H9", 1: "CQ CQ H10 H10 DA DA D10 D10 DK DK D9 D9"}
    state = game.new_state(hands=complete(game, hands), dealer=3)
    for text in ("gesund", "vorbehalt", "vorbehalt", "gesund", "pass", "pass", "armut", "discard SQ"):
        state.apply(text)
    rng = random.Random(16)
    for seat in (0, 3):
        sampler = sampler_of(state, seat)
        assert sampler.case == "outside_before"
        assert prod(spec.cap + 1 for spec in sampler.allocation.inner.counters) <= TABLE_BUDGET
    check_all_seats(state, rng)


def test_thrown_in_hand() -> None:
    # §4.6 [VAR]: a hand with five nines may be thrown in; it is shown to everybody.
    game = doppelkopf("house_classic")
    state = game.new_state(hands=complete(game, {1: "C9 C9 S9 S9 H9 CA SA HA CQ DJ D10 DK"}), dealer=3)
    for text in ("gesund", "vorbehalt", "gesund", "gesund", "schmeissen"):
        state.apply(text)
    assert state.observation(0).public["thrown"]["reason"] == "five_nines"
    check_all_seats(state, random.Random(12), worlds=4)


@pytest.mark.parametrize("mode", ["wedding", "silent", "fallback"])
def test_weddings(mode: str) -> None:
    # §4.2, §4.3: the Hochzeiter holds both queens of clubs; a silent wedding looks like a normal game;
    # with a one-trick window and "first trump" a plain first trick leaves the Hochzeiter alone.
    options: dict[str, Any] = {"hochzeit_window_tricks": 1, "hochzeit_rule": "first_trump"} if mode == "fallback" else {}
    game = doppelkopf("ddv", schweine="both", **options)
    state = game.new_state(hands=complete(game, {2: "CQ CQ H10 SQ HQ DJ DA DA CA SA HA H9"}), dealer=3)
    rng = random.Random(6)
    for s in range(4):
        state.apply("vorbehalt" if mode != "silent" and s == 2 else "gesund")
    if mode != "silent":
        state.apply("hochzeit")
    if mode == "fallback":
        state.apply(next(a for a in state.legal_actions() if a.kind == "play" and not state.order.is_trump(int(a.code))))
    while len(state.tricks) < 4:
        check_all_seats(state, rng, worlds=1)
        state.apply(rng.choice([c for c in state.legal_codes() if c < 24]))
    assert state.kind == {"wedding": "hochzeit", "silent": "stille_hochzeit", "fallback": "hochzeit_solo"}[mode]


def test_reservation_query_with_several_reservers() -> None:
    # §3.2: a reserver who passes its solo question must hold a lower reservation (here: a wedding).
    game = doppelkopf("ddv")
    state = game.new_state(hands=complete(game, {0: "CQ CQ H10 SQ HQ DJ DA DA CA SA HA H9"}), dealer=3)
    for text in ("vorbehalt", "gesund", "vorbehalt", "gesund", "pass"):
        state.apply(text)
    rng = random.Random(7)
    for s in (1, 2, 3):
        sampler = sampler_of(state, s)
        for _ in range(20):
            world = sampler.sample(rng)
            assert world.game.deck.cards(world.hand_mask(0)).count(Card.parse("CQ")) == 2
    check_all_seats(state, rng, worlds=3)
    state.apply("solo damen")  # seat 2's question cannot be passed: it names a solo
    check_all_seats(state, rng, worlds=3)


def test_reservation_query_ignores_reservations_the_options_leave_out() -> None:
    """§3.2 query order with ``throw_before_solo`` (§4.6), poverty off (§4.5 is a [VAR]): a poor-looking hand proves nothing.

    Seats 0 and 1 reserve and seat 0 is asked first: seat 0 may throw in,
    or neither may.  That joint condition is checked on each reserver's
    reservations; it used to test poverty too, which ``armut=false`` leaves
    out, and so excluded every deal giving seat 1 three trumps or fewer.
    """
    game = doppelkopf("ddv", schmeissen="five_nines", throw_before_solo=True)
    hands = {1: "CA C10 C9 SA S10 S10 SK SQ S9 HA D9 D9", 0: "C10 CK CQ CJ SJ H10 HJ H9 DA D10 DQ DJ"}
    state = game.new_state(hands=complete(game, hands), dealer=3)
    for text in ("vorbehalt", "vorbehalt", "gesund", "gesund"):
        state.apply(text)
    assert state.current_player() == 0
    check_all_seats(state, random.Random(15))


# ------------------------------------------------------------------ uniform law


def test_re_call_frequencies_match_the_count_by_hand() -> None:
    # §4.1, §5.1: seat 1 says Re, so it holds a queen of clubs; seat 0 holds none.
    # Of the C(36; 12,12,12) ways to deal the 36 unseen cards, those with seat 1 holding both
    # queens number C(34,10)C(24,12); with one queen, 2 C(34,11) 2 C(23,11).  The ratio is 11 : 48,
    # the lone other queen equally often with seat 2 or 3: P = 11/59, 24/59, 24/59.
    # The single unseen copy of SA lies with seat 1 with P = (11/59*10 + 48/59*11)/34 = 319/1003.
    game = doppelkopf("ddv")
    hands = complete(game, {0: "SA S10 S10 SK SK S9 HA HA HK HK H9 H9", 1: "CQ DA D10 DK D9 CA C10 CK C9 H10 SQ HQ"})
    state = game.new_state(hands=hands, dealer=3)
    for text in ("gesund", "gesund", "gesund", "gesund", "play SA", "announce re"):
        state.apply(text)
    sampler = sampler_of(state, 0)
    rng = random.Random(8)
    n = 3000
    queens: Counter[tuple[int, ...]] = Counter()
    ace: Counter[int] = Counter()
    cq, sa = Card.parse("CQ"), Card.parse("SA")
    for _ in range(n):
        world = sampler.sample(rng)
        held = [world.game.deck.cards(world.hand_mask(s)) for s in range(4)]
        queens[tuple(hand.count(cq) for hand in held[1:])] += 1
        ace[next(s for s in (1, 2, 3) if sa in held[s])] += 1
    assert chi2(queens, {(2, 0, 0): Fraction(11, 59), (1, 1, 0): Fraction(24, 59), (1, 0, 1): Fraction(24, 59)}, n) < CHI2_0001[2]
    assert chi2(ace, {1: Fraction(319, 1003), 2: Fraction(342, 1003), 3: Fraction(342, 1003)}, n) < CHI2_0001[2]


def test_void_frequencies_match_the_count_by_hand() -> None:
    # §6.1: seat 3 ruffed a club lead, so it holds no club (A, 10, K, 9; queens and jacks are trumps).
    # Unseen clubs then split evenly between seats 1 and 2; every other unseen card lies with seat 3
    # with P = 11 / (33 - u), u = number of unseen clubs, and with seat 1 or 2 with the rest halved.
    game = doppelkopf("ddv")
    hands = complete(
        game,
        {
            0: "CA C9 SA S10 SK S9 HA HK H9 D9 DK SJ",
            1: "C10 C10 CK CQ DA D10 HQ SQ S9 HK H9 DJ",
            2: "CK CA C9 SA S10 SK HA H10 H10 DQ DQ CJ",
        },
    )
    state = game.new_state(hands=hands, dealer=3)
    for text in ("gesund", "gesund", "gesund", "gesund", "play CA", "play C10", "play CK"):
        state.apply(text)
    state.apply(next(a for a in state.legal_actions() if Card.parse(a.text.split()[1]) not in parse_cards("CA CK C10 C9")))
    assert len(state.tricks) == 1
    sampler = sampler_of(state, 0)
    rng = random.Random(9)
    n = 3000
    club, plain = Card.parse("C9"), Card.parse("SJ")  # one unseen copy each
    seen = [c for c in state.observation(0).hand] + [c for t in state.observation(0).tricks for c in t.cards]
    clubs = parse_cards("CA CA C10 C10 CK CK C9 C9")
    unseen_clubs = len(clubs) - sum(min(seen.count(c), clubs.count(c)) for c in set(clubs))
    where_club: Counter[int] = Counter()
    where_plain: Counter[int] = Counter()
    for _ in range(n):
        world = sampler.sample(rng)
        held = {s: world.game.deck.cards(world.hand_mask(s)) for s in (1, 2, 3)}
        assert not any(c in clubs for c in held[3])
        where_club[next(s for s in (1, 2, 3) if club in held[s])] += 1
        where_plain[next(s for s in (1, 2, 3) if plain in held[s])] += 1
    q = Fraction(11, 33 - unseen_clubs)
    assert chi2(where_club, {1: Fraction(1, 2), 2: Fraction(1, 2)}, n) < CHI2_0001[1]
    assert chi2(where_plain, {1: (1 - q) / 2, 2: (1 - q) / 2, 3: q}, n) < CHI2_0001[2]


# ------------------------------------------------------------------ no leak


def test_sampler_reads_only_the_observation() -> None:
    # Two real deals that differ only in how two hidden cards lie give seat 0 the same observation:
    # the sampler must then give the same worlds for the same random numbers.
    game = doppelkopf("ddv")
    rng = random.Random(10)
    for _ in range(50):
        state = game.new_state(seed=rng.getrandbits(64), dealer=3)
        for _ in range(4):
            state.apply("gesund")
        while len(state.tricks) < 3:
            state.apply(rng.choice([c for c in state.legal_codes() if c < 24]))
        twin = _swapped_twin(state, seat=0, rng=rng)
        if twin is not None:
            break
    else:  # pragma: no cover - the search above always finds a pair
        pytest.fail("no swap found")
    assert twin.hand_mask(1) != state.hand_mask(1)
    obs, obs_twin = state.observation(0), twin.observation(0)
    assert obs.to_json() == obs_twin.to_json()
    for seed in range(20):
        a = sample_world(game, obs, random.Random(seed))
        b = sample_world(game, obs_twin, random.Random(seed))
        assert a.dealt == b.dealt and a.history == b.history
    # A copy of the observation (no shared objects with any state) gives the same worlds too.
    copy = replace(obs, public=dict(obs.public), private=dict(obs.private))
    assert sample_world(game, copy, random.Random(3)).dealt == sample_world(game, obs, random.Random(3)).dealt


def _swapped_twin(state: DoppelkopfState, seat: int, rng: random.Random) -> DoppelkopfState | None:
    """The deal with one unplayed card of seat 1 and one of seat 2 swapped, if seat 0 cannot tell."""
    game = state.game
    piles = [game.deck.cards(m) for m in state.dealt]
    mine = game.deck.cards(state.hand_mask(1))
    theirs = game.deck.cards(state.hand_mask(2))
    for x in mine:
        for y in theirs:
            if x == y:
                continue
            swapped = [list(p) for p in piles]
            swapped[1].remove(x)
            swapped[1].append(y)
            swapped[2].remove(y)
            swapped[2].append(x)
            twin = game.new_state(hands=swapped, dealer=state.dealer, context=state.context)
            try:
                for _actor, code in state.history:
                    twin.apply(code)
            except Exception:
                continue
            if twin.observation(seat).to_json() == state.observation(seat).to_json():
                return twin
    return None


# ------------------------------------------------------------------ the allocation


def test_allocation_counts_and_draws_uniformly() -> None:
    # Items 0..3 into two places of two; item 0 only in place 0; place 0 holds item 1 or 2.
    constraints = Constraints()
    constraints.bound(1, 0b0110, 0, lo=1)
    alloc = Allocation([2, 2], [0, 1, 2, 3], {0: 0b01}, constraints.specs(), constraints.predicate())
    assert alloc.count() == 2  # place 0 = {0, 1} or {0, 2}
    rng = random.Random(11)
    seen = Counter(tuple(sorted(alloc.sample(rng)[0])) for _ in range(2000))
    assert set(seen) == {(0, 1), (0, 2)}
    assert chi2(seen, {(0, 1): Fraction(1, 2), (0, 2): Fraction(1, 2)}, 2000) < CHI2_0001[1]
    assert alloc.admits([[0, 2], [1, 3]]) and not alloc.admits([[0, 3], [1, 2]]) and not alloc.admits([[1, 2], [0, 3]])


def test_contradictory_constraints_raise() -> None:
    constraints = Constraints()
    constraints.bound(0b01, 0b11, 0, lo=2)
    alloc = Allocation([1, 1], [0, 1], None, constraints.specs(), constraints.predicate())
    assert alloc.count() == 0
    with pytest.raises(SamplingError):
        alloc.sample(random.Random(0))


def test_observation_of_another_game_is_refused() -> None:
    state = doppelkopf("ddv").new_state(seed=1)
    with pytest.raises(SamplingError):
        prepare_sampler(doppelkopf("ddv_no_nines"), state.observation(0))


@pytest.mark.parametrize(
    "context",
    [{"owes_solo": [True, False, False, True], "multiplier": 2}, {"forced_soloist": 1}, {"owes_solo": [False] * 4}],
    ids=["owes-and-bock", "vorfuehrung", "nobody-owes"],
)
def test_session_context_is_reproduced(context: dict[str, Any]) -> None:
    # §2.2, §2.3, §7.8: compulsory solos owed, a forced solo and bock multipliers come back in every world.
    game = doppelkopf("ddv")
    rng = random.Random(13)
    state = game.new_state(seed=99, dealer=3, context=context)
    while len(state.tricks) < 2:
        check_all_seats(state, rng, worlds=1)
        state.apply(rng.choice(state.legal_codes()))
    world = sample_world(game, state.observation(2), rng)
    assert world.context.get("forced_soloist") == context.get("forced_soloist")
    assert isinstance(world, DoppelkopfState) and world.multiplier == state.multiplier and world.owes == state.owes


@pytest.mark.parametrize("options", [{"schweine": "holder_choice"}, {"schweine": "both", "schweine_announce": "on_play"}])
def test_schweine_the_table_learns_of_late_leave_their_holder_possible(options: dict[str, Any]) -> None:
    # §1.3 [VAR] holder_choice / on_play: before the show nobody's Schweine are named, yet a hand may hold both
    # diamond aces; the samplers (the holder's own included) admit the real world and draw worlds with a hidden holder.
    game = doppelkopf("ddv", **options)
    state = game.new_state(hands=complete(game, {2: "H10 H10 DA DA D10 D10 HJ HJ C9 S9 DJ SK"}), dealer=3)
    for _ in range(4):
        state.apply("gesund")
    rng = random.Random(29)
    for _ in range(2):
        state.apply(rng.choice([c for c in state.legal_codes() if c < 24]))
    check_all_seats(state, rng, worlds=2)
    da = Card.parse("DA")
    sampler = sampler_of(state, 0)
    worlds = [sampler.sample(rng) for _ in range(40)]
    assert any(w.game.deck.cards(w.hand_mask(s)).count(da) == 2 for w in worlds for s in (1, 2, 3))
    if options["schweine"] == "holder_choice":
        assert state.current_player() == 2
        state.apply("schweine")
        check_all_seats(state, rng, worlds=2)


def test_worlds_after_a_genscher_and_a_void_one() -> None:
    # decision 0041: a Genscher that stands shows that nobody was dealt both CQ; a void one (a silent
    # wedding) shows its player, who then holds both CQ in every world
    from stich.core.registry import make_game

    game = make_game("doppelkopf", "ddv", {"genscher": True})
    rest = "DJ DA DA D9 D9 C9 S9 SK HK HK H9 H9"
    kings = "H10 H10 DK DK D10 D10 HJ HJ C9 S9 DJ SK"
    rng = random.Random(41)
    for first, second, kind in (
        ("CQ SQ HQ DQ CJ SJ CA C10 CK SA S10 HA", "CQ SQ HQ DQ CJ SJ CA C10 CK SA S10 HA", "genscher"),
        ("CQ CQ HQ DQ CJ SJ CA C10 CK SA S10 HA", "SQ SQ HQ DQ CJ SJ CA C10 CK SA S10 HA", "stille_hochzeit"),
    ):
        state = game.new_state(hands=[parse_cards(t) for t in (first, second, kings, rest)], dealer=3)
        for text in ("gesund", "gesund", "gesund", "gesund", "play DQ", "play DQ", "genscher 3"):
            state.apply(text)
        assert state.observation(1).public["kind"] == kind
        assert isinstance(state, DoppelkopfState)
        check_all_seats(state, rng, worlds=6)
