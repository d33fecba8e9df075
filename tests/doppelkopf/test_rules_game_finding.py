"""Scenario tests for game finding (dossier §3), the silent wedding (§4.3), Vorführung (§2.3) and who leads (§2.1)."""

from __future__ import annotations

from typing import Any

import pytest

from stich.errors import IllegalActionError, NotationError
from stich.games.doppelkopf.state import DoppelkopfState

from .helpers import act, deal, game, healthy, legal, play, play_out, public, solo

# Seats 0 and 1 hold one queen of clubs each.
A_HIGH = "H10 CQ SQ HQ DQ CJ CA C10 CK SA S10 HA"
A_LOW = "SJ HJ DJ DA D10 DK D9 C9 SK S9 HK H9"
# Seat 0 holds both queens of clubs.
WED0 = "H10 CQ CQ HQ DQ CJ SJ CA C10 SA S10 HA"
WED1 = "H10 SQ SQ HQ DQ CJ SJ CA C10 SA S10 HA"
LOW = "HJ DJ DA D10 DK D9 CK C9 SK S9 HK H9"

DDV_SOLOS = {"karo", "kreuz", "pik", "herz", "damen", "buben", "fleischlos"}


def normal_deal(dealer: int = 3, context: dict[str, object] | None = None, **options: Any) -> DoppelkopfState:
    return deal(game(**options), A_HIGH, A_HIGH, A_LOW, A_LOW, dealer=dealer, context=context)


def wedding_deal(dealer: int = 3, context: dict[str, object] | None = None, **options: Any) -> DoppelkopfState:
    return deal(game(**options), WED0, WED1, LOW, LOW, dealer=dealer, context=context)


def test_health_round_starts_left_of_dealer() -> None:
    # §3.1 the health round starts with the dealer's left neighbour and goes round once (TSR 4.1.2)
    s = normal_deal(dealer=1)
    order = []
    for _ in range(4):
        order.append(s.current_player())
        assert legal(s) == {"gesund", "vorbehalt"}
        s.apply("gesund")
    assert order == [2, 3, 0, 1]
    assert s.phase_name == "play"


def test_everyone_healthy_is_a_normal_game() -> None:
    # §3.1 everyone gesund -> normal game; the two queen-of-clubs holders are Re (TSR 4.1.3, 2.4.4)
    s = healthy(normal_deal())
    assert (s.kind, public(s)["kind"], public(s)["contract"]) == ("normal", "normal", "normal")
    parties = {seat: s.observation(seat).private["party"] for seat in range(4)}
    assert parties == {0: "re", 1: "re", 2: "kontra", 3: "kontra"}
    assert s.current_player() == 0  # the dealer's left neighbour leads (TSR 5.1.1)


def test_silent_wedding_is_a_solo_for_the_holder() -> None:
    # §4.3 both queens of clubs and gesund: a silent wedding, a Karo solo scored as a solo (TSR 4.4.5)
    s = healthy(wedding_deal())
    assert s.kind == "stille_hochzeit"
    assert s.observation(0).private["party"] == "re"
    assert {s.observation(seat).private["party"] for seat in (1, 2, 3)} == {"kontra"}
    play_out(s)
    result = s.result()
    assert (result.breakdown["kind"], result.breakdown["contract"]) == ("stille_hochzeit", "karo")
    assert result.scores[0] == -3 * result.scores[1] != 0
    assert result.scores[1] == result.scores[2] == result.scores[3]


def test_silent_wedding_public_view_is_normal_until_second_queen() -> None:
    # §4.3 / A-21 the others see a normal game until the second queen of clubs falls
    s = healthy(wedding_deal())
    for seat in (1, 2, 3):
        assert (public(s, seat)["kind"], public(s, seat)["contract"]) == ("normal", "normal")
        assert public(s, seat)["soloist"] is None
    play(s, "CQ SQ HJ HJ")
    assert public(s, 2)["kind"] == "normal"
    assert public(s, 2)["parties"] == {"0": "re"}
    play(s, "CQ")
    view = public(s, 2)
    assert (view["kind"], view["contract"], view["soloist"]) == ("stille_hochzeit", "karo", 0)
    assert view["parties"] == {"0": "re", "1": "kontra", "2": "kontra", "3": "kontra"}


def test_single_reservation_names_its_game() -> None:
    # §3.1 exactly one reservation: that player names the game (TSR 4.1.4)
    s = act(normal_deal(), "gesund", "vorbehalt", "gesund", "gesund")
    assert (s.phase_name, s.current_player()) == ("declare", 1)
    assert legal(s) == {f"solo {n}" for n in DDV_SOLOS}  # one queen of clubs: no wedding
    s.apply("solo damen")
    view = public(s)
    assert (view["kind"], view["contract"], view["soloist"], view["pflichtsolo"]) == ("solo", "damen", 1, True)


