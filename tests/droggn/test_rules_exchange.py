"""Scenario tests: taking the talon, discarding and buying a card (dossier §4)."""

from __future__ import annotations

import pytest

from stich.errors import IllegalActionError

from .helpers import act, bid, deal, game, hand_text, legal, legal_cards, snapshot

DECLARER = "SK HK CK T10 T9 C4 C5 H7"
TALON = "T1 T21 T22"


def test_declarer_takes_the_talon() -> None:
    # §4.1 the declarer takes the 3 talon cards: 24 cards in hand, the talon is empty
    s = bid(deal(game(), {0: DECLARER}, talon=TALON), 0, "solo")
    assert s.hand_mask(0).bit_count() == 24
    assert {"T1", "T21", "T22"} <= hand_text(s, 0)
    assert s.talon == 0
    assert s.phase_name == "exchange"


def test_trull_cards_may_not_be_discarded() -> None:
    # §4.1 never the Gstieß, the Mond or the Pagat
    s = bid(deal(game(), {0: DECLARER}, talon=TALON), 0, "solo")
    assert not {"T1", "T21", "T22"} & legal_cards(s, "discard")
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match=r"Gstieß, the Mond and the Pagat.*§4.1"):
        s.apply("discard T21")
    assert snapshot(s) == before


def test_trumps_may_be_discarded() -> None:
    # §4.1 anything else, trumps II-XX included, may be discarded
    s = bid(deal(game(), {0: DECLARER}, talon=TALON), 0, "solo")
    act(s, "discard T10", "discard T9", "discard C4")
    assert s.phase_name == "declare"
    assert s.hand_mask(0).bit_count() == 21


def test_king_only_with_a_trump() -> None:
    # §4.1 a king may be discarded only together with a trump: after two plain cards no king may follow
    s = bid(deal(game(), {0: DECLARER}, talon=TALON), 0, "solo")
    act(s, "discard C4", "discard C5")
    assert "SK" not in legal_cards(s, "discard")
    with pytest.raises(IllegalActionError, match=r"king.*§4.1"):
        s.apply("discard SK")


def test_one_trump_per_king() -> None:
    # §4.1, §10.5 one trump per king: after a king, a second king is not allowed, and the last card must be a trump
    s = bid(deal(game(), {0: DECLARER}, talon=TALON), 0, "solo")
    act(s, "discard SK")
    assert "HK" not in legal_cards(s, "discard")
    act(s, "discard C4")
    assert legal_cards(s, "discard") == {f"T{n}" for n in range(2, 21)} & hand_text(s, 0)


def test_one_trump_any_kings_option() -> None:
    # §10.5 king_discard_rule=one_trump_any_kings: two kings may go with one trump
    s = bid(deal(game(king_discard_rule="one_trump_any_kings"), {0: DECLARER}, talon=TALON), 0, "solo")
    act(s, "discard SK", "discard HK")
    assert legal_cards(s, "discard") == {f"T{n}" for n in range(2, 21)} & hand_text(s, 0)
    act(s, "discard T10")
    assert s.phase_name == "declare"


def test_discards_are_hidden_from_the_others() -> None:
    # §4.1 the discards go face down (trumps discarded are not announced)
    s = bid(deal(game(), {0: DECLARER}, talon=TALON), 0, "solo")
    act(s, "discard T10", "discard C4", "discard C5")
    assert ("0", "discard T10") not in [(str(a), t) for a, t in s.observation(1).events]
    assert [t for _a, t in s.observation(1).events[-3:]] == ["discard ?"] * 3
    assert s.observation(0).private["discards"] == ["T10", "C5", "C4"]
    assert "talon" not in s.observation(1).private


def test_solo_has_no_buying() -> None:
    # §3.1, §4.2 only an Ansager may buy a card: a Solo goes on to laying out / liege
    s = bid(deal(game(), {0: DECLARER}, talon=TALON), 0, "solo")
    act(s, "discard T10", "discard C4", "discard C5")
    assert s.phase_name == "declare"
    assert not any(a.kind in ("offer", "buy") for a in s.legal_actions())


