"""Replays, a person's statistics and deal list, and the extras of the table messages (hand groups, result lines).

Finished deals are produced by real play: a person who never connects gets
a stand-in bot at once (grace period 0), so the deal is theirs and plays to
the end by itself.  Every expectation is recomputed independently from the
stored record (:func:`helpers.states_by_step` replays it through the engine).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.core.registry import game_from_string
from stich.web.deals.deal_facts import thrown_in

from .helpers import (
    call,
    check_no_leaks,
    create_table,
    make_settings,
    new_guest,
    play_watched_deal,
    running,
    session_token,
    states_by_step,
    wait_for,
)

pytestmark = pytest.mark.both_databases


def _finished_deals(client: TestClient, table_id: str, count: int, token: str | None = None) -> list[dict[str, Any]]:
    """Wait until the table has ``count`` finished deals; returns the deal list (as ``token`` sees it)."""

    def done() -> list[dict[str, Any]]:
        deals: list[dict[str, Any]] = call(client, "GET", f"/api/tables/{table_id}/deals", token).json()["deals"]
        return deals if sum(d["status"] == "finished" for d in deals) >= count else []

    deals: list[dict[str, Any]] = wait_for(done, timeout=30, what=f"{count} finished deals")
    return deals


def _absent_table(client: TestClient, token: str, game: str = "doppelkopf", seat: int = 1, **body: Any) -> dict[str, Any]:
    """A table where ``token`` sits in ``seat`` but never connects (the stand-in plays) and random bots fill the rest."""
    return create_table(client, token, game=game, seat=seat, bots="random", **body)


@pytest.fixture
def absent_client(db_url: str) -> Any:
    """A server whose stand-in plays at once for anyone who is not connected."""
    with running(make_settings(db_url, grace_seconds=0.0)) as test_client:
        yield test_client


# ---------------------------------------------------------------- replays
@pytest.mark.parametrize("game", ["doppelkopf", "tapp_tarock", "droggn"])
def test_replay_shows_every_seats_observation_after_every_step(absent_client: TestClient, game: str) -> None:
    token = new_guest(absent_client, "Ada")
    table = _absent_table(absent_client, token, game=game)
    deal = _finished_deals(absent_client, table["id"], 1)[0]
    record = call(absent_client, "GET", deal["record_url"]).json()
    response = call(absent_client, "GET", f"/api/deals/{deal['id']}/replay")
    assert response.status_code == 200, response.text
    replay = response.json()
    assert replay["deal_id"] == deal["id"] and replay["game"] == record["game"]
    assert replay["seats"] == record["players"] and replay["seats"][1] == "Ada"
    assert replay["result"] == record["result"]
    states = states_by_step(record)  # the engine's own replay of the stored record
    assert len(replay["frames"]) == len(record["actions"]) + 1 == len(states)
    engine = game_from_string(record["game"])
    for step, (frame, state) in enumerate(zip(replay["frames"], states, strict=True)):
        assert frame["step"] == step
        assert frame["action"] == (None if step == 0 else {"seat": record["actions"][step - 1][0], "text": record["actions"][step - 1][1]})
        assert frame["observations"] == [state.observation(seat).to_json() for seat in range(engine.num_seats)]
        for seat, groups in enumerate(frame["hand_groups"]):
            hand = state.observation(seat).hand
            assert Counter(card for group in groups for card in group) == Counter(card.text for card in hand)
            assert groups == [[c.text for c in group] for group in engine.hand_groups(hand, state.observation(seat).public)]
    assert replay["frames"][-1]["observations"][0]["hand"] == [] or game != "doppelkopf"  # every card played
    assert replay["result_lines"] == engine.describe_result(record["result"]) and replay["result_lines"]


def test_replay_of_a_running_deal_is_refused(client: TestClient) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", seat=0, bots="random")  # the person never moves: the deal waits
    deals = wait_for(lambda: call(client, "GET", f"/api/tables/{table['id']}/deals").json()["deals"], what="the deal")
    response = call(client, "GET", f"/api/deals/{deals[0]['id']}/replay", token)
    assert response.status_code == 409 and response.json()["field"] == "deal"
    assert call(client, "GET", "/api/deals/99999/replay").status_code == 404
    assert call(client, "GET", "/api/deals/99999/replay").json()["field"] == "deal"
    assert call(client, "GET", "/api/deals/abc/replay").json()["field"] == "deal_id"


def test_replay_of_a_private_table_needs_membership_or_the_invite(absent_client: TestClient) -> None:
    host, stranger = new_guest(absent_client), new_guest(absent_client)
    table = _absent_table(absent_client, host, private=True)
    invite = table["invite"].split("invite=")[1]
    deal = _finished_deals(absent_client, table["id"], 1, host)[0]
    url = f"/api/deals/{deal['id']}/replay"
    refused = call(absent_client, "GET", url, stranger)
    assert refused.status_code == 404 and refused.json()["field"] == "deal"
    assert call(absent_client, "GET", url).status_code == 404
    assert call(absent_client, "GET", f"{url}?invite={invite}", stranger).status_code == 200
    assert call(absent_client, "GET", url, host).json()["deal_id"] == deal["id"]


# ------------------------------------------------------------- statistics
def _scores(client: TestClient, deals: list[dict[str, Any]], seat: int) -> list[int]:
    """``seat``'s score in each finished deal that was played (a thrown-in deal is no played deal in the statistics)."""
    results = [call(client, "GET", d["record_url"]).json()["result"] for d in deals if d["status"] == "finished"]
    return [result["scores"][seat] for result in results if not thrown_in(result)]


