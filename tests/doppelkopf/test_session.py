"""Scenario tests of the Doppelkopf list: dealer rotation, Pflichtsolo, Vorführung, bock rounds, redeals, the sheet.

Deals are driven with a fixed policy (:func:`play_out`): everybody says
"gesund" except the seats told to reserve, who name the given game; then the
first legal card is played, without announcements.  Where the outcome of a
deal matters (bock, redeals) the hands are dealt explicitly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from stich.cards import Card, parse_cards
from stich.core.game import DealResult
from stich.core.session import SessionError
from stich.errors import StichError
from stich.games.doppelkopf.game import Doppelkopf
from stich.games.doppelkopf.session import DoppelkopfSession, bock_triggers
from stich.games.doppelkopf.state import DoppelkopfState

POOR_HAND = "C9 C9 S9 S9 H9 H9 D9 D9 CK CK SK SK"
"""Five or more nines (throw-in), two trumps in a normal game (poverty), no queen (a Damen solo that cannot win)."""


def play_out(state: DoppelkopfState, declare: Mapping[int, str] | None = None) -> DoppelkopfState:
    """Play a deal to the end: ``declare`` maps a seat to what it names (``solo damen``, ``schmeissen``, ``armut``, ``accept``)."""
    declare = declare or {}
    while not state.is_terminal():
        seat = state.current_player()
        legal = [a.text for a in state.legal_actions()]
        phase = state.phase_name
        if phase == "reservation":
            choice = "vorbehalt" if declare.get(seat, "accept") != "accept" else "gesund"
        elif phase == "declare":
            choice = declare[seat] if seat in declare else legal[0]
        elif phase == "armut_offer":
            choice = "accept" if declare.get(seat) == "accept" else "decline"
        else:
            choice = next(text for text in legal if not text.startswith("announce"))
        state.apply(choice)
    return state


def next_deal(session: DoppelkopfSession, hands: list[list[Card]] | None = None) -> DoppelkopfState:
    """The session's next deal, which must exist."""
    state = session.next_deal(hands)
    assert state is not None
    return state


def play_game(
    session: DoppelkopfSession, declare: Mapping[int, str] | None = None, hands: list[list[Card]] | None = None
) -> DoppelkopfState:
    """Deal, play and book one deal; return the finished state."""
    state = play_out(next_deal(session, hands), declare)
    session.book(state)
    return state


def deal_hands(game: Doppelkopf, dealer: int, fixed: Mapping[int, str]) -> list[list[Card]]:
    """Explicit hands: the ``fixed`` cards go to their seats, the rest of the pack fills the receiving seats.

    The rest is handed out sorted, so both copies of a card land in one hand
    (``fixed`` must also hold whole pairs): ``Game.hands_from_cards`` currently
    rejects hands that split a face between two seats.
    """
    rest = sorted(game.deck.cards(game.deck.full_mask), key=lambda c: (c.suit, c.rank))
    hands: list[list[Card]] = [[] for _ in range(game.num_seats)]
    for seat, text in fixed.items():
        for card in parse_cards(text):
            rest.remove(card)
            hands[seat].append(card)
    receivers = [s for s in range(game.num_seats) if game.num_seats == 4 or s != dealer]
    for seat in receivers:
        while len(hands[seat]) < game.options.hand_size:
            hands[seat].append(rest.pop(0))
    assert not rest
    return hands


def first_leader(state: DoppelkopfState) -> int:
    """The seat that led the first trick."""
    return state.tricks[0][0][0]


def check_sheet(session: DoppelkopfSession) -> None:
    """Every row sums to zero and the totals are the running sums of the rows (§7.5, §7.6)."""
    running = [0] * session.game.num_seats
    for row in session.rows:
        assert sum(row.scores) == 0
        running = [t + s for t, s in zip(running, row.scores, strict=True)]
        assert list(row.totals) == running
    assert session.totals == running
    assert sum(session.totals) == 0


# --------------------------------------------------------------- dealer rotation


