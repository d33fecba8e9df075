"""A complete Tapp Tarock deal in the browser: two people and one heuristic bot, bidding and talon included.

Anna bids whenever she may (so that she usually becomes the declarer and
takes the talon and discards through the page: action buttons, or legal
cards in her hand when discards are card clicks); Bert passes.  The deal is
played to the evaluation and checked against its record.
"""

from __future__ import annotations

from .flows import ContextFactory, Screenshot, check_finished_deal, check_score_sheet, finished_records, seat_two_people
from .knowledge import seat_actions
from .ui import all_evaluated, play


def test_tapp_tarock_deal_with_bidding_and_talon(make_context: ContextFactory, screenshot: Screenshot) -> None:
    table = seat_two_people(make_context, screenshot, "tapp_tarock", anna_prefers=("bid ", "pass"), bert_prefers=("pass",))

    final = play(table.players, until=all_evaluated)
    for player in table.players:
        assert final[player.name].evaluation
        screenshot(player.page, f"evaluation-{player.name}")
    assert any(kind == "action" and text.startswith("bid ") for kind, text in table.anna.moves), f"Anna never bid: {table.anna.moves}"

    record = check_finished_deal(table, finished_records(table))
    for player in table.players:
        check_score_sheet(player.page, record)
    breakdown = record["result"]  # the scores and the breakdown, flattened
    assert breakdown.get("kind") != "all_pass", "Anna bid, so the deal cannot have been thrown in"
    anna_seat = next(shot.seat for shot in table.anna.snapshots if shot.seat is not None)
    if breakdown.get("declarer") == anna_seat and breakdown.get("talon_taken"):
        # Anna won the bidding: her talon choice and discards are in the record, so (checked above) she clicked them on her page.
        anna_actions = seat_actions(record, anna_seat)
        assert any(text.startswith("take ") for text in anna_actions), anna_actions
        assert any(text.startswith("discard ") for text in anna_actions), anna_actions
