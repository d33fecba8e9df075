"""The conformance suite (stich.testing.conformance) over every preset, both table sizes and option mixes."""

from __future__ import annotations

import random

import pytest

from stich.core.game import State
from stich.core.registry import make_game
from stich.games.tapp_tarock.options import PRESETS
from stich.testing.conformance import run_conformance

CASES = [(preset, size) for preset in PRESETS for size in ("none", "dealer_sits_out")]
MIXES = [
    {"solo_jump": "first_turn_only", "solo_ends_auction": False, "hold_rule": "forehand_only", "all_pass": "redeal_next_dealer"},
    {"bidding_style": "immediate_hold", "solo_ends_auction": False},
    {"bidding_style": "immediate_hold", "hold_rule": "forehand_only", "solo_jump": "first_turn_only"},
    {"talon_half_rule": "fixed_unexposed", "forced_tarock_discard": "announce_count", "kontra_scope": "game_only"},
    {"talon_half_rule": "fixed", "first_lead": "declarer", "defender_valat": True, "valat_replaces_game": False},
    {
        "hand_bonus_settlement": "side_based",
        "hand_bonus_timing": "after_talon",
        "pagat_solo_values": "8/24",
        "valat_mode": "multiplier_4_8",
    },
]


@pytest.mark.parametrize(("preset", "fourth"), CASES, ids=[f"{p}-{s}" for p, s in CASES])
def test_preset_conforms(preset: str, fourth: str) -> None:
    game = make_game("tapp_tarock", preset, {"fourth_player": fourth})
    states = run_conformance(game, deals=10, seed=11)
    assert all(s.is_terminal() for s in states)


@pytest.mark.parametrize("mix", MIXES, ids=[f"mix{i}" for i in range(len(MIXES))])
def test_option_mixes_conform(mix: dict[str, object]) -> None:
    states = run_conformance(make_game("tapp_tarock", None, mix), deals=10, seed=12)
    assert all(s.is_terminal() for s in states)


def bidder(state: State, rng: random.Random) -> int:
    """Random play that avoids passing in the bidding more often, so that every phase is reached."""
    codes = state.legal_codes()
    texts = {state.game.actions[c].text: c for c in codes}
    if "pass" in texts and len(codes) > 1 and getattr(state, "phase_name", "") == "bidding" and rng.random() < 0.7:
        codes = [c for c in codes if c != texts["pass"]]
    return rng.choice(codes)


def test_every_phase_conforms_with_eager_bidders() -> None:
    # bidders who rarely pass reach the talon, announcements, doubling and Solo often
    game = make_game("tapp_tarock")
    states = run_conformance(game, deals=20, seed=13, choose=bidder)
    contracts = {s.contract.name for s in states if s.contract is not None}  # type: ignore[attr-defined]
    assert "solo" in contracts and contracts - {"solo"}
    assert any(s.doubling[0] for s in states)  # type: ignore[attr-defined]


def test_every_illegal_action_names_its_rule() -> None:
    # illegal actions raise IllegalActionError naming the dossier rule (§x.y) in every phase
    game = make_game("tapp_tarock", None, {"talon_half_rule": "fixed"})
    rng = random.Random(3)
    phases: set[str] = set()
    for seed in range(30):
        state = game.new_state(seed=seed, dealer=seed % 3)
        while not state.is_terminal():
            legal = set(state.legal_codes())
            phases.add(state.phase_name)  # type: ignore[attr-defined]
            for code in range(len(game.actions)):
                reason = state.illegal_reason(code)
                assert (reason is None) == (code in legal)
                if reason is not None:
                    assert reason[1].startswith("§") and reason[0]
            state.apply(rng.choice(sorted(legal)))
    assert phases == {"bidding", "talon", "discard", "announce", "kontra", "play"}