def test_pflichtsolo_keeps_the_dealer_game_9_example() -> None:
    # §2.3 worked schedule, comparison case: C deals game 9, D declares a Pflichtsolo and leads, C deals game 10 again.
    session = DoppelkopfSession(Doppelkopf(), seed=11)
    plan: dict[int, dict[int, str]] = {2: {0: "solo damen"}, 5: {1: "solo buben"}}
    dealers = []
    for number in range(1, 9):
        dealers.append(next_deal(session).dealer)
        play_game(session, plan.get(number))
    assert dealers == [0, 1, 1, 2, 3, 3, 0, 1]
    game9 = next_deal(session)
    assert game9.dealer == 2
    play_game(session, {3: "solo damen"})
    assert game9.pflicht and game9.soloist == 3
    assert first_leader(game9) == 3
    assert session.rows[-1].label == "Pflichtsolo Damen (seat 3)"
    assert session.rows[-1].notes["pflicht"] is True
    assert next_deal(session).dealer == 2
    assert session.owes == [False, False, True, False]


def test_lustsolo_moves_the_deal_on_and_the_dealers_left_leads() -> None:
    # §2.1: after a Lustsolo the deal passes; the dealer's left neighbour leads (TSR default).
    session = DoppelkopfSession(Doppelkopf(), seed=5)
    play_game(session, {2: "solo kreuz"})  # seat 2's Pflichtsolo, dealer 0 stays
    lust = play_game(session, {2: "solo herz"})
    assert lust.dealer == 0 and not lust.pflicht
    assert first_leader(lust) == 1
    assert session.rows[-1].label == "Lustsolo Herz (seat 2)"
    assert session.dealer == 1


def test_lustsolo_same_dealer_redeals_option() -> None:
    # §2.1 [VAR] lustsolo_same_dealer_redeals: the same dealer deals again after a Lustsolo.
    session = DoppelkopfSession(Doppelkopf(options={"lustsolo_same_dealer_redeals": True}), seed=5)
    play_game(session, {2: "solo pik"})
    play_game(session, {2: "solo pik"})
    assert session.rows[-1].label.startswith("Lustsolo")
    assert session.dealer == 0


def test_pflichtsolo_same_dealer_redeals_off_moves_the_deal() -> None:
    # §8.1 pflichtsolo_same_dealer_redeals=false: the deal passes after a Pflichtsolo too.
    session = DoppelkopfSession(Doppelkopf(options={"pflichtsolo_same_dealer_redeals": False}), seed=5)
    play_game(session, {3: "solo damen"})
    assert session.dealer == 1


def test_silent_wedding_does_not_discharge_the_pflichtsolo() -> None:
    # §2.2: a silent Hochzeit is scored as a solo but is no Pflichtsolo, and the deal moves on.
    game = Doppelkopf()
    session = DoppelkopfSession(game, seed=1)
    state = play_game(session, hands=deal_hands(game, 0, {3: "CQ CQ"}))
    assert state.kind == "stille_hochzeit" and state.soloist == 3
    assert session.owes == [True, True, True, True]
    assert session.dealer == 1
    assert session.rows[-1].label == "Stille Hochzeit (seat 3)"
    assert session.rows[-1].notes["pflicht"] is False


# ------------------------------------------------------------------- Vorführung


def test_worked_schedule_vorfuehrung_b_then_d() -> None:
    # §2.3 worked schedule: after 22 games B and D owe; A deals game 23 and B is forced, B deals game 24 and D is forced.
    session = DoppelkopfSession(Doppelkopf(), seed=23)
    plan: dict[int, dict[int, str]] = {3: {0: "solo fleischlos"}, 12: {2: "solo kreuz"}}
    for number in range(1, 23):
        state = play_game(session, plan.get(number))
        assert state.forced is None
    assert session.owes == [False, True, False, True]
    game23 = next_deal(session)
    assert (game23.dealer, game23.forced) == (0, 1)
    # No reservation query: the forced player names a solo at once and cannot pass.
    assert game23.phase_name == "declare" and game23.current_player() == 1
    assert all(a.text.startswith("solo ") for a in game23.legal_actions())
    play_game(session, {1: "solo damen"})
    assert game23.pflicht and first_leader(game23) == 1
    assert session.rows[-1].label == "Vorführung Damen (seat 1)"
    assert session.rows[-1].notes["forced"] is True
    game24 = next_deal(session)
    assert (game24.dealer, game24.forced) == (1, 3)
    play_game(session, {3: "solo buben"})
    assert session.games == 24 and session.is_over()
    assert session.next_deal() is None
    assert [row.dealer for row in session.rows[-2:]] == [0, 1]
    assert sum(1 for row in session.rows if row.notes["pflicht"]) == 4
    check_sheet(session)


