"""Conformance suite: seeded random Doppelkopf deals under every preset and many random option sets.

At every step (DESIGN, "Tests that make a rules engine trustworthy"):

* cards are conserved: the hands, the cards played and the poverty cards in
  transit hold every card of the pack exactly once;
* a legal action exists until the deal is over, and none after;
* observations leak no hidden card: built from first principles, a seat may
  know its own hand, the cards played, the cards it handed over or received
  in a poverty, and a hand shown when thrown in; the observation's JSON names
  no other face;
* the observation's legal actions are the state's, for the seat to move only;
* every few steps a clone is independent: changing it leaves the original
  alone, and both continue identically.

At the end: the deal record survives JSON and replays to the same result, the
scores are zero-sum, and in a played deal the active seats' entries are all
even or all odd while an idle dealer scores 0 (dossier §7.6).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re
from typing import Any

import pytest

from doppelkopf_contradictions import contradiction
from stich.cards import Card, parse_card
from stich.core.game import TERMINAL
from stich.core.records import deal_record, replay_deal
from stich.core.registry import make_game
from stich.errors import IllegalActionError, OptionError
from stich.games.doppelkopf.game import Doppelkopf
from stich.games.doppelkopf.state import DoppelkopfState

TABLE = Doppelkopf.option_table
PRESETS = sorted(TABLE.presets)
CLONE_EVERY = 4
MAX_STEPS = 400

# ----------------------------------------------------------------------------- configurations


def random_call_min_cards(rng: random.Random) -> str:
    """Five card counts in 1..12 that never rise (a valid ``call_min_cards``)."""
    counts = sorted((rng.randint(1, 12) for _ in range(5)), reverse=True)
    return "/".join(map(str, counts))


def random_options(rng: random.Random) -> dict[str, Any]:
    """One value for every option of the table, drawn with ``rng``."""
    values: dict[str, Any] = {}
    for info in TABLE.infos:
        if info.name == "call_min_cards":
            values[info.name] = random_call_min_cards(rng)
        elif info.type == "bool":
            values[info.name] = rng.random() < 0.5
        elif info.type == "int":
            low = info.minimum if info.minimum is not None else 0
            high = info.maximum if info.maximum is not None else low + 20
            values[info.name] = rng.randint(low, high)
        elif info.type == "set":
            choices = info.choices or ()
            values[info.name] = frozenset(c for c in choices if rng.random() < 0.5)
        else:
            values[info.name] = rng.choice(info.choices or ("",))
    return values


def random_option_sets(count: int, seed: int = 20260221) -> tuple[list[dict[str, Any]], int]:
    """``count`` accepted random option sets; every rejected draw must be a documented contradiction."""
    rng = random.Random(seed)
    accepted: list[dict[str, Any]] = []
    rejected = 0
    while len(accepted) < count:
        values = random_options(rng)
        expected = contradiction(values)
        try:
            make_game("doppelkopf", "ddv", values)
        except OptionError as exc:
            assert expected is not None, f"undocumented rejection: {exc}"
            assert expected in str(exc)
            rejected += 1
            continue
        assert expected is None, f"accepted a documented contradiction ({expected})"
        accepted.append(values)
    return accepted, rejected


RANDOM_SETS, RANDOM_REJECTED = random_option_sets(36)
PRESET_CONFIGS = [(preset, {"players": players, "nines": nines}) for preset in PRESETS for players in (4, 5) for nines in (True, False)]


# ----------------------------------------------------------------------------- a random player


def choose(state: DoppelkopfState, rng: random.Random) -> int:
    """A legal action code: mostly quiet, sometimes a reservation or a call."""
    actions = state.legal_actions()
    kinds = {a.kind for a in actions}
    calls = [a for a in actions if a.kind == "announce"]
    if calls and rng.random() < 0.08:
        return rng.choice(calls).code
    if "vorbehalt" in kinds and "gesund" in kinds:
        # steer towards the rarer game types: a hand that could name more than a solo reserves more often
        rare = len(state._eligible_tiers(state.current_player())) > 1
        word = "vorbehalt" if rng.random() < (0.6 if rare else 0.1) else "gesund"
        return next(a.code for a in actions if a.kind == word)
    special = [a for a in actions if a.kind in ("hochzeit", "armut", "schmeissen")]
    if special and rng.random() < 0.6:
        return rng.choice(special).code
    quiet = [a for a in actions if a.kind != "announce"] or actions
    return rng.choice(quiet).code


def random_context(game: Doppelkopf, dealer: int, rng: random.Random) -> dict[str, Any]:
    n = game.num_seats
    context: dict[str, Any] = {"owes_solo": [rng.random() < 0.5 for _ in range(n)], "multiplier": rng.choice((1, 1, 2, 4))}
    if rng.random() < 0.1:
        context["forced_soloist"] = rng.choice([s for s in range(n) if n == 4 or s != dealer])
    return context


# ----------------------------------------------------------------------------- per-step checks


def played_mask(state: DoppelkopfState) -> int:
    mask = 0
    for _seats, cards, _winner in state.tricks:
        for index in cards:
            assert not mask >> index & 1, "a card was played twice"
            mask |= 1 << index
    for index in state.trick_cards:
        assert not mask >> index & 1, "a card was played twice"
        mask |= 1 << index
    return mask


def in_transit(state: DoppelkopfState) -> int:
    """Poverty cards the giver has handed over and nobody has taken in yet."""
    return state.armut_cards if state.armut_taker is None else 0


def check_conservation(state: DoppelkopfState) -> None:
    parts = [state.hand_mask(seat) for seat in range(state.game.num_seats)] + [played_mask(state), in_transit(state)]
    union = 0
    for part in parts:
        assert not union & part, "a card is in two places at once"
        union |= part
    assert union == state.game.deck.full_mask, "cards were lost or created"


CARD_WORD = re.compile(r"(?<![A-Za-z0-9_])([CSHD](?:10|[AKQJ9]))(?![A-Za-z0-9_])")
"""A Doppelkopf card written as a word of its own, anywhere in JSON text (keys and values)."""


def card_tokens(text: str) -> set[Card]:
    """Every card face named in ``text``."""
    return {parse_card(word) for word in CARD_WORD.findall(text)}


def knowable_faces(state: DoppelkopfState, seat: int) -> set[Card]:
    """Faces ``seat`` may know, from first principles."""
    deck = state.game.deck
    known = state.hand_mask(seat) | played_mask(state)
    if seat in (state.poor, state.armut_taker):
        known |= state.armut_cards | state.armut_returned
    if state.thrown is not None and state.thrown[0] != "armut_not_taken":
        known |= state.hand_mask(state.thrown[1])
    # announced Schweine / Superschweine: the table knows the holder's two cards (§1.3)
    for holder, f, shown in (
        (state.schweine_seat, state.schwein_face, state.schweine_shown),
        (state.superschweine_seat, state.super_face, state.super_shown),
    ):
        if shown and holder is not None and f is not None:
            known |= state.hand_mask(holder) & ((1 << f) | (1 << (f + 24)))
    return set(deck.cards(known))


def check_observations(state: DoppelkopfState) -> None:
    to_move = state.current_player()
    legal = tuple(state.legal_actions())
    for seat in range(state.game.num_seats):
        obs = state.observation(seat)
        text = json.dumps(obs.to_json())
        assert sorted(obs.hand) == sorted(state.game.deck.cards(state.hand_mask(seat)))
        leaked = card_tokens(text) - knowable_faces(state, seat)
        assert not leaked, f"seat {seat} sees {sorted(c.text for c in leaked)}"
        assert obs.to_move == to_move
        assert obs.legal_actions == (legal if seat == to_move else ())


def check_legal_exists(state: DoppelkopfState) -> None:
    if state.is_terminal():
        assert state.current_player() == TERMINAL
        assert state.legal_actions() == []
    else:
        assert state.current_player() != TERMINAL
        assert state.legal_actions(), f"no legal action in phase {state.phase_name}"


def snapshot(state: DoppelkopfState) -> dict[str, Any]:
    return {k: copy.deepcopy(v) for k, v in vars(state).items() if k not in ("game", "_result")}


def step_with_clone_check(state: DoppelkopfState, code: int) -> None:
    """Apply ``code`` to a clone first: the original must not move; then both must agree."""
    before = snapshot(state)
    twin = state.clone()
    twin.apply(code)
    assert snapshot(state) == before, "changing a clone changed the original"
    state.apply(code)
    assert snapshot(state) == snapshot(twin), "a clone and its original diverged"


def check_end(state: DoppelkopfState) -> None:
    result = state.result()
    n = state.game.num_seats
    assert len(result.scores) == n
    counting = state.game.options.counting
    if counting == "plus_minus":
        assert sum(result.scores) == 0, f"not zero-sum: {result.scores}"
    else:  # §7.8 counting plus / minus: one side books, with the sign of its mode
        sign = 1 if counting == "plus" else -1
        assert all(sign * entry >= 0 for entry in result.scores), f"counting={counting} booked {result.scores}"
    active = [s for s in range(n) if n == 4 or s != state.dealer]
    if n == 5:
        assert result.scores[state.dealer] == 0
    if not result.breakdown.get("redeal") and counting == "plus_minus":
        assert len({result.scores[s] % 2 for s in active}) == 1, f"parity broken: {result.scores}"
    with pytest.raises(IllegalActionError):
        state.apply(0)
    record = json.loads(json.dumps(deal_record(state)))
    replayed = replay_deal(record)
    assert replayed.history == state.history
    assert replayed.result().to_json() == result.to_json()


def run_deal(game: Doppelkopf, seed: int, rng: random.Random) -> DoppelkopfState:
    dealer = rng.randrange(game.num_seats)
    state = game.new_state(seed=seed, dealer=dealer, context=random_context(game, dealer, rng))
    mid_record_at = rng.randrange(1, 40)
    for step in range(MAX_STEPS):
        check_conservation(state)
        check_legal_exists(state)
        check_observations(state)
        if state.is_terminal():
            break
        if step == mid_record_at:  # an unfinished deal's record replays to the same position
            replayed = replay_deal(json.loads(json.dumps(deal_record(state))))
            assert (replayed.history, replayed.legal_codes()) == (state.history, state.legal_codes())
        code = choose(state, rng)
        if step % CLONE_EVERY == 0:
            step_with_clone_check(state, code)
        else:
            state.apply(code)
    else:
        pytest.fail("the deal did not end")
    check_end(state)
    return state


def run_many(game: Doppelkopf, deals: int, seed: int) -> list[DoppelkopfState]:
    rng = random.Random(seed)
    return [run_deal(game, rng.getrandbits(64), rng) for _ in range(deals)]


# ----------------------------------------------------------------------------- the tests


PRESET_IDS = [f"{p}-{e['players']}p-{'48' if e['nines'] else '40'}" for p, e in PRESET_CONFIGS]


@pytest.mark.parametrize("index", range(len(PRESET_CONFIGS)), ids=PRESET_IDS)
def test_presets(index: int) -> None:
    preset, extra = PRESET_CONFIGS[index]
    game = make_game("doppelkopf", preset, extra)
    assert isinstance(game, Doppelkopf)
    states = run_many(game, 14, seed=1000 + index)
    assert any(s.tricks for s in states), "no deal was played out"


@pytest.mark.parametrize("index", range(len(RANDOM_SETS)))
def test_random_option_sets(index: int) -> None:
    game = make_game("doppelkopf", "ddv", RANDOM_SETS[index])
    assert isinstance(game, Doppelkopf)
    run_many(game, 8, seed=index)


LATE_OPTIONS: dict[str, Any] = {
    "knocking": True,
    "timing_mode": "table_cards",
    "dullen_in_color_solo": "short_suit",
    "schweine": "holder_choice",
    "superschweine": True,
    "superschweine_card": "ten",
    "schweine_in_solo": "trump_suit_aces",
    "superschweine_in_solo": True,
    "second_dulle_beats_first": True,
    "second_dulle_in_solo": True,
    "sp_dulle_gefangen": True,
    "specials_in_solo": True,
}
"""Issue 29's last options (decisions 0002, 0027, 0028) all switched on at once."""


