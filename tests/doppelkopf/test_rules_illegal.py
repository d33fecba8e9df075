"""Illegal actions in every phase: a specific IllegalActionError naming the rule, and no change to the state.

DESIGN: "illegal input raises a specific IllegalActionError that says why"; the
state that rejected the action is unchanged.  Every action code that is not
legal is tried in each phase.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from stich.errors import IllegalActionError, NotationError
from stich.games.doppelkopf.state import DoppelkopfState

from .helpers import act, deal, game, healthy, play, play_out, snapshot

A_HIGH = "H10 CQ SQ HQ DQ CJ CA C10 CK SA S10 HA"
A_LOW = "SJ HJ DJ DA D10 DK D9 C9 SK S9 HK H9"
W0 = "CQ CQ SQ SQ HQ HQ CA CA SA SA HA HA"
W1 = "H10 H10 DQ DQ C10 C10 CK CK S10 S10 HK HK"
W2 = "CJ CJ SJ SJ HJ HJ C9 C9 SK SK H9 H9"
P0 = "H10 H10 CQ CQ SQ SQ HQ HQ DQ DQ CJ CJ"
P1 = "DA HJ CA CA C10 C10 SA SA HA HA SK S9"
P2 = "HJ SJ SJ DJ DJ DA CK CK C9 C9 S10 S10"


def reservation() -> DoppelkopfState:
    return deal(game(), A_HIGH, A_HIGH, A_LOW, A_LOW)


def reservation_forced() -> DoppelkopfState:
    return deal(game(stille_hochzeit=False), W0, W1, W2)


def declare_single() -> DoppelkopfState:
    return act(reservation(), "gesund", "vorbehalt", "gesund", "gesund")


def declare_multi() -> DoppelkopfState:
    return act(deal(game(), W0, W1, W2), "vorbehalt", "gesund", "vorbehalt", "gesund")


def declare_forced() -> DoppelkopfState:
    return deal(game(), A_HIGH, A_HIGH, A_LOW, A_LOW, context={"forced_soloist": 1})


def armut_give() -> DoppelkopfState:
    return act(deal(game(armut=True), P0, P1, P2), "gesund", "vorbehalt", "gesund", "gesund", "armut")


def armut_offer() -> DoppelkopfState:
    return act(armut_give(), "discard HJ", "discard DA", "discard SK")


def armut_offer_last() -> DoppelkopfState:
    s = deal(game(armut=True, armut_no_taker="last_must_take"), P0, P1, P2)
    return act(s, "gesund", "vorbehalt", "gesund", "gesund", "armut", "discard HJ", "discard DA", "discard SK", "decline", "decline")


def armut_return() -> DoppelkopfState:
    return act(armut_offer(), "decline", "accept")


def play_lead() -> DoppelkopfState:
    return healthy(reservation())


def play_follow() -> DoppelkopfState:
    return play(play_lead(), "CA")


def play_overtrump() -> DoppelkopfState:
    return play(healthy(deal(game(must_overtrump=True), A_HIGH, A_HIGH, A_LOW, A_LOW)), "CJ")


def play_late() -> DoppelkopfState:
    s = play_lead()
    act(s, "announce re")
    return play(s, "CA CA C9 C9 SA SA SK SK HA HA HK HK")


def play_no_announcements() -> DoppelkopfState:
    return healthy(deal(game(announcements=False), A_HIGH, A_HIGH, A_LOW, A_LOW))


def play_wedding_window() -> DoppelkopfState:
    return act(deal(game(), W0, W1, W2), "vorbehalt", "gesund", "gesund", "gesund", "hochzeit")


def finished() -> DoppelkopfState:
    return play_out(play_lead())


PHASES: dict[str, Callable[[], DoppelkopfState]] = {
    "reservation": reservation,
    "reservation_forced": reservation_forced,
    "declare_single": declare_single,
    "declare_multi": declare_multi,
    "declare_forced": declare_forced,
    "armut_give": armut_give,
    "armut_offer": armut_offer,
    "armut_offer_last": armut_offer_last,
    "armut_return": armut_return,
    "play_lead": play_lead,
    "play_follow": play_follow,
    "play_overtrump": play_overtrump,
    "play_late": play_late,
    "play_no_announcements": play_no_announcements,
    "play_wedding_window": play_wedding_window,
    "end": finished,
}


def test_every_phase_is_covered() -> None:
    # DESIGN: illegal actions are checked in every phase of a deal
    phases = {build().phase_name for build in PHASES.values()}
    assert phases == {"reservation", "declare", "armut_give", "armut_offer", "armut_return", "play", "end"}


@pytest.mark.parametrize("name", sorted(PHASES))
def test_illegal_actions_raise_with_rule_and_change_nothing(name: str) -> None:
    # DESIGN / §6-§5-§3: every illegal action raises IllegalActionError naming a dossier section; the state is unchanged
    s = PHASES[name]()
    before = snapshot(s)
    legal = {a.code for a in s.legal_actions()}
    tried = 0
    for action in s.game.actions.actions:
        if action.code in legal:
            continue
        with pytest.raises(IllegalActionError) as info:
            s.apply(action)
        assert "§" in str(info.value), f"{action.text}: {info.value}"
        assert "§" in info.value.rule
        assert not s.is_legal(action)
        tried += 1
    assert tried > 0
    assert snapshot(s) == before
    for code in legal:  # and every legal action is accepted
        s.clone().apply(code)


@pytest.mark.parametrize("name", sorted(PHASES))
def test_malformed_action_text_is_a_notation_error(name: str) -> None:
    # DESIGN: text that is not an action of the game is a NotationError, and changes nothing
    s = PHASES[name]()
    before = snapshot(s)
    for text in ("play ZZ", "fly away", "", "announce maybe", "solo nothing"):
        with pytest.raises(NotationError):
            s.apply(text)
        assert not s.is_legal(text)
    with pytest.raises(NotationError):
        s.apply(10_000)
    assert snapshot(s) == before


def test_specific_messages() -> None:
    # the message says which rule was broken
    cases = [
        (play_follow(), "play SA", "§6.1"),
        (play_follow(), "play H10", "follow"),
        (play_lead(), "play SK", "not in your hand"),
        (play_overtrump(), "play CJ", "Überstechen"),
        (play_late(), "announce keine90", "§5.2"),
        (play_wedding_window(), "announce re", "§5.4"),
        (declare_single(), "hochzeit", "§3"),
        (declare_single(), "announce re", "§5.2"),
        (reservation_forced(), "gesund", "§4.3"),
        (armut_give(), "discard CA", "§4.5"),
        (finished(), "play CA", "over"),
    ]
    for state, text, expected in cases:
        with pytest.raises(IllegalActionError, match=expected):
            state.apply(text)


def test_result_before_the_end_is_an_error() -> None:
    # §7 a deal is evaluated only when it is over
    with pytest.raises(IllegalActionError, match=r"§7"):
        play_lead().result()
