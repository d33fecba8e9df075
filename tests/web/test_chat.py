"""Table chat over the WebSocket (issue 28 "table chat", decision 0036).

Players and spectators have separate channels (players never receive the
spectators'; spectators read both); quick phrases travel as ids; free text is
cleaned, capped and kept as plain text; a person past the rate limit gets a
429-style error; the latest messages reach those who connect later.  Every
refused chat message is answered to its sender only and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.web.runtime.chat import PHRASES, ChatRate, ChatRefused, clean_text, most_marks, text_length
from stich.web.settings import Settings

from .helpers import Reader, call, connect, create_table, make_settings, new_guest, running, session_token, svc


@dataclass
class Room:
    """An open Doppelkopf table with Anna (seat 0) and Bert (seat 1), Cleo watching with a session and someone without one."""

    client: TestClient
    table_id: str
    tokens: dict[str, str]
    stack: ExitStack
    readers: dict[str, Reader] = field(default_factory=dict)
    histories: dict[str, dict[str, Any]] = field(default_factory=dict)

    def say(self, who: str, **message: Any) -> None:
        """Send a chat message as ``who``."""
        self.readers[who].send({"type": "chat", **message})

    def heard(self, who: str) -> dict[str, Any]:
        """The next chat message or error ``who``'s socket receives."""
        return self.readers[who].until(lambda m: m["type"] in ("chat", "error"))

    def refusal(self, who: str) -> dict[str, Any]:
        """The next error ``who``'s socket receives (their own chat messages coming back are passed over)."""
        return self.readers[who].until(lambda m: m["type"] == "error")

    def join(self, who: str) -> Reader:
        """Open one more socket for ``who`` (a name in ``tokens``, or ``None`` for no session); returns it after its chat history."""
        ws = self.stack.enter_context(connect(self.client, self.table_id, self.tokens.get(who)))
        reader = Reader(ws)
        assert reader.next()["type"] == "welcome"
        self.histories[who] = reader.next()
        assert self.histories[who]["type"] == "chat_history"
        return reader


@contextmanager
def room(db_url: str, **settings: Any) -> Iterator[Room]:
    """A running server on ``db_url`` (test settings plus ``settings``) and the :class:`Room` on it."""
    with running(make_settings(db_url, **settings)) as client:
        tokens = {name: new_guest(client, name) for name in ("Anna", "Bert", "Cleo")}
        table = create_table(client, tokens["Anna"], game="doppelkopf", seat=0)
        joined = call(client, "POST", f"/api/tables/{table['id']}/join", tokens["Bert"], json={"seat": 1})
        assert joined.status_code == 200, joined.text
        with ExitStack() as stack:
            chat_room = Room(client, table["id"], tokens, stack)
            for who in ("Anna", "Bert", "Cleo", "nobody"):
                chat_room.readers[who] = chat_room.join(who)
            yield chat_room


def test_players_chat_and_spectators_read_it_but_not_the_other_way_round(db_url: str) -> None:
    with room(db_url) as r:
        assert r.histories["Anna"]["channel"] == "players" and r.histories["Cleo"]["channel"] == "spectators"
        r.say("Anna", text="Hallo zusammen")
        for who in ("Anna", "Bert", "Cleo", "nobody"):
            said = r.heard(who)
            assert said["type"] == "chat" and said["channel"] == "players", (who, said)
            assert (said["seat"], said["name"], said["key"], said["text"], said["phrase"]) == (0, "Anna", "anna", "Hallo zusammen", None)
        r.say("Cleo", text="Der Bube war zu früh")
        said = r.heard("Cleo")
        assert (said["channel"], said["seat"], said["name"], said["text"]) == ("spectators", None, "Cleo", "Der Bube war zu früh")
        r.say("Bert", phrase="thanks")
        for who in ("Anna", "Bert"):  # the next chat the players get is Bert's: Cleo's never came
            said = r.heard(who)
            assert (said["name"], said["phrase"], said["text"]) == ("Bert", "thanks", None), (who, said)
        assert r.heard("Cleo")["name"] == "Bert"  # spectators read the players' channel too


