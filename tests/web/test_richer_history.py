"""Richer history and statistics (issue 28): per deal contract, party and result; per game the Re/Kontra
(declarer/defender) split, deals played alone per contract, announcements made and won.

The facts are checked twice: :func:`stich.web.deals.deal_facts.deal_facts` against deals the engine plays here
(expected values read from the deal itself: who held the Kreuz-Damen, who said "solo", whether the
declarer took every trick), and the API against deals the server's bots really played, counted from
the stored records in the test.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.core.records import deal_record
from stich.core.registry import game_from_string
from stich.web.deals.deal_facts import deal_facts, thrown_in

from .helpers import call, create_table, make_settings, new_guest, running, wait_for

pytestmark = pytest.mark.both_databases


def _random_deal(game_text: str, seed: int) -> tuple[dict[str, Any], list[list[str]]]:
    """A deal of ``game_text`` played with random legal actions; its record and every seat's dealt hand."""
    game = game_from_string(game_text)
    state = game.new_state(seed=seed, dealer=0)
    dealt = [[card.text for card in state.observation(seat).hand] for seat in range(game.num_seats)]
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return deal_record(state), dealt


def test_doppelkopf_normal_deal_re_is_who_holds_a_kreuz_dame() -> None:
    """A normal game's Re party are the holders of ♣Q (../shared/rules/doppelkopf.md §3); each seat's facts say so."""
    checked = 0
    for seed in range(200):
        record, dealt = _random_deal("doppelkopf", seed)
        if record["result"]["kind"] != "normal":
            continue
        for seat in range(4):
            facts = deal_facts(record, seat)
            assert facts.party == ("re" if "CQ" in dealt[seat] else "kontra"), (seed, seat)
            assert facts.contract == "normal" and not facts.declared
            assert facts.won is (None if facts.score == 0 else facts.score > 0)
            said = [text for actor, text in record["actions"] if actor == seat and text.startswith("announce ")]
            assert facts.announcements == len(said)
            side_won = record["result"]["winner"] == facts.party
            assert facts.announcements_won == (len(said) if side_won else 0)
        checked += 1
    assert checked >= 5


def test_doppelkopf_solo_is_the_party_of_the_player_who_said_it() -> None:
    """A solo's soloist is the seat whose "solo …" reservation was played (../shared/rules/doppelkopf.md §4); the rest are Kontra."""
    found = 0
    for seed in range(300):
        record, _ = _random_deal("doppelkopf", seed)
        result = record["result"]
        if result["kind"] != "solo":
            continue
        sayers = {actor for actor, text in record["actions"] if text == f"solo {result['contract']}"}
        if len(sayers) != 1:
            continue  # two players said the same solo: which one plays is the priority rule's business, not this test's
        (soloist,) = sayers
        for seat in range(4):
            facts = deal_facts(record, seat)
            assert facts.party == ("solo" if seat == soloist else "kontra")
            assert facts.declared == (seat == soloist) and facts.contract == result["contract"]
        found += 1
    assert found >= 3


def test_tapp_tarock_valat_announcement_is_won_when_the_declarer_takes_every_trick() -> None:
    """Valat is announced and won by taking all 16 tricks (../shared/rules/tapp_tarock.md, announcements)."""
    seen = 0
    for seed in range(400):
        record, _ = _random_deal("tapp_tarock", seed)
        result = record["result"]
        if thrown_in(result):
            assert deal_facts(record, 0).party == "none" and deal_facts(record, 0).contract is None
            continue
        layers = {actor for actor, text in record["actions"] if text.startswith("discard ")}  # the declarer lays away
        if len(layers) != 1:
            continue  # a solo: no talon, nothing laid away
        (declarer,) = layers
        for seat in range(3):
            facts = deal_facts(record, seat)
            assert facts.party == ("declarer" if seat == declarer else "defender")
        for seat in range(3):
            said = [text for actor, text in record["actions"] if actor == seat and text.startswith("announce ")]
            if said != ["announce valat"]:
                continue
            side = "declarer" if seat == declarer else "defenders"
            assert deal_facts(record, seat).announcements_won == int(result["tricks"][side] == 16), seed
            seen += 1
    assert seen >= 1


# --------------------------------------------------------------------- the API
@pytest.fixture
def absent_client(db_url: str) -> Any:
    """A server whose stand-in plays at once for anyone who is not connected."""
    with running(make_settings(db_url, grace_seconds=0.0)) as test_client:
        yield test_client


def _play_table(client: TestClient, token: str, game: str, seat: int, deals: int) -> list[dict[str, Any]]:
    """A table where ``token`` sits (a stand-in plays for them) and random bots play the rest; its finished records."""
    table = create_table(
        client, token, game=game, seat=seat, bots="random", deals=deals, **({"kind": "free"} if game == "doppelkopf" else {})
    )
    url = f"/api/tables/{table['id']}"
    wait_for(lambda: call(client, "GET", url).json()["status"] == "finished", timeout=60, what="the table to end")
    deals_list = call(client, "GET", f"{url}/deals").json()["deals"]
    return [call(client, "GET", d["record_url"]).json() for d in deals_list if d["status"] == "finished"]


