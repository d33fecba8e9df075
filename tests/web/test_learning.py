"""Issue 43: hints at a learning table (and none elsewhere), and "play this deal again" with both results side by side."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.core.records import deal_record
from stich.core.registry import make_game
from stich.web.deals.fairness import verify_record
from stich.web.runtime.bot_pool import BotJob
from stich.web.runtime.hints import compute_hint, hint_seed
from stich.web.storage.tournaments import TableLink

from .helpers import Reader, call, connect, create_table, make_settings, new_guest, play_as_seat, running, session_token, svc

HINT_BOT = "pimc:worlds=3"
"""A small hint bot with a fixed number of worlds and no time cap: the same seed and observation give the same hint."""


@pytest.fixture
def learn_client(db_url: str) -> Iterator[TestClient]:
    """A server whose hints are quick and deterministic, and whose hint interval is long (the rate limit shows)."""
    settings = make_settings(db_url, hint_bot=HINT_BOT, hint_interval_seconds=600.0, hint_timeout_seconds=300.0, bot_workers=1)
    with running(settings) as test_client:
        yield test_client


def _my_turn(reader: Reader) -> dict[str, Any]:
    """Read until the seat has a decision to make; that ``state`` message."""
    return reader.until(lambda m: m["type"] == "state" and bool(m["view"]["legal_actions"]), timeout=60)


def _act(reader: Reader, state: dict[str, Any], action: str) -> None:
    reader.send({"type": "action", "action": action, "step": state["step"], "deal": state["deal"]})


def test_hint_at_a_learning_table_marks_the_deal(learn_client: TestClient) -> None:
    token = new_guest(learn_client)
    table = create_table(learn_client, token, game="doppelkopf", seat=0, bots="heuristic", learning=True, private=True)
    assert table["learning"] is True and table["replay_of"] is None
    with connect(learn_client, table["id"], token) as ws:
        reader = Reader(ws)
        state = _my_turn(reader)
        response = call(learn_client, "POST", f"/api/tables/{table['id']}/hint", token)
        assert response.status_code == 200, response.text
        hint = response.json()
        assert hint["action"] in state["view"]["legal_actions"]
        assert hint["seat"] == 0 and hint["deal"] == state["deal"] and hint["step"] == state["step"]
        assert hint["reason"]["de"] and hint["reason"]["en"] and hint["reason"]["de"] != hint["reason"]["en"]
        assert hint["why"]["kind"] in {"forced", "search", "even", "rules"}
        assert svc(learn_client).tables.bots.worker_pids()  # computed in a bot worker process, not on the event loop
        if hint["why"]["kind"] in {"search", "even"}:
            assert hint["why"]["runner_up"] in state["view"]["legal_actions"] and hint["why"]["runner_up"] != hint["action"]
        again = call(learn_client, "POST", f"/api/tables/{table['id']}/hint", token)
        assert again.status_code == 200 and again.json() == hint  # the same moment: the hint already given, not computed again
        stored = svc(learn_client).db.get_deal(state["deal"])
        assert stored is not None and stored.hints == (0,)  # on disk at once: a restart mid-deal keeps the mark
        _act(reader, state, hint["action"])
        following = _my_turn(reader)  # a Doppelkopf player always moves again (twelve cards)
        limited = call(learn_client, "POST", f"/api/tables/{table['id']}/hint", token)
        assert limited.status_code == 429 and limited.json()["field"] == "hint"
        assert following["step"] > state["step"]
        reader.push_back(following)
        end = play_as_seat(reader, ready=False)
    assert end["hints"] == [0]
    record = call(learn_client, "GET", end["record_url"], token).json()
    assert record["meta"]["hints"] == [0]
    assert set(record) >= {"format", "type", "game", "seed", "dealer", "context", "deal", "actions", "result", "meta"}


def test_no_hint_at_a_normal_or_rated_or_tournament_table(learn_client: TestClient) -> None:
    token = new_guest(learn_client)
    plain = create_table(learn_client, token, game="tapp_tarock", seat=0, bots="heuristic", private=True)
    refused = call(learn_client, "POST", f"/api/tables/{plain['id']}/hint", token)
    assert refused.status_code == 403 and refused.json()["field"] == "learning"
    learning = create_table(learn_client, token, game="tapp_tarock", seat=0, bots="heuristic", learning=True, private=True)
    runtime = svc(learn_client).tables.get(learning["id"])
    assert runtime is not None
    runtime.rated = True  # decision 0055's column, as a rated table carries it
    answer = call(learn_client, "POST", f"/api/tables/{learning['id']}/hint", token)
    assert answer.status_code == 403 and answer.json()["field"] == "learning" and "rated" in answer.json()["message"]
    runtime.rated = False
    runtime.duplicate = TableLink("t1", "Cup", 0, 1, ())  # decision 0057: a tournament's table
    answer = call(learn_client, "POST", f"/api/tables/{learning['id']}/hint", token)
    assert answer.status_code == 403 and answer.json()["field"] == "learning" and "tournament" in answer.json()["message"]


def test_a_rated_table_cannot_be_a_learning_table(learn_client: TestClient) -> None:
    registered = call(learn_client, "POST", "/api/auth/register", json={"name": "Lena", "password": "long enough password"})
    assert registered.status_code == 201, registered.text
    token = session_token(registered)
    body = {"game": "tapp_tarock", "seat": 0, "bots": "heuristic", "learning": True, "rated": True}
    response = call(learn_client, "POST", "/api/tables", token, json=body)
    assert response.status_code == 422 and response.json()["field"] == "learning" and "rated" in response.json()["message"]


def test_learning_needs_a_seat_and_bots(learn_client: TestClient) -> None:
    token = new_guest(learn_client)
    for body in ({"seat": 0}, {"seat": None, "bots": "heuristic"}):
        response = call(learn_client, "POST", "/api/tables", token, json={"game": "tapp_tarock", "learning": True, **body})
        assert response.status_code == 422 and response.json()["field"] == "learning"


def test_no_hint_for_a_spectator_another_person_or_outside_ones_turn(learn_client: TestClient) -> None:
    token = new_guest(learn_client)
    table = create_table(learn_client, token, game="tapp_tarock", seat=0, bots="heuristic", learning=True)
    other = new_guest(learn_client)
    for asker in (other, None):
        answer = call(learn_client, "POST", f"/api/tables/{table['id']}/hint", asker)
        assert answer.status_code == 403 and answer.json()["field"] == "seat"
    with connect(learn_client, table["id"], token) as ws:
        play_as_seat(Reader(ws), ready=False)  # the deal has ended; the next waits for this connected person's "Weiter"
        # asked while still connected: once the socket closes, the absent person is excused and stand-ins play on
        between = call(learn_client, "POST", f"/api/tables/{table['id']}/hint", token)
    assert between.status_code == 409 and between.json()["field"] == "turn"


@pytest.mark.parametrize(("name", "to_play"), [("doppelkopf", True), ("tapp_tarock", False)])
def test_a_hint_never_depends_on_a_hidden_card(name: str, to_play: bool) -> None:
    """Swapping unseen cards between two other seats leaves the seat's observation and the hint the same (same seed).

    Doppelkopf at its first card (after four "gesund"), Tapp Tarock at its first bid.
    """
    game = make_game(name)
    state = game.new_state(seed=11, dealer=0)
    while to_play and state.observation(state.current_player()).phase != "play":  # the same reservations in both deals
        state.apply(state.observation(state.current_player()).legal_actions[0].code)
    seat = state.current_player()
    record = deal_record(state)
    others = [s for s in range(game.num_seats) if s != seat and f"seat {s}" in game.deal_parts]
    hands = [list(pile) for pile in record["deal"]]
    first, second = others[0], others[1]
    mine = set(hands[seat])
    a = next(card for card in hands[first] if card not in hands[second] and card not in mine)
    b = next(card for card in hands[second] if card not in hands[first] and card not in mine)
    hands[first][hands[first].index(a)], hands[second][hands[second].index(b)] = b, a
    swapped = game.new_state(hands=hands, dealer=0, context=record["context"])
    for _seat, action in record["actions"]:
        swapped.apply(action)
    assert deal_record(swapped)["deal"] != record["deal"]
    view, other_view = state.observation(seat), swapped.observation(seat)
    assert view.to_json() == other_view.to_json()
    seed = hint_seed(5, "00" * 32, seat, len(state.history))
    hint = compute_hint(BotJob("t", HINT_BOT, game.canonical, seat, seed, view))
    assert compute_hint(BotJob("t", HINT_BOT, game.canonical, seat, seed, other_view)) == hint


def test_play_a_finished_deal_again_with_the_same_cards(learn_client: TestClient) -> None:
    token = new_guest(learn_client)
    table = create_table(learn_client, token, game="doppelkopf", seat=0, bots="heuristic", deals=2, private=True)
    with connect(learn_client, table["id"], token) as ws:
        reader = Reader(ws)
        first = play_as_seat(reader)
        running_deal = reader.until(lambda m: m["type"] == "deal_start", timeout=30)
        refused = call(learn_client, "POST", f"/api/deals/{running_deal['deal']}/again", token, json={})
        assert refused.status_code == 409 and refused.json()["field"] == "deal"  # only a finished deal
    original = call(learn_client, "GET", first["record_url"], token).json()
    response = call(learn_client, "POST", f"/api/deals/{first['deal']}/again", token, json={"seat": 2, "bots": "heuristic"})
    assert response.status_code == 201, response.text
    replay_table = response.json()
    assert replay_table["replay_of"] == first["deal"] and replay_table["your_seat"] == 2 and replay_table["deals_requested"] == 1
    assert replay_table["learning"] is False
    with connect(learn_client, replay_table["id"], token) as ws:
        end = play_as_seat(Reader(ws), ready=False)
    assert end["replay_of"] == first["deal"] and end["seed"] == first["seed"] and end["commitment"] != first["commitment"]
    record = call(learn_client, "GET", end["record_url"], token).json()
    deadline = time.monotonic() + 30  # the table ends after the deal's evaluation wait, not with its last card
    while (finished := call(learn_client, "GET", f"/api/tables/{replay_table['id']}", token).json())["status"] != "finished":
        assert time.monotonic() < deadline, finished
        time.sleep(0.1)
    assert finished["status"] == "finished" and finished["replay_of"] == first["deal"] and finished["learning"] is False
    assert record["deal"] == original["deal"] and record["dealer"] == original["dealer"] and record["context"] == original["context"]
    assert record["game"] == original["game"] and record["meta"]["replay_of"]["deal"] == first["deal"]
    assert verify_record(record, end["salt"], end["commitment"]).ok  # the replay's own commitment, to the original's seed
    compared = call(learn_client, "GET", f"/api/deals/{end['deal']}/compare", token)
    assert compared.status_code == 200, compared.text
    sides = compared.json()
    assert sides["same_cards"] is True
    assert sides["original"]["deal"] == first["deal"] and sides["original"]["result"] == original["result"]
    assert sides["replay"]["deal"] == end["deal"] and sides["replay"]["result"] == record["result"]
    assert sides["original"]["result_lines"] and sides["replay"]["result_lines"]
    not_a_replay = call(learn_client, "GET", f"/api/deals/{first['deal']}/compare", token)
    assert not_a_replay.status_code == 404 and not_a_replay.json()["field"] == "deal"


def test_play_again_with_friends_leaves_the_seats_open(learn_client: TestClient) -> None:
    token = new_guest(learn_client)
    table = create_table(learn_client, token, game="tapp_tarock", seat=0, bots="heuristic", private=True)
    with connect(learn_client, table["id"], token) as ws:
        first = play_as_seat(Reader(ws), ready=False)
    response = call(learn_client, "POST", f"/api/deals/{first['deal']}/again", token, json={"bots": None, "private": True})
    assert response.status_code == 201, response.text
    again = response.json()
    assert again["status"] == "open" and again["invite"] and again["your_seat"] == 0
    friend = new_guest(learn_client)
    joined = call(learn_client, "POST", f"/api/tables/{again['id']}/join", friend, json={"invite": again["invite"].split("invite=")[1]})
    assert joined.status_code == 200 and joined.json()["your_seat"] == 1
    stranger = new_guest(learn_client)
    hidden = call(learn_client, "POST", f"/api/deals/{first['deal']}/again", stranger, json={})
    assert hidden.status_code == 404  # a private table's deal needs membership or its invite


def test_a_replay_table_keeps_its_options_across_a_restart(db_url: str) -> None:
    """The table options are stored: after a restart the open replay table is still a replay and deals the same cards."""
    settings = make_settings(db_url)
    with running(settings) as first_run:
        token = new_guest(first_run)
        table = create_table(first_run, token, game="doppelkopf", seat=1, bots="heuristic", private=True)
        with connect(first_run, table["id"], token) as ws:
            first = play_as_seat(Reader(ws), ready=False)
        original = call(first_run, "GET", first["record_url"], token).json()
        made = call(first_run, "POST", f"/api/deals/{first['deal']}/again", token, json={"bots": None})
        assert made.status_code == 201, made.text
        replay_id = made.json()["id"]
        assert made.json()["your_seat"] == 1  # the seat the person had in the deal
    with running(settings) as second_run:
        summary = call(second_run, "GET", f"/api/tables/{replay_id}", token).json()
        assert summary["replay_of"] == first["deal"] and summary["status"] == "open"
        filled = call(second_run, "POST", f"/api/tables/{replay_id}/bots", token, json={"bot": "heuristic"})
        assert filled.status_code == 200, filled.text
        with connect(second_run, replay_id, token) as ws:
            end = play_as_seat(Reader(ws), ready=False)
        record = call(second_run, "GET", end["record_url"], token).json()
    assert record["deal"] == original["deal"] and record["dealer"] == original["dealer"]
