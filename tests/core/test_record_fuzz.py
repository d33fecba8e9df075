"""Damaged records end in a RecordError naming the field, never in a traceback (issue 30, fault 6).

The first tests are the cases the issue reports, one by one, through the door
it found them at; the last ones run the seeded mutator of ``record_fuzz.py``
over real records of all five games (structure and byte level) through all
three doors: the Python API, ``stich replay`` and ``stich verify``.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stich.core.records import (
    MAX_DEPTH,
    deal_record,
    list_record,
    parse_record,
    play_session,
    read_jsonl,
    replay_any,
    replay_deal,
    session_class,
    validate_record,
)
from stich.core.registry import game_from_string
from stich.errors import RecordError

from .record_fuzz import GAMES, KINDS, RAW_TOKENS, base_text, mutant, run_door, through_cli

DEEP = MAX_DEPTH + 5


def base(game: str = "doppelkopf", kind: str = "deal") -> dict[str, Any]:
    """A fresh copy of a real record (deal records carry the fairness block ``stich verify`` reads)."""
    record: dict[str, Any] = json.loads(base_text(game, kind))
    return record


def write(tmp_path: Path, record: dict[str, Any], raw: dict[str, str] | None = None) -> Path:
    """``record`` as a one-line file; each ``raw`` marker string is replaced by its JSON text (NaN, 1e400...)."""
    text = json.dumps(record)
    for marker, token in (raw or {}).items():
        text = text.replace(json.dumps(marker), token)
    path = tmp_path / "record.jsonl"
    path.write_text(text + "\n", encoding="utf-8")
    return path


def replay_line(path: Path) -> str:
    """``stich replay``'s one report line for a one-record file that it refuses (exit 1, nothing on stderr)."""
    status, out, err, escaped = through_cli("replay", str(path))
    assert not escaped and "Traceback" not in out + err
    assert status == 1 and not err
    bad = [line for line in out.splitlines() if line.startswith("line ")]
    assert len(bad) == 1, out
    return bad[0]


def verify_error(path: Path) -> str:
    """``stich verify``'s one error line for a record it cannot read (exit 2, one line on stderr)."""
    status, out, err, escaped = through_cli("verify", str(path))
    assert not escaped and "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("stich: error: "), (status, out, err)
    return lines[0]


def nested(levels: int) -> Any:
    """A list nested ``levels`` deep, built without recursion."""
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


# ----------------------------------------------------------- the cases
def test_replay_names_the_field_of_deep_nesting(tmp_path: Path) -> None:
    # Before: RecursionError while parsing (a traceback). Now the path where it gets too deep.
    path = write(tmp_path, base(), {"DEEP": "[" * 5000 + "]" * 5000})
    path.write_text(path.read_text().replace('"meta": {', '"meta": {"deep": "DEEP", ').replace('"DEEP"', "[" * 5000 + "]" * 5000))
    line = replay_line(path)
    # The record is level 1, meta 2, the list under deep 3: the list at level 33 is deep[0] 30 times over.
    assert line.startswith("line 1: meta.deep" + "[0]" * (MAX_DEPTH - 2) + ": nested deeper than 32 levels")


def test_replay_names_an_overflowing_context_number(tmp_path: Path) -> None:
    # Before: OverflowError from int(inf) in the engine. Now the number is refused where it stands.
    record = base("doppelkopf", "list")
    record["deals"][1]["context"]["multiplier"] = "BIG"
    line = replay_line(write(tmp_path, record, {"BIG": "1e400"}))
    assert line == (
        "line 1: deals[1].context.multiplier: 1e400 is not a number a record can hold: "
        "numbers must be finite and at most 18446744073709551615 in magnitude"
    )


def test_verify_names_the_field_of_deep_nesting(tmp_path: Path) -> None:
    record = base()
    record["context"] = {"owes_solo": "DEEP"}
    line = verify_error(write(tmp_path, record, {"DEEP": "[" * 3000 + "]" * 3000}))
    assert line.startswith(f"stich: error: {tmp_path / 'record.jsonl'}: context.owes_solo[0]")
    assert line.endswith("nested deeper than 32 levels; records nest a few levels")


