"""Scenario tests of the Tapp Tarock list: the deal passes to the right, redeals, the end of the list, the sheet (dossier §2, §3.3)."""

from __future__ import annotations

import json

import pytest

from stich.core.game import DealResult
from stich.core.records import list_record, play_session, replay_list
from stich.core.session import SessionError
from stich.games.tapp_tarock.session import TappTarockSession
from stich.games.tapp_tarock.state import TappTarockState

from .helpers import game, piles


def policy(state: TappTarockState, bidder: str = "forehand") -> str:
    """A fixed policy: forehand (or nobody, ``bidder="nobody"``) bids a Dreier, everybody else passes;
    the lower half, the first legal discards, no announcement or doubling, the first legal card."""
    phase = state.phase_name
    if phase == "bidding":
        if bidder == "forehand" and state.current_player() == state.active[0] and state.level == 0:
            return "bid dreier"
        return "pass"
    if phase == "talon":
        return "take lower"
    if phase in ("announce", "kontra"):
        return "pass"
    return state.legal_actions()[0].text


def play_deal(session: TappTarockSession, bidder: str = "forehand") -> TappTarockState:
    state = session.next_deal()
    assert state is not None
    while not state.is_terminal():
        state.apply(policy(state, bidder))
    session.book(state)
    return state


def test_deal_passes_to_the_right() -> None:
    # §2: after each deal the old forehand (seat dealer + 1 in the direction of play) deals next
    session = TappTarockSession(game(), seed=3)
    dealers = [play_deal(session).dealer for _ in range(5)]
    assert dealers == [0, 1, 2, 0, 1]


def test_all_pass_redeal_by_the_same_dealer() -> None:
    # §3.3: everybody passed: the cards are thrown in and the same dealer deals again; not a counted deal
    session = TappTarockSession(game(), seed=3)
    state = play_deal(session, bidder="nobody")
    assert state.thrown
    row = session.rows[-1]
    assert row.label == "Redeal (all passed)" and row.scores == (0, 0, 0) and row.notes["redeal"]
    assert session.dealer == 0 and session.games == 0 and session.deal_index == 1
    assert play_deal(session).dealer == 0


def test_all_pass_redeal_by_the_next_dealer() -> None:
    # §3.3 option all_pass=redeal_next_dealer: the deal moves on after a throw-in
    session = TappTarockSession(game(all_pass="redeal_next_dealer"), seed=3)
    play_deal(session, bidder="nobody")
    assert session.dealer == 1 and session.games == 0


def test_list_length_in_rounds() -> None:
    # §2 (decision 0010): a list is session_rounds rounds in which each seat deals once; redeals do not count
    session = TappTarockSession(game(session_rounds=2), seed=3)
    play_deal(session, bidder="nobody")
    while session.next_deal() is not None:
        play_deal(session)
    assert session.games == 6 and len(session.rows) == 7
    assert session.next_deal() is None
    assert TappTarockSession(game(), seed=1).target == 12
    assert TappTarockSession(game(), seed=1, deals=5).target == 5


def test_score_sheet_in_game_points() -> None:
    # §8: the sheet books each deal's game points per seat with running totals
    session = TappTarockSession(game(), seed=8)
    states = [play_deal(session) for _ in range(4)]
    totals = [0, 0, 0]
    for state, row in zip(states, session.rows, strict=True):
        scores = state.result().scores
        assert row.scores == scores and sum(scores) == 0
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        assert list(row.totals) == totals
        assert row.label.startswith("Dreier (seat ")
        assert row.notes["contract"] == "dreier" and row.notes["declarer"] == state.declarer
    assert session.totals == totals


def test_four_players_dealer_sits_out_in_turn() -> None:
    # §2: at a table of four the dealer sits out and scores 0; the deal passes on
    session = TappTarockSession(game(fourth_player="dealer_sits_out"), seed=4)
    assert session.target == 16
    for dealer in (0, 1, 2, 3, 0):
        state = play_deal(session)
        assert state.dealer == dealer and dealer not in state.active
        assert session.rows[-1].scores[dealer] == 0


def test_explicit_hands_take_their_place_in_the_list() -> None:
    # §2: a deal dealt by hand is booked like any other
    g = game()
    session = TappTarockSession(g, seed=1)
    state = session.next_deal(hands=piles(g, {0: "T22 T21 T1"}, dealer=0))
    assert state is not None and state.seed is None and state.dealer == 0
    assert state.active == (1, 2, 0)


def test_broken_result_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # §8: the sheet takes only zero-sum entries; a bad result books nothing
    session = TappTarockSession(game(), seed=2)
    state = session.next_deal()
    assert state is not None
    while not state.is_terminal():
        state.apply(policy(state))
    monkeypatch.setattr(state, "result", lambda: DealResult((5, 0, 0), {"kind": "game"}))
    with pytest.raises(SessionError, match="zero"):
        session.book(state)
    assert session.rows == [] and session.totals == [0, 0, 0]


def test_list_record_replays() -> None:
    # the list record of a session replays deal by deal with the same sheet
    session = TappTarockSession(game(session_rounds=1), seed=5)
    states = play_session(session, lambda s: policy(s))  # type: ignore[arg-type]
    record = json.loads(json.dumps(list_record(session, states)))
    replayed = replay_list(record)
    assert replayed.totals == session.totals
    assert replayed.sheet() == session.sheet()