def test_vorfuehrung_searches_from_the_dealers_left_dealer_last() -> None:
    # §2.3: dealer A and D owe; the search runs B, C, D, A, so D is forced first, then A once B deals.
    session = DoppelkopfSession(Doppelkopf(options={"round_games": 8}), seed=17)
    for seat in (1, 2):
        play_game(session, {seat: "solo damen"})
    for _ in range(4):
        play_game(session)
    first = next_deal(session)
    assert (first.dealer, first.forced) == (0, 3)
    play_game(session, {3: "solo herz"})
    second = next_deal(session)
    assert (second.dealer, second.forced) == (1, 0)
    play_game(session, {0: "solo herz"})
    assert session.is_over()


def test_a_dealer_who_owes_is_forced_and_deals() -> None:
    # §2.3: "the dealer is whoever would deal anyway, even the forced player"; at 4 players the dealer plays.
    session = DoppelkopfSession(Doppelkopf(options={"round_games": 8}), seed=3)
    for seat in (1, 2, 3):
        play_game(session, {seat: "solo damen"})
    for _ in range(4):
        play_game(session)
    last = next_deal(session)
    assert (last.dealer, last.forced) == (0, 0)
    play_game(session, {0: "solo karo"})
    assert first_leader(last) == 0
    assert session.is_over() and session.owes == [True] * 4  # a new round would owe again
    check_sheet(session)


def test_five_players_vorfuehrung_skips_the_idle_dealer() -> None:
    # §2.3 with §2.1 5-player table: the idle dealer is not searched; B4 then B0 are forced, and the idle seat scores 0.
    session = DoppelkopfSession(Doppelkopf(options={"players": 5, "round_games": 10}), seed=8)
    for seat in (1, 2, 3):
        play_game(session, {seat: "solo damen"})
    for _ in range(5):
        play_game(session)
    first = next_deal(session)
    assert (first.dealer, first.forced) == (0, 4)
    play_game(session, {4: "solo buben"})
    assert session.rows[-1].scores[0] == 0
    second = next_deal(session)
    assert (second.dealer, second.forced) == (1, 0)
    play_game(session, {0: "solo pik"})
    assert session.rows[-1].scores[1] == 0
    assert session.is_over()
    check_sheet(session)


def test_five_players_only_the_would_be_dealer_owes_a17() -> None:
    # A-17 (non-TSR): if only the would-be dealer owes at a 5-table, the deal moves on one seat so that player can play.
    session = DoppelkopfSession(Doppelkopf(options={"players": 5, "round_games": 10}), seed=9)
    for seat in (1, 2, 3, 4):
        play_game(session, {seat: "solo damen"})
    for _ in range(5):
        play_game(session)
    assert session.dealer == 0 and session.owes == [True, False, False, False, False]
    last = next_deal(session)
    assert (last.dealer, last.forced) == (1, 0)
    play_game(session, {0: "solo fleischlos"})
    row = session.rows[-1]
    assert row.dealer == 1 and row.notes["dealer_skipped"] == 0
    assert row.scores[1] == 0 and row.scores[0] != 0
    assert session.dealer == 2
    check_sheet(session)


def test_rejected_hands_leave_the_a17_deal_unchanged() -> None:
    # A-17 with explicit hands: a deal the game rejects does not move the deal twice.
    game = Doppelkopf(options={"players": 5, "round_games": 10})
    session = DoppelkopfSession(game, seed=9)
    for seat in (1, 2, 3, 4):
        play_game(session, {seat: "solo damen"})
    for _ in range(5):
        play_game(session)
    with pytest.raises(StichError):
        session.next_deal(deal_hands(game, 1, {})[:4])
    assert session.dealer == 0
    last = play_game(session, {0: "solo damen"}, hands=deal_hands(game, 1, {}))
    assert (last.dealer, last.forced) == (1, 0) and session.rows[-1].notes["dealer_skipped"] == 0


