"""Laying cards away: the declarer's discards in every Tarock-family game.

Tapp Tarock (§4.1), Dobbm (§4.1), Droggn (§4.1) and Dappen (§4) lay cards
away the same way: after taking up the talon the declarer puts cards from
the hand face down, one at a time, onto one pile that counts for them at the
end.  Which cards may go (kings, Trull, Sows, five-pointers) and how many
is each game's own rule and stays in its state.
"""

from __future__ import annotations


class LaysAway:
    """Mixed into a state that keeps ``hands`` and a ``discards`` mask."""

    hands: list[int]
    discards: int
    """The cards laid away so far (a mask)."""

    def _lay_away(self, seat: int, index: int) -> int:
        """Move card ``index`` from ``seat``'s hand onto the discards; how many cards lie there now."""
        bit = 1 << index
        self.hands[seat] ^= bit
        self.discards |= bit
        return self.discards.bit_count()
