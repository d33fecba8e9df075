"""A complete Doppelkopf deal in the browser: two people (Anna, Bert by invite) and two heuristic bots.

Both people play by clicking legal cards and action buttons (reservations:
``gesund``) whenever their page says it is their turn, until both pages show
the evaluation; then the replay steps through every action with all four
hands shown.
"""

from __future__ import annotations

from .flows import ContextFactory, Screenshot, check_finished_deal, check_replay, check_score_sheet, finished_records, seat_two_people
from .ui import all_evaluated, play


def test_doppelkopf_deal_with_invite_bots_and_replay(make_context: ContextFactory, screenshot: Screenshot) -> None:
    table = seat_two_people(make_context, screenshot, "doppelkopf")

    play(table.players, until=lambda latest: all(shot.on_table and 0 < len(shot.hand) <= 9 for shot in latest.values()))
    for player in table.players:
        screenshot(player.page, f"mid-deal-{player.name}")

    final = play(table.players, until=all_evaluated)
    for player in table.players:
        assert final[player.name].evaluation
        screenshot(player.page, f"evaluation-{player.name}")
    for player in table.players:  # twelve tricks: each person played (at least) twelve cards by clicking them
        assert sum(kind == "card" for kind, _text in player.moves) >= 12, player.moves

    record = check_finished_deal(table, finished_records(table))
    for player in table.players:
        check_score_sheet(player.page, record)
    assert record["result"] is not None and len(record["actions"]) >= 48
    check_replay(table.anna.page, record, screenshot)
