"""Scenario tests of the Dobbm list: who deals, thrown-in deals, the idle dealer, the Mußrunde, the sheet (dossier §2, §3).

Deals are played with a fixed policy: the seats named in ``bids`` bid what
they are told, everybody else passes or accepts, and the first legal card is
played.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

from stich.core.records import list_record, replay_list
from stich.core.session import SessionError
from stich.games.dobbm.session import DobbmSession, first_dealer
from stich.games.dobbm.state import DobbmState

from .helpers import game


def play_out(state: DobbmState, bids: Mapping[int, str] | None = None) -> DobbmState:
    """Play a deal: ``bids`` maps a seat to its call (``bid dobbm``, ``bid solo``); others pass or accept."""
    bids = bids or {}
    while not state.is_terminal():
        seat = state.current_player()
        legal = [a.text for a in state.legal_actions()]
        if state.phase_name == "bidding" and bids.get(seat) in legal:
            choice = bids[seat]
        elif "pass" in legal:
            choice = "pass"
        elif "accept" in legal:
            choice = "accept"
        else:
            choice = legal[0]
        state.apply(choice)
    return state


def book(session: DobbmSession, bids: Mapping[int, str] | None = None) -> DobbmState:
    state = session.next_deal()
    assert state is not None
    play_out(state, bids)
    session.book(state)
    return state


def check_sheet(session: DobbmSession) -> None:
    """Every row sums to zero and the totals are the running sums (§8.3)."""
    running = [0] * session.game.num_seats
    for row in session.rows:
        assert sum(row.scores) == 0
        running = [t + s for t, s in zip(running, row.scores, strict=True)]
        assert list(row.totals) == running
    assert session.totals == running


def test_first_dealer_is_drawn_from_the_seed() -> None:
    # §2 the first dealer is chosen at random: reproducibly from the list's seed
    dealers = {DobbmSession(game(), seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert DobbmSession(game(), 17).dealer == first_dealer(17, 4)


def test_the_declarer_deals_the_next_deal() -> None:
    # §2 the turn to deal does not rotate: the declarer of the previous deal deals the next one
    session = DobbmSession(game(), seed=3)
    start = session.dealer
    declarer = (start + 2) % 4
    state = book(session, {declarer: "bid dobbm"})
    assert state.declarer == declarer
    assert session.dealer == declarer
    state = book(session, {(declarer + 1) % 4: "bid solo"})
    assert session.dealer == (declarer + 1) % 4
    check_sheet(session)


def test_all_pass_at_four_the_same_dealer_deals_again_and_it_does_not_count() -> None:
    # §3.2 4 players: thrown in, the same dealer deals again; the deal is not a counted deal
    session = DobbmSession(game(), seed=5, deals=2)
    dealer = session.dealer
    book(session)
    assert session.dealer == dealer and session.games == 0
    row = session.rows[-1]
    assert row.scores == (0, 0, 0, 0) and row.notes["counted"] is False
    assert row.label.startswith("Alle weiter")
    assert session.deal_index == 1  # the next deal comes from a fresh seed


def test_all_pass_at_five_the_deal_passes_left_with_a_stockerl() -> None:
    # §3.2 5 players: the deal passes to the left and the new dealer collects a Stockerl from each of the other four
    session = DobbmSession(game(players=5), seed=5)
    dealer = session.dealer
    book(session)
    new = (dealer + 1) % 5
    assert session.dealer == new
    row = session.rows[-1]
    assert row.scores[new] == 8 and all(row.scores[s] == -2 for s in range(5) if s != new)
    assert "Stockerl 2" in row.label
    check_sheet(session)


def test_five_players_the_declarer_sits_out_the_next_deal() -> None:
    # §2 in the 5-player game you keep playing until you are declarer, and you sit out the next deal
    session = DobbmSession(game(players=5), seed=8)
    first = session.next_deal()
    assert first is not None
    declarer = first.active[1]
    play_out(first, {declarer: "bid solo"})
    session.book(first)
    nxt = session.next_deal()
    assert nxt is not None
    assert nxt.dealer == declarer and declarer not in nxt.active
    assert nxt.hand_mask(declarer) == 0


def test_idle_dealer_pays_or_receives_in_the_sheet() -> None:
    # §8.3 the sitting-out dealer pays or receives like a defender
    session = DobbmSession(game(players=5), seed=8)
    state = session.next_deal()
    assert state is not None
    play_out(state, {state.active[0]: "bid dobbm"})
    session.book(state)
    row = session.rows[-1]
    payment = state.result().breakdown["payment"]
    winner = state.result().breakdown["winner"]
    if winner is not None:
        assert state.declarer is not None
        assert row.scores[state.dealer] == (-payment if winner == "declarer" else payment)
        assert row.scores[state.declarer] == (4 * payment if winner == "declarer" else -4 * payment)


def test_mussrunde_forces_each_player_once_and_ends_the_list() -> None:
    # §3.4 the Mußrunde lasts one deal per player; the dealer's left must declare, then deals the next; then the list ends
    session = DobbmSession(game(mussrunde_at_end=True, list_deals=6), seed=21)
    book(session, {})  # thrown in: not counted
    for _ in range(2):
        dealer = session.dealer
        book(session, {(dealer + 1) % 4: "bid dobbm"})
    forced: list[int] = []
    while (state := session.next_deal()) is not None:
        seat = (state.dealer + 1) % 4
        assert state.forced == seat and state.mussrunde
        assert [a.text for a in state.legal_actions()] == ["bid dobbm", "bid solo"]
        play_out(state, {seat: "bid solo" if len(forced) % 2 else "bid dobbm"})
        session.book(state)
        assert state.declarer == seat
        forced.append(seat)
        assert session.dealer == state.declarer
    assert sorted(forced) == [0, 1, 2, 3]
    assert session.games == 6 and session.is_over()
    assert all(row.label.startswith("Mußrunde") for row in session.rows[-4:])
    assert all(row.notes["mussrunde"] for row in session.rows[-4:])
    check_sheet(session)


def test_mussrunde_at_five_forces_all_five() -> None:
    # §3.4 one deal per player at the table: 5 at a five-player table, the idle dealer included in turn
    session = DobbmSession(game(players=5, mussrunde_at_end=True, list_deals=5), seed=2)
    forced: list[int] = []
    while (state := session.next_deal()) is not None:
        assert state.forced == state.active[0]
        play_out(state, {})
        session.book(state)
        assert state.declarer == state.active[0]
        forced.append(state.active[0])
    assert sorted(forced) == [0, 1, 2, 3, 4]


def test_list_length_counts_played_deals_only() -> None:
    # §3.2 thrown-in deals are not counted; the list has list_deals (or deals=k) counted deals
    session = DobbmSession(game(), seed=1, deals=3)
    booked = 0
    while (state := session.next_deal()) is not None:
        play_out(state, {state.active[0]: "bid dobbm"} if booked % 2 else {})
        session.book(state)
        booked += 1
    assert session.games == 3 and len(session.rows) == 6  # three thrown in, three played
    assert DobbmSession(game(list_deals=7), seed=1).target == 7


def test_the_sheet_is_in_payment_units_and_replays() -> None:
    # §8 the sheet books each deal's payments in the stake's units; the list record replays to the same sheet
    g = game(mussrunde_at_end=True, list_deals=5)
    session = DobbmSession(g, seed=9)
    states = []
    while (state := session.next_deal()) is not None:
        play_out(state, {state.active[1]: "bid dobbm"})
        session.book(state)
        states.append(state)
    check_sheet(session)
    assert g.score_unit == "units"
    record = json.loads(json.dumps(list_record(session, states)))
    replayed = replay_list(record)
    assert replayed.sheet() == session.sheet()


def test_booking_checks_the_deal() -> None:
    # §2 / §3.4 only the pending deal can be booked, and only once it is finished
    session = DobbmSession(game(), seed=4)
    state = session.next_deal()
    assert state is not None
    with pytest.raises(SessionError):
        session.book(state)
    other = game().new_state(seed=1, dealer=0)
    play_out(other)
    with pytest.raises(SessionError):
        session.book(other)
