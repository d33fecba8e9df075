"""Until when each call may be made, as the table knows it: the announcement deadlines for the screen (issue 43).

Display only, like the hand order: the rules themselves live in
:meth:`~stich.games.doppelkopf.state.DoppelkopfState._announce_codes`; this
module says the same deadlines in the form a player reads them ("Re until
your 2nd card") and reads nothing but the options and the public facts of an
observation, so every seat and spectator of a moment gets the same answer.

The deadlines [§5.2, §8.4 ``call_min_cards``] count the caller's cards in
hand: a call needing N of 12 cards is open until the caller plays the
(12 - N + 1)th card.  Without nines the counts drop by two along with the
hand [§1.1].  A wedding's calls shift by the tricks its clarification took
(``hochzeit_announcement_timing=shifted``, TSR [§5.4]): clarified in trick
k, every deadline moves k - 1 cards later, also when no partner was found
and the wedding is played as a solo.  With ``timing_mode=table_cards`` [§5.5,
A-22] the deadlines count tricks begun at the table instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stich.games.doppelkopf.options import DoppelkopfOptions
from stich.games.doppelkopf.outcome import LEVEL_NAMES, RE_KONTRA, SCHWARZ


def call_deadlines(options: DoppelkopfOptions, public: Mapping[str, Any]) -> dict[str, Any] | None:
    """The deadlines of the current contract from ``public`` (an observation's public facts), or ``None`` without calls.

    ``until`` maps each call level (``re_kontra``, ``keine90`` .. ``schwarz``) to the ordinal of the card
    (``count == "hand"``: the caller's own cards) or trick (``"table"``) before which it must be made;
    ``shift`` is how far a wedding's clarification moved them; ``waiting`` is true while a wedding that
    shifts them is not yet clarified (no call is open then); ``reply`` says a party may still answer
    the other's call one card after its own deadline [§5.3]; ``last`` is the ordinal after which no call
    at all is open (``call_last_min_cards``), or ``None``.
    """
    if not options.announcements or "thrown" in public:
        return None
    size = options.hand_size
    offset = 0 if options.nines else 2
    kind = public.get("kind")
    shifted = options.hochzeit_announcement_timing == "shifted"
    clarification = public.get("clarification_trick")
    waiting = kind == "hochzeit" and shifted and not clarification
    shift = 0
    if kind in ("hochzeit", "hochzeit_solo") and shifted and isinstance(clarification, int):
        shift = clarification - 1
    deadlines = options.call_deadlines

    def ordinal(cards: int) -> int:
        """The card (or trick) before which a call needing ``cards`` (with 12) must be made, capped at the last."""
        needed = cards - offset - shift
        return max(1, min(size, size - needed + 1))

    until = {LEVEL_NAMES[level]: ordinal(deadlines[level]) for level in range(RE_KONTRA, SCHWARZ + 1)}
    last = ordinal(options.call_last_min_cards) if options.call_last_min_cards else None
    return {
        "count": "table" if options.timing_mode == "table_cards" else "hand",
        "until": until,
        "shift": shift,
        "waiting": waiting,
        "reply": options.reply_allowed,
        "last": last,
    }
