"""What the compiled Doppelkopf kernel's tests share: the rule sets they sweep and the numba skip (fixture `compiled`: conftest)."""

from __future__ import annotations

import pytest

from stich.bots.doppelkopf import kernel
from stich.core.registry import game_from_string
from stich.games.doppelkopf.game import Doppelkopf
from stich.games.doppelkopf.options import ALL_SOLOS

CONFIGS = (
    "doppelkopf",
    "doppelkopf(preset=house_classic)",
    "doppelkopf(players=5,nines=false,second_dulle_beats_first=true,second_dulle_in_solo=true)",
    f"doppelkopf(must_overtrump=true,schweine=both,superschweine=true,armut=true,solos={'+'.join(ALL_SOLOS)})",
)
"""Four rule sets: the DDV default, a house preset, five players without nines, and every special rule at once."""

needs_numba = pytest.mark.skipif(not kernel.available(), reason=f"compiled kernel unavailable: {kernel.unavailable_reason()}")


def doppelkopf_game(text: str) -> Doppelkopf:
    """The Doppelkopf game of ``text``."""
    game = game_from_string(text)
    assert isinstance(game, Doppelkopf)
    return game
