"""Conformance: seeded random Droggn deals under every preset and table size, and under random option sets.

The shipped harness (:mod:`stich.testing.conformance`) checks at every step
that cards are conserved, a legal action exists until the end, observations
name no card outside ``knowable_cards``, clones are independent and illegal
actions change nothing; at the end, zero-sum scores and a record that replays.
A steering chooser makes the rarer paths common: low bids (so that the
exchange, the buy and full 21-trick deals happen), laying out, doubling.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from stich.core.game import State
from stich.errors import OptionError
from stich.games.droggn.game import Droggn
from stich.testing.conformance import run_conformance

from .helpers import game

TABLE = Droggn.option_table
PRESETS = sorted(TABLE.presets)
BID_WEIGHTS = {"pass": 3.0, "bid ansager": 3.0, "bid solo": 2.0, "bid super": 1.0, "bid super_mord": 0.5}


def steer(state: State, rng: random.Random) -> int:
    """A legal action: low bids more often, a lay-out or a double now and then, Retours rarely."""
    actions = state.legal_actions()
    texts = [a.text for a in actions]
    if any(t.startswith("bid") for t in texts):
        weights = [BID_WEIGHTS[t] for t in texts]
        return rng.choices(actions, weights)[0].code
    lay = [a for a in actions if a.kind == "lay_out"]
    if lay and rng.random() < 0.4:
        return rng.choice(lay).code
    doubles = [a for a in actions if a.kind in ("schwacher", "retour")]
    if doubles and rng.random() < 0.3:
        return doubles[0].code
    quiet = [a for a in actions if a.kind not in ("schwacher", "retour", "lay_out")] or actions
    return rng.choice(quiet).code


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_and_table_size_conforms(preset: str, players: int) -> None:
    # §2, §9 every preset at three and at four players passes the harness, with uniform and steered play
    g = game(preset, players=players)
    states = run_conformance(g, deals=10, seed=101 + players)
    states += run_conformance(g, deals=20, seed=202 + players, choose=steer)
    contracts = {s.result().breakdown.get("contract") for s in states}
    assert {"ansager", "solo"} <= contracts


def random_options(rng: random.Random) -> dict[str, Any]:
    """One value for every option of the table."""
    values: dict[str, Any] = {}
    for info in TABLE.infos:
        if info.type == "bool":
            values[info.name] = rng.random() < 0.5
        elif info.type == "int":
            low = info.minimum or 0
            high = min(info.maximum if info.maximum is not None else low + 5, low + 5)
            values[info.name] = rng.randint(low, high)
        else:
            values[info.name] = rng.choice(info.choices or ("",))
    return values


def random_option_sets(count: int, seed: int = 20260301) -> list[dict[str, Any]]:
    """``count`` accepted random option sets; every rejected draw must be the documented contradiction."""
    rng = random.Random(seed)
    accepted: list[dict[str, Any]] = []
    while len(accepted) < count:
        values = random_options(rng)
        fits = (values["deck_size"] == "78") == (values["deal_pattern"] == "5-5-5-5-5-talon")
        try:
            game("stubai", **values)
        except OptionError as exc:
            assert not fits, f"undocumented rejection: {exc}"
            assert "deal_pattern" in str(exc) and "deck_size" in str(exc)
            continue
        assert fits
        accepted.append(values)
    return accepted


@pytest.mark.parametrize("index", range(8))
def test_random_option_sets_conform(index: int) -> None:
    # §9 random combinations of the options: documented contradictions are refused, the rest pass the harness
    values = random_option_sets(8)[index]
    run_conformance(game("stubai", **values), deals=5, seed=index, choose=steer)
