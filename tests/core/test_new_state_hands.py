"""``Game.new_state(hands=...)`` reads piles in text notation too, and names the position of a bad card (issue 29, fix 4).

Before the fix a card given as text (``"H10"``) reached ``Deck.mask_of`` and
failed there with ``AttributeError: 'str' object has no attribute 'text'``.
"""

from __future__ import annotations

from typing import Any

import pytest

from stich.cards import Card
from stich.core.game import Game
from stich.core.registry import make_game
from stich.errors import NotationError

GAMES = ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"]


def dealt_piles(game: Game) -> list[list[Card]]:
    """The piles seed 11 deals with dealer 1, as cards."""
    return [game.deck.cards(mask) for mask in game.deal(11, 1)]


def faces(game: Game, masks: tuple[int, ...]) -> list[list[str]]:
    """Each pile's cards as sorted texts (which copy of a Doppelkopf card a pile holds does not matter)."""
    return [sorted(card.text for card in game.deck.cards(mask)) for mask in masks]


@pytest.mark.parametrize("name", GAMES)
def test_piles_in_text_notation_deal_the_same_cards(name: str) -> None:
    game = make_game(name)
    piles = dealt_piles(game)
    expected = faces(game, game.new_state(hands=piles, dealer=1).dealt)
    as_texts = [[card.text for card in pile] for pile in piles]
    as_lower_texts = [[card.text.lower() for card in pile] for pile in piles]
    as_one_text = [" ".join(card.text for card in pile) for pile in piles]
    mixed: list[Any] = [[card if i % 2 else card.text for i, card in enumerate(pile)] for pile in piles]
    for hands in (as_texts, as_lower_texts, as_one_text, mixed):
        state = game.new_state(hands=hands, dealer=1)
        assert faces(game, state.dealt) == expected
        assert state.current_player() == game.new_state(hands=piles, dealer=1).current_player()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("X9", r"^hands\[1\]\[2\]: not a card: 'X9'"),
        (7, r"^hands\[1\]\[2\]: not a card: int 7 \(give a Card or text such as H10\)$"),
        (None, r"^hands\[1\]\[2\]: not a card: NoneType None"),
    ],
)
def test_a_card_that_is_not_one_is_named_by_its_position(name: str, bad: Any, message: str) -> None:
    game = make_game(name)
    hands: list[list[Any]] = [[card.text for card in pile] for pile in dealt_piles(game)]
    hands[1][2] = bad
    with pytest.raises(NotationError, match=message):
        game.new_state(hands=hands, dealer=1)


@pytest.mark.parametrize("name", GAMES)
def test_a_card_the_pack_does_not_hold_is_named_by_its_position(name: str) -> None:
    game = make_game(name)
    hands = [[card.text for card in pile] for pile in dealt_piles(game)]
    foreign = "T21" if name == "doppelkopf" else "C2"  # no tarock in Doppelkopf, no black twos in the other packs
    hands[2][3] = foreign
    with pytest.raises(NotationError, match=rf"^hands\[2\]\[3\]: {foreign} is not in this pack$"):
        game.new_state(hands=hands, dealer=1)


@pytest.mark.parametrize("name", GAMES)
def test_a_card_dealt_too_often_is_named_at_its_extra_copy(name: str) -> None:
    game = make_game(name)
    hands = [[card.text for card in pile] for pile in dealt_piles(game)]
    copies = game.deck.copies
    hands[1][0:copies] = [hands[0][0]] * copies  # the pack's copies of this card are now dealt once too often
    with pytest.raises(NotationError, match=r"^hands\[1\]\[\d+\]: .* appears more often than the pack holds it$"):
        game.new_state(hands=hands, dealer=1)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("hands", ["H10 CQ", 5, [3, 4]])
def test_piles_that_are_not_lists_of_cards_are_refused(name: str, hands: Any) -> None:
    game = make_game(name)
    with pytest.raises(NotationError, match=r"hands|piles|pile"):
        game.new_state(hands=hands, dealer=1)