def test_short_list_forces_the_owed_solos_like_a_time_limit() -> None:
    # A-23 / §2.3: a list of 2 games with Pflichtsolo on forces solos at once; the unplayed ones are noted.
    session = DoppelkopfSession(Doppelkopf(), seed=4, deals=2)
    first = next_deal(session)
    assert first.forced == 1
    play_game(session, {1: "solo damen"})
    second = next_deal(session)
    assert (second.dealer, second.forced) == (1, 2)
    play_game(session, {2: "solo damen"})
    assert session.is_over()
    assert session.rows[-1].notes["pflichtsolo_not_played"] == [0, 3]


def test_without_pflichtsolo_every_solo_is_a_lustsolo() -> None:
    # §8.1 pflichtsolo=false: no owed solos, no Vorführung, deals=k counts k games.
    session = DoppelkopfSession(Doppelkopf(options={"pflichtsolo": False}), seed=2, deals=3)
    state = next_deal(session)
    assert state.forced is None and state.owes == (False,) * 4
    play_out(state, {2: "solo damen"})
    session.book(state)
    assert not state.pflicht and session.rows[-1].label == "Lustsolo Damen (seat 2)"
    assert first_leader(state) == 1
    play_game(session)
    play_game(session)
    assert session.is_over() and len(session.rows) == 3


# ---------------------------------------------------------------- full rounds


def play_randomly(session: DoppelkopfSession, rng: random.Random, healthy: float, prefer: tuple[str, ...] = ()) -> None:
    """Play the whole list with random legal actions.

    "gesund" is said with probability ``healthy`` when allowed; an action in
    ``prefer`` (e.g. ``schmeissen``, ``decline``) is always taken when legal.
    """
    while (state := session.next_deal()) is not None:
        while not state.is_terminal():
            actions = state.legal_actions()
            preferred = [a for a in actions if a.text in prefer]
            gesund = [a for a in actions if a.text == "gesund"]
            if preferred:
                state.apply(preferred[0])
            elif gesund and rng.random() < healthy:
                state.apply(gesund[0])
            else:
                state.apply(rng.choice(actions))
        session.book(state)


@pytest.mark.parametrize(
    ("players", "preset", "games", "seed"),
    [(4, "ddv", 24, 1), (4, "ddv", 24, 2), (4, "house_classic", 24, 3), (5, "ddv", 30, 4), (5, "house_classic", 30, 5)],
)
def test_random_full_round(players: int, preset: str, games: int, seed: int) -> None:
    # §2.1 / §2.2 / A-1: a round is 24 (30) counted games including one Pflichtsolo per player; totals are zero-sum.
    session = DoppelkopfSession(Doppelkopf(preset=preset, options={"players": players}), seed=seed)
    play_randomly(session, random.Random(seed), healthy=0.9)
    counted = [row for row in session.rows if row.notes["game"] is not None]
    assert len(counted) == games == session.games
    assert [row.notes["game"] for row in counted] == list(range(1, games + 1))
    assert Counter(row.notes["soloist"] for row in counted if row.notes["pflicht"]) == dict.fromkeys(range(players), 1)
    assert session.owes == [True] * players  # the round closed and a new one would start
    assert "pflichtsolo_not_played" not in session.rows[-1].notes
    assert [row.number for row in session.rows] == list(range(1, len(session.rows) + 1))
    check_sheet(session)


def test_two_rounds_each_player_two_pflichtsoli() -> None:
    # §2.2: every player owes one Pflichtsolo per round; deals=48 is two rounds.
    session = DoppelkopfSession(Doppelkopf(), seed=6, deals=48)
    play_randomly(session, random.Random(6), healthy=0.95)
    assert session.games == 48
    per_round = Counter((row.notes["round"], row.notes["soloist"]) for row in session.rows if row.notes["pflicht"])
    assert per_round == {(r, s): 1 for r in (1, 2) for s in range(4)}
    check_sheet(session)


