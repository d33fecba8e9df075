"""The action history a seat has seen, as a tensor: what makes OpenSpiel's ``information_state_tensor`` perfect-recall.

The observation tensor (:mod:`stich.rl.encoding`) describes the position now:
which cards lie where, who bid what; two different orders of the same actions
can give the same tensor.  Tabular and CFR-style methods need information
states that never merge two such histories, so the information-state tensor
is the observation tensor followed by this history block, which holds
everything the seat has seen happen, in order: the same content as the
``events`` line of the information-state string (so equal information-state
strings give equal tensors, and different event lists different ones).

The block has :attr:`HistoryEncoding.max_events` rows, one per event (rows
after the last event are zero).  A row is

* the acting seat, one-hot and relative to the observing seat (``seats``
  columns: 0 = the seat itself, 1 = the next seat ...), always set for an
  event, so a used row is never all zero;
* the event's code in binary (``bits`` columns, most significant first): an
  action's engine code, or ``len(game.actions) + k`` for an action the seat
  saw taken but not its card (``"discard ?"``: the ``k``-th verb of the game's
  actions, in sorted order).

The code is binary, not one-hot, to keep the block small: one-hot rows
would make Droggn's block over 140,000 floats.  Every value is 0 or 1.
``max_events`` is the game's OpenSpiel bound on player actions
(``max_game_length`` less the chance nodes that deal the pack); a longer
history raises rather than being cut.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from stich.core.game import Game, Observation


def max_game_length(game: Game) -> int:
    """OpenSpiel's bound on a deal's length: one chance node per card, then at most three actions per card and 200 more."""
    return game.deck.size * 4 + 200


class HistoryEncoding:
    """The history block of one configured game (see the module docstring)."""

    def __init__(self, game: Game) -> None:
        self.seats = game.num_seats
        self.codes = {action.text: action.code for action in game.actions.actions}
        self.verbs = sorted({action.text.split(" ", 1)[0] for action in game.actions.actions})
        self.hidden = {f"{verb} ?": len(game.actions) + k for k, verb in enumerate(self.verbs)}
        self.bits = (len(game.actions) + len(self.verbs) - 1).bit_length()
        self.row = self.seats + self.bits
        self.max_events = max_game_length(game) - game.deck.size
        self.size = self.max_events * self.row
        self._powers = 1 << np.arange(self.bits - 1, -1, -1)

    def code_of(self, text: str) -> int:
        """The code of an event's text (an action, or an action whose card stays hidden)."""
        code = self.codes.get(text, self.hidden.get(text))
        if code is None:
            raise ValueError(f"event {text!r} is neither an action of the game nor a hidden one ('<verb> ?')")
        return code

    def write(self, obs: Observation, out: npt.NDArray[np.float32]) -> None:
        """Fill ``out`` (``size`` floats) with the events ``obs.seat`` has seen."""
        events = obs.events
        if len(events) > self.max_events:
            raise ValueError(f"{len(events)} events exceed the history block's {self.max_events} rows")
        out.fill(0.0)
        if not events:
            return
        rows = out.reshape(self.max_events, self.row)
        for k, (seat, text) in enumerate(events):
            if not isinstance(seat, int) or not 0 <= seat < self.seats:
                raise ValueError(f"event {k} {text!r}: seat {seat!r} is not a seat of the table")
            rows[k, (seat - obs.seat) % self.seats] = 1.0
            rows[k, self.seats :] = (self.code_of(text) & self._powers) != 0

    def tensor(self, obs: Observation) -> npt.NDArray[np.float32]:
        """The history block of ``obs`` as a new array."""
        out = np.zeros(self.size, dtype=np.float32)
        self.write(obs, out)
        return out

    def decode(self, block: npt.NDArray[np.float32], seat: int) -> list[tuple[int, int]]:
        """``(seat, code)`` of every event in a block seen by ``seat`` (the inverse of :meth:`write`, for tests and tools)."""
        rows = np.asarray(block).reshape(self.max_events, self.row)
        events = []
        for row in rows:
            if not row[: self.seats].any():
                break
            relative = int(np.flatnonzero(row[: self.seats])[0])
            events.append(((seat + relative) % self.seats, int((row[self.seats :] != 0) @ self._powers)))
        return events
