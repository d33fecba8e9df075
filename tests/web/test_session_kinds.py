"""Free play and lists (issue 28, defect 1): the lobby's default Doppelkopf table has no compulsory solo.

A short DDV list used to be a row of Vorführungen: with 4 deals every one
was a forced solo [doppelkopf.md §2.3].  ``kind="free"`` turns the
compulsory option off; ``kind="list"`` plays whole rounds (24 games at four,
30 at five, the Pflichtsoli included [§2.1, §2.2]); ``POST
/api/tables/rules`` says what a table would play, and each table summary
carries the same ``rules``.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from stich.core.registry import game_from_string, make_game, session_class
from stich.web.deals.session_kinds import forced_seat, list_length, session_rules

from .helpers import Reader, call, connect, create_table, new_guest


def _rules(client: TestClient, **body: Any) -> dict[str, Any]:
    response = call(client, "POST", "/api/tables/rules", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_a_free_doppelkopf_table_owes_no_solo(client: TestClient) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", kind="free", deals=4)
    assert table["game"] == "doppelkopf(preset=ddv,pflichtsolo=false)"
    rules = table["rules"]
    assert rules["kind"] == "free" and rules["compulsory"] is None and not rules["vorfuehrung"] and rules["deals"] == 4


def test_a_short_ddv_list_is_a_row_of_vorfuehrungen_and_says_so() -> None:
    """Why free play is the default: 4 deals of a DDV list force 4 solos (§2.3), and the rules say it."""
    game = make_game("doppelkopf")
    session = session_class("doppelkopf")(game, 7, 4)
    forced = []
    for _ in range(4):
        session.next_deal()
        forced.append(forced_seat(session))
        session.pending = None  # only the forcing is looked at here, not the play
        session.games += 1
    assert all(f is not None and f["why"] == "vorfuehrung" for f in forced), forced
    rules = session_rules(game, 4)
    assert rules["compulsory"] == "pflichtsolo" and rules["vorfuehrung"] and rules["rounds"] is None


def test_a_list_is_whole_rounds_of_the_dossiers_length(client: TestClient) -> None:
    assert _rules(client, game="doppelkopf", kind="list")["deals"] == 24  # §2.1: 24 games at four players
    five = _rules(client, game="doppelkopf", kind="list", options={"players": 5})
    assert five["deals"] == 30 and five["seats"] == 5 and five["dealer_sits_out"] and five["active"] == 4
    assert _rules(client, game="doppelkopf", kind="list", deals=48)["rounds"] == 2
    refused = call(client, "POST", "/api/tables", json={"game": "doppelkopf", "kind": "list", "deals": 25})
    assert refused.status_code == 422 and refused.json()["field"] == "deals"
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", kind="list")
    assert table["deals_requested"] == 24 and table["game"] == "doppelkopf(preset=ddv)"
    assert table["rules"]["kind"] == "list" and table["rules"]["compulsory"] == "pflichtsolo"


def test_free_play_refuses_a_compulsory_option_and_names_it(client: TestClient) -> None:
    body = {"game": "doppelkopf", "kind": "free", "options": {"pflichtsolo": True}}
    refused = call(client, "POST", "/api/tables", json=body)
    assert refused.status_code == 422 and refused.json()["field"] == "options.pflichtsolo"
    mussrunde = call(client, "POST", "/api/tables", json={"game": "dobbm", "preset": "mussrunde", "kind": "free"})
    assert mussrunde.status_code == 422 and mussrunde.json()["field"] == "kind"
    assert _rules(client, game="dobbm", preset="mussrunde", kind="list")["compulsory"] == "mussrunde"
    bad_kind = call(client, "POST", "/api/tables", json={"game": "doppelkopf", "kind": "tournament"})
    assert bad_kind.status_code == 422 and bad_kind.json()["field"] == "kind"


def test_each_games_list_follows_its_players_option(client: TestClient) -> None:
    """Dappen at 8 seats deals round 8 seats (the lobby used to say "6 games, everyone deals once")."""
    eight = _rules(client, game="dappen", kind="list", options={"players": 8})
    assert eight["seats"] == 8 and eight["deals"] == 8 and eight["dealer"] == "rotates" and eight["dealer_sits_out"]
    assert _rules(client, game="dobbm", kind="free", deals=3)["dealer"] == "declarer"  # dobbm.md §2: the declarer deals next
    assert _rules(client, game="droggn", kind="free", deals=3)["dealer"] == "declarer"  # droggn.md §2
    tapp = make_game("tapp_tarock")
    assert list_length(tapp) == tapp.options.session_rounds * 3


def test_the_deal_start_names_the_forced_soloist(client: TestClient) -> None:
    """At a one-deal DDV list (no kind: the options as given) the deal is a Vorführung, and every client is told whose."""
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", deals=1, seat=1, bots="random")
    with connect(client, table["id"], token) as ws:
        start = Reader(ws).until(lambda m: m["type"] == "deal_start")
    assert start["forced"] == {"seat": 1, "why": "vorfuehrung"}


def test_the_requested_kind_tells_free_from_list_only_where_the_deals_are_the_same() -> None:
    """Issue 40, defect 7: six Dappen deals at six seats are free play or a list as asked; a Doppelkopf table's kind follows Pflichtsolo."""
    dappen = game_from_string("dappen")
    assert session_rules(dappen, 6)["kind"] == "list"  # no kind stored (older tables): derived as before
    assert session_rules(dappen, 6, "free")["kind"] == "free"
    assert session_rules(dappen, 6, "list")["kind"] == "list"
    doppelkopf = game_from_string("doppelkopf(preset=ddv)")
    assert session_rules(doppelkopf, 24, "free")["kind"] == "list"  # pflichtsolo on: compulsory deals make it a list
