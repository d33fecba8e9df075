"""The play table's shortcuts give the legal actions of the full rules (dossier §5.2, §5.3, §5.5, §6.1).

``DoppelkopfState.legal_codes`` reads the options once per deal and skips
work that cannot matter: it writes the common case of ``_playable`` out, it
asks for no call below the call floor (the lowest deadline, one card less
for a reply, and ``call_last_min_cards``), and it takes the calls open from a
memo shared by the deals of one set of call options; ``apply`` tests a card
code against ``_playable`` itself.  These tests play random deals
over the options that move those shortcuts and compare, at every decision of
the play phase, the legal actions with the full computations they stand for.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from stich.errors import IllegalActionError
from stich.games.doppelkopf import actions as A
from stich.games.doppelkopf.outcome import NONE
from stich.games.doppelkopf.state import PLAY, DoppelkopfState, face_codes, faces_of

from .helpers import game

CALL_OPTIONS: list[dict[str, Any]] = [
    {},
    {"nines": False},
    {"players": 5},
    {"call_min_cards": "11/9/6/3/3", "call_last_min_cards": 3},
    {"call_min_cards": "12/12/10/4/2", "call_last_min_cards": 5, "reply_allowed": False},
    {"call_min_cards": "10/10/10/10/10", "timing_mode": "table_cards"},
    {"nines": False, "call_last_min_cards": 8, "timing_mode": "table_cards"},
    {"hochzeit_announcement_timing": "normal_with_conversion", "reply_allowed": False},
    {"must_overtrump": True, "skip_levels": False, "absage_after_opponent_absage": False},
    {"genscher": True, "knocking": True, "compulsory_call_first_trick_30": True, "schweine": "holder_choice"},
]
"""Option sets that move the call floor, the follow rules and the play phase's extra actions."""


def full_calls(state: DoppelkopfState) -> list[int]:
    """The calls of the seat to move, computed in full (no floor), as legal_codes would list them."""
    p = state.to_move
    if not state.ann_open:
        return []
    if state.must_call == p and state.level[state.party[p]] == NONE:
        return [A.ANNOUNCE + state.party[p]]
    return state._announce_codes(p)


@pytest.mark.parametrize("options", CALL_OPTIONS, ids=[",".join(f"{k}={v}" for k, v in o.items()) or "ddv" for o in CALL_OPTIONS])
def test_legal_codes_keep_every_call_and_card_of_the_full_rules(options: dict[str, Any]) -> None:
    g = game(**options)
    rng = random.Random(20261127)
    calls_seen = 0
    for deal in range(40):
        state = g.new_state(seed=rng.getrandbits(32), dealer=deal % g.num_seats)
        while not state.is_terminal():
            legal = state.legal_codes()
            if state.phase == PLAY:
                calls = full_calls(state)
                assert [c for c in legal if A.ANNOUNCE <= c < A.SOLO] == calls  # §5.2, §5.3, §5.5: no call hidden by the floor
                calls_seen += len(calls)
                if state.must_call is None:
                    cards = face_codes(faces_of(state._playable(state.to_move)))
                    assert [c for c in legal if c < A.DISCARD] == cards  # §6.1: the cards of _playable, nothing else
                    for code in range(A.DISCARD):
                        assert (state.illegal_reason(code) is None) == (code in cards)
                    probe, copy = rng.randrange(A.DISCARD), state.clone()  # apply's one-call card path: the same legality
                    if probe in cards:
                        copy.apply(probe)
                        assert copy.history[-1] == (state.to_move, probe) and len(copy.trick_cards) != len(state.trick_cards)
                    else:
                        with pytest.raises(IllegalActionError):
                            copy.apply(probe)
                        assert copy.history == state.history
            calls_available = [c for c in legal if A.ANNOUNCE <= c < A.SOLO]
            choice = rng.choice(calls_available) if calls_available and rng.random() < 0.3 else rng.choice(legal)
            state.apply(choice)
    assert calls_seen > 0  # the random player met calls to compare
