"""Options: parsing, presets, canonical strings (round trip through registry.game_from_string) and every error class."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doppelkopf_contradictions import contradiction
from stich.core.options import OptionInfo, format_value, parse_assignments, parse_game_string, parse_value
from stich.core.registry import game_class, game_from_string, game_names, make_game
from stich.errors import OptionError, StichError
from stich.games.doppelkopf.game import Doppelkopf
from stich.games.doppelkopf.options import DDV_SOLOS, DoppelkopfOptions

TABLE = Doppelkopf.option_table
INFOS = {info.name: info for info in TABLE.infos}


def value_strategy(info: OptionInfo) -> st.SearchStrategy[Any]:
    if info.name == "call_min_cards":  # five card counts that never rise (issue 29)
        counts = st.lists(st.integers(1, 12), min_size=5, max_size=5).map(lambda c: sorted(c, reverse=True))
        return counts.map(lambda c: "/".join(map(str, c)))
    if info.type == "bool":
        return st.booleans()
    if info.type == "int":
        low = info.minimum if info.minimum is not None else 0
        high = info.maximum if info.maximum is not None else low + 50
        return st.integers(low, high)
    if info.type == "set":
        return st.frozensets(st.sampled_from(info.choices or ()))
    return st.sampled_from(info.choices or ())


overrides = st.fixed_dictionaries({}, optional={info.name: value_strategy(info) for info in TABLE.infos})


# ----------------------------------------------------------------------------- table, defaults, presets


def test_every_option_is_documented() -> None:
    # DESIGN: every option has a default, a one-line doc and its dossier section
    for info in TABLE.infos:
        assert info.doc and "\n" not in info.doc, info.name
        assert info.section, info.name
        assert info.to_json()["name"] == info.name
        if info.type in ("set",) or (info.type == "str" and info.choices):
            assert info.choices
    assert [f.name for f in dataclasses.fields(DoppelkopfOptions)] == [info.name for info in TABLE.infos]


def test_defaults_are_the_ddv_rules() -> None:
    # §8 with the defaults the engine follows the TSR
    g = make_game("doppelkopf")
    o = g.options
    assert (g.preset, g.canonical) == ("ddv", "doppelkopf(preset=ddv)")
    assert (o.players, o.nines, o.dullen, o.schweine, o.armut, o.announcements, o.solos) == (4, True, True, "off", False, True, DDV_SOLOS)
    assert (o.hand_size, o.games_per_round) == (12, 24)
    assert make_game("doppelkopf", options={"players": 5}).options.games_per_round == 30
    assert make_game("doppelkopf", options={"nines": False}).options.hand_size == 10


def test_presets() -> None:
    # §8 suggested presets
    assert set(TABLE.presets) >= {"ddv", "ddv_no_nines", "house_classic"}
    assert make_game("doppelkopf", "ddv_no_nines").options.nines is False
    house = make_game("doppelkopf", "house_classic").options
    assert house.second_dulle_beats_first and house.second_dulle_except_last_trick
    assert (house.schweine, house.armut, house.call_scoring) == ("both", True, "double")
    assert house.schmeissen == frozenset({"five_nines"})
    for preset in TABLE.presets:
        g = make_game("doppelkopf", preset)
        assert g.canonical == f"doppelkopf(preset={preset})"


def test_canonical_lists_only_differences_in_declaration_order() -> None:
    # DESIGN: the canonical string is the preset plus every option that differs from it, in declaration order
    g = make_game("doppelkopf", "ddv", {"dullen": "false", "nines": "off", "players": "5"})
    assert g.canonical == "doppelkopf(preset=ddv,players=5,nines=false,dullen=false)"
    assert make_game("doppelkopf", "ddv", {"nines": "true"}).canonical == "doppelkopf(preset=ddv)"
    assert make_game("doppelkopf", "ddv_no_nines", {"nines": True}).canonical == "doppelkopf(preset=ddv_no_nines,nines=true)"
    g = make_game("doppelkopf", options={"solos": "koenig+damen", "schmeissen": ["five_nines"]})
    assert g.canonical == "doppelkopf(preset=ddv,solos=damen+koenig,schmeissen=five_nines)"


def test_set_and_choice_values() -> None:
    assert format_value(frozenset()) == "none"
    assert format_value(frozenset({"b", "a"})) == "a+b"
    g = make_game("doppelkopf", "house_classic", {"schmeissen": "none"})
    assert g.options.schmeissen == frozenset()
    assert "schmeissen=none" in g.canonical
    assert game_from_string(g.canonical) == g
    assert make_game("doppelkopf", options={"schweine": "both"}).options.schweine == "both"


BOOL_SPELLINGS = [("true", True), ("YES", True), ("on", True), ("1", True), (True, True)]
BOOL_SPELLINGS += [("false", False), ("No", False), ("off", False), ("0", False), (False, False)]


@pytest.mark.parametrize(("raw", "value"), BOOL_SPELLINGS)
def test_bool_spellings(raw: object, value: bool) -> None:
    assert make_game("doppelkopf", options={"nines": raw}).options.nines is value


def test_game_equality_and_immutability() -> None:
    a = make_game("doppelkopf", options={"nines": False})
    b = game_from_string("doppelkopf(preset=ddv_no_nines)")
    c = game_from_string("doppelkopf( preset = ddv , nines = false )")
    assert a.options == b.options == c.options
    assert a != b  # different canonical strings (different presets)
    assert a == c and hash(a) == hash(c)
    assert str(a) == a.canonical and repr(a) == f"<Game {a.canonical}>"
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(a.options, "nines", True)  # noqa: B010 - the attribute is frozen on purpose


def test_registry() -> None:
    assert "doppelkopf" in game_names()
    assert game_class("doppelkopf") is Doppelkopf
    assert game_from_string("doppelkopf") == make_game("doppelkopf")
    assert game_from_string("doppelkopf()") == make_game("doppelkopf")


# ----------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("preset", sorted(TABLE.presets))
def test_preset_round_trip(preset: str) -> None:
    g = make_game("doppelkopf", preset)
    again = game_from_string(g.canonical)
    assert again == g and again.options == g.options and again.preset == preset


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(TABLE.presets)), overrides)
def test_canonical_round_trip_of_random_options(preset: str, chosen: dict[str, Any]) -> None:
    # DESIGN: a configured game's canonical string gives the same game back
    values = TABLE.preset_values(preset)
    values.update(chosen)
    expected = contradiction(values)
    if expected is not None:
        with pytest.raises(OptionError, match=expected):
            make_game("doppelkopf", preset, chosen)
        return
    g = make_game("doppelkopf", preset, chosen)
    for name, value in chosen.items():
        assert getattr(g.options, name) == value
    again = game_from_string(g.canonical)
    assert again == g
    assert again.options == g.options
    text_options = {k: format_value(v) for k, v in chosen.items()}
    assert make_game("doppelkopf", preset, text_options).options == g.options


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("skat", "unknown game"),
        ("doppelkopf(preset=tournament)", "no preset 'tournament'"),
        ("doppelkopf(dulle=false)", "no option 'dulle'"),
        ("doppelkopf(nines=maybe)", "true or false"),
        ("doppelkopf(players=four)", "integer"),
        ("doppelkopf(players=3)", "at least 4"),
        ("doppelkopf(players=6)", "at most 5"),
        ("doppelkopf(hochzeit_window_tricks=0)", "at least 1"),
        ("doppelkopf(hochzeit_window_tricks=13)", "at most 12"),
        ("doppelkopf(schweine=some)", "one of"),
        ("doppelkopf(solos=damen+skat)", "unknown member 'skat'"),
        ("doppelkopf(solos=none)", "solo"),
        ("doppelkopf(superschweine=true)", "superschweine"),
        ("doppelkopf(dullen=false,second_dulle_beats_first=true)", "dullen"),
        ("doppelkopf(second_dulle_in_solo=true)", "second_dulle_beats_first"),
        ("doppelkopf(second_dulle_except_last_trick=true)", "second_dulle_beats_first"),
        ("doppelkopf(sp_dulle_gefangen=true)", "second_dulle_beats_first"),
        ("doppelkopf(preset=ddv", "not a game string"),
        ("Doppelkopf", "not a game string"),
        ("doppelkopf(nines)", "KEY=VALUE"),
        ("doppelkopf(=false)", "KEY=VALUE"),
        ("doppelkopf(nines=false,nines=true)", "given twice"),
    ],
)
def test_option_errors(text: str, match: str) -> None:
    with pytest.raises(OptionError, match=match):
        game_from_string(text)


def test_option_error_is_a_stich_error() -> None:
    with pytest.raises(StichError):
        make_game("doppelkopf", "nope")
    with pytest.raises(ValueError):
        make_game("doppelkopf", options={"players": True})


def test_int_rejects_bool() -> None:
    with pytest.raises(OptionError, match="integer"):
        parse_value(INFOS["players"], True)


def test_parse_game_string_and_assignments() -> None:
    assert parse_game_string("doppelkopf(preset=ddv, nines=false)") == ("doppelkopf", {"preset": "ddv", "nines": "false"})
    assert parse_assignments(["nines=false", " players = 5 "]) == {"nines": "false", "players": "5"}
    with pytest.raises(OptionError, match="KEY=VALUE"):
        parse_assignments(["nines"])
    with pytest.raises(OptionError, match="KEY=VALUE"):
        parse_assignments(["=5"])