def test_verify_names_an_integer_of_thousands_of_digits(tmp_path: Path) -> None:
    # Before: ValueError from Python's 4,300-digit limit. Now the integer is never converted.
    record = base("dobbm")
    record["dealer"] = "LONG"
    line = verify_error(write(tmp_path, record, {"LONG": RAW_TOKENS["long_int"]}))
    assert line.startswith(f"stich: error: {tmp_path / 'record.jsonl'}: dealer: 111111111111... (4301 digits) is not a number")


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "-1e400"])
def test_verify_names_a_number_that_is_not_finite(tmp_path: Path, token: str) -> None:
    record = base()
    record["result"]["value"] = "X"
    line = verify_error(write(tmp_path, record, {"X": token}))
    assert line.startswith(f"stich: error: {tmp_path / 'record.jsonl'}: result.value: {token} is not a number a record can hold")


def test_verify_names_an_owes_solo_list_that_is_too_short(tmp_path: Path) -> None:
    # Before: IndexError in the engine at the first reservation. Now the context is checked against the game.
    record = base()
    record["context"] = {"owes_solo": [True, False]}
    status, out, err, escaped = through_cli("verify", str(write(tmp_path, record)))
    assert not escaped and not err and status == 1
    assert "FAIL replay: context.owes_solo: doppelkopf(preset=ddv) has 4 seats, so this needs 4 booleans, got 2" in out


@pytest.mark.parametrize("text", ["play \ud800", "play H10\u2028[§6.1]", "play\nX1"])
def test_a_message_quoting_the_record_stays_one_printable_line(tmp_path: Path, text: str) -> None:
    # Text from the record (an action, a key) is quoted in the message: its line breaks and lone surrogates are
    # escaped, so the report stays one line per record and can be written to a UTF-8 terminal.
    record = base()
    record["actions"][0][1] = text
    record[text] = 1
    path = tmp_path / "record.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="ascii")
    line = replay_line(path)
    assert line.startswith('line 1: "play') and ": unknown key; a deal record has format" in line
    line.encode("utf-8")
    del record[text]
    path.write_text(json.dumps(record) + "\n", encoding="ascii")
    line = replay_line(path)
    assert line.startswith("line 1: actions[0][1]: unknown action") or line.startswith("line 1: actions[0][1]: not a card")
    line.encode("utf-8")


# ------------------------------------------------------------- the Python API
@pytest.mark.parametrize(
    ("context", "where", "message"),
    [
        ({"owes_solo": [True, True, True]}, "context.owes_solo", "needs 4 booleans, got 3"),
        ({"owes_solo": [True, 1, True, True]}, "context.owes_solo", "must be an array of booleans"),
        ({"multiplier": math.inf}, "context.multiplier", "inf is not a number a record can hold"),
        ({"multiplier": 10**5000}, "context.multiplier", "an integer of about 5001 digits is not a number"),
        ({"multiplier": 0}, "context.multiplier", "must be an integer of at least 1"),
        ({"forced_soloist": 4}, "context.forced_soloist", "must be a seat 0..3 or null"),
        ({"owes_sol": [True] * 4}, "context.owes_sol", "unknown context key; a deal of doppelkopf reads owes_solo, multiplier"),
        ({"a\u2028b": 1}, '"a\\u2028b"', "unknown context key"),
    ],
)
def test_replay_checks_the_context_against_its_game(context: dict[str, Any], where: str, message: str) -> None:
    record = base()
    record["context"] = context
    with pytest.raises(RecordError) as info:
        replay_any(record)
    assert info.value.where.endswith(where) and message in info.value.reason
    assert len(str(info.value).splitlines()) == 1


@pytest.mark.parametrize("game", GAMES)
def test_the_context_of_every_list_replays(game: str) -> None:
    # The shapes of the context keys agree with what each game's session passes.
    replay_any(base(game, "list"))


def test_a_context_the_game_refuses_is_named() -> None:
    # The shape is right (a seat), but the engine refuses a forced soloist who is the idle dealer of a
    # five-player table: the engine's refusal is reported at the field, not at the deal.
    state = game_from_string("doppelkopf(players=5)").new_state(seed=3, dealer=2)
    record = deal_record(state)
    record["context"] = {"forced_soloist": 2}
    with pytest.raises(RecordError) as info:
        replay_deal(record)
    assert info.value.where == "context"
    assert info.value.reason == "the game rejects this context: forced_soloist must be a seat that holds cards, got 2"


def test_read_jsonl_names_the_line_and_field_of_a_bad_number(tmp_path: Path) -> None:
    # Before: ValueError (4,300 digits) out of read_jsonl, whose docs promise RecordError.
    record = base()
    record["seed"] = "LONG"
    path = write(tmp_path, record, {"LONG": RAW_TOKENS["huge_int"]})
    with pytest.raises(RecordError) as info:
        list(read_jsonl(path))
    assert info.value.where == "line 1: seed"


