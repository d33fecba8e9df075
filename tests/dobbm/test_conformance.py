"""Conformance (stich.testing.conformance) over every preset and table size, with Mußrunde and all-pass deals.

At every step: cards conserved (hands, Dobb, discards, played), a legal
action exists until the end, observations name no card outside
``knowable_cards`` (own hand, cards played, a Dobbm declarer's Dobb and
discards, everything laid away once the deal is counted), clones are
independent, illegal actions are refused without a change; at the end the
record replays and the scores are zero-sum.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from stich.core.game import Game, State
from stich.games.dobbm.game import Dobbm
from stich.games.dobbm.state import DobbmState, active_seats
from stich.testing.conformance import run_conformance

from .helpers import game

CASES = [(preset, players) for preset in Dobbm.option_table.presets for players in (4, 5)]


@pytest.mark.parametrize(("preset", "players"), CASES, ids=[f"{p}-{n}" for p, n in CASES])
def test_every_preset_and_table_size_conforms(preset: str, players: int) -> None:
    states = run_conformance(game(preset, players=players), deals=25, seed=11)
    assert all(s.is_terminal() for s in states)


def _mussrunde(g: Game, dealer: int, rng: random.Random) -> Mapping[str, Any]:
    return {"forced_declarer": active_seats(g.num_seats, dealer)[0], "mussrunde": True}


@pytest.mark.parametrize("options", [{}, {"players": 5}, {"mussrunde_allow_overbid": True}])
def test_mussrunde_deals_conform(options: dict[str, Any]) -> None:
    # §3.4 forced declarer deals pass the harness too
    states = [s for s in run_conformance(game(**options), deals=15, seed=4, context=_mussrunde) if isinstance(s, DobbmState)]
    assert len(states) == 15 and not any(s.thrown for s in states)
    if not options.get("mussrunde_allow_overbid"):
        assert all(s.declarer == s.active[0] for s in states)


def _timid(state: State, rng: random.Random) -> int:
    """Mostly pass and accept, so that all-pass deals and plain doubling rounds occur."""
    codes = state.legal_codes()
    quiet = [c for c in codes if state.game.actions[c].text in ("pass", "accept")]
    if quiet and rng.random() < 0.85:
        return rng.choice(quiet)
    return rng.choice(codes)


@pytest.mark.parametrize("players", [4, 5])
def test_all_pass_deals_conform(players: int) -> None:
    # §3.2 thrown-in deals (with the Stockerl at five) pass the harness
    states = run_conformance(game(players=players), deals=20, seed=2, choose=_timid)
    assert any(isinstance(s, DobbmState) and s.thrown for s in states)


@pytest.mark.parametrize(
    "options",
    [
        {"retour_limit": 1},
        {"sow_discard_rule": "any_heart_incl_sow", "doubling_first_speaker": "dealer_left"},
        {"dobb_to_defenders_if_declarer_no_trick": False, "match_stake": 6},
        {"players": 5, "stockerl_5p": False, "match_stake": 240, "payment_rounding": "exact"},
    ],
)
def test_option_variants_conform(options: dict[str, Any]) -> None:
    run_conformance(game(**options), deals=12, seed=6)


def test_clone_copies_only_what_changes() -> None:
    # clone is cheap: a dict copy plus the mutable lists, shared immutable parts
    g = game()
    s = g.new_state(seed=3, dealer=0)
    while s.phase_name != "play":
        s.apply(s.legal_actions()[-1] if s.phase_name == "bidding" else s.legal_actions()[0])
    twin = s.clone()
    assert twin.hands is not s.hands and twin.tricks is not s.tricks and twin.history is not s.history
    assert twin.dealt is s.dealt and twin.game is s.game
    twin.apply(twin.legal_actions()[0])
    assert len(s.history) + 1 == len(twin.history)
