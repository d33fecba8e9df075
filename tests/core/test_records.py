"""Game records (stich.core.records): round trips, tamper detection with precise positions, schema agreement, JSON Lines.

The deals are Doppelkopf deals played with seeded random legal actions, so
every test is reproducible.  Tampering tests change one thing in a good record
and check that replay stops at exactly that field (``where``).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stich.core.game import DealResult, Game, State
from stich.core.records import (
    DEAL_KEYS,
    FORMAT_VERSION,
    LIST_KEYS,
    deal_record,
    dumps_record,
    list_record,
    load_schema,
    play_session,
    read_jsonl,
    replay_any,
    replay_deal,
    replay_list,
    session_class,
    validate_record,
    write_jsonl,
)
from stich.core.registry import game_from_string
from stich.core.session import Session, SheetRow
from stich.errors import RecordError

PRESETS = (
    "doppelkopf",
    "doppelkopf(preset=ddv_no_nines)",
    "doppelkopf(preset=house_classic)",
    "doppelkopf(players=5,nines=false)",
    "doppelkopf(players=5)",
)
SEEDS_PER_PRESET = 40


# ------------------------------------------------------------------- helpers
def chooser(seed: int) -> Callable[[State], Any]:
    """A seeded random player that mostly says "gesund", so normal games, weddings and poverty occur, not only solos."""
    rng = random.Random(seed)

    def choose(state: State) -> Any:
        legal = state.legal_actions()
        texts = [a.text for a in legal]
        if "gesund" in texts and rng.random() < 0.8:
            return "gesund"
        plays = [a for a in legal if a.kind == "play"]
        if plays and rng.random() < 0.9:
            return rng.choice(plays)
        return rng.choice(legal)

    return choose


def play(game_string: str, seed: int, *, dealer: int | None = None, steps: int | None = None) -> State:
    """A deal dealt from ``seed`` and played by :func:`chooser` to the end (or for ``steps`` actions)."""
    game = game_from_string(game_string)
    state = game.new_state(seed=seed, dealer=seed % game.num_seats if dealer is None else dealer)
    choose = chooser(seed)
    while not state.is_terminal() and (steps is None or len(state.history) < steps):
        state.apply(choose(state))
    return state


@cache
def _record_text(game_string: str, seed: int) -> str:
    return dumps_record(deal_record(play(game_string, seed)))


def good(game_string: str = "doppelkopf", seed: int = 11) -> dict[str, Any]:
    """A fresh copy (parsed from JSON text) of a finished deal's record."""
    record: dict[str, Any] = json.loads(_record_text(game_string, seed))
    return record


@cache
def _list_text(game_string: str, seed: int, deals: int) -> str:
    game = game_from_string(game_string)
    session = session_class(game)(game, seed, deals)
    states = play_session(session, chooser(seed))
    return dumps_record(list_record(session, states, players=[f"P{i}" for i in range(game.num_seats)]))


def good_list(game_string: str = "doppelkopf", seed: int = 5, deals: int = 6) -> dict[str, Any]:
    """A fresh copy of a finished list record."""
    record: dict[str, Any] = json.loads(_list_text(game_string, seed, deals))
    return record


def where_of(record: Any, replay: Callable[[Any], Any] = replay_any) -> str:
    """The ``where`` of the RecordError that replaying ``record`` raises."""
    with pytest.raises(RecordError) as info:
        replay(record)
    return info.value.where


@cache
def _schema_validator() -> jsonschema.Draft202012Validator:
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def schema_ok(record: Any) -> bool:
    """Whether the shipped JSON Schema accepts ``record``."""
    return bool(_schema_validator().is_valid(record))


def runtime_ok(record: Any) -> bool:
    """Whether :func:`validate_record` accepts ``record``."""
    try:
        validate_record(record)
    except RecordError:
        return False
    return True


def first_play(record: Mapping[str, Any]) -> int:
    """Index of the first card play in a record's actions."""
    return next(i for i, (_, text) in enumerate(record["actions"]) if text.startswith("play "))


