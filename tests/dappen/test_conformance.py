"""Conformance suite for Dappen: every preset at every table size, and random option sets.

:func:`stich.testing.conformance.run_conformance` checks at every step that
cards are conserved (hands, Dapp, discards, played cards), that a legal
action exists until the end, that no observation names a card outside
``knowable_cards`` (own hand, cards played, laid-out Ulti cards, the lone
player's own discards, the talon after the play, cards shown), that clones are
independent, that illegal actions change nothing, and at the end that the
scores are zero-sum and the record replays.  The chooser passes more often
than uniform play in the bidding so that dapps, stretches and Hannes ladders
are reached, not only first-round Solos.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from stich.core.game import State
from stich.errors import OptionError
from stich.games.dappen import actions as A
from stich.games.dappen.options import OPTION_TABLE
from stich.games.dappen.state import DappenState
from stich.testing.conformance import run_conformance, run_deal

from .helpers import game

CASES = [
    ("furtwangen", 6),
    ("furtwangen", 7),
    ("furtwangen", 8),
    ("breitnau", 6),
    ("breitnau", 7),
    ("breitnau", 8),
    ("buchenbach", 6),
    ("buchenbach", 7),
    ("schollach", 6),
    ("schollach", 7),
    ("waldau", 6),
    ("waldau", 7),
    ("jeu_du_tarot", 3),
    ("jeu_du_tarot", 4),
    ("jeu_du_tarot", 5),
    ("jeu_du_tarot", 6),
    ("jeu_du_tarot", 7),
]


def bidding_chooser(state: State, rng: random.Random) -> int:
    """Uniform play, except that the Solo question is mostly passed and the Dapp round often."""
    codes = state.legal_codes()
    assert isinstance(state, DappenState)
    if A.PASS in codes:
        if state.phase_name == "solo" and rng.random() < 0.85:
            return A.PASS
        if state.phase_name in ("dapp", "solo_stretch") and rng.random() < 0.5:
            return A.PASS
    return rng.choice(codes)


def test_every_preset_and_table_size_is_covered() -> None:
    # §9: every preset, every table size it allows
    assert {p for p, _ in CASES} == set(OPTION_TABLE.presets)


@pytest.mark.parametrize(("preset", "players"), CASES, ids=[f"{p}-{n}" for p, n in CASES])
def test_preset_conforms(preset: str, players: int) -> None:
    g = game(preset, players=players)
    states = run_conformance(g, deals=10, seed=players * 101 + len(preset), choose=bidding_chooser)
    assert all(s.is_terminal() for s in states)


def test_conformance_reaches_the_special_rules() -> None:
    # the random deals reach Gstiesieren, Ultis, stretches, Stupfen, Hannes, Marsch and throw-ins
    wanted = {"dapp", "strecken", "solo", "stupfen", "ein_hannes", "thrown", "ulti", "gstiesieren", "marsch"}
    seen: Counter[str] = Counter()
    rng = random.Random(9)
    for _round in range(40):
        for preset in ("furtwangen", "breitnau", "buchenbach"):
            state = run_deal(game(preset), rng.getrandbits(64), rng, choose=bidding_chooser)
            assert isinstance(state, DappenState)
            b = state.result().breakdown
            seen[b.get("contract") or b["kind"]] += 1
            if b.get("gstiesierer") is not None:
                seen["gstiesieren"] += 1
            if b.get("ulti"):
                seen["ulti"] += 1
            if b.get("marsch"):
                seen["marsch"] += 1
        if wanted <= set(seen):
            break
    assert wanted <= set(seen), wanted - set(seen)


def random_options(rng: random.Random) -> dict[str, Any]:
    """A random option set over the whole table (contradictory ones are skipped by the caller)."""
    values: dict[str, Any] = {}
    for info in OPTION_TABLE.infos:
        if info.type == "bool":
            values[info.name] = rng.random() < 0.5
        elif info.choices:
            values[info.name] = rng.choice(info.choices)
    values["players"] = rng.randint(3, 8)
    values["max_active"] = rng.choice((6, 7))
    values["jdt_stake"] = rng.choice((1, 5))
    return values


def test_random_option_sets_conform() -> None:
    # §9: any consistent combination of options plays correctly
    rng = random.Random(12)
    tried = 0
    for _ in range(3000):
        values = random_options(rng)
        try:
            g = game(None, **values)
        except OptionError:
            continue
        run_conformance(g, deals=2, seed=rng.getrandbits(32), choose=bidding_chooser)
        tried += 1
        if tried >= 20:
            break
    assert tried >= 20
