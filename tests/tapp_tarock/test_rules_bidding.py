"""Scenario tests for the bidding (dossier §3).  Dealer seat 2: seat 0 is forehand, 1 middlehand, 2 rearhand."""

from __future__ import annotations

import pytest

from stich.errors import IllegalActionError

from .helpers import act, deal, game, legal, snapshot


def test_forehand_opens_with_pass_dreier_or_solo() -> None:
    # §3.2: while nobody has bid, a player may pass, bid Dreier or jump to Solo
    state = deal()
    assert state.current_player() == 0
    assert legal(state) == {"pass", "bid dreier", "bid solo"}


def test_overcall_must_be_exactly_the_next_level() -> None:
    # §3.2: a later player must pass or bid exactly the next level (Solo excepted)
    state = act(deal(), "bid dreier")
    assert legal(state) == {"pass", "bid unterer", "bid solo"}
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="next level") as err:
        state.apply("bid oberer")
    assert err.value.rule == "§3.2"
    assert snapshot(state) == before


def test_opening_bid_cannot_skip_dreier() -> None:
    # §3.2: the bidding opens with Dreier (or a jump to Solo)
    with pytest.raises(IllegalActionError, match="opens with Dreier"):
        deal().apply("bid unterer")


def test_a_player_who_passed_is_out() -> None:
    # §3.2: a player who passes may not re-enter; the turn skips them
    state = act(deal(), "pass", "bid dreier", "bid unterer")
    assert state.current_player() == 1  # forehand (seat 0) passed and is skipped
    act(state, "hold", "pass")
    assert state.declarer == 1 and state.contract is not None and state.contract.name == "unterer"


def test_senior_overcalled_player_may_hold() -> None:
    # §3.2: forehand, overcalled by a later player, takes the level over ("halte ich")
    state = act(deal(), "bid dreier", "bid unterer", "pass")
    assert "hold" in legal(state)
    act(state, "hold")
    assert state.holder == 0 and state.level == 2
    assert state.current_player() == 1
    assert legal(state) == {"pass", "bid oberer", "bid solo"}  # the overcaller must go higher or pass
    act(state, "pass")
    assert state.declarer == 0 and state.contract is not None and state.contract.name == "unterer"


def test_junior_player_cannot_hold() -> None:
    # §3.2: only a player who spoke earlier in the order (seniority) can hold
    state = act(deal(), "bid dreier", "bid unterer")
    assert state.current_player() == 2
    assert "hold" not in legal(state)
    with pytest.raises(IllegalActionError, match="senior") as err:
        state.apply("hold")
    assert err.value.rule == "§3.2"


def test_holding_repeats_until_somebody_gives_in() -> None:
    # §3.2: after a hold the overcaller goes one higher or passes; the senior player may hold again
    state = act(deal(), "bid dreier", "bid unterer", "pass", "hold", "bid oberer", "hold")
    assert state.holder == 0 and state.level == 3
    act(state, "bid solo")
    assert state.declarer == 1 and state.contract is not None and state.contract.name == "solo"


def test_holder_is_skipped_until_overcalled() -> None:
    # §3.2: the holder speaks only after being overcalled
    state = act(deal(), "bid dreier", "bid unterer", "bid oberer")
    assert state.current_player() == 0
    act(state, "hold")
    assert state.current_player() == 1
    act(state, "pass")
    assert state.current_player() == 2
    assert legal(state) == {"pass", "bid solo"}  # next(Oberer) is Solo
    act(state, "pass")
    assert state.declarer == 0 and state.level == 3


def test_bidding_ends_when_one_player_is_left() -> None:
    # §3.2: when only one player has not passed and a bid exists, that player is the declarer
    state = act(deal(), "bid dreier", "pass", "pass")
    assert state.declarer == 0
    assert state.phase_name == "talon"


def test_solo_may_be_jumped_to_at_any_turn() -> None:
    # §3.2, §10.5: by default Solo may be bid at any turn, skipping levels
    state = act(deal(), "bid dreier", "bid unterer", "pass", "hold")
    assert "bid solo" in legal(state)


def test_solo_jump_only_at_first_turn() -> None:
    # §10.5 option solo_jump=first_turn_only: the jump to Solo only at a player's first turn
    state = act(deal(game(solo_jump="first_turn_only")), "bid dreier")
    assert "bid solo" in legal(state)
    act(state, "bid unterer", "pass", "hold")
    assert legal(state) == {"pass", "bid oberer"}
    with pytest.raises(IllegalActionError, match="first turn") as err:
        state.apply("bid solo")
    assert "§10.5" in err.value.rule


def test_solo_ends_the_auction() -> None:
    # §3.2, §10.6: a Solo bid ends the bidding at once and cannot be held
    state = act(deal(), "bid dreier", "bid solo")
    assert state.declarer == 1 and state.phase_name == "announce"


def test_solo_can_be_held_when_it_does_not_end_the_auction() -> None:
    # §10.6 option solo_ends_auction=false: a senior overcalled player may hold the Solo
    state = act(deal(game(solo_ends_auction=False)), "bid dreier", "bid solo")
    assert state.phase_name == "bidding"
    assert legal(state) == {"pass"}  # rearhand cannot go above Solo and cannot hold
    act(state, "pass")
    assert legal(state) == {"pass", "hold"}
    act(state, "hold")
    assert legal(state) == {"pass"}
    act(state, "pass")
    assert state.declarer == 0 and state.contract is not None and state.contract.name == "solo"


def test_forehand_only_hold_rule() -> None:
    # §3.2, §10.4 option hold_rule=forehand_only: middlehand cannot hold rearhand's overcall
    state = act(deal(), "pass", "bid dreier", "bid unterer")
    assert "hold" in legal(state)
    state = act(deal(game(hold_rule="forehand_only")), "pass", "bid dreier", "bid unterer")
    assert "hold" not in legal(state)
    with pytest.raises(IllegalActionError, match="only forehand"):
        state.apply("hold")


def test_all_pass_throws_the_cards_in() -> None:
    # §3.3: when everybody passes the deal is thrown in and nobody scores
    state = act(deal(), "pass", "pass", "pass")
    assert state.is_terminal()
    result = state.result()
    assert result.scores == (0, 0, 0)
    assert result.breakdown == {"kind": "all_pass", "redeal": True, "next_dealer": 2}


def test_immediate_hold_overcalled_player_answers_at_once() -> None:
    # §3.2 footnote, option bidding_style=immediate_hold: the overcalled forehand answers before rearhand speaks
    state = act(deal(game(bidding_style="immediate_hold")), "bid dreier", "bid unterer")
    assert state.current_player() == 0
    assert "hold" in legal(state)
    act(state, "hold")
    assert state.current_player() == 1  # the overcaller must go higher or pass
    assert legal(state) == {"pass", "bid oberer", "bid solo"}
    act(state, "pass")
    assert state.current_player() == 2  # then rearhand enters, against forehand
    act(state, "bid oberer")
    assert state.current_player() == 0
    act(state, "pass")
    assert state.declarer == 2 and state.contract is not None and state.contract.name == "oberer"


def test_immediate_hold_every_player_enters_once() -> None:
    # §3.2 footnote: single round: a player who is through does not speak again
    state = act(deal(game(bidding_style="immediate_hold")), "bid dreier", "pass", "pass")
    assert state.declarer == 0
    state = act(deal(game(bidding_style="immediate_hold")), "pass", "bid dreier", "bid unterer", "pass")
    assert state.declarer == 2