def state_before(record: Mapping[str, Any], index: int) -> State:
    """The replayed state just before action ``index``."""
    truncated = dict(record, actions=record["actions"][:index], result=None)
    return replay_deal(truncated)


# --------------------------------------------------------------- round trips
@pytest.mark.parametrize("game_string", PRESETS)
def test_round_trip_replays_to_the_same_result(game_string: str) -> None:
    # Record -> JSON text -> parse -> replay gives the same actions and result, and re-recording is identical.
    kinds = set()
    for seed in range(SEEDS_PER_PRESET):
        state = play(game_string, seed)
        record = deal_record(state)
        text = dumps_record(record)
        parsed = json.loads(text)
        replayed = replay_deal(parsed)
        assert replayed.is_terminal()
        assert replayed.history == state.history
        assert replayed.result() == state.result()
        assert deal_record(replayed) == parsed
        assert schema_ok(parsed)
        kinds.add(parsed["result"]["kind"])
    assert len(kinds) >= 2, "the random player should reach more than one kind of game"


def test_deal_record_fields() -> None:
    state = play("doppelkopf(players=5,nines=false)", 3, dealer=2)
    record = deal_record(state, players=["Ann", "Ben", "Cem", "Dora", "Ede"], meta={"bots": ("random",) * 5})
    assert list(record)[: len(DEAL_KEYS)] == list(DEAL_KEYS)
    assert record["format"] == FORMAT_VERSION
    assert record["game"] == "doppelkopf(preset=ddv,players=5,nines=false)"
    assert record["rules_version"] == state.game.rules_version
    assert (record["seed"], record["dealer"]) == (3, 2)
    # The idle dealer at a five-player table holds no cards; the others 10 each (no nines).
    assert [len(h) for h in record["deal"]] == [10, 10, 0, 10, 10]
    assert not any(card.endswith("9") for hand in record["deal"] for card in hand)
    # Hands are written in the pack's face order (clubs A 10 K Q J, spades..., both copies together).
    order = [c.text for c in state.game.deck.faces]
    for hand in record["deal"]:
        assert hand == sorted(hand, key=order.index)
    assert record["actions"][0] == [3, state.game.actions[state.history[0][1]].text]
    assert record["result"]["scores"] == list(state.result().scores)
    assert record["players"] == ["Ann", "Ben", "Cem", "Dora", "Ede"]
    assert record["meta"] == {"bots": ["random"] * 5}


def test_deal_record_rejects_a_wrong_number_of_players() -> None:
    with pytest.raises(ValueError, match="4 names"):
        deal_record(play("doppelkopf", 1), players=["a", "b"])


@pytest.mark.parametrize("steps", [0, 3, 20])
def test_unfinished_deal_round_trips(steps: int) -> None:
    state = play("doppelkopf", 8, steps=steps)
    assert not state.is_terminal()
    record = json.loads(dumps_record(deal_record(state)))
    assert record["result"] is None
    replayed = replay_deal(record)
    assert replayed.history == state.history
    assert replayed.current_player() == state.current_player()


def test_explicit_deal_without_seed_replays() -> None:
    # A deal given card by card (seed null); each seat holds both copies of its faces.
    game = game_from_string("doppelkopf")
    faces = list(game.deck.faces)
    hands = [[f for f in faces[6 * s : 6 * s + 6] for _ in range(2)] for s in range(4)]
    state = game.new_state(hands=hands, dealer=1)
    choose = chooser(4)
    while not state.is_terminal():
        state.apply(choose(state))
    record = json.loads(dumps_record(deal_record(state)))
    assert record["seed"] is None
    assert replay_deal(record).result() == state.result()


@pytest.mark.parametrize("game_string", PRESETS)
def test_explicit_deal_with_shared_faces_replays(game_string: str) -> None:
    # A seeded deal written without its seed replays from the hands alone, though seats share faces.
    for seed in range(6):
        record = good(game_string, seed)
        record["seed"] = None
        replayed = replay_deal(record)
        assert replayed.seed is None
        assert replayed.result().to_json()["scores"] == record["result"]["scores"]
        assert deal_record(replayed)["deal"] == record["deal"]