@pytest.mark.parametrize("extra", [{"players": 4}, {"players": 5, "nines": False}], ids=["4p-48", "5p-40"])
def test_late_issue_29_options(extra: dict[str, Any]) -> None:
    game = make_game("doppelkopf", "ddv", {**LATE_OPTIONS, **extra})
    assert isinstance(game, Doppelkopf)
    states = run_many(game, 24, seed=2929)
    actions = {game.actions.actions[code].text for s in states for _seat, code in s.history}
    assert {"klopfen", "schweine"} <= actions  # the random player used the new actions too


def test_random_option_sets_are_varied() -> None:
    # the drawn sets cover both table sizes, both packs, and reject some contradictions along the way
    assert len(RANDOM_SETS) >= 30
    assert RANDOM_REJECTED > 0
    assert {v["players"] for v in RANDOM_SETS} == {4, 5}
    assert {v["nines"] for v in RANDOM_SETS} == {True, False}
    # issue 29's options take other values than their defaults somewhere among the sets
    assert {v["counting"] for v in RANDOM_SETS} == {"plus_minus", "plus", "minus"}
    assert {v["schweine"] for v in RANDOM_SETS} >= {"both", "first_played", "second_if_first_won"}
    assert {v["hochzeit_rule"] for v in RANDOM_SETS} >= {"named_suit"}
    for name in ("genscher", "compulsory_call_first_trick_30", "sp_herzstich", "bock_applies_to_specials", "solo_always_triple"):
        assert any(v[name] for v in RANDOM_SETS), name
    assert any(v["call_min_cards"] != "11/10/9/8/7" for v in RANDOM_SETS)
    assert any(v["call_last_min_cards"] > 0 for v in RANDOM_SETS)
    assert any(v["repeat_if_value_le"] >= 0 for v in RANDOM_SETS)
    assert any(v["schweine_in_solo"] != "off" for v in RANDOM_SETS)
    for name, default in (("timing_mode", "cards_in_hand"), ("dullen_in_color_solo", "hearts"), ("superschweine_card", "nine")):
        assert any(v[name] != default for v in RANDOM_SETS), name
    assert any(v["knocking"] for v in RANDOM_SETS)


