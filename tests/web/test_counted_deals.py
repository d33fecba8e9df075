"""The lobby's and the table's "N von M Spielen gespielt" count only deals that count toward the list (issue 40, defect 10)."""

from __future__ import annotations

from stich.core.registry import game_from_string, session_class
from stich.core.session import SheetRow
from stich.web.runtime.table import counted_deals


def test_a_redealt_deal_is_not_counted_but_a_dappen_deal_ins_loch_is() -> None:
    tapp = game_from_string("tapp_tarock")
    session = session_class("tapp_tarock")(tapp, 0, 3)
    assert counted_deals(None) == 0 and counted_deals(session) == 0
    session.rows.append(SheetRow(1, 0, "Dreier", (6, -3, -3), (6, -3, -3), {"game": 1}))
    session.rows.append(SheetRow(2, 1, "Redeal (all passed)", (0, 0, 0), (6, -3, -3), {"redeal": True, "reason": "all_pass", "game": None}))
    assert counted_deals(session) == 1  # tapp_tarock.md §3.3: thrown in, redealt, no game of the list

    dappen = game_from_string("dappen")
    loch = session_class("dappen")(dappen, 0, 6)
    loch.rows.append(SheetRow(1, 0, "ins Loch", (0,) * 6, (0,) * 6, {"idle": []}))
    assert counted_deals(loch) == 1  # Dappen's deal "ins Loch" is one of the list's deals (its session counts every deal)


def test_a_stored_table_counts_its_finished_deals_the_same_way() -> None:
    """A table read back from the database (finished, not in memory) counts as the running table does."""
    from stich.web.api.lobby import _counts_toward_list

    assert _counts_toward_list('{"result": {"kind": "all_pass", "redeal": true, "scores": [0, 0, 0]}}') is False
    assert _counts_toward_list('{"result": {"kind": "thrown", "redeal": false, "scores": [0, 0, 0]}}') is True  # Dappen ins Loch
    assert _counts_toward_list('{"result": {"kind": "game", "scores": [6, -3, -3]}}') is True
    assert _counts_toward_list(None) is True