# ------------------------------------------------------------ tampered deals
def test_changed_card_is_caught_against_the_seed() -> None:
    record = good()
    hand0, hand1 = record["deal"][0], record["deal"][1]
    j = next(j for j, card in enumerate(hand1) if card not in hand0)
    hand0[0], hand1[j] = hand1[j], hand0[0]
    with pytest.raises(RecordError, match="not the hand seed 11 deals to seat 0") as info:
        replay_deal(record)
    assert info.value.where == "deal[0]"


def test_duplicated_card_names_the_extra_copy() -> None:
    record = good()
    hand = record["deal"][2]
    j = next(j for j in range(1, len(hand)) if hand[j] != hand[j - 1])
    card = hand[j - 1]
    hand[j] = card
    # The error points at the card's third occurrence in reading order.
    positions = [f"deal[{s}][{k}]" for s, h in enumerate(record["deal"]) for k, c in enumerate(h) if c == card]
    with pytest.raises(RecordError, match=f"{card} is dealt 3 times") as info:
        replay_deal(record)
    assert info.value.where == positions[2]


def test_missing_card_is_named() -> None:
    record = good()
    removed = record["deal"][3].pop()
    with pytest.raises(RecordError, match=f"missing: {removed}$") as info:
        replay_deal(record)
    assert info.value.where == "deal"


def test_card_not_in_the_pack() -> None:
    record = good("doppelkopf(preset=ddv_no_nines)", 2)
    record["deal"][1][4] = "H9"
    with pytest.raises(RecordError, match="H9 is not in the pack") as info:
        replay_deal(record)
    assert info.value.where == "deal[1][4]"


def test_wrong_number_of_hands() -> None:
    record = good()
    record["deal"].append([])
    with pytest.raises(RecordError, match="needs 4, got 5") as info:
        replay_deal(record)
    assert info.value.where == "deal"


def test_dealer_out_of_range() -> None:
    record = good()
    record["dealer"] = 4
    assert where_of(record) == "dealer"


def test_other_dealer_does_not_match_the_seed() -> None:
    record = good()
    record["dealer"] = (record["dealer"] + 1) % 4
    assert where_of(record).startswith("deal[")


def test_illegal_action_carries_the_engines_reason() -> None:
    record = good()
    i = first_play(record) + 5
    before = state_before(record, i)
    seat = record["actions"][i][0]
    held = {c.text for c in before.game.deck.cards(before.hand_mask(seat))}
    foreign = next(t for h in record["deal"] for t in h if t not in held)
    code = before.game.actions.parse(f"play {foreign}").code
    reason = before.illegal_reason(code)
    assert reason is not None
    record["actions"][i][1] = f"play {foreign}"
    with pytest.raises(RecordError) as info:
        replay_deal(record)
    assert info.value.where == f"actions[{i}]"
    assert reason[0] in str(info.value)


def test_wrong_seat() -> None:
    record = good()
    seat = record["actions"][3][0]
    record["actions"][3][0] = (seat + 1) % 4
    with pytest.raises(RecordError, match=f"seat {seat} is to move") as info:
        replay_deal(record)
    assert info.value.where == "actions[3][0]"


@pytest.mark.parametrize("text", ["dance", "play X7", "announce never", " "])
def test_unknown_action_text(text: str) -> None:
    record = good()
    record["actions"][2][1] = text
    assert where_of(record) == "actions[2][1]"


def test_action_text_is_normalised_like_user_input() -> None:
    # Replay reads action text as the engine does: "Play h10" is "play H10".
    record = good()
    i = first_play(record)
    record["actions"][i][1] = "Play  " + record["actions"][i][1].split()[1].lower()
    assert replay_deal(record).is_terminal()