def test_stats_and_deal_list_cover_the_deals_you_sat_in(absent_client: TestClient) -> None:
    ada, bob = new_guest(absent_client, "Ada"), new_guest(absent_client, "Bob")

    def table_over(table: dict[str, Any]) -> None:
        # a thrown-in deal is finished but does not count: wait for the whole table, not for a number of deals
        url = f"/api/tables/{table['id']}"
        wait_for(lambda: call(absent_client, "GET", url).json()["status"] == "finished", timeout=30, what="the table to end")

    first = _absent_table(absent_client, ada, deals=2, seat=1)
    table_over(first)
    first_deals = _finished_deals(absent_client, first["id"], 2)
    second = _absent_table(absent_client, ada, game="droggn", seat=2)
    table_over(second)
    second_deals = _finished_deals(absent_client, second["id"], 1)
    other = _absent_table(absent_client, bob, seat=0)  # Ada did not sit here
    table_over(other)

    doko, droggn = _scores(absent_client, first_deals, 1), _scores(absent_client, second_deals, 2)
    stats = call(absent_client, "GET", "/api/me/stats?include_stand_in=true", ada).json()  # a stand-in played every deal
    assert stats["name"] == "Ada"
    by_game = {g["game"]: g for g in stats["games"]}
    assert set(by_game) == {"doppelkopf", "droggn"}
    for name, scores in (("doppelkopf", doko), ("droggn", droggn)):
        entry = by_game[name]
        assert entry["deals"] == len(scores)
        assert entry["won"] == sum(s > 0 for s in scores) and entry["lost"] == sum(s < 0 for s in scores)
        assert entry["score_total"] == sum(scores) and entry["score_mean"] == pytest.approx(sum(scores) / len(scores))

    listed = call(absent_client, "GET", "/api/me/deals", ada).json()
    ids = [d["deal_id"] for d in listed["deals"]]
    finished_ids = [d["id"] for d in first_deals + second_deals if d["status"] == "finished"]
    assert sorted(ids) == sorted(finished_ids) and listed["total"] == len(finished_ids)
    assert [d["finished_at"] for d in listed["deals"]] == sorted((d["finished_at"] for d in listed["deals"]), reverse=True)
    assert ids[0] in [d["id"] for d in second_deals]  # the droggn table came last
    newest = listed["deals"][0]
    assert newest["game"] == "droggn" and newest["seat"] == 2 and newest["table_id"] == second["id"]
    assert newest["score"] == _scores(absent_client, [d for d in second_deals if d["id"] == newest["deal_id"]], 2)[0]
    page = call(absent_client, "GET", "/api/me/deals?limit=1&offset=1", ada).json()
    assert [d["deal_id"] for d in page["deals"]] == ids[1:2]

    assert [g["game"] for g in call(absent_client, "GET", "/api/me/stats?include_stand_in=true", bob).json()["games"]] == ["doppelkopf"]
    stranger = new_guest(absent_client)
    assert call(absent_client, "GET", "/api/me/stats", stranger).json()["games"] == []
    assert call(absent_client, "GET", "/api/me/deals", stranger).json()["deals"] == []


def test_a_guests_history_carries_over_to_the_account_they_register(absent_client: TestClient) -> None:
    guest = new_guest(absent_client, "Cleo")
    table = _absent_table(absent_client, guest, seat=3)
    deal = _finished_deals(absent_client, table["id"], 1)[0]
    registered = call(absent_client, "POST", "/api/auth/register", guest, json={"name": "cleo", "password": "long enough pw"})
    assert registered.status_code == 201, registered.text
    account = session_token(registered)  # registering rotates the token; the session (and its seats) stays
    listed = call(absent_client, "GET", "/api/me/deals", account).json()
    assert listed["name"] == "cleo" and [d["deal_id"] for d in listed["deals"]] == [deal["id"]]


@pytest.mark.parametrize(
    ("query", "field"),
    [("limit=0", "limit"), ("limit=101", "limit"), ("limit=x", "limit"), ("offset=-1", "offset"), ("offset=1.5", "offset")],
)
def test_deal_list_refusals_name_the_field(client: TestClient, query: str, field: str) -> None:
    token = new_guest(client)
    response = call(client, "GET", f"/api/me/deals?{query}", token)
    assert response.status_code == 422 and response.json()["field"] == field


def test_stats_need_a_session(client: TestClient) -> None:
    for path in ("/api/me/stats", "/api/me/deals"):
        response = call(client, "GET", path)
        assert response.status_code == 401 and response.json()["field"] == "session"
    assert call(client, "GET", "/api/me/stats", "not-a-token").status_code == 401


# ------------------------------------------------ table message extras
def test_state_messages_carry_hand_groups_and_deal_end_the_result_lines(client: TestClient) -> None:
    deal = play_watched_deal(client, "tapp_tarock", seat=1)
    end, record, engine, states, views = deal.end, deal.record, deal.game, deal.states, deal.seat_states
    for message in views:
        observation = states[message["step"]].observation(1)
        assert message["hand_groups"] == [[c.text for c in group] for group in engine.hand_groups(observation.hand, observation.public)]
        assert Counter(card for group in message["hand_groups"] for card in group) == Counter(message["view"]["hand"])
    watched = [m for m in deal.spectator_seen if m["type"] == "state"]
    assert watched and all("hand_groups" not in m and "hand" not in m["view"] for m in watched)
    assert end["result_lines"] == engine.describe_result(record["result"]) and all(isinstance(line, str) for line in end["result_lines"])
    assert [m for m in deal.spectator_seen if m["type"] == "deal_end"][-1]["result_lines"] == end["result_lines"]
    assert check_no_leaks(deal.seat_seen, record, 1) > len(record["actions"])  # the groups name only the seat's own cards
    assert check_no_leaks(deal.spectator_seen, record, None) > len(record["actions"])
