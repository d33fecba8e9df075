"""The protocol on its own: message checks, the spectator's public view, and the leak check of these tests."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from stich.core.records import deal_record
from stich.core.registry import game_names, make_game
from stich.web.protocol import ActionMessage, PingMessage, ProtocolError, SyncMessage, parse_client_message, public_view

from .helpers import card_words, check_no_leaks, knowable_faces


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"type": "action", "action": "play H10"}', ActionMessage(type="action", action="play H10")),
        (
            '{"type": "action", "action": "gesund", "seat": 2, "step": 0, "deal": 5}',
            ActionMessage(type="action", action="gesund", seat=2, step=0, deal=5),
        ),
        ('{"type": "sync"}', SyncMessage(type="sync")),
        ('{"type": "ping", "id": 3}', PingMessage(type="ping", id=3)),
    ],
)
def test_good_messages_parse(raw: str, expected: Any) -> None:
    assert parse_client_message(raw, 4096) == expected


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (None, "$"),
        (b"{}", "$"),
        ("x" * 5000, "$"),
        ("{", "$"),
        ("[" * 100000 + "]" * 100000, "$"),
        ("null", "$"),
        ('{"action": "gesund"}', "type"),
        ('{"type": null}', "type"),
        ('{"type": "action", "action": "gesund", "seat": -1}', "seat"),
        ('{"type": "action", "action": "gesund", "seat": "0"}', "seat"),
        ('{"type": "action", "action": "gesund", "step": 1.5}', "step"),
        ('{"type": "action", "action": "' + "x" * 200 + '"}', "action"),
        ('{"type": "sync", "extra": 1}', "extra"),
    ],
)
def test_bad_messages_name_the_field(raw: str | bytes | None, field: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(raw, 4096 if not (isinstance(raw, str) and raw.startswith("[")) else 10**7)
    assert caught.value.field == field and caught.value.message


@pytest.mark.parametrize("name", game_names())
def test_public_view_holds_only_what_every_seat_knows(name: str) -> None:
    game = make_game(name)
    rng = random.Random(name)
    for seed in range(4):
        state = game.new_state(seed=seed, dealer=seed % game.num_seats)
        while True:
            view = public_view(state)
            assert set(view) == {"game", "seat", "phase", "to_move", "events", "tricks", "public"}
            leaked = card_words(game, view) - knowable_faces(state, None)
            assert not leaked, f"{sorted(leaked)} in the public view"
            assert json.loads(json.dumps(view)) == view
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_codes()))


def test_the_leak_check_catches_a_peek() -> None:
    game = make_game("doppelkopf")
    state = game.new_state(seed=11, dealer=0)
    record = deal_record(state)
    record["meta"] = {"deal_id": 1}
    honest = [{"type": "deal_start", "deal": 1}, {"type": "state", "deal": 1, "step": 0, "view": state.observation(0).to_json()}]
    assert check_no_leaks(honest, record, 0) == 2
    peek = {"type": "state", "deal": 1, "step": 0, "view": state.observation(1).to_json()}
    with pytest.raises(AssertionError):
        check_no_leaks([honest[0], peek], record, 0)
    spectator_peek = {"type": "state", "deal": 1, "step": 0, "view": {"events": [], "public": {"x": record["deal"][2][0]}}}
    with pytest.raises(AssertionError):
        check_no_leaks([honest[0], spectator_peek], record, None)


def test_a_hand_shown_to_the_table_is_not_shown_to_spectators(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("doppelkopf")
    state = game.new_state(seed=3, dealer=0)
    shown = [card.text for card in game.deck.cards(state.hand_mask(1))]
    original = type(state).observation

    def observation(self: Any, seat: int) -> Any:
        obs = original(self, seat)
        return dataclasses.replace(obs, public={**obs.public, "thrown": {"seat": 1, "reason": "five_nines", "hand": shown}})

    monkeypatch.setattr(type(state), "observation", observation)
    monkeypatch.setattr(type(state), "knowable_cards", lambda self, seat: self.hand_mask(seat) | self.hand_mask(1))
    view = public_view(state)
    assert view["public"]["thrown"] == {"seat": 1, "reason": "five_nines"}
    assert not card_words(game, view)