def test_truncated_actions_with_a_result() -> None:
    record = good()
    del record["actions"][-3:]
    with pytest.raises(RecordError, match="not over") as info:
        replay_deal(record)
    assert info.value.where == "actions"


def test_truncated_actions_without_a_result_is_an_unfinished_deal() -> None:
    record = good()
    del record["actions"][-3:]
    record["result"] = None
    assert not replay_deal(record).is_terminal()


def test_finished_deal_with_null_result() -> None:
    record = good()
    record["result"] = None
    assert where_of(record) == "result"


def test_action_after_the_end() -> None:
    record = good()
    n = len(record["actions"])
    record["actions"].append([0, "gesund"])
    with pytest.raises(RecordError, match="over after") as info:
        replay_deal(record)
    assert info.value.where == f"actions[{n}]"


def test_changed_score() -> None:
    record = good()
    record["result"]["scores"][0] += 1
    with pytest.raises(RecordError, match="the replay gives") as info:
        replay_deal(record)
    assert info.value.where == "result.scores"


def test_changed_breakdown_missing_and_extra_keys() -> None:
    record = good()
    record["result"]["value"] = record["result"]["value"] + 2
    assert where_of(record) == "result.value"
    record = good()
    del record["result"]["eyes"]
    assert where_of(record) == "result.eyes"
    record = good()
    record["result"]["bonus"] = 1
    assert where_of(record) == "result.bonus"
    record = good()
    record["result"]["multiplier"] = True  # true is not 1 in a record
    assert where_of(record) == "result.multiplier"


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ("skat", "unknown game 'skat'"),
        ("doppelkopf(foo=1)", "foo"),
        ("doppelkopf(preset=nope)", "nope"),
        ("doppelkopf(players=4", "not a game string"),
    ],
)
def test_wrong_game_string(game: str, message: str) -> None:
    record = good()
    record["game"] = game
    with pytest.raises(RecordError, match=message) as info:
        replay_deal(record)
    assert info.value.where == "game"


def test_wrong_rules_version() -> None:
    record = good()
    record["rules_version"] = 2
    with pytest.raises(RecordError, match="rules version 2") as info:
        replay_deal(record)
    assert info.value.where == "rules_version"


def test_players_must_match_the_seats() -> None:
    record = good()
    record["players"] = ["a", "b", "c"]
    assert where_of(record) == "players"


def test_bad_context_is_reported() -> None:
    record = good()
    record["context"] = {"multiplier": "lots"}
    assert where_of(record) == "context.multiplier"


def test_replay_functions_check_the_record_type() -> None:
    assert where_of(good(), replay_list) == "type"
    assert where_of(good_list(), replay_deal) == "type"


# ------------------------------------------------------ structure and schema
def _deal_base() -> dict[str, Any]:
    return good()


BAD_DEAL_FIELDS: list[tuple[str, Any, str]] = [
    ("format", "1", "format"),
    ("format", 2, "format"),
    ("format", True, "format"),
    ("type", 5, "type"),
    ("type", "hand", "type"),
    ("game", 5, "game"),
    ("game", "", "game"),
    ("rules_version", "1", "rules_version"),
    ("rules_version", 0, "rules_version"),
    ("rules_version", True, "rules_version"),
    ("stich_version", 1, "stich_version"),
    ("stich_version", None, "stich_version"),
    ("seed", "123", "seed"),
    ("seed", -1, "seed"),
    ("seed", 2**64, "seed"),
    ("seed", 1.5, "seed"),
    ("dealer", -1, "dealer"),
    ("dealer", "0", "dealer"),
    ("dealer", None, "dealer"),
    ("context", [], "context"),
    ("context", None, "context"),
    ("deal", {}, "deal"),
    ("deal", "CQ CQ", "deal"),
    ("deal", ["CQ"], "deal[0]"),
    ("deal", [["CQ", 5]], "deal[0][1]"),
    ("deal", [["cq"]], "deal[0][0]"),
    ("deal", [["H01"]], "deal[0][0]"),
    ("deal", [["T23"]], "deal[0][0]"),
    ("actions", {}, "actions"),
    ("actions", [[0]], "actions[0]"),
    ("actions", [[0, "gesund", 1]], "actions[0]"),
    ("actions", ["gesund"], "actions[0]"),
    ("actions", [["0", "gesund"]], "actions[0][0]"),
    ("actions", [[-1, "gesund"]], "actions[0][0]"),
    ("actions", [[0, 5]], "actions[0][1]"),
    ("actions", [[0, ""]], "actions[0][1]"),
    ("result", [], "result"),
    ("result", 3, "result"),
    ("result", {"value": 1}, "result.scores"),
    ("result", {"scores": "1 2"}, "result.scores"),
    ("result", {"scores": [1, 2.5]}, "result.scores[1]"),
    ("players", "Ann", "players"),
    ("players", ["Ann", 2], "players[1]"),
    ("meta", [], "meta"),
    ("meta", "x", "meta"),
]