def test_suite_reaches_every_kind_of_deal() -> None:
    # the random player reaches every game kind and phase, so the checks above run on all of them
    wanted_kinds = {"normal", "solo", "stille_hochzeit", "hochzeit", "hochzeit_solo", "armut", "thrown", "genscher"}
    wanted_phases = {"reservation", "declare", "armut_give", "armut_offer", "armut_return", "play", "end"}
    extra = {
        "armut": True,
        "armut_max_trumps": 3,
        "armut_two_poor": "play",
        "schmeissen": "max_trump_le_da",
        "hochzeit_window_tricks": 1,
        "stille_hochzeit": False,
        "genscher": True,
    }
    games = [make_game("doppelkopf", "house_classic"), make_game("doppelkopf", "ddv", extra)]
    kinds: set[str] = set()
    phases: set[str] = set()
    rng = random.Random(7)
    for number in range(600):
        game = games[number % 2]
        assert isinstance(game, Doppelkopf)
        state = game.new_state(seed=rng.getrandbits(64), dealer=rng.randrange(4), context={"owes_solo": [rng.random() < 0.5] * 4})
        while not state.is_terminal():
            phases.add(state.phase_name)
            state.apply(choose(state, rng))
        phases.add(state.phase_name)
        kinds.add("thrown" if state.thrown else state.kind)
        if kinds >= wanted_kinds and phases >= wanted_phases:
            break
    assert kinds >= wanted_kinds
    assert phases >= wanted_phases


