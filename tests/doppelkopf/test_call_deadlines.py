"""The announcement deadlines as the table shows them (issue 43): ``Doppelkopf.call_deadlines`` from the public facts.

The screen says "Re until your 2nd card"; these tests hold that wording's numbers to the dossier
(§5.2 the DDV deadlines, §1.1 without nines, §5.4 the wedding's shift, §5.5/A-22 the table count) and,
over random deals, to the engine's own legal calls, so the screen can never promise a call the rules refuse.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from stich.games.doppelkopf.state import DoppelkopfState

from .helpers import act, deal, game, play, public

W0 = "CQ CQ SQ SQ HQ HQ CA CA SA SA HA HA"
W1 = "H10 H10 DQ DQ C10 C10 CK CK S10 S10 HK HK"
W2 = "CJ CJ SJ SJ HJ HJ C9 C9 SK SK H9 H9"
W3 = "DJ DJ DA DA D10 D10 DK DK D9 D9 S9 S9"
DDV = {"re_kontra": 2, "keine90": 3, "keine60": 4, "keine30": 5, "schwarz": 6}
LEVEL_OF = {"re": "re_kontra", "kontra": "re_kontra", **{w: w for w in ("keine90", "keine60", "keine30", "schwarz")}}
ORDER = ("none", "re_kontra", "keine90", "keine60", "keine30", "schwarz")


def deadlines(s: DoppelkopfState, seat: int = 0) -> dict[str, Any]:
    found = s.game.call_deadlines(public(s, seat))
    assert found is not None
    return found


def wedding(**options: Any) -> DoppelkopfState:
    s = deal(game(**options), W0, W1, W2, W3)
    act(s, "vorbehalt", "gesund", "gesund", "gesund", "hochzeit")
    return s


def test_ddv_deadlines_are_the_second_to_sixth_card() -> None:
    # §5.2: Re/Kontra with 11 cards in hand (before one's 2nd card), keine 90 with 10 ... schwarz with 7
    s = deal(game(), W0, W1, W2, W3)
    act(s, "gesund", "gesund", "gesund", "gesund")
    d = deadlines(s)
    assert d == {"count": "hand", "until": DDV, "shift": 0, "waiting": False, "reply": True, "last": None}
    assert all(deadlines(s, seat) == d for seat in range(4))  # public facts only: every seat reads the same


def test_without_nines_the_counts_drop_with_the_hand() -> None:
    # §1.1: 40 cards, 10 in hand, every count two lower: the same cards of one's own
    g = game(nines=False)
    s = g.new_state(seed=3, dealer=3)
    assert g.call_deadlines(s.observation(0).public)["until"] == DDV  # type: ignore[index]


def test_custom_counts_and_the_last_call() -> None:
    # §8.4 call_min_cards and [VAR §5.5] call_last_min_cards
    g = game(call_min_cards="11/9/6/3/3", call_last_min_cards=3)
    d = g.call_deadlines(g.new_state(seed=1, dealer=0).observation(0).public)
    assert d is not None
    assert d["until"] == {"re_kontra": 2, "keine90": 4, "keine60": 7, "keine30": 10, "schwarz": 10}
    assert d["last"] == 10


def test_table_count_names_tricks() -> None:
    # [VAR §5.5, A-22] timing_mode=table_cards counts tricks begun at the table
    g = game(timing_mode="table_cards")
    d = g.call_deadlines(g.new_state(seed=1, dealer=0).observation(0).public)
    assert d is not None and d["count"] == "table" and d["until"] == DDV


def test_no_deadlines_without_announcements() -> None:
    g = game(announcements=False)
    assert g.call_deadlines(g.new_state(seed=1, dealer=0).observation(0).public) is None


def test_a_wedding_waits_for_its_clarification_then_shifts() -> None:
    # §5.4 (TSR): no call before the clarification; clarified in trick 2, every deadline one card later
    s = wedding()
    assert deadlines(s)["waiting"] is True
    play(s, "CA C10 C9 S9")  # the Hochzeiter wins trick 1: still open
    assert deadlines(s)["waiting"] is True
    play(s, "HA HK H9 D9")  # seat 3 ruffs trick 2: the partner
    d = deadlines(s)
    assert (d["waiting"], d["shift"]) == (False, 1)
    assert d["until"] == {level: n + 1 for level, n in DDV.items()}


def test_a_wedding_played_alone_shifts_by_the_whole_window() -> None:
    # §5.4: no partner in three tricks: a Karo solo whose deadlines move by the three tricks (shift 2)
    s = wedding()
    play(s, "CA C10 C9 S9")
    play(s, "CQ DQ SJ DA")
    play(s, "SA S10 SK S9")
    assert public(s)["kind"] == "hochzeit_solo"
    d = deadlines(s)
    assert d["shift"] == 2 and d["until"]["re_kontra"] == 4 and d["until"]["schwarz"] == 8


def test_normal_with_conversion_keeps_the_normal_deadlines() -> None:
    # §5.4 [VAR]: Re/Kontra open at once, no shift
    s = wedding(hochzeit_announcement_timing="normal_with_conversion")
    d = deadlines(s)
    assert (d["waiting"], d["shift"], d["until"]) == (False, 0, DDV)


def _check_moment(s: DoppelkopfState) -> None:
    """At one decision in play: what the screen says about the calls agrees with the legal calls."""
    seat = s.current_player()
    obs = s.observation(seat)
    d = s.game.call_deadlines(obs.public)
    assert d is not None
    # what the deadline counts so far: one's own cards played, or the tricks begun at the table;
    # "until k" means a call is open while fewer than k of them are done (before one's k-th card / the k-th trick)
    done = s.game.options.hand_size - len(obs.hand)
    if d["count"] == "table":
        done = sum(1 for t in obs.tricks if t.cards)
    calls = obs.public["calls"]
    party = 0 if obs.private.get("party") == "re" else 1
    own, other = calls["re" if party == 0 else "kontra"], calls["kontra" if party == 0 else "re"]
    legal = {a.text.split()[1] for a in obs.legal_actions if a.text.startswith("announce ")}
    for word in legal:
        level = LEVEL_OF[word]
        reply = level == "re_kontra" and own == 0 and other >= 1 and d["reply"]
        limit = d["until"][level] if not reply else max(d["until"]["re_kontra"], d["until"][ORDER[other]] + 1)
        assert not d["waiting"] and done < limit, (word, done, d)
    if own == 0 and other == 0 and not d["waiting"] and "party" in obs.private:
        # the plain call is open exactly until its deadline
        assert (("re" if party == 0 else "kontra") in legal) == (done < d["until"]["re_kontra"]), (done, d, legal)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"nines": False},
        {"timing_mode": "table_cards"},
        {"hochzeit_announcement_timing": "normal_with_conversion"},
        {"reply_allowed": False},
    ],
)
def test_the_shown_deadlines_agree_with_the_legal_calls(options: dict[str, Any]) -> None:
    # over random deals (weddings and solos among them): every legal call lies within the shown deadline,
    # and the plain Re/Kontra is offered exactly until it
    g = game(**options)
    rng = random.Random(43)
    checked = plain = 0
    for seed in range(40):
        s = g.new_state(seed=seed, dealer=seed % 4)
        while not s.is_terminal():
            actions = s.legal_actions()
            if s.phase_name == "play":
                _check_moment(s)
                checked += 1
                plain += public(s)["calls"] == {"re": 0, "kontra": 0}
            calls = [a for a in actions if a.text.startswith("announce ")]
            quiet = [a for a in actions if a not in calls] or actions
            s.apply(rng.choice(calls) if calls and rng.random() < 0.04 else rng.choice(quiet))
    assert checked > 500 and plain > 100  # many moments with no call yet, past the deadline as well as before it


def test_the_deadlines_never_tell_a_silent_wedding() -> None:
    # hidden information: seat 0 holds both ♣Q (a silent wedding) or only one (the other swapped with seat 2's ♣J);
    # seat 1, who sees neither hand, reads the same deadlines in both deals (decision 0041: it looks normal)
    swapped0 = W0.replace("CQ CQ", "CQ CJ", 1)
    swapped2 = W2.replace("CJ CJ", "CQ CJ", 1)
    views = []
    for hands, kind in (((W0, W1, W2, W3), "stille_hochzeit"), ((swapped0, W1, swapped2, W3), "normal")):
        s = deal(game(), *hands)
        act(s, "gesund", "gesund", "gesund", "gesund", "play HA")
        assert s.kind == kind
        views.append(s.game.call_deadlines(public(s, 1)))
    assert views[0] == views[1] and views[0] is not None
