"""Which cards are Schweine and Superschweine in a game, under the Schweine options (dossier §1.3, A-24).

The state machine (state.py) asks :func:`schwein_faces` when a game's type is
settled; the answer depends on the game kind, the contract and the options:

* games that are publicly normal (normal, silent wedding, poverty, a wedding
  with its partner found) use the diamond aces, and the diamond nines (kings
  without nines; tens or kings with ``superschweine_card``) for Superschweine;
* colour solos (Karo, Kreuz, Pik, Herz) have Schweine only with
  ``schweine_in_solo``: the aces of the trump suit (``trump_suit_aces``,
  FreeDoko's reading) or the diamond aces (``diamond_aces``); Superschweine
  there only with ``superschweine_in_solo``, the trump suit's (or diamonds')
  nines, kings without nines;
* every other solo has none.

How long a Schwein ranks on top (``schweine`` = ``both``, ``first_played``,
``second_if_first_won``) and when the table learns of it are decided in the
state machine.
"""

from __future__ import annotations

from stich.cards import Suit
from stich.games.doppelkopf.contracts import CONTRACTS, face
from stich.games.doppelkopf.options import DoppelkopfOptions

NORMAL_LIKE = frozenset({"normal", "stille_hochzeit", "armut", "hochzeit"})
"""Game kinds that are normal games for the Schweine (a silent wedding looks like one, A-21)."""
COLOUR_SOLOS = frozenset({"karo", "kreuz", "pik", "herz"})
_LETTER = {Suit.CLUBS: "C", Suit.SPADES: "S", Suit.HEARTS: "H", Suit.DIAMONDS: "D"}


def schwein_faces(kind: str, contract: str, options: DoppelkopfOptions) -> tuple[int, int | None] | None:
    """``(Schwein face, Superschwein face or None)`` of a game, or ``None`` when it has no Schweine."""
    if options.schweine == "off":
        return None
    # the Superschweine's rank (superschweine_card): nines, without nines kings (FreeDoko); or tens or kings (SEED)
    low = {"ten": "10", "king": "K"}.get(options.superschweine_card, "9" if options.nines else "K")
    if kind in NORMAL_LIKE:
        return face("DA"), (face("D" + low) if options.superschweine else None)
    if kind != "solo" or contract not in COLOUR_SOLOS or options.schweine_in_solo == "off":
        return None
    trump_suit = CONTRACTS[contract].trump_suit
    assert trump_suit is not None
    letter = _LETTER[trump_suit] if options.schweine_in_solo == "trump_suit_aces" else "D"
    super_face = face(letter + low) if options.superschweine and options.superschweine_in_solo else None
    return face(letter + "A"), super_face
