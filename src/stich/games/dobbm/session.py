"""A Dobbm list: the declarer deals next, thrown-in deals, the Mußrunde, a score sheet in payment units.

Dossier sections in brackets.  Between deals the session keeps:

* the **dealer**: the first dealer is drawn from the list's seed (chosen at
  random, §2); after a played deal **the declarer deals the next one** — at
  five players the declarer therefore sits out the next deal (*feiert*) [§2];
* **thrown-in deals** (all four passed, §3.2): at four players the same dealer
  deals again and nothing is paid; at five the deal passes to the left and the
  new dealer collects a Stockerl from each of the other four (the deal's
  result carries the payment).  A thrown-in deal is booked as a row of its
  own but is not a counted deal;
* the **Mußrunde** (option ``mussrunde_at_end``): the last ``players`` counted
  deals of the list; in each the active player on the dealer's left must
  declare (context ``forced_declarer``) and then deals the next, so every
  player at the table declares once [§3.4].

The list has ``options.list_deals`` counted deals (``deals=k``: ``k``), the
Mußrunde included.  Every row is checked before it is booked: the entries sum
to zero and the deal is the one the session handed out (forced declarer,
dealer).  Scores are in the game's payment units (``Dobbm.score_unit``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stich.cards import Card
from stich.core.game import DealResult, State
from stich.core.rng import SplitMix64
from stich.core.session import Session, SessionError, SheetRow
from stich.games.dobbm.game import Dobbm
from stich.games.dobbm.options import DobbmOptions
from stich.games.dobbm.pack import CONTRACTS
from stich.games.dobbm.state import DobbmState, active_seats

FIRST_DEALER_SALT = 0xD0BB_0000_F125_7DEA
"""Mixed into the list's seed to draw the first dealer (§2: chosen at random)."""


def first_dealer(seed: int, num_seats: int) -> int:
    """The first dealer of a list seeded ``seed`` [§2]."""
    return SplitMix64(seed ^ FIRST_DEALER_SALT).below(num_seats)


class DobbmSession(Session):
    """A Dobbm list; see the module docstring for the rules it keeps."""

    game: Dobbm

    def __init__(self, game: Dobbm, seed: int, deals: int | None = None) -> None:
        super().__init__(game, seed, deals)
        if deals is not None and deals < 0:
            raise SessionError(f"a list needs a non-negative number of deals, got {deals}")
        self.options: DobbmOptions = game.options
        self.target = self.options.list_deals if deals is None else deals
        self.games = 0
        """Counted (played) deals booked so far; thrown-in deals excluded."""
        self.dealer = first_dealer(seed, game.num_seats)
        self.forced: int | None = None
        """The seat that must declare the next deal (Mußrunde), settled by :meth:`_before_deal`."""

    def next_deal(self, hands: Sequence[Sequence[Card]] | None = None) -> DobbmState | None:
        """The next deal (see :meth:`Session.next_deal`), typed as a Dobbm deal."""
        state = super().next_deal(hands)
        assert state is None or isinstance(state, DobbmState)
        return state

    def is_over(self) -> bool:
        """Whether all counted deals of the list are booked."""
        return self.games >= self.target

    def in_mussrunde(self) -> bool:
        """Whether the next counted deal belongs to the closing Mußrunde [§3.4]."""
        return self.options.mussrunde_at_end and self.games >= self.target - self.game.num_seats

    def _before_deal(self) -> None:
        self.forced = active_seats(self.game.num_seats, self.dealer)[0] if self.in_mussrunde() else None

    def context(self) -> Mapping[str, Any]:
        """``forced_declarer`` and ``mussrunde`` in the Mußrunde, else nothing."""
        if self.forced is None:
            return {}
        return {"forced_declarer": self.forced, "mussrunde": True}

    # --------------------------------------------------------------- booking
    def _book(self, state: State, result: DealResult) -> SheetRow:
        assert isinstance(state, DobbmState)
        where = f"deal {self.deal_index + 1} (dealer seat {state.dealer})"
        scores = result.scores
        if len(scores) != self.game.num_seats:
            raise SessionError(f"{where}: {len(scores)} scores for {self.game.num_seats} seats")
        if sum(scores) != 0:
            raise SessionError(f"{where}: the entries {list(scores)} do not sum to zero (§8.3)")
        if state.dealer != self.dealer or state.forced != self.forced:
            raise SessionError(f"{where}: not the deal this list handed out (dealer {self.dealer}, forced declarer {self.forced})")
        for seat in range(self.game.num_seats):
            self.totals[seat] += scores[seat]
        if state.thrown:
            return self._book_thrown(state, result)
        return self._book_game(state, result)

    def _book_thrown(self, state: DobbmState, result: DealResult) -> SheetRow:
        """All passed: same dealer at four, the next dealer (who collects the Stockerl) at five [§3.2]."""
        info = result.breakdown
        self.dealer = int(info["next_dealer"])
        collector = info["collector"]
        label = "Alle weiter: redeal"
        if collector is not None:
            label += f", Stockerl {info['stockerl']} to seat {collector}"
        notes = {"counted": False, "redeal": True, "stockerl": info["stockerl"], "collector": collector}
        return SheetRow(self.deal_index + 1, state.dealer, label, result.scores, tuple(self.totals), notes)

    def _book_game(self, state: DobbmState, result: DealResult) -> SheetRow:
        """A played deal: the declarer deals next [§2]."""
        info = result.breakdown
        declarer = int(info["declarer"])
        self.games += 1
        self.dealer = declarer
        contract = CONTRACTS[str(info["contract"])].title
        winner = info["winner"]
        outcome = "draw (eingestellt)" if winner is None else "won" if winner == "declarer" else "lost"
        label = f"{contract} seat {declarer}: {info['points']['declarer']} points, {outcome}"
        if info["doubles"]:
            retours = info["doubles"] - 1
            label += ", Schwacher" + (f" + {retours} Retour" if retours else "")
        if info["match"]:
            label += ", Match"
        if state.mussrunde:
            label = "Mußrunde " + label
        notes: dict[str, Any] = {
            "counted": True,
            "deal": self.games,
            "contract": info["contract"],
            "declarer": declarer,
            "points": info["points"]["declarer"],
            "winner": winner,
            "payment": info["payment"],
            "multiplier": info["multiplier"],
            "mussrunde": state.mussrunde,
        }
        return SheetRow(self.deal_index + 1, state.dealer, label, result.scores, tuple(self.totals), notes)
