"""A Droggn session: who deals, the idle fourth, thrown-in deals, the end of the session, the score sheet.

Dossier sections in brackets.

* **First dealer**: the players cut for it; the engine draws it from the
  session's seed, which an engine may do [§2].
* **Who deals next**: there is no rotation; the declarer of each deal deals
  the next one.  At a table of four the dealer sits out, so a player keeps
  playing until he has been declarer and then sits out the next deal [§2].
* **Thrown-in deals**: when everybody passes, the same dealer deals again; the
  deal gets a zero row on the sheet and does not count as a played deal
  [§2, §3.2].
* **End**: a session has ``options.session_deals`` played deals (or ``deals``
  when given).  A player may announce that the next declarer deals the first
  of the last three hands (:meth:`DroggnSession.announce_end`): the session
  then ends after four more played deals, the pending one included [§8.7].
  The rows of the last three hands are marked on the sheet.
* **Score sheet**: in points (the game's units).  Each row holds the
  declarer's value ``V`` (the traditional running score of the declarer,
  §8) and the zero-sum payments: every other seat pays ``V``, the idle
  dealer of a four-player table included [§8.6].  Before booking, a row is
  checked: zero-sum, every other seat the same entry, the declarer the
  negative of their sum.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stich.cards import Card
from stich.core.game import DealResult, State
from stich.core.rng import SplitMix64
from stich.core.session import Session, SessionError, SheetRow
from stich.games.droggn.game import Droggn
from stich.games.droggn.pack import BY_NAME
from stich.games.droggn.state import DroggnState

FIRST_DEALER_SALT = 0xD066_0000_C07
"""Mixed into the session seed to draw the first dealer (the cut) [§2]."""
LAST_HANDS = 3
"""After the announcement the next declarer deals the first of the last three hands [§8.7]."""


def first_dealer(seed: int, seats: int) -> int:
    """The first dealer of a session seeded ``seed``: a fair draw standing in for the cut [§2]."""
    return SplitMix64(seed ^ FIRST_DEALER_SALT).below(seats)


class DroggnSession(Session):
    """A Droggn session; see the module docstring for its rules.

    ``deals=None`` plays ``options.session_deals`` played deals; ``deals=k``
    plays ``k``.  Thrown-in deals never count.
    """

    game: Droggn

    def __init__(self, game: Droggn, seed: int, deals: int | None = None) -> None:
        super().__init__(game, seed, deals)
        if deals is not None and deals < 0:
            raise SessionError(f"a session needs a non-negative number of deals, got {deals}")
        self.target = game.options.session_deals if deals is None else deals
        """Played deals after which the session is over."""
        self.games = 0
        """Played deals booked so far (thrown-in deals excluded)."""
        self.dealer = first_dealer(seed, game.num_seats)
        self.end_announced: int | None = None
        """Played deals booked when the end was announced, if it was [§8.7]."""

    def next_deal(self, hands: Sequence[Sequence[Card]] | None = None) -> DroggnState | None:
        """The next deal (see :meth:`Session.next_deal`), typed as a Droggn deal."""
        state = super().next_deal(hands)
        assert state is None or isinstance(state, DroggnState)
        return state

    def is_over(self) -> bool:
        """Whether all played deals of the session are booked."""
        return self.games >= self.target

    def context(self) -> Mapping[str, Any]:
        """Droggn deals take no context."""
        return {}

    def announce_end(self) -> int:
        """Announce "the next declarer deals the first of the last three hands" [§8.7]; returns the deals left.

        The next played deal (the pending one, if a deal is being played)
        decides that declarer; three more deals follow.  An earlier end already
        set (by ``deals`` or an earlier announcement) is kept.
        """
        if self.end_announced is None:
            self.end_announced = self.games
            self.target = min(self.target, self.games + 1 + LAST_HANDS)
        return self.target - self.games

    # --------------------------------------------------------------- booking
    def _book(self, state: State, result: DealResult) -> SheetRow:
        """Check and book a finished deal: a thrown-in row, or a played deal whose declarer deals next."""
        assert isinstance(state, DroggnState)
        self._check(state, result)
        if state.thrown:
            redeal = {"redeal": True, "reason": "all_passed", "game": None}
            return SheetRow(self.deal_index + 1, state.dealer, "thrown in (all passed)", result.scores, tuple(self.totals), redeal)
        self.games += 1
        for seat, score in enumerate(result.scores):
            self.totals[seat] += score
        self.dealer = state.declarer
        breakdown = result.breakdown
        notes: dict[str, Any] = {
            "game": self.games,
            "contract": breakdown["contract"],
            "declarer": state.declarer,
            "idle": state.idle,
            "value": breakdown["value"],
            "card_points": breakdown["card_points"],
            "multiplier": breakdown["multiplier"],
            "winner": breakdown["winner"],
        }
        left = self.target - self.games
        if left < LAST_HANDS:
            notes["last_hand"] = LAST_HANDS - left  # 1, 2, 3: the last three hands [§8.7]
        return SheetRow(self.deal_index + 1, state.dealer, self._label(state, breakdown), result.scores, tuple(self.totals), notes)

    def _check(self, state: DroggnState, result: DealResult) -> None:
        """Zero-sum, and every seat but the declarer pays the same [§8, §8.6]."""
        where = f"deal {self.deal_index + 1} (dealer seat {state.dealer})"
        scores = result.scores
        if len(scores) != self.game.num_seats:
            raise SessionError(f"{where}: {len(scores)} scores for {self.game.num_seats} seats")
        if sum(scores) != 0:
            raise SessionError(f"{where}: the entries {list(scores)} do not sum to zero (§8)")
        if state.thrown:
            if any(scores):
                raise SessionError(f"{where}: a thrown-in deal scores nothing, entries {list(scores)} (§3.2)")
            return
        others = {scores[s] for s in range(self.game.num_seats) if s != state.declarer}
        if len(others) != 1:
            raise SessionError(f"{where}: every seat but the declarer pays the same, entries {list(scores)} (§8, §8.6)")

    @staticmethod
    def _label(state: DroggnState, breakdown: Mapping[str, Any]) -> str:
        """Sheet label, e.g. ``Solo (seat 1) won, V = +53`` or ``Super Mord (seat 0) lost x2, V = -334``."""
        title = BY_NAME[str(breakdown["contract"])].title
        outcome = "won" if breakdown["winner"] == "declarer" else "lost"
        factor = f" x{breakdown['multiplier']}" if int(breakdown["multiplier"]) > 1 else ""
        matsch = " Matsch" if breakdown.get("matsch") else ""
        return f"{title} (seat {state.declarer}) {outcome}{matsch}{factor}, V = {int(breakdown['value']):+d}"