def test_single_reservation_with_both_queens_offers_wedding() -> None:
    # §3.1 / §4.2 a reserving holder of both queens of clubs may name a wedding or a solo
    s = act(wedding_deal(), "vorbehalt", "gesund", "gesund", "gesund")
    assert legal(s) == {"hochzeit"} | {f"solo {n}" for n in DDV_SOLOS}
    s.apply("hochzeit")
    assert (public(s)["kind"], public(s)["hochzeiter"]) == ("hochzeit", 0)


def test_reservation_binds_single() -> None:
    # §3.1 a reservation binds: a single reserving player cannot pass (TSR 4.1.2)
    s = act(normal_deal(), "gesund", "vorbehalt", "gesund", "gesund")
    assert "pass" not in legal(s)
    with pytest.raises(IllegalActionError, match=r"§3"):
        s.apply("pass")


def test_pflichtsolo_before_lustsolo() -> None:
    # §3.1 several reservations: Pflichtsolo before Lustsolo, whatever the seat order (TSR 4.1.5-4.1.7)
    s = normal_deal(context={"owes_solo": [False, True, True, True]})
    act(s, "vorbehalt", "gesund", "vorbehalt", "gesund")
    assert s.current_player() == 2  # seat 0 only has a Lustsolo
    assert legal(s) == {f"solo {n}" for n in DDV_SOLOS}  # its only question: it binds
    s.apply("solo buben")
    assert (public(s)["soloist"], public(s)["pflichtsolo"]) == (2, True)
    assert s.current_player() == 2  # the Pflichtsolo soloist leads


def test_same_tier_first_in_seat_order_from_dealers_left() -> None:
    # §3.1 within a tier the reserving players are asked in seat order from the dealer's left (TSR 4.1.5)
    s = normal_deal(dealer=1)  # order 2, 3, 0, 1
    act(s, "gesund", "vorbehalt", "vorbehalt", "gesund")
    assert s.current_player() == 3


def test_lustsolo_tier_when_nobody_owes() -> None:
    # §3.1 nobody owes a Pflichtsolo: the Lustsolo question goes in seat order
    s = normal_deal(context={"owes_solo": [False] * 4})
    act(s, "gesund", "vorbehalt", "gesund", "vorbehalt")
    assert s.current_player() == 1
    s.apply("solo fleischlos")
    assert (public(s)["soloist"], public(s)["pflichtsolo"]) == (1, False)


def test_solo_before_wedding_and_wedding_holder_may_pass() -> None:
    # §3.1 several reservations: a wedding never wins over a solo; the first "yes" wins (TSR 4.1.5-4.1.7)
    s = wedding_deal()
    act(s, "vorbehalt", "gesund", "vorbehalt", "gesund")
    assert s.current_player() == 0
    assert legal(s) == {"pass"} | {f"solo {n}" for n in DDV_SOLOS}  # no wedding in the solo round
    s.apply("pass")
    assert s.current_player() == 2
    assert "pass" not in legal(s)  # seat 2's reservation binds: its last question
    s.apply("solo pik")
    assert (public(s)["kind"], public(s)["soloist"], public(s)["hochzeiter"]) == ("solo", 2, None)
    assert [t for seat, t in s.observation(3).events[-2:]] == ["pass", "solo pik"]


def test_wedding_holder_may_take_the_solo_first() -> None:
    # §3.1 the first reserving player asked may say yes to the Pflichtsolo question
    s = wedding_deal()
    act(s, "vorbehalt", "gesund", "vorbehalt", "gesund", "solo herz")
    assert (public(s)["soloist"], public(s)["contract"]) == (0, "herz")


def test_stille_hochzeit_false_forces_reservation() -> None:
    # §4.3 / §8.3 stille_hochzeit=false: the holder of both queens of clubs must say vorbehalt
    s = wedding_deal(stille_hochzeit=False)
    assert legal(s) == {"vorbehalt"}
    with pytest.raises(IllegalActionError, match=r"§4.3"):
        s.apply("gesund")
    act(s, "vorbehalt", "gesund", "gesund", "gesund")
    assert "hochzeit" in legal(s)


def test_stille_hochzeit_false_without_wedding_means_solo() -> None:
    # §4.3 with neither a silent nor an announced wedding the holder must play a solo
    s = wedding_deal(stille_hochzeit=False, hochzeit=False)
    act(s, "vorbehalt", "gesund", "gesund", "gesund")
    assert legal(s) == {f"solo {n}" for n in DDV_SOLOS}


