"""Environment ids: every preset has one, ids and canonical strings resolve to the same rules, bad ids are refused."""

from __future__ import annotations

import pytest

from stich.core.registry import game_class, game_names
from stich.errors import OptionError
from stich.rl.ids import ENCODING_VERSION, env_id, game_for, registered_ids, resolve


def test_every_preset_of_every_game_has_an_id() -> None:
    ids = registered_ids()
    expected = {f"stich/{n}-{p}-v{ENCODING_VERSION}" for n in game_names() for p in game_class(n).option_table.presets}
    assert set(ids) == expected
    assert "stich/doppelkopf-ddv-v1" in ids and "stich/tapp_tarock-standard-v1" in ids
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("env", registered_ids())
def test_an_id_round_trips_through_its_game(env: str) -> None:
    game = game_for(env)
    assert env_id(game) == env
    spec = resolve(env)
    assert spec.id == env and spec.game == game.canonical
    assert spec.rules_version == game.rules_version and spec.encoding_version == ENCODING_VERSION


def test_a_canonical_game_string_is_accepted_bare_or_in_an_id() -> None:
    bare = resolve("doppelkopf(preset=ddv,nines=false)")
    assert bare.game == "doppelkopf(preset=ddv,nines=false)"
    assert bare.id == "stich/doppelkopf(preset=ddv,nines=false)-v1"
    assert resolve(bare.id) == bare
    # A plain preset given as a game string gets the preset's id.
    assert resolve("dobbm").id == "stich/dobbm-pagat-v1"
    assert resolve("tapp_tarock(preset=four_players)").id == "stich/tapp_tarock-four_players-v1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("stich/doppelkopf-ddv-v9", "version v9 does not exist"),
        ("stich/doppelkopf-nope-v1", "no preset 'nope'"),
        ("stich/skat-standard-v1", "unknown game 'skat'"),
        ("stich/doppelkopf", "malformed environment id"),
        ("doppelkopf(nines=maybe)", "nines"),
    ],
)
def test_a_bad_id_is_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        resolve(text)