@pytest.mark.parametrize(("key", "value", "where"), BAD_DEAL_FIELDS)
def test_wrong_types_in_a_deal_record(key: str, value: Any, where: str) -> None:
    record = _deal_base()
    record[key] = value
    with pytest.raises(RecordError) as info:
        validate_record(record)
    assert info.value.where == where
    assert where in str(info.value)
    assert not schema_ok(record), "the schema must reject what validate_record rejects"
    assert where_of(record) == where


@pytest.mark.parametrize("key", DEAL_KEYS)
def test_missing_key(key: str) -> None:
    record = _deal_base()
    del record[key]
    with pytest.raises(RecordError, match="missing") as info:
        validate_record(record)
    assert info.value.where == key
    assert not schema_ok(record)


def test_unknown_key() -> None:
    record = _deal_base()
    record["acitons"] = []
    with pytest.raises(RecordError, match="unknown key") as info:
        validate_record(record)
    assert info.value.where == "acitons"
    assert not schema_ok(record)


@pytest.mark.parametrize("obj", [[], "record", 3, None])
def test_record_must_be_an_object(obj: Any) -> None:
    assert where_of(obj) == ""
    assert not schema_ok(obj)


BAD_LIST_FIELDS: list[tuple[str, Any, str]] = [
    ("seed", None, "seed"),
    ("seed", "5", "seed"),
    ("deals_requested", -1, "deals_requested"),
    ("deals_requested", "6", "deals_requested"),
    ("deals", {}, "deals"),
    ("deals", [5], "deals[0]"),
    ("deals", [{"format": 1, "type": "list"}], "deals[0].type"),
    ("sheet", {}, "sheet"),
    ("sheet", [[]], "sheet[0]"),
    ("sheet", [{"number": 1}], "sheet[0].dealer"),
    ("totals", [1, "2"], "totals[1]"),
    ("totals", None, "totals"),
]


@pytest.mark.parametrize(("key", "value", "where"), BAD_LIST_FIELDS)
def test_wrong_types_in_a_list_record(key: str, value: Any, where: str) -> None:
    record = good_list()
    record[key] = value
    with pytest.raises(RecordError) as info:
        validate_record(record)
    assert info.value.where == where
    assert not schema_ok(record)


def test_nested_deal_errors_carry_the_deal_position() -> None:
    record = good_list()
    record["deals"][2]["actions"][4][1] = 7
    with pytest.raises(RecordError) as info:
        validate_record(record)
    assert info.value.where == "deals[2].actions[4][1]"
    assert not schema_ok(record)
    record = good_list()
    record["sheet"][1]["scores"][0] = "x"
    assert where_of(record) == "sheet[1].scores[0]"
    assert not schema_ok(record)


def test_schema_accepts_good_records() -> None:
    for game_string in PRESETS:
        for seed in range(4):
            assert schema_ok(good(game_string, seed))
        assert schema_ok(good_list(game_string, 1, 3))
    unfinished = json.loads(dumps_record(deal_record(play("doppelkopf", 2, steps=10))))
    assert schema_ok(unfinished) and runtime_ok(unfinished)


