"""Scenario tests for the Genscher (issue 29, docs/decisions/0025-genscher.md).

Seats 0 and 1 hold one queen of clubs each (Re), seat 2 holds both diamond
kings; dealer 3, so seat 0 leads.
"""

from __future__ import annotations

from typing import Any

import pytest

from stich.errors import IllegalActionError
from stich.games.doppelkopf.state import DoppelkopfState

from .helpers import act, deal, game, healthy, legal, play, play_out, public, snapshot, solo

RE_HAND = "CQ SQ HQ DQ CJ SJ CA C10 CK SA S10 HA"
KINGS = "H10 H10 DK DK D10 D10 HJ HJ C9 S9 DJ SK"
REST = "DJ DA DA D9 D9 C9 S9 SK HK HK H9 H9"
GENSCHERS = {f"genscher {s}" for s in (0, 1, 3)}


def table(**options: Any) -> DoppelkopfState:
    return healthy(deal(game(**options), RE_HAND, RE_HAND, KINGS, REST))


def test_genscher_offered_with_the_first_diamond_king() -> None:
    # decision 0025: the holder of both DK may play the first of them as a Genscher, naming any other player
    s = table(genscher=True)
    play(s, "DQ DQ")
    assert legal(s) >= GENSCHERS and "play DK" in legal(s)
    act(s, "genscher 3")
    assert s.trick_cards and s.observation(0).tricks[-1].cards[-1].text == "DK"
    assert (public(s)["kind"], public(s)["genscher"]) == ("genscher", {"seat": 2, "partner": 3})
    assert public(s)["parties"] == {"0": "kontra", "1": "kontra", "2": "re", "3": "re"}
    assert s.observation(1).events[-1] == (2, "genscher 3")
    play(s, "D9")  # seat 0 wins with the first DQ and leads
    play(s, "SQ SQ")
    assert "play DK" in legal(s) and not GENSCHERS & legal(s)  # once only: the second DK is an ordinary card


def test_genscher_result_scores_the_new_parties() -> None:
    # decision 0025: the deal is scored as a normal game of the new parties (§7, with special points)
    s = table(genscher=True)
    play(s, "DQ DQ")
    act(s, "genscher 3")
    result = play_out(s).result()
    assert result.breakdown["kind"] == "genscher"
    assert (result.breakdown["re"], result.breakdown["kontra"]) == ([2, 3], [0, 1])
    assert sum(result.scores) == 0 and result.scores[2] == result.scores[3] == -result.scores[0]


def test_genscher_keeps_calls_as_plain_re_kontra_and_drops_absagen() -> None:
    # decision 0025 (FreeDoko): each call stays a Re / Kontra of its caller's new party; every absage lapses
    s = table(genscher=True)
    act(s, "announce re", "announce keine90")
    play(s, "DQ DQ")
    act(s, "announce kontra", "genscher 0")
    assert public(s)["calls"] == {"re": 1, "kontra": 0}
    assert public(s)["parties"]["0"] == public(s)["parties"]["2"] == "re"


def test_genscher_choosing_the_old_partner_still_lapses_absagen() -> None:
    # decision 0025: any other player may be named, the old partner too
    s = table(genscher=True)
    play(s, "DQ DQ")
    act(s, "genscher 3")
    assert public(s)["genscher"]["partner"] == 3


def test_no_genscher_by_default_or_in_a_solo() -> None:
    # §8.3: genscher=false by default; decision 0025: never in a solo (nor a wedding, poverty, silent wedding)
    s = table()
    play(s, "DQ DQ")
    assert not GENSCHERS & legal(s)
    s = solo(deal(game(genscher=True), RE_HAND, RE_HAND, KINGS, REST), 2, "karo")
    assert s.current_player() == 2 and not GENSCHERS & legal(s)


def test_no_genscher_with_a_single_diamond_king() -> None:
    # decision 0025: both diamond kings must be in the hand
    s = healthy(deal(game(genscher=True), RE_HAND, RE_HAND, KINGS.replace("DK DK", "DK D9"), REST.replace("D9 D9", "D9 DK")))
    play(s, "DQ DQ")
    assert "play DK" in legal(s) and not GENSCHERS & legal(s)