def test_only_people_with_a_session_may_chat(db_url: str) -> None:
    with room(db_url) as r:
        r.say("nobody", text="hi")
        error = r.heard("nobody")
        assert error["type"] == "error" and error["field"] == "chat" and "guest" in error["message"]
        r.say("Anna", text="ok")
        assert r.heard("nobody")["name"] == "Anna"  # the refused message went to nobody


@pytest.mark.parametrize(
    ("message", "at_fault", "words"),
    [
        ({"text": "x" * 201}, "text", "201 characters, at most 200"),
        ({"text": ""}, "text", "empty"),
        ({"text": " \n\t\u200b\u202e "}, "text", "empty"),  # nothing left once cleaned
        ({}, "text", "required"),
        ({"text": 7}, "text", "string"),
        ({"phrase": "insult"}, "phrase", "unknown quick phrase"),
        ({"phrase": "thanks", "text": "danke"}, "phrase", "not both"),
        ({"text": "hi", "to": "Bert"}, "to", "unknown field"),
        ({"text": "a" + "\u0301" * 150}, "text", "combining marks"),  # issue 42: was accepted, a smear over the chat
        ({"text": "\ufdfd" * 200}, "text", "at most 200 (a very wide character counts as 10)"),  # issue 42: was accepted
        ({"text": "\ufdfa" * 12}, "text", "216 characters"),  # a ligature counts by its 18 letters (NFKC, as names)
    ],
)
def test_bad_chat_messages_are_refused_naming_the_field_and_change_nothing(
    db_url: str, message: dict[str, Any], at_fault: str, words: str
) -> None:
    with room(db_url) as r:
        r.say("Anna", **message)
        error = r.heard("Anna")
        assert error["type"] == "error" and error["field"] == at_fault and words in error["message"], error
        r.say("Anna", text="danach")
        assert r.heard("Bert")["text"] == "danach"  # Bert heard nothing of the refused one
        table = svc(r.client).tables.get(r.table_id)
        assert table is not None and [said["text"] for said in table.chat.history["players"]] == ["danach"]


def test_the_cap_counts_characters_after_cleaning(db_url: str) -> None:
    with room(db_url, chat_max_chars=10) as r:
        r.say("Anna", text="\u0007äöüß 56789\u200b\n")  # ten characters once the bell, the zero-width space and the line break go
        assert r.heard("Bert")["text"] == "äöüß 56789"
        r.say("Anna", text="äöüß 567890")
        assert r.refusal("Anna") == {"type": "error", "field": "text", "message": "too long: 11 characters, at most 10"}


def test_control_characters_are_stripped_and_markup_stays_text(db_url: str) -> None:
    payload = '<img src=x onerror="alert(1)"> & <b>fett</b>'
    with room(db_url) as r:
        r.say("Anna", text="Gut\r\n\tgemacht\u202e!\x1b[31m rot\ufeff")
        assert r.heard("Bert")["text"] == "Gut gemacht! [31m rot"
        r.say("Anna", text=payload)
        assert r.heard("Bert")["text"] == payload  # exactly as typed: the client shows it as text (tests/browser/test_chat.py)
        r.readers["Anna"].ws.send_text('{"type": "chat", "text": "a\\ud800b"}')  # a lone surrogate UTF-8 cannot carry
        assert r.heard("Bert")["text"] == "ab"


def test_quick_phrases_travel_as_ids(db_url: str) -> None:
    with room(db_url, chat_burst=len(PHRASES)) as r:
        for phrase in PHRASES:
            r.say("Bert", phrase=phrase)
            said = r.heard("Anna")
            assert (said["phrase"], said["text"]) == (phrase, None)


