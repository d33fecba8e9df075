"""Game.hands_from_cards: explicit piles must hold every card of the pack exactly once (validated on masks)."""

from __future__ import annotations

import pytest

from stich.cards import parse_card
from stich.core.registry import make_game
from stich.errors import NotationError

GAMES = ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"]


@pytest.mark.parametrize("name", GAMES)
def test_a_dealt_pack_round_trips(name: str) -> None:
    game = make_game(name)
    masks = game.deal(11, 0)
    piles = [game.deck.cards(m) for m in masks]
    # Doppelkopf's two copies of a card are interchangeable: compare the cards, not which copy a pile got.
    assert [sorted(game.deck.cards(m), key=str) for m in game.hands_from_cards(piles)] == [sorted(p, key=str) for p in piles]


@pytest.mark.parametrize("name", GAMES)
def test_a_missing_a_doubled_or_a_foreign_card_is_refused(name: str) -> None:
    game = make_game(name)
    piles = [list(game.deck.cards(m)) for m in game.deal(11, 0)]
    short = [pile[:] for pile in piles]
    short[0].pop()
    with pytest.raises(NotationError, match="exactly the cards of the pack"):
        game.hands_from_cards(short)
    doubled = [pile[:] for pile in piles]
    doubled[0][0] = doubled[1][0]  # one card twice more than the pack has it, another missing
    with pytest.raises(NotationError):
        game.hands_from_cards(doubled)
    with pytest.raises(NotationError, match="piles"):
        game.hands_from_cards(piles[:-1])


def test_doppelkopf_without_nines_refuses_a_nine() -> None:
    game = make_game("doppelkopf", options={"nines": False})
    piles = [list(game.deck.cards(m)) for m in game.deal(5, 0)]
    assert all(card.text[1:] != "9" for pile in piles for card in pile)
    piles[0][0] = parse_card("H9")
    with pytest.raises(NotationError):
        game.hands_from_cards(piles)