@pytest.mark.parametrize(("action", "word"), [("genscher 2", "another player"), ("genscher 4", "another player")])
def test_bad_genscher_named_and_state_unchanged(action: str, word: str) -> None:
    # bad input names the rule and changes nothing
    s = table(genscher=True)
    play(s, "DQ DQ")
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match=word):
        s.apply(action)
    assert snapshot(s) == before


def test_genscher_not_before_the_kings_are_playable() -> None:
    # decision 0025: the Genscher is the card play itself, so it is illegal while the DK may not be played
    s = table(genscher=True)
    play(s, "CA CK")  # clubs led: seat 2 must follow with its C9
    assert not GENSCHERS & legal(s)
    with pytest.raises(IllegalActionError, match="decision 0025"):
        s.apply("genscher 3")


SILENT_HAND = "CQ CQ HQ DQ CJ SJ CA C10 CK SA S10 HA"
SPADE_QUEENS = "SQ SQ HQ DQ CJ SJ CA C10 CK SA S10 HA"


def test_genscher_offered_alike_in_a_silent_wedding_the_holder_cannot_see() -> None:
    # decision 0041 (issue 41): seat 2 cannot tell a silent wedding (seat 0: both CQ) from a normal game
    # (seats 0 and 1: one CQ each), so its observation and its offer are the same in both
    normal = table(genscher=True)
    silent = healthy(deal(game(genscher=True), SILENT_HAND, SPADE_QUEENS, KINGS, REST))
    assert silent.kind == "stille_hochzeit" and normal.kind == "normal"
    for s in (normal, silent):
        play(s, "DQ DQ")
    assert silent.observation(2).public == normal.observation(2).public
    assert silent.observation(2).events == normal.observation(2).events
    assert legal(silent) == legal(normal) and legal(silent) >= GENSCHERS


def test_genscher_in_a_silent_wedding_is_void_and_shows_the_wedding() -> None:
    # decision 0041: the Genscher needs a normal game (0025); in a silent wedding the king is a plain card,
    # the game stays the silent wedding (a solo of seat 0) and the table learns of it
    s = healthy(deal(game(genscher=True), SILENT_HAND, SPADE_QUEENS, KINGS, REST))
    play(s, "DQ DQ")
    act(s, "genscher 3")
    pub = public(s)
    assert (pub["kind"], pub["soloist"], pub["genscher"]) == ("stille_hochzeit", 0, None)
    assert pub["parties"] == {"0": "re", "1": "kontra", "2": "kontra", "3": "kontra"}
    assert s.observation(1).tricks[-1].cards[-1].text == "DK"
    result = play_out(s).result()
    assert result.breakdown["kind"] == "stille_hochzeit" and result.breakdown["re"] == [0]


def test_no_genscher_for_the_silent_wedding_player_itself() -> None:
    # decision 0041: the player of the silent wedding knows its game is no normal game
    wedding = "CQ CQ DK DK CJ SJ CA C10 CK SA S10 HA"
    plain = "SQ SQ HQ DQ CJ SJ CA C10 CK SA S10 HA"
    rest = "H10 H10 HQ DQ D10 D10 HJ HJ C9 S9 DJ SK"
    s = healthy(deal(game(genscher=True), wedding, plain, rest))
    assert s.kind == "stille_hochzeit" and s.current_player() == 0
    assert "play DK" in legal(s) and not {f"genscher {p}" for p in (1, 2, 3)} & legal(s)
    with pytest.raises(IllegalActionError, match="0041"):
        s.apply("genscher 1")


def test_a_void_genscher_makes_the_wedding_queens_knowable() -> None:
    # decision 0041: after the reveal every seat knows where both CQ lie (the leak check swaps no knowable card)
    s = healthy(deal(game(genscher=True), SILENT_HAND, SPADE_QUEENS, KINGS, REST))
    play(s, "DQ DQ")
    cq = {c for c in s.game.deck.physical if s.game.deck.card(c).text == "CQ"}
    assert not any(s.knowable_cards(3) >> c & 1 for c in cq)
    act(s, "genscher 3")
    assert all(s.knowable_cards(seat) >> c & 1 for seat in range(4) for c in cq)