def test_the_rate_limit_answers_429_per_person_and_sends_nothing(db_url: str) -> None:
    with room(db_url, chat_burst=3, chat_per_minute=1.0) as r:
        for n in range(3):
            r.say("Anna", text=f"eins {n}")
            assert r.heard("Bert")["text"] == f"eins {n}"
        r.say("Anna", phrase="sorry")
        error = r.refusal("Anna")
        assert error["field"] == "chat" and error["status"] == 429
        assert 1 <= error["retry_after"] <= 60 and f"wait {error['retry_after']} s" in error["message"]
        second = r.join("Anna")  # another socket of the same person shares the allowance
        second.send({"type": "chat", "text": "noch mal"})
        assert second.until(lambda m: m["type"] in ("chat", "error"))["status"] == 429
        r.say("Bert", text="Bert darf")  # another person is not held back
        assert r.heard("Bert")["text"] == "Bert darf"
        table = svc(r.client).tables.get(r.table_id)
        assert table is not None and [said["text"] for said in table.chat.history["players"]] == ["eins 0", "eins 1", "eins 2", "Bert darf"]


def test_the_allowance_refills_over_time() -> None:
    now = [100.0]
    rate = ChatRate(burst=2, per_minute=6.0, clock=lambda: now[0])  # one message every 10 s
    rate.take("anna"), rate.take("anna")
    with pytest.raises(ChatRefused) as refused:
        rate.take("anna")
    assert refused.value.retry_after == 10
    now[0] += 4.0
    with pytest.raises(ChatRefused) as refused:
        rate.take("anna")
    assert refused.value.retry_after == 6  # a refused try spends nothing
    now[0] += 6.0
    rate.take("anna")
    rate.take("bert")


def test_late_joiners_and_reconnecting_players_get_the_latest_messages(db_url: str) -> None:
    with room(db_url, chat_history=3) as r:
        for n in range(4):
            r.say("Anna", text=f"Spieler {n}")
        assert [r.heard("nobody")["text"] for _ in range(4)] == [f"Spieler {n}" for n in range(4)]
        r.say("Cleo", text="Zuschauer")  # (sockets are read side by side: Cleo waits until Anna's four are through)
        assert r.readers["Cleo"].until(lambda m: m["type"] == "chat" and m["channel"] == "spectators")["text"] == "Zuschauer"
        r.join("Bert")  # Bert reconnects (a second socket is the same as coming back)
        r.join("Cleo")
        players = r.histories["Bert"]
        assert players["max_chars"] == 200 and players["channel"] == "players"
        assert [said["text"] for said in players["messages"]] == ["Spieler 1", "Spieler 2", "Spieler 3"]
        watching = r.histories["Cleo"]["messages"]
        assert [said["text"] for said in watching] == ["Spieler 1", "Spieler 2", "Spieler 3", "Zuschauer"]
        assert [said["id"] for said in watching] == sorted(said["id"] for said in watching)


def test_a_chat_from_a_socket_whose_session_ended_is_refused(db_url: str) -> None:
    with room(db_url) as r:
        assert call(r.client, "POST", "/api/auth/logout", r.tokens["Bert"]).status_code == 200
        r.say("Bert", text="nach dem Abmelden")
        error = r.heard("Bert")
        assert error["field"] == "session"
        r.say("Anna", text="weiter")
        assert r.heard("Cleo")["text"] == "weiter"


def test_clean_text() -> None:
    assert clean_text("  a \u00a0\u3000 b  ") == "a b"
    assert clean_text("e\u0301") == "é"  # composed
    assert clean_text("ｆｕｌｌ ﬁ") == "full fi"  # NFKC, as names
    assert clean_text("👨\u200d👩\u200d👧") == "👨\u200d👩\u200d👧"  # the joiner of emoji stays
    assert clean_text("\u2066rechts\u2069\u00ad") == "rechts"


def test_accents_of_real_scripts_and_one_wide_sign_pass() -> None:
    for text in ("Tiếng Việt", "שָׁלוֹם", "नमस्ते", "Zoë", "\ufdfd"):
        assert most_marks(clean_text(text)) <= 3 and text_length(clean_text(text)) <= 10, text
    assert most_marks("a\u0301\u0302\u0303\u0304") == 4 and text_length("\ufdfd" * 2 + "ab") == 22