def test_schema_and_runtime_agree_that_wrong_content_is_still_well_formed() -> None:
    # Structure is fine, content is wrong: both checks pass, replay catches it.
    record = good()
    record["result"]["scores"][1] -= 4
    record["actions"][0][1] = "fly away"
    assert schema_ok(record) and runtime_ok(record)


_json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=30),
    st.just(2**64),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer()),
    st.sampled_from(["", "CQ", "cq", "T21", "H10", "play H10", "deal", "list", "x"]),
)
_json_value = st.recursive(
    _json_leaf,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.sampled_from(["scores", "a", "format"]), children, max_size=2),
    max_leaves=6,
)


def _paths(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(obj, dict):
        for key, value in obj.items():
            out += _paths(value, (*path, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj[:3]):
            out += _paths(value, (*path, index))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), which=st.sampled_from(["deal", "list"]), action=st.sampled_from(["replace", "delete", "add"]))
def test_schema_and_validate_record_agree_on_mutations(data: st.DataObject, which: str, action: str) -> None:
    # Mutate one node of a good record at random; the schema and validate_record must give the same verdict.
    record: Any = good() if which == "deal" else good_list("doppelkopf", 5, 2)
    paths = _paths(record)
    path = data.draw(st.sampled_from(paths[1:]))
    parent = record
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if action == "replace":
        parent[last] = data.draw(_json_value)
    elif action == "delete":
        del parent[last]
    elif isinstance(parent[last], dict):
        parent[last][data.draw(st.sampled_from(["extra", "scores", "meta"]))] = data.draw(_json_value)
    elif isinstance(parent[last], list):
        parent[last].append(data.draw(_json_value))
    else:
        parent[last] = data.draw(_json_value)
    assert schema_ok(record) == runtime_ok(record), f"disagree after {action} at {path}"


# -------------------------------------------------------------------- lists
@pytest.mark.parametrize("game_string", PRESETS)
def test_list_round_trip(game_string: str) -> None:
    game = game_from_string(game_string)
    session = session_class(game)(game, 21, 8)
    states = play_session(session, chooser(21))
    record = json.loads(dumps_record(list_record(session, states)))
    assert record["type"] == "list"
    assert list(record)[: len(LIST_KEYS)] == list(LIST_KEYS)
    assert record["deals_requested"] == 8
    assert len(record["deals"]) == len(states) == len(record["sheet"])
    assert [d["seed"] for d in record["deals"]] == [session.deal_seed(i) for i in range(len(states))]
    replayed = replay_list(record)
    assert replayed.totals == session.totals
    assert replayed.sheet() == session.sheet()
    assert replayed.is_over()
    assert schema_ok(record)


def test_list_with_an_unfinished_last_deal() -> None:
    game = game_from_string("doppelkopf")
    session = session_class(game)(game, 3, 5)
    states = play_session(session, chooser(3), max_deals=2)
    pending = session.next_deal()
    assert pending is not None
    for _ in range(10):
        pending.apply(chooser(9)(pending))
    record = json.loads(dumps_record(list_record(session, [*states, pending])))
    assert record["deals"][-1]["result"] is None
    replayed = replay_list(record)
    assert len(replayed.rows) == 2
    assert replayed.pending is not None and replayed.pending.history == pending.history


def test_list_with_a_deal_dealt_by_hand() -> None:
    # A session deal given card by card (seed null) takes its place in the list and replays from its hands.
    game = game_from_string("doppelkopf")
    session = session_class(game)(game, 8, 3)
    choose = chooser(8)
    states = play_session(session, choose, max_deals=1)
    hands = [game.deck.cards(mask) for mask in game_from_string("doppelkopf").new_state(seed=1234).dealt]
    manual = session.next_deal(hands=hands)
    assert manual is not None
    while not manual.is_terminal():
        manual.apply(choose(manual))
    session.book(manual)
    states += [manual, *play_session(session, choose)]
    record = json.loads(dumps_record(list_record(session, states)))
    assert [d["seed"] is None for d in record["deals"]] == [False, True, False]
    assert replay_list(record).totals == session.totals
    record["deals"][1]["deal"][0][0], record["deals"][1]["deal"][1][0] = record["deals"][1]["deal"][1][0], record["deals"][1]["deal"][0][0]
    assert where_of(record).startswith("deals[1].")