def _expected(records: list[dict[str, Any]], seat: int, game: str) -> dict[str, Any]:
    """The statistics of ``seat`` counted straight from the records' results and actions."""
    played = [r for r in records if not (r["result"].get("redeal") or r["result"]["kind"] in ("all_pass", "thrown"))]
    parties: dict[str, dict[str, int]] = {}
    contracts: dict[str, dict[str, int]] = {}
    alone = alone_won = made = 0
    for record in played:
        result, score = record["result"], record["result"]["scores"][seat]
        if game == "doppelkopf":
            party = ("solo" if result["solo"] else "re") if seat in result["re"] else "kontra"
        else:
            party = "declarer" if result.get("declarer") == seat else "defender" if seat in result["defenders"] else "idle"
        entry = parties.setdefault(party, {"deals": 0, "won": 0})
        entry["deals"] += 1
        entry["won"] += score > 0
        if party in ("solo", "declarer"):
            alone += 1
            alone_won += score > 0
            c = contracts.setdefault(result["contract"], {"deals": 0, "won": 0})
            c["deals"] += 1
            c["won"] += score > 0
        made += sum(1 for actor, text in record["actions"] if actor == seat and text.startswith("announce "))
    return {
        "deals": len(played),
        "parties": dict(sorted(parties.items())),
        "declared": {"deals": alone, "won": alone_won},
        "contracts": dict(sorted(contracts.items())),
        "made": made,
    }


def test_stats_and_deal_list_give_party_contract_and_announcements(absent_client: TestClient) -> None:
    ada = new_guest(absent_client, "Ada")
    doko = _play_table(absent_client, ada, "doppelkopf", seat=1, deals=4)
    tapp = _play_table(absent_client, ada, "tapp_tarock", seat=0, deals=3)
    stats = call(absent_client, "GET", "/api/me/stats?include_stand_in=true", ada).json()
    by_game = {g["game"]: g for g in stats["games"]}
    for game, records, seat in (("doppelkopf", doko, 1), ("tapp_tarock", tapp, 0)):
        want = _expected(records, seat, game)
        got = by_game.get(game)
        if not want["deals"]:
            assert got is None
            continue
        assert got is not None
        assert got["deals"] == want["deals"]
        assert got["parties"] == want["parties"]
        assert sum(p["deals"] for p in got["parties"].values()) == got["deals"]
        assert sum(p["won"] for p in got["parties"].values()) == got["won"]
        assert got["declared"] == want["declared"] and got["contracts"] == want["contracts"]
        assert got["announcements"]["made"] == want["made"]
        assert 0 <= got["announcements"]["won"] <= got["announcements"]["made"]
    # The stand-in played every deal: left out by default.
    assert call(absent_client, "GET", "/api/me/stats", ada).json()["games"] == []

    listed = call(absent_client, "GET", "/api/me/deals?limit=100", ada).json()["deals"]
    assert len(listed) == len(doko) + len(tapp)
    for entry in listed:
        seat = entry["seat"]
        result = entry["result"]
        if entry["thrown_in"]:
            assert entry["party"] == "none" and entry["contract"] is None and entry["won"] is None
            continue
        assert entry["contract"] == result["contract"]
        assert entry["won"] == (None if entry["score"] == 0 else entry["score"] > 0)
        if entry["game"] == "doppelkopf":
            assert entry["party"] == (("solo" if result["solo"] else "re") if seat in result["re"] else "kontra")
        else:
            assert entry["party"] == ("declarer" if result["declarer"] == seat else "defender")


def test_the_dealer_who_sits_out_at_five_is_idle() -> None:
    """At five, the dealer gets no cards and scores 0 (../shared/rules/doppelkopf.md §2.1): party ``idle``, neither won nor lost."""
    for seed in range(5):
        record, dealt = _random_deal("doppelkopf(players=5)", seed)
        if thrown_in(record["result"]):
            continue
        (sitter,) = [seat for seat, hand in enumerate(dealt) if not hand]
        facts = deal_facts(record, sitter)
        assert facts.party == "idle" and facts.won is None and facts.score == 0
        assert all(deal_facts(record, seat).party in ("re", "kontra", "solo") for seat in range(5) if seat != sitter)


@pytest.mark.parametrize("game", ["tapp_tarock", "dobbm", "droggn", "dappen"])
def test_one_declarer_per_tarock_deal(game: str) -> None:
    """Every played deal of a Tarock-family game has one declarer (the lone player in Dappen), the others defend or
    sit out; "won" is the seat's score, not the game's verdict (a Tapp Tarock declarer can win the game and lose more
    on a failed Valat), and a seat that sat out neither won nor lost."""
    checked = 0
    for seed in range(60):
        record, _ = _random_deal(game, seed)
        result = record["result"]
        if thrown_in(result):
            continue
        facts = [deal_facts(record, seat) for seat in range(len(result["scores"]))]
        declarers = [seat for seat, fact in enumerate(facts) if fact.party == "declarer"]
        assert len(declarers) == 1, (seed, result)
        assert all(fact.won is (None if fact.score == 0 else fact.score > 0) for fact in facts)
        assert all(fact.party in ("defender", "idle") for seat, fact in enumerate(facts) if seat != declarers[0])
        assert all(fact.won is None for fact in facts if fact.party == "idle")
        checked += 1
    assert checked >= 10