def test_read_jsonl_names_deep_nesting(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text('{"meta":' + "[" * 100000 + "]" * 100000 + "}\n")
    with pytest.raises(RecordError) as info:
        list(read_jsonl(path))
    assert info.value.where == "line 1: meta" + "[0]" * (MAX_DEPTH - 1)


def test_replay_of_a_python_object_nested_deeper_than_the_stack() -> None:
    # An object made in Python (not parsed) is bounded too, by an iterative walk.
    record = base()
    record["meta"] = {"deep": nested(100_000)}
    with pytest.raises(RecordError) as info:
        replay_any(record)
    assert info.value.where == "meta.deep" + "[0]" * (MAX_DEPTH - 2)


@pytest.mark.parametrize(
    ("value", "message"), [(math.nan, "nan is not"), (2**64, "18446744073709551616 is not"), (object(), "object is not JSON data")]
)
def test_validate_record_refuses_what_json_cannot_hold(value: Any, message: str) -> None:
    record = base("droggn", "list")
    record["sheet"][0]["notes"]["x"] = value
    with pytest.raises(RecordError) as info:
        validate_record(record)
    assert info.value.where == "sheet[0].notes.x" and info.value.reason.startswith(message)


def test_parse_record_keeps_brackets_inside_strings() -> None:
    # Brackets in player names are text, not nesting.
    record = base()
    record["players"] = ["[" * 100, "{" * 100, '"]', "\\"]
    assert parse_record(json.dumps(record)) == record


# ------------------------------------------------------------------ mutations
MUTATIONS_PER_SOURCE = 8
"""Mutations of each of the 15 base records (5 games x seeded deal, hand-dealt deal, list) in every run."""


def check_doors(line: bytes, folder: Path) -> None:
    """The three doors each accept or refuse ``line`` without a crash, and the API and ``stich replay`` agree."""
    outcomes = {door: run_door(door, line, folder) for door in ("api", "replay", "verify")}
    for door, outcome in outcomes.items():
        assert outcome.verdict != "crashed", f"{door}: {outcome.detail}"
        assert "\n" not in outcome.detail
    assert (outcomes["api"].verdict == "accepted") == (outcomes["replay"].verdict == "accepted"), outcomes
    if outcomes["api"].verdict == "refused":
        # Every refusal names a place: a field, or the line when the text is not a record at all.
        assert outcomes["api"].where, outcomes["api"].detail


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", GAMES)
def test_mutated_records_are_accepted_or_refused_never_crash(game: str, kind: str, tmp_path: Path) -> None:
    for seed in range(MUTATIONS_PER_SOURCE):
        case = mutant(seed, game, kind)
        check_doors(case.line, tmp_path)
        if case.level == "structure":
            # A structure-level mutant that parses is refused by the replay with a field, not only a line.
            try:
                record = parse_record(case.line)
            except RecordError as exc:
                assert exc.where, exc
                continue
            try:
                replay_any(record)
            except RecordError as exc:
                assert exc.where, exc


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_hypothesis_drawn_mutations_never_crash(seed: int, tmp_path: Path) -> None:
    check_doors(mutant(seed).line, tmp_path)


def test_a_record_built_in_python_may_hold_tuples() -> None:
    # A session's context holds a tuple (owes_solo); JSON writes it as an array, so the walk and the shapes take it.
    record = base("doppelkopf", "list")
    deal = record["deals"][0]
    deal["context"]["owes_solo"] = tuple(deal["context"]["owes_solo"])
    replay_any(record)


@pytest.mark.parametrize("game_name", [*GAMES, "dobbm(mussrunde_at_end=true)"])
def test_every_context_a_whole_session_passes_has_its_shape(game_name: str) -> None:
    # A whole list of the game's default length (Dobbm's Mußrunde and Doppelkopf's Vorführungen come at its end)
    # replays, so every context key a session passes is one CONTEXT_SHAPES knows, in the shape it states.
    game = game_from_string(game_name)
    session = session_class(game)(game, 21, None)
    rng = random.Random(21)
    states = play_session(session, lambda state: rng.choice(state.legal_actions()))
    contexts = [state.context for state in states]
    assert replay_any(list_record(session, states)) is not None
    if game_name in ("doppelkopf", "dobbm(mussrunde_at_end=true)"):
        assert any(contexts), "the session never passed a context"