def test_list_record_rejects_states_of_another_session() -> None:
    game = game_from_string("doppelkopf")
    session = session_class(game)(game, 3, 2)
    states = play_session(session, chooser(3))
    with pytest.raises(ValueError, match="booked 2 deals"):
        list_record(session, states[:1])
    with pytest.raises(ValueError, match="pending"):
        list_record(session, [*states, play("doppelkopf", 1, steps=3)])


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda r: r["deals"][1].__setitem__("seed", r["deals"][1]["seed"] + 1), "deals[1].seed"),
        (lambda r: r["deals"][1].__setitem__("dealer", (r["deals"][1]["dealer"] + 1) % 4), "deals[1].dealer"),
        (lambda r: r["deals"][1]["context"].__setitem__("multiplier", 4), "deals[1].context"),
        (lambda r: r["deals"][2]["result"]["scores"].reverse(), "deals[2].result.scores"),
        (lambda r: r["deals"][0]["actions"][1].__setitem__(1, "jump"), "deals[0].actions[1][1]"),
        (lambda r: r["deals"][0].__setitem__("game", "doppelkopf(preset=house_classic)"), "deals[0].game"),
        (lambda r: r["deals"][0].__setitem__("rules_version", 7), "deals[0].rules_version"),
        (lambda r: r["sheet"][0].__setitem__("label", "Solo"), "sheet[0].label"),
        (lambda r: r["sheet"].pop(), "sheet"),
        (lambda r: r["totals"].__setitem__(0, r["totals"][0] + 1), "totals[0]"),
        (lambda r: r["deals"].append(copy.deepcopy(r["deals"][-1])), "deals[6]"),
        (lambda r: r.__setitem__("seed", r["seed"] + 1), "deals[0].seed"),
        (lambda r: r["deals"][3].update(actions=r["deals"][3]["actions"][:5], result=None), "deals[3].actions"),
    ],
)
def test_tampered_list(mutate: Callable[[dict[str, Any]], Any], where: str) -> None:
    record = good_list()
    mutate(record)
    assert where_of(record) == where


def test_list_deal_swapped_hands_are_caught() -> None:
    record = good_list()
    deal = record["deals"][1]
    deal["deal"][0], deal["deal"][1] = deal["deal"][1], deal["deal"][0]
    assert where_of(record) == "deals[1].deal[0]"


class FlatSession(Session):
    """A minimal session for the core API: fixed dealer rotation, no context, a fixed number of deals."""

    def is_over(self) -> bool:
        return self.limit is not None and len(self.rows) >= self.limit

    def context(self) -> Mapping[str, Any]:
        return {"multiplier": 1 + len(self.rows) % 2}

    def _book(self, state: State, result: DealResult) -> SheetRow:
        self.totals = [t + s for t, s in zip(self.totals, result.scores, strict=True)]
        self.dealer = (self.dealer + 1) % self.game.num_seats
        return SheetRow(len(self.rows) + 1, state.dealer, "deal", result.scores, tuple(self.totals))


def flat_factory(game: Game, seed: int, deals: int | None) -> Session:
    return FlatSession(game, seed, deals)


def test_list_with_a_custom_session_factory() -> None:
    game = game_from_string("doppelkopf(preset=house_classic)")
    session = FlatSession(game, 99, 4)
    states = play_session(session, chooser(99))
    record = json.loads(dumps_record(list_record(session, states)))
    assert [d["context"] for d in record["deals"]] == [{"multiplier": m} for m in (1, 2, 1, 2)]
    replayed = replay_list(record, session_factory=flat_factory)
    assert replayed.totals == session.totals
    assert isinstance(replay_any(record, session_factory=flat_factory), FlatSession)
    # The default factory is Doppelkopf's own session, whose context differs from this one's.
    assert where_of(record).startswith("deals[0].")


