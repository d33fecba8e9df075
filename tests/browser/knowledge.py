"""What a seat may know at each step of a finished deal, replayed from its record, and the check of a page against it.

The knowledge comes from the engine's ``State.knowable_cards`` (stated from
the rules, independently of what the server sends), after replaying the
record with :func:`stich.core.records.replay_deal` (which re-checks it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from stich.core.game import State
from stich.core.records import replay_deal
from stich.core.registry import game_from_string

from .ui import Snapshot


def states_by_step(record: Mapping[str, Any]) -> list[State]:
    """The deal after 0, 1, 2, ... actions."""
    replay_deal(record)
    game = game_from_string(record["game"])
    state = game.new_state(seed=record["seed"], dealer=record["dealer"], context=record["context"])
    states = [state.clone()]
    for _seat, text in record["actions"]:
        state.apply(text)
        states.append(state.clone())
    return states


def knowable_faces(state: State, seat: int) -> set[str]:
    """Card faces ``seat`` may know in ``state`` (its hand, cards played, talon cards shown to it...)."""
    return {card.text for card in state.game.deck.cards(state.knowable_cards(seat))}


def seat_actions(record: Mapping[str, Any], seat: int) -> list[str]:
    """The actions of ``seat`` in the record, in order."""
    return [text for actor, text in record["actions"] if actor == seat]


def assert_pages_showed_only_knowable_cards(snapshots: Iterable[Snapshot], records: Mapping[str, Mapping[str, Any]]) -> int:
    """Every card on a table page (any ``data-card``) was one its seat may know at the step the page had seen.

    Snapshots taken after the deal's end (the seed is revealed then, by
    design) or off the table page are skipped; so are those of deals without
    a record in ``records``.  Also checks that a table page never holds more
    than one hand.  Returns how many snapshots were checked (the caller
    asserts there were some).
    """
    states = {deal: states_by_step(record) for deal, record in records.items()}
    checked = 0
    for shot in snapshots:
        assert shot.hands <= 1, f"a table page showed {shot.hands} hands"
        deal = str(shot.deal)
        if not shot.on_table or shot.deal is None or shot.seat is None or deal not in states or shot.deal in shot.ended:
            continue
        steps = states[deal]
        assert 0 <= shot.step < len(steps), f"step {shot.step} outside the deal's {len(steps) - 1} actions"
        knowable = knowable_faces(steps[shot.step], shot.seat)
        leaked = set(shot.page_cards) - knowable
        assert not leaked, f"seat {shot.seat}'s page showed {sorted(leaked)} at step {shot.step} of deal {deal}"
        checked += 1
    return checked
