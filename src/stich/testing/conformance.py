"""The conformance suite every game must pass, as a library (like PettingZoo's API test).

``run_conformance(game, deals=..., seed=...)`` plays seeded random deals and,
at every step, checks that:

* cards are conserved: ``state.card_places()`` never overlap and always hold
  the whole pack;
* a legal action exists until the deal is over, and none after;
* observations leak no hidden card: the observation's JSON names no card face
  outside ``state.knowable_cards(seat)`` (stated by the game from the rules,
  independently of its observation code), and shows exactly the seat's hand;
* the observation's legal actions are the state's, for the seat to move only;
* every few steps a clone is independent: applying an action to the clone
  leaves the original unchanged, and both end up identical;
* an illegal action raises and changes nothing.

At the end: the deal's record survives JSON and replays to the same result,
and the scores are zero-sum (or one-signed where a game's ``counting``
option books only one side).  The checks raise ``AssertionError`` with a
message saying which property broke.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable, Mapping
from typing import Any

from stich.cards import Card, parse_card
from stich.core.game import TERMINAL, Game, State
from stich.core.records import deal_record, replay_deal
from stich.errors import IllegalActionError

Chooser = Callable[[State, random.Random], int]
ContextMaker = Callable[[Game, int, random.Random], Mapping[str, Any]]


def uniform_choice(state: State, rng: random.Random) -> int:
    """A uniformly random legal action code."""
    return rng.choice(state.legal_codes())


def card_pattern(game: Game) -> re.Pattern[str]:
    """A regex matching any card text of the game's pack as a word of its own."""
    texts = sorted({c.text for c in game.deck.faces}, key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, texts)) + r")(?![A-Za-z0-9_])")


def check_conservation(state: State) -> None:
    """The card places partition the pack."""
    union = 0
    for name, mask in state.card_places().items():
        assert not union & mask, f"a card is in two places at once (again in {name})"
        union |= mask
    assert union == state.game.deck.full_mask, "cards were lost or created"


def check_legal_exists(state: State) -> None:
    """A legal action exists until the end, and none after."""
    if state.is_terminal():
        assert state.current_player() == TERMINAL
        assert state.legal_actions() == []
    else:
        assert state.current_player() != TERMINAL
        assert state.legal_actions(), "no legal action in a running deal"


def check_observations(state: State, pattern: re.Pattern[str]) -> None:
    """Every seat's observation: its own hand exactly, no other card, legal actions only to move."""
    deck = state.game.deck
    to_move = state.current_player()
    legal = tuple(state.legal_actions())
    for seat in range(state.game.num_seats):
        obs = state.observation(seat)
        text = json.dumps(obs.to_json())
        assert sorted(obs.hand) == sorted(deck.cards(state.hand_mask(seat))), f"seat {seat} is shown a wrong hand"
        named: set[Card] = {parse_card(word) for word in pattern.findall(text)}
        leaked = named - set(deck.cards(state.knowable_cards(seat)))
        assert not leaked, f"seat {seat} sees {sorted(c.text for c in leaked)}"
        assert obs.to_move == to_move
        assert obs.legal_actions == (legal if seat == to_move else ()), f"seat {seat} is offered the wrong actions"


def snapshot(state: State) -> dict[str, Any]:
    """A deep copy of a state's attributes (caches and the game left out)."""
    return {k: copy.deepcopy(v) for k, v in vars(state).items() if k != "game" and not k.startswith("_")}


def check_clone_step(state: State, code: int) -> None:
    """Apply ``code`` to a clone: the original must not move; then both must agree."""
    before = snapshot(state)
    twin = state.clone()
    twin.apply(code)
    assert snapshot(state) == before, "changing a clone changed the original"
    state.apply(code)
    assert snapshot(state) == snapshot(twin), "a clone and its original diverged"


def check_illegal_rejected(state: State, rng: random.Random) -> None:
    """An illegal action raises IllegalActionError and leaves the state unchanged."""
    legal = set(state.legal_codes())
    illegal = [c for c in range(len(state.game.actions)) if c not in legal]
    if not illegal:
        return
    before = snapshot(state)
    code = rng.choice(illegal)
    try:
        state.apply(code)
    except IllegalActionError:
        pass
    else:  # pragma: no cover - reported as a failure
        raise AssertionError(f"illegal action {state.game.actions[code].text!r} was accepted")
    assert snapshot(state) == before, "a rejected action changed the state"


def check_end(state: State) -> None:
    """Zero-sum scores (one-signed under a one-sided ``counting`` option), and the record replays to the same result."""
    result = state.result()
    assert len(result.scores) == state.game.num_seats
    # Doppelkopf's counting=plus / minus (dossier §7.8) books only one side of a game: its entries share one sign.
    counting = getattr(state.game.options, "counting", "plus_minus")
    if counting == "plus":
        assert min(result.scores) >= 0, f"counting=plus booked a loss: {result.scores}"
    elif counting == "minus":
        assert max(result.scores) <= 0, f"counting=minus booked a gain: {result.scores}"
    else:
        assert sum(result.scores) == 0, f"not zero-sum: {result.scores}"
    record = json.loads(json.dumps(deal_record(state)))
    replayed = replay_deal(record)
    assert replayed.history == state.history
    assert replayed.result().to_json() == result.to_json()


def run_deal(
    game: Game,
    seed: int,
    rng: random.Random,
    *,
    choose: Chooser = uniform_choice,
    context: ContextMaker | None = None,
    clone_every: int = 4,
    max_steps: int = 2000,
) -> State:
    """Play one seeded deal with every check at every step; return the finished state."""
    dealer = rng.randrange(game.num_seats)
    ctx = context(game, dealer, rng) if context else None
    state = game.new_state(seed=seed, dealer=dealer, context=ctx)
    pattern = card_pattern(game)
    for step in range(max_steps):
        check_conservation(state)
        check_legal_exists(state)
        check_observations(state, pattern)
        if state.is_terminal():
            break
        if step % 7 == 3:
            check_illegal_rejected(state, rng)
        code = choose(state, rng)
        if step % clone_every == 0:
            check_clone_step(state, code)
        else:
            state.apply(code)
    else:  # pragma: no cover - reported as a failure
        raise AssertionError(f"the deal did not end within {max_steps} steps")
    check_end(state)
    return state


def run_conformance(
    game: Game,
    *,
    deals: int,
    seed: int,
    choose: Chooser = uniform_choice,
    context: ContextMaker | None = None,
) -> list[State]:
    """Play ``deals`` seeded random deals of ``game`` with every check; return the finished states."""
    rng = random.Random(seed)
    return [run_deal(game, rng.getrandbits(64), rng, choose=choose, context=context) for _ in range(deals)]