# ------------------------------------------------------------------ redeals


def test_thrown_in_deal_is_redealt_and_does_not_count() -> None:
    # §4.6 Schmeißen: a zero redeal row, the same dealer deals again, the game count does not move.
    game = Doppelkopf(options={"schmeissen": "five_nines"})
    session = DoppelkopfSession(game, seed=12)
    thrown = play_game(session, {1: "schmeissen"}, hands=deal_hands(game, 0, {1: POOR_HAND}))
    assert thrown.thrown == ("five_nines", 1)
    row = session.rows[-1]
    assert row.label == "Redeal (schmeissen: five_nines, seat 1)"
    assert row.scores == (0, 0, 0, 0) and row.notes["game"] is None and row.notes["redeal"] is True
    assert session.games == 0 and session.deal_index == 1
    redeal = next_deal(session)
    assert redeal.dealer == 0 and redeal.seed == session.deal_seed(1)
    play_out(redeal)
    session.book(redeal)
    assert session.rows[-1].notes["game"] == 1 and session.games == 1


def test_poverty_nobody_takes_is_a_redeal() -> None:
    # §4.5 armut_no_taker=redeal: all decline, the deal is thrown in, redealt by the same dealer, not counted.
    game = Doppelkopf(options={"armut": True})
    session = DoppelkopfSession(game, seed=13)
    thrown = play_game(session, {1: "armut"}, hands=deal_hands(game, 0, {1: POOR_HAND}))
    assert thrown.thrown == ("armut_not_taken", 1)
    assert session.rows[-1].label == "Redeal (Armut nicht genommen, seat 1)"
    assert session.games == 0 and session.dealer == 0 and session.owes == [True] * 4


def test_full_round_with_redeals_still_has_24_games() -> None:
    # §4.6 / A-1: throw-ins do not count toward the round.
    game = Doppelkopf(options={"schmeissen": "five_nines+seven_full_cards+max_trump_le_da", "armut": True})
    session = DoppelkopfSession(game, seed=21)
    play_randomly(session, random.Random(21), healthy=0.5, prefer=("schmeissen", "armut", "decline"))
    redeals = [row for row in session.rows if row.notes["game"] is None]
    assert redeals, "the seed should produce at least one throw-in"
    assert all(row.scores == (0, 0, 0, 0) and row.label.startswith("Redeal") for row in redeals)
    assert session.games == 24 and len(session.rows) == 24 + len(redeals)
    check_sheet(session)


def test_poverty_taken_is_a_counted_game() -> None:
    # §4.5: a poverty that is taken is played as a normal game; it counts and the deal moves on.
    game = Doppelkopf(options={"armut": True})
    session = DoppelkopfSession(game, seed=13)
    state = play_game(session, {1: "armut", 3: "accept"}, hands=deal_hands(game, 0, {1: POOR_HAND}))
    assert state.kind == "armut" and state.armut_taker == 3
    assert session.rows[-1].label == "Armut (seat 1, taken by seat 3)"
    assert session.games == 1 and session.dealer == 1


def test_announced_wedding_label_and_rotation() -> None:
    # §4.2 / A-20: an announced Hochzeit is a normal game (partner found) or a Karo solo without partner; no Pflichtsolo either way.
    game = Doppelkopf()
    session = DoppelkopfSession(game, seed=15)
    state = play_game(session, {2: "hochzeit"}, hands=deal_hands(game, 0, {2: "CQ CQ"}))
    expected = {"hochzeit": "Hochzeit (seat 2)", "hochzeit_solo": "Hochzeit ohne Partner (Karo-Solo) (seat 2)"}
    assert session.rows[-1].label == expected[state.kind]
    assert session.dealer == 1 and session.owes == [True] * 4


# --------------------------------------------------------------------- bock


