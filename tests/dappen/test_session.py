"""Scenario tests of the Dappen session: dealer rotation, idle dealer, thrown-in deals, the sheet in cents (dossier §2, §8)."""

from __future__ import annotations

import json
import random

import pytest

from stich.cards import parse_cards
from stich.core.game import DealResult
from stich.core.records import list_record, play_session, replay_list
from stich.core.session import SessionError
from stich.games.dappen.session import DappenSession, euros
from stich.games.dappen.state import DappenState

from .helpers import game, rest_of_pack
from .test_rules_bidding import NO_STOP


def first_legal(state: DappenState) -> str:
    """A fixed policy: pass whenever allowed, else the first legal action."""
    texts = [a.text for a in state.legal_actions()]
    return "pass" if "pass" in texts else texts[0]


def play_one(session: DappenSession, hands: list[str] | None = None) -> DappenState:
    state = session.next_deal([parse_cards(h) for h in hands] if hands is not None else None)
    assert state is not None
    while not state.is_terminal():
        state.apply(first_legal(state))
    session.book(state)
    return state


def check_sheet(session: DappenSession) -> None:
    running = [0] * session.game.num_seats
    for row in session.rows:
        assert sum(row.scores) == 0
        running = [t + s for t, s in zip(running, row.scores, strict=True)]
        assert list(row.totals) == running
    assert session.totals == running


def test_first_dealer_is_drawn_from_the_seed() -> None:
    # §2: the first dealer is random (here: drawn from the session seed, so a list replays)
    dealers = {DappenSession(game(), seed).dealer for seed in range(40)}
    assert dealers == set(range(6))
    assert DappenSession(game(), 17).dealer == DappenSession(game(), 17).dealer


def test_deal_passes_to_the_right() -> None:
    # §2: after each deal the player on the old dealer's right (seat dealer + 1) deals
    session = DappenSession(game(), seed=3, deals=8)
    first = session.dealer
    dealers = [play_one(session).dealer for _ in range(8)]
    assert dealers == [(first + i) % 6 for i in range(8)]
    check_sheet(session)


def test_default_session_is_one_round() -> None:
    # §2: the session ends when the players agree; by default every seat deals once (decision 0013)
    session = DappenSession(game(players=7), seed=1)
    states = play_session(session, first_legal)
    assert len(states) == 7 and session.is_over() and session.next_deal() is None
    assert DappenSession(game(session_deals=12), seed=1).target == 12


def test_idle_dealer_at_eight_scores_nothing() -> None:
    # §2 / §8: at 8 players the dealer sits out and takes no part in the payments
    session = DappenSession(game(players=8), seed=5, deals=8)
    for _ in range(8):
        state = play_one(session)
        row = session.rows[-1]
        assert row.notes["idle"] == state.dealer and row.scores[state.dealer] == 0
        assert state.hand_mask(state.dealer) == 0
    check_sheet(session)


def test_idle_dealer_who_shares_pays_with_the_opponents() -> None:
    # §2 / §8 (idle_dealer_pays): the sitting-out dealer shares the opponents' payments
    session = DappenSession(game(players=8, idle_dealer_pays=True), seed=5, deals=4)
    shared = 0
    for _ in range(4):
        state = play_one(session)
        result = state.result()
        if result.breakdown.get("kind") == "game":
            assert state.dealer in result.breakdown["payers"]
            shared += result.scores[state.dealer] != 0
    assert shared


def test_thrown_in_deal_books_a_zero_row_and_the_deal_moves_on() -> None:
    # §3.3: "das Spiel kommt ins Loch": no payment, the next player deals
    session = DappenSession(game("breitnau"), seed=2, deals=3)
    state = play_one(session)
    assert state.thrown
    row = session.rows[-1]
    assert row.scores == (0,) * 6 and row.label.startswith("ins Loch") and row.notes["kind"] == "thrown"
    assert session.dealer == (state.dealer + 1) % 6
    assert session.thrown_in == 1


def test_sheet_labels_a_played_deal() -> None:
    # §8: the sheet shows the game, the lone player, the result and the cents per opponent
    g = game(ulti="none")
    session = DappenSession(g, seed=4, deals=1)
    dealer = session.dealer
    hands = {(dealer + 1 + i) % 6: NO_STOP[i] for i in range(6)}
    texts = [hands[s] for s in range(6)]
    state = session.next_deal([parse_cards(t) for t in [*texts, rest_of_pack(*texts)]])
    assert state is not None
    while not state.is_terminal():
        state.apply(first_legal(state))
    row = session.book(state)
    lone = (dealer + 5) % 6  # rule (b): the dealer's left must dapp
    assert state.lone == lone
    assert row.label.startswith(f"Dappen, seat {lone}: ")
    assert "¢ per opponent" in row.label
    assert row.notes["contract"] == "dapp" and row.notes["lone"] == lone
    assert sum(row.scores) == 0


def test_session_refuses_a_result_that_is_not_zero_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    # §8: every payment goes from one player to another: a sheet row must sum to zero
    session = DappenSession(game(), seed=1, deals=2)
    state = session.next_deal()
    assert state is not None
    while not state.is_terminal():
        state.apply(first_legal(state))
    bad = DealResult((5, 0, 0, 0, 0, 0), {"kind": "game"})
    monkeypatch.setattr(DappenState, "result", lambda self: bad)
    with pytest.raises(SessionError, match="zero"):
        session.book(state)
    assert session.rows == []


def test_list_record_replays() -> None:
    # records: a whole session written as a list record replays deal by deal to the same sheet
    rng = random.Random(3)
    for preset, players in (("furtwangen", 8), ("breitnau", 6), ("buchenbach", 6), ("jeu_du_tarot", 4)):
        g = game(preset, players=players)
        session = DappenSession(g, seed=rng.getrandbits(32), deals=6)
        states = play_session(session, lambda s: rng.choice(s.legal_actions()))
        record = json.loads(json.dumps(list_record(session, states)))
        replayed = replay_list(record)
        assert replayed.totals == session.totals
        check_sheet(session)


def test_euros() -> None:
    # §8: cents shown as euros on request (4.00 € for a Marsch of 80 x 5)
    assert euros(400) == "+4.00 €" and euros(-480) == "-4.80 €" and euros(5) == "+0.05 €"