# ----------------------------------------------------------------------------- the checkers catch planted faults


def _mid_deal() -> DoppelkopfState:
    game = make_game("doppelkopf", "ddv")
    assert isinstance(game, Doppelkopf)
    state = game.new_state(seed=99, dealer=0)
    rng = random.Random(99)
    for _ in range(10):
        state.apply(choose(state, rng))
    return state


def test_leak_check_catches_a_peek(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _mid_deal()
    check_observations(state)
    honest = DoppelkopfState.observation

    def peeking(self: DoppelkopfState, seat: int) -> Any:
        obs = honest(self, seat)
        neighbour = (seat + 1) % self.game.num_seats
        return dataclasses.replace(obs, private={**obs.private, "peek": [c.text for c in self.game.deck.cards(self.hand_mask(neighbour))]})

    monkeypatch.setattr(DoppelkopfState, "observation", peeking)
    with pytest.raises(AssertionError, match="sees"):
        check_observations(state)


def test_conservation_check_catches_a_lost_card() -> None:
    state = _mid_deal()
    check_conservation(state)
    seat = state.current_player()
    lowest = state.hands[seat] & -state.hands[seat]
    state.hands[seat] ^= lowest
    with pytest.raises(AssertionError, match="lost"):
        check_conservation(state)
    state.hands[(seat + 1) % 4] |= lowest
    state.hands[seat] |= lowest
    with pytest.raises(AssertionError, match="two places"):
        check_conservation(state)


def test_clone_check_catches_a_shared_list(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _mid_deal()
    step_with_clone_check(state.clone(), choose(state.clone(), random.Random(1)))
    honest = DoppelkopfState.clone

    def shallow(self: DoppelkopfState) -> DoppelkopfState:
        twin = honest(self)
        twin.history = self.history  # the bug a careless clone would have
        return twin

    monkeypatch.setattr(DoppelkopfState, "clone", shallow)
    with pytest.raises(AssertionError, match="clone"):
        step_with_clone_check(state, choose(state, random.Random(1)))