def breakdown(**changes: Any) -> dict[str, Any]:
    """A plain breakdown of a won normal game without calls, with ``changes`` applied."""
    base: dict[str, Any] = {
        "eyes": {"re": 150, "kontra": 90},
        "tricks": {"re": 8, "kontra": 4},
        "calls": {"re": "none", "kontra": "none"},
        "winner": "re",
        "solo": False,
        "value": 1,
    }
    base.update(changes)
    return base


ALL_TRIGGERS = frozenset({"120_120", "lost_call", "lost_solo", "schwarz", "zero_game"})


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({}, []),
        ({"eyes": {"re": 120, "kontra": 120}, "winner": "kontra"}, ["120_120"]),
        ({"calls": {"re": "re_kontra", "kontra": "none"}, "winner": "kontra"}, ["lost_call"]),
        ({"calls": {"re": "keine90", "kontra": "none"}, "winner": None}, ["lost_call"]),
        ({"calls": {"re": "re_kontra", "kontra": "re_kontra"}, "winner": "re"}, ["lost_call"]),
        ({"calls": {"re": "re_kontra", "kontra": "none"}, "winner": "re"}, []),
        ({"solo": True, "winner": "kontra"}, ["lost_solo"]),
        ({"solo": True, "winner": "re"}, []),
        ({"tricks": {"re": 12, "kontra": 0}}, ["schwarz"]),
        ({"value": 0, "winner": None}, ["zero_game"]),
        (
            {"solo": True, "winner": "kontra", "tricks": {"re": 0, "kontra": 12}, "calls": {"re": "re_kontra", "kontra": "none"}},
            ["lost_call", "lost_solo", "schwarz"],
        ),
    ],
)
def test_bock_triggers(changes: dict[str, Any], expected: list[str]) -> None:
    # §7.8 bock triggers: 120:120, lost call, lost solo, schwarz, game worth 0.
    assert bock_triggers(breakdown(**changes), ALL_TRIGGERS) == expected


def test_bock_triggers_respect_the_option() -> None:
    # §8.5 bock_triggers: only the enabled triggers fire.
    assert bock_triggers(breakdown(eyes={"re": 120, "kontra": 120}, value=0), frozenset({"120_120"})) == ["120_120"]
    assert bock_triggers(breakdown(eyes={"re": 120, "kontra": 120}), frozenset({"lost_solo"})) == []


def bock_session(stacking: str) -> tuple[Doppelkopf, DoppelkopfSession]:
    """A list with bock after a lost solo, 2 bock games per trigger."""
    options = {"bock": True, "bock_triggers": "lost_solo", "bock_games": 2, "bock_stacking": stacking, "schmeissen": "five_nines"}
    game = Doppelkopf(options=options)
    return game, DoppelkopfSession(game, seed=30)


def lose_solo(game: Doppelkopf, session: DoppelkopfSession) -> None:
    """Seat 1 plays a Damen solo without a queen and loses it."""
    state = play_game(session, {1: "solo damen"}, hands=deal_hands(game, session.dealer, {1: POOR_HAND}))
    assert state.result().breakdown["winner"] == "kontra"
    assert session.rows[-1].notes["bock_triggers"] == ["lost_solo"]


def normal_game(session: DoppelkopfSession) -> int:
    """Play the next seeded deal with everybody healthy (a normal game for the seeds used); return its bock factor."""
    state = play_game(session)
    assert state.kind == "normal" and "bock_triggers" not in session.rows[-1].notes
    return state.multiplier


def test_bock_append_queues_rounds() -> None:
    # §7.8 bock_stacking=append: each trigger queues bock_games games at x2; a redeal uses none of them.
    game, session = bock_session("append")
    lose_solo(game, session)
    assert session.multiplier() == 2 and session.context()["multiplier"] == 2
    assert session.rows[-1].notes["bock_queued"] == 2
    play_game(session, {1: "schmeissen"}, hands=deal_hands(game, session.dealer, {1: POOR_HAND}))
    assert session.rows[-1].notes["game"] is None and session.bock == [2]
    lose_solo(game, session)  # a bock game that triggers again: 1 left + 2 queued
    assert session.rows[-1].label == "Bock x2 Lustsolo Damen (seat 1)"
    assert session.rows[-1].notes["bock_queued"] == 3
    factors = [normal_game(session) for _ in range(4)]
    assert factors == [2, 2, 2, 1]
    assert session.rows[-2].label.startswith("Bock x2 Normalspiel")
    check_sheet(session)