def test_chat_settings_are_checked() -> None:
    for bad in ({"chat_max_chars": 0}, {"chat_burst": 0}, {"chat_per_minute": 0.0}, {"chat_history": -1}):
        with pytest.raises(ValueError, match="chat"):
            Settings(**bad)  # type: ignore[arg-type]


def test_names_at_a_table_are_unique_and_the_chat_says_who_is_a_guest(db_url: str) -> None:
    """Issue 42: a guest could take a seated player's name, and the chat showed only the name."""
    with room(db_url) as r:
        twin = new_guest(r.client, "anna")  # another guest going by Anna's name
        refused = call(r.client, "POST", f"/api/tables/{r.table_id}/join", twin, json={"seat": 2})
        assert refused.status_code == 409 and refused.json()["field"] == "name"
        r.tokens["twin"] = twin
        r.readers["twin"] = r.join("twin")
        r.say("twin", text="ich bin Anna")  # a spectator may not chat under a player's name
        error = r.refusal("twin")
        assert error["field"] == "chat" and "goes by your name" in error["message"]
        renamed = call(r.client, "POST", "/api/auth/guest", r.tokens["Bert"], json={"name": "Anna"})
        assert renamed.status_code == 200  # Bert renames his session after he sat down ...
        r.tokens["Bert"] = session_token(renamed)
        r.readers["Bert"] = r.join("Bert")
        r.say("Bert", text="hallo")
        said = r.heard("Anna")
        assert (said["seat"], said["name"], said["key"], said["guest"]) == (1, "Bert", "bert", True)  # ... but speaks as his seat
        account = call(r.client, "POST", "/api/auth/register", r.tokens["Cleo"], json={"name": "Cleo", "password": "long enough pw"})
        assert account.status_code == 201
        r.tokens["Cleo"] = session_token(account)
        r.readers["Cleo"] = r.join("Cleo")
        r.say("Cleo", text="ich schaue zu")
        assert r.heard("Cleo")["guest"] is False


def test_the_spectators_chat_is_kept_from_every_socket_of_a_player_and_from_sockets_without_a_session(db_url: str) -> None:
    """Issue 42: any player read the spectators' chat through a second socket (without a cookie, or of their account)."""
    with room(db_url) as r:
        r.say("Cleo", text="nur für Zuschauer")
        assert r.heard("Cleo")["text"] == "nur für Zuschauer"
        r.say("Anna", text="für alle")
        for who in ("Anna", "Bert", "nobody"):  # the next line each of them gets is Anna's: Cleo's never came
            assert r.heard(who)["text"] == "für alle", who
        late = r.join("nobody")  # a second tab without a cookie: its history holds no spectator's line
        assert [said["text"] for said in r.histories["nobody"]["messages"]] == ["für alle"]
        assert late is not None


def test_the_chat_is_limited_per_address_too(db_url: str) -> None:
    """Issue 42: twenty guest sessions of one address posted 100 lines in 2 s."""
    with room(db_url, chat_burst=5, chat_burst_per_address=6, chat_per_minute_per_address=1) as r:
        for number in range(5):
            r.say("Anna", text=f"Anna {number}")
            assert r.heard("Bert")["text"] == f"Anna {number}"
        r.say("Bert", text="Bert 0")  # the address's sixth
        assert r.readers["Anna"].until(lambda m: m["type"] == "chat" and m["name"] == "Bert")["text"] == "Bert 0"
        r.say("Bert", text="Bert 1")  # Bert has four left of his own, but the address has none
        error = r.refusal("Bert")
        assert error["field"] == "chat" and error["status"] == 429 and error["retry_after"] >= 1
        r.say("Anna", phrase="thanks")
        assert r.refusal("Anna")["status"] == 429
