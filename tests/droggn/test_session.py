"""Scenario tests of a Droggn session: who deals, the idle fourth, thrown-in deals, the end, the score sheet (dossier §2, §8)."""

from __future__ import annotations

import json

import pytest

from stich.core.game import DealResult
from stich.core.records import list_record, play_session, replay_list
from stich.core.session import SessionError
from stich.games.droggn.session import DroggnSession, first_dealer
from stich.games.droggn.state import DroggnState

from .helpers import game, play_out


def play_deal(session: DroggnSession, declarer_index: int | None = 0, contract: str = "super") -> DroggnState:
    """Deal, play and book one deal: the active player at ``declarer_index`` (0 = dealer's left) bids, the rest pass.

    ``None``: everybody passes (a thrown-in deal).  Cards are then played lowest code first.
    """
    state = session.next_deal()
    assert state is not None
    for i in range(3):
        state.apply(f"bid {contract}" if i == declarer_index else "pass")
    if not state.is_terminal():
        play_out(state)
    session.book(state)
    return state


def test_first_dealer_is_drawn_from_the_seed() -> None:
    # §2 the first dealer is cut for; the engine draws it from the session seed
    dealers = {DroggnSession(game(), seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2}
    assert DroggnSession(game(), 17).dealer == first_dealer(17, 3)
    assert DroggnSession(game(), 17).dealer == DroggnSession(game(), 17).dealer


def test_the_declarer_deals_next() -> None:
    # §2 no rotation: the declarer of each deal deals the next one
    session = DroggnSession(game(), 5, deals=4)
    for index in (1, 2, 0, 1):
        state = play_deal(session, index)
        assert session.dealer == state.declarer
        assert state.declarer == state.active[index]


def test_thrown_in_deal_same_dealer_not_counted() -> None:
    # §2, §3.2 all pass: thrown in, a zero row, the same dealer deals again, not a played deal
    session = DroggnSession(game(), 9, deals=2)
    dealer = session.dealer
    state = play_deal(session, None)
    assert state.thrown
    assert session.dealer == dealer
    assert session.games == 0
    row = session.rows[-1]
    assert row.scores == (0, 0, 0)
    assert row.notes["redeal"] is True
    assert "thrown in" in row.label
    assert not session.is_over()
    second = session.next_deal()
    assert second is not None and second.dealer == dealer
    assert second.seed != state.seed


def test_four_players_declarer_sits_out_next() -> None:
    # §2, §8.6 with four you play until you are declarer, then you sit out the next deal (and pay with the defenders)
    session = DroggnSession(game(players=4), 3, deals=3)
    first = play_deal(session, 1)
    second = session.next_deal()
    assert second is not None
    assert second.dealer == first.declarer
    assert second.idle == first.declarer
    assert first.declarer not in second.active
    result = first.result()
    assert result.scores[first.dealer] == result.scores[first.active[0]]


def test_session_length_and_deals_argument() -> None:
    # §8.7 a session has session_deals played deals (deals=k overrides)
    session = DroggnSession(game(session_deals=2), 1)
    play_deal(session)
    assert not session.is_over()
    play_deal(session)
    assert session.is_over()
    assert session.next_deal() is None
    assert DroggnSession(game(), 1, deals=5).target == 5


def test_announced_end_after_four_more_deals() -> None:
    # §8.7 "the next declarer deals the first of the last three hands": the session ends after four more deals
    session = DroggnSession(game(), 2)
    play_deal(session)
    play_deal(session)
    assert session.announce_end() == 4
    announced_declarer = play_deal(session, 1).declarer
    assert session.dealer == announced_declarer  # he deals the first of the last three hands
    play_deal(session, None)  # a thrown-in deal does not count
    for _ in range(3):
        play_deal(session)
    assert session.is_over()
    assert [row.notes.get("last_hand") for row in session.rows if row.notes.get("game")] == [None, None, None, 1, 2, 3]


def test_score_sheet_rows_and_totals() -> None:
    # §8 the sheet in points: each row the declarer's value V, payments per seat and running totals
    session = DroggnSession(game(), 4, deals=3)
    states = [play_deal(session, i) for i in (0, 1, 2)]
    totals = [0, 0, 0]
    for row, state in zip(session.rows, states, strict=True):
        value = state.result().breakdown["value"]
        assert row.notes["value"] == value
        assert row.scores[state.declarer] == 2 * value
        totals = [t + s for t, s in zip(totals, row.scores, strict=True)]
        assert list(row.totals) == totals
        assert f"V = {value:+d}" in row.label
        assert "Super" in row.label
    assert sum(session.totals) == 0


def test_booking_checks_the_payments() -> None:
    # §8 a row must be zero-sum with every seat but the declarer paying the same; a bad one is refused and nothing changes
    session = DroggnSession(game(), 6, deals=2)
    state = session.next_deal()
    assert state is not None
    for text in ("bid solo", "pass", "pass"):
        state.apply(text)
    play_out(state)
    state._result = DealResult((10, -5, -4), {"kind": "played"})
    with pytest.raises(SessionError, match="zero"):
        session.book(state)
    state._result = DealResult((10, -2, -8), {"kind": "played"})
    with pytest.raises(SessionError, match="pays the same"):
        session.book(state)
    assert session.rows == [] and session.totals == [0, 0, 0]


def test_list_record_replays() -> None:
    # records: a whole session survives JSON and replays to the same sheet
    g = game(players=4, session_deals=5)
    session = DroggnSession(g, 12)

    def middle(state: object) -> int:
        assert isinstance(state, DroggnState)
        codes = [a.code for a in state.legal_actions() if a.kind != "retour"]
        return codes[len(codes) // 2]

    states = play_session(session, middle)
    record = json.loads(json.dumps(list_record(session, states)))
    replayed = replay_list(record)
    assert replayed.totals == session.totals
    assert replayed.sheet() == session.sheet()