def test_bock_multiply_overlaps_rounds() -> None:
    # §7.8 bock_stacking=multiply: k running bock rounds give x2^k.
    game, session = bock_session("multiply")
    lose_solo(game, session)
    lose_solo(game, session)  # x2, and starts a second round
    assert session.rows[-1].notes["multiplier"] == 2 and session.bock == [1, 2]
    factors = [normal_game(session) for _ in range(3)]
    assert factors == [4, 2, 1]
    assert session.rows[-3].label.startswith("Bock x4 ")
    check_sheet(session)


def test_bock_multiplies_the_game_value() -> None:
    # §7.8 / §8.5 bock_applies_to_specials=false: the game value (items) doubles, special points do not.
    game, session = bock_session("append")
    lose_solo(game, session)
    seed = session.deal_seed(session.deal_index)
    plain = play_out(game.new_state(seed=seed, dealer=session.dealer, context={**session.context(), "multiplier": 1}))
    bock = play_game(session)
    assert bock.kind == "normal" and bock.seed == seed

    def parts(state: DoppelkopfState) -> tuple[int, int, int]:
        b = state.result().breakdown
        items = sum(i["points"] if i["party"] == "re" else -i["points"] for i in b["items"])
        specials = sum(s["points"] if s["party"] == "re" else -s["points"] for s in b["specials"])
        return items, specials, b["value"]

    items, specials, value = parts(plain)
    assert items != 0 and value == items + specials
    assert parts(bock) == (items, specials, 2 * items + specials)


# ------------------------------------------------------------- sheet checks


def test_zero_sum_violation_raises_and_books_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # §7.6: entries must sum to zero; a broken result raises a clear error instead of being booked.
    session = DoppelkopfSession(Doppelkopf(), seed=1)
    state = play_out(next_deal(session))
    bad = DealResult((3, -1, -1, -3), dict(state.result().breakdown))
    monkeypatch.setattr(state, "result", lambda: bad)
    with pytest.raises(SessionError, match="do not sum to zero"):
        session.book(state)
    assert session.rows == [] and session.games == 0 and session.totals == [0, 0, 0, 0]


def test_parity_violation_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    # §7.6: the four entries are all even or all odd.
    session = DoppelkopfSession(Doppelkopf(), seed=1)
    state = play_out(next_deal(session))
    bad = DealResult((2, 1, -1, -2), dict(state.result().breakdown))
    monkeypatch.setattr(state, "result", lambda: bad)
    with pytest.raises(SessionError, match="even or all odd"):
        session.book(state)


def test_only_the_pending_finished_deal_can_be_booked() -> None:
    # Session contract: book() takes the deal next_deal() handed out, once it is finished.
    game = Doppelkopf()
    session = DoppelkopfSession(game, seed=1)
    state = next_deal(session)
    with pytest.raises(SessionError, match="not finished"):
        session.book(state)
    other = play_out(game.new_state(seed=1))
    with pytest.raises(SessionError, match="next_deal"):
        session.book(other)
    with pytest.raises(SessionError, match="pending"):
        session.next_deal(deal_hands(game, 0, {}))
    assert session.next_deal() is state


def test_sheet_json() -> None:
    # §7.5 score sheet: number, dealer, label, entries, running totals, notes.
    session = DoppelkopfSession(Doppelkopf(), seed=14)
    play_game(session, {2: "solo damen"})
    play_game(session)
    sheet = session.sheet()
    assert [row["number"] for row in sheet] == [1, 2]
    assert [row["dealer"] for row in sheet] == [0, 0]
    assert sheet[0]["label"] == "Pflichtsolo Damen (seat 2)"
    assert sheet[1]["totals"] == [a + b for a, b in zip(sheet[0]["totals"], sheet[1]["scores"], strict=True)]
    assert set(sheet[0]["notes"]) >= {"game", "round", "kind", "contract", "soloist", "pflicht", "forced", "value", "multiplier"}