def test_wedding_disabled_holder_may_still_stay_quiet() -> None:
    # §8.3 hochzeit=false: a both-queens hand that says gesund is still a silent wedding
    s = healthy(wedding_deal(hochzeit=False))
    assert s.kind == "stille_hochzeit"


def test_vorfuehrung_forced_soloist() -> None:
    # §2.3 Vorführung: no reservation query; the forced player names a solo and leads (TSR 4.2.3)
    s = wedding_deal(context={"forced_soloist": 2, "owes_solo": [True, False, True, True]})
    assert (s.phase_name, s.current_player()) == ("declare", 2)
    assert legal(s) == {f"solo {n}" for n in DDV_SOLOS}
    with pytest.raises(IllegalActionError):
        s.apply("gesund")
    s.apply("solo kreuz")
    assert (public(s)["soloist"], public(s)["pflichtsolo"], s.current_player()) == (2, True, 2)
    assert s.history[0] == (2, s.game.actions.parse("solo kreuz").code)


def test_vorfuehrung_of_a_wedding_holder_offers_no_wedding() -> None:
    # §2.3 the forced player must name a solo, even with both queens of clubs
    s = wedding_deal(context={"forced_soloist": 0})
    assert "hochzeit" not in legal(s)


def test_forced_soloist_must_hold_cards() -> None:
    # §2.1 / A-17 at a 5-player table the idle dealer cannot be the forced soloist
    g = game(players=5)
    with pytest.raises(NotationError):
        g.new_state(seed=1, dealer=0, context={"forced_soloist": 0})
    with pytest.raises(NotationError):
        game().new_state(seed=1, dealer=0, context={"forced_soloist": 4})


@pytest.mark.parametrize(
    ("owes", "options", "leader"),
    [
        (True, {}, 1),  # Pflichtsolo: the soloist leads (TSR 5.1.1, 4.2.2)
        (False, {}, 0),  # Lustsolo: the dealer's left neighbour leads (TSR 4.3.1)
        (False, {"lustsolo_soloist_leads": True}, 1),  # [VAR] the soloist leads every solo
        (True, {"pflichtsolo_soloist_leads": False}, 0),  # OPEN-POINTS option: dealer's left leads a Pflichtsolo
        (True, {"pflichtsolo": False}, 0),  # no compulsory solos: every solo is a Lustsolo
    ],
)
def test_who_leads_a_solo(owes: bool, options: dict[str, bool], leader: int) -> None:
    # §2.1 who leads to the first trick of a solo
    s = normal_deal(context={"owes_solo": [owes] * 4}, **options)
    solo(s, 1, "damen")
    assert s.phase_name == "play"
    assert s.current_player() == leader


def test_reservations_are_public_but_lower_reservations_are_not() -> None:
    # §3.1 information model: who said Vorbehalt, the "no" answers and the named game are public
    s = wedding_deal()
    act(s, "vorbehalt", "gesund", "vorbehalt", "gesund", "pass", "solo pik")
    view = s.observation(1).to_json()
    assert view["public"]["reservations"] == {"0": "vorbehalt", "1": "gesund", "2": "vorbehalt", "3": "gesund"}
    # seat 0's wedding was never named: nothing says seat 0 holds both queens of clubs
    assert [text for _, text in view["events"]] == ["vorbehalt", "gesund", "vorbehalt", "gesund", "pass", "solo pik"]
    assert view["public"]["hochzeiter"] is None


def test_vorfuehrung_forced_player_leads_whatever_pflichtsolo_soloist_leads_says() -> None:
    # §2.3 the forced player leads a Vorführung; pflichtsolo_soloist_leads (OPEN-POINTS) concerns compulsory
    # solos during the normal rounds only (issue 29, fix 1: seed 1, dealer 0, forced seat 2)
    g = game(pflichtsolo_soloist_leads=False)
    s = g.new_state(seed=1, dealer=0, context={"owes_solo": [True, True, True, True], "forced_soloist": 2})
    s.apply("solo herz")
    assert (s.phase_name, s.current_player(), public(s)["pflichtsolo"]) == ("play", 2, True)


def test_pflichtsolo_in_the_normal_rounds_follows_pflichtsolo_soloist_leads() -> None:
    # OPEN-POINTS: with pflichtsolo_soloist_leads=false a compulsory solo outside a Vorführung is led from the dealer's left
    s = solo(normal_deal(pflichtsolo_soloist_leads=False, context={"owes_solo": [True, True, True, True]}), 2, "herz")
    assert (public(s)["pflichtsolo"], s.current_player()) == (True, 0)