def test_session_class_of_doppelkopf() -> None:
    cls = session_class(game_from_string("doppelkopf"))
    assert isinstance(cls, type) and issubclass(cls, Session) and cls.__name__ == "DoppelkopfSession"


# -------------------------------------------------------------------- files
def test_dumps_record_is_one_stable_line() -> None:
    record = good()
    record["players"] = ["Jürgen", "Zoë", "Ann\nNewline", "B"]
    text = dumps_record(record)
    assert "\n" not in text
    assert text.startswith('{"format":1,"type":"deal","game":')
    assert "Jürgen" in text
    shuffled = dict(reversed(list(record.items())))
    assert dumps_record(shuffled) == text
    assert dumps_record(json.loads(text)) == text


def test_jsonl_round_trip(tmp_path: Path) -> None:
    records = [good(), good_list("doppelkopf", 1, 2), json.loads(dumps_record(deal_record(play("doppelkopf", 4, steps=7))))]
    path = tmp_path / "games.jsonl"
    assert write_jsonl(path, records) == 3
    read = list(read_jsonl(path))
    assert [n for n, _ in read] == [1, 2, 3]
    assert [r for _, r in read] == records
    assert [type(replay_any(r)).__name__ for _, r in read] == ["DoppelkopfState", "DoppelkopfSession", "DoppelkopfState"]


def test_jsonl_skips_blank_lines_and_names_a_malformed_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(dumps_record(good()) + "\n\n" + '{"format": 1, "type": \n', encoding="utf-8")
    reader = read_jsonl(path)
    assert next(reader)[0] == 1
    with pytest.raises(RecordError, match="not valid JSON") as info:
        next(reader)
    assert info.value.where == "line 3"


def test_jsonl_line_that_is_not_an_object(tmp_path: Path) -> None:
    path = tmp_path / "array.jsonl"
    path.write_text("[1, 2]\n", encoding="utf-8")
    with pytest.raises(RecordError, match="JSON object, got array") as info:
        list(read_jsonl(path))
    assert info.value.where == "line 1"


def test_jsonl_not_utf8_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"a": 1}\n{"name": "J\xfcrgen"}\n')
    with pytest.raises(RecordError, match="UTF-8") as info:
        list(read_jsonl(path))
    assert info.value.where == "line 2"
    missing = tmp_path / "nope.jsonl"
    with pytest.raises(RecordError, match="cannot read") as info:
        list(read_jsonl(missing))
    assert info.value.where == str(missing)
    unwritable = tmp_path / "no_such_dir" / "out.jsonl"
    with pytest.raises(RecordError, match="cannot write") as info:
        write_jsonl(unwritable, [good()])
    assert info.value.where == str(unwritable)


# --------------------------------------------------------------------- docs
DOCS = Path(__file__).resolve().parents[2] / "docs" / "records.md"


@pytest.mark.skipif(not DOCS.exists(), reason="docs/records.md is not part of an installed package")
def test_documented_example_replays() -> None:
    # The deal record shown in docs/records.md is real: it validates against both checks and replays to its result.
    text = DOCS.read_text(encoding="utf-8")
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    record = json.loads(block)
    assert schema_ok(record) and runtime_ok(record)
    state = replay_deal(record)
    assert state.is_terminal()
    assert deal_record(state)["result"] == record["result"]
    assert record["seed"] == 15 and record["dealer"] == 0
    # It is the deal the documented recipe produces: seed 15, every seat choosing with random.Random(15).
    game = game_from_string(record["game"])
    fresh = game.new_state(seed=15, dealer=0)
    rng = random.Random(15)
    while not fresh.is_terminal():
        fresh.apply(rng.choice(fresh.legal_actions()))
    assert fresh.history == state.history