def test_ansager_may_buy_a_named_card() -> None:
    # §4.2 the declarer places a card face down and names one; its holder hands it over face up and takes the other
    s = bid(deal(game(), {0: DECLARER, 1: "SQ T20", 2: "HQ"}, talon="T1 T22 D7"), 0, "ansager")
    act(s, "discard C4", "discard C5", "discard D7")
    assert s.phase_name == "buy"
    assert "pass" in legal(s)
    act(s, "offer H7")
    assert legal_cards(s, "buy") == hand_text(s, 1) | hand_text(s, 2)
    act(s, "buy T20")
    assert "T20" in hand_text(s, 0) and "H7" not in hand_text(s, 0)
    assert "H7" in hand_text(s, 1) and "T20" not in hand_text(s, 1)
    assert [s.hand_mask(p).bit_count() for p in range(3)] == [21, 21, 21]
    assert s.phase_name == "declare"
    public = s.observation(2).public
    assert public["bought"] == "T20" and public["bought_from"] == 1


def test_only_the_receiver_sees_the_offered_card() -> None:
    # §4.2 the third player does not see the card given in exchange
    s = bid(deal(game(), {0: DECLARER, 1: "SQ T20", 2: "HQ"}, talon="T1 T22 D7"), 0, "ansager")
    act(s, "discard C4", "discard C5", "discard D7", "offer H7")
    assert s.observation(1).private.get("offered") is None
    assert [t for _a, t in s.observation(1).events][-1] == "offer ?"
    act(s, "buy SQ")
    assert s.observation(1).private["offered"] == "H7"
    assert "offered" not in s.observation(2).private
    assert "offer ?" in [t for _a, t in s.observation(2).events]
    assert "offer H7" in [t for _a, t in s.observation(1).events]


def test_cannot_name_a_card_held_or_laid_away() -> None:
    # §4.2 naming a card the declarer holds or discarded gives no buy: such a name is refused
    s = bid(deal(game(), {0: DECLARER, 1: "SQ T20", 2: "HQ"}, talon="T1 T22 D7"), 0, "ansager")
    act(s, "discard C4", "discard C5", "discard D7", "offer H7")
    before = snapshot(s)
    for card in ("SK", "C4", "H7"):
        with pytest.raises(IllegalActionError, match=r"§4.2"):
            s.apply(f"buy {card}")
    assert snapshot(s) == before


def test_pass_gives_up_the_buy_and_stays_an_ansager() -> None:
    # §4.2 a declarer who does not buy loses the right; the game is still an Ansager
    s = bid(deal(game(), {0: DECLARER}, talon="T1 T22 D7"), 0, "ansager")
    act(s, "discard C4", "discard C5", "discard D7", "pass")
    assert s.phase_name == "declare"
    assert s.contract is not None and s.contract.name == "ansager"
    with pytest.raises(IllegalActionError):
        s.apply("buy SQ")


def test_buy_needs_the_offered_card_first() -> None:
    # §4.2 the card given in exchange is placed before the card is named
    s = bid(deal(game(), {0: DECLARER}, talon="T1 T22 D7"), 0, "ansager")
    act(s, "discard C4", "discard C5", "discard D7")
    with pytest.raises(IllegalActionError, match=r"face down.*§4.2"):
        s.apply("buy SQ")


def test_talon_not_shown_by_default() -> None:
    # §4.1, §10.4 the declarer takes the talon without showing it
    s = bid(deal(game(), {0: DECLARER}, talon="T1 T22 D7"), 0, "ansager")
    assert "shown_talon" not in s.observation(1).public
    assert s.observation(0).private["talon"] == ["T1", "T22", "D7"]


def test_expose_talon_in_an_ansager() -> None:
    # §9 expose_talon=ansager_only: in an Ansager everybody sees the talon, in a Solo nobody
    s = bid(deal(game(expose_talon="ansager_only"), {0: DECLARER}, talon="T1 T22 D7"), 0, "ansager")
    assert s.observation(2).public["shown_talon"] == ["T1", "T22", "D7"]
    s = bid(deal(game(expose_talon="ansager_only"), {0: DECLARER}, talon="T1 T22 D7"), 0, "solo")
    assert "shown_talon" not in s.observation(2).public
