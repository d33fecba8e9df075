"""A Tapp Tarock list: the deal passes to the right, thrown-in deals are redealt, a score sheet in game points.

Dossier sections in brackets.  Between deals the session keeps:

* the **dealer**: after each deal the deal passes to the right, so the old
  forehand (seat ``dealer + 1``, seats being numbered in the direction of
  play) deals next [§2]; at a table of four the new dealer sits out;
* **thrown-in deals**: when everybody passes, the cards are thrown in and
  the same dealer deals again (``all_pass=redeal_same_dealer``), or the next
  one (``redeal_next_dealer``); such a deal gets a zero row and is not a
  counted game [§3.3];
* the **end of the list**: the dossier sets none, so a list is
  ``session_rounds`` rounds in which every seat deals once (3 counted deals a
  round, 4 at a table of four); ``deals=k`` asks for ``k`` counted deals
  instead (docs/decisions/0010-tapp-tarock.md).

Every counted deal is checked before it is booked: the entries sum to zero
and a dealer who sits out scores 0 [§2, §8].  A failed check raises
:class:`~stich.core.session.SessionError` and books nothing.  Scores are game
points: what each player received (+) or paid (−) [§8].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stich.cards import Card
from stich.core.game import DealResult, State
from stich.core.session import Session, SessionError, SheetRow
from stich.games.tapp_tarock.game import TappTarock
from stich.games.tapp_tarock.pack import CONTRACT_BY_NAME
from stich.games.tapp_tarock.state import TappTarockState


class TappTarockSession(Session):
    """A Tapp Tarock list; see the module docstring for the rules it keeps."""

    game: TappTarock

    def __init__(self, game: TappTarock, seed: int, deals: int | None = None) -> None:
        super().__init__(game, seed, deals)
        if deals is not None and deals < 0:
            raise SessionError(f"a list needs a non-negative number of deals, got {deals}")
        self.target = game.options.session_rounds * game.num_seats if deals is None else deals
        self.games = 0
        """Counted deals booked so far (thrown-in deals excluded)."""

    def next_deal(self, hands: Sequence[Sequence[Card]] | None = None) -> TappTarockState | None:
        """The next deal (see :meth:`Session.next_deal`), typed as a Tapp Tarock deal."""
        state = super().next_deal(hands)
        assert state is None or isinstance(state, TappTarockState)
        return state

    def is_over(self) -> bool:
        """Whether all counted deals of the list are booked."""
        return self.games >= self.target

    def context(self) -> Mapping[str, Any]:
        """Tapp Tarock deals take no context."""
        return {}

    def _book(self, state: State, result: DealResult) -> SheetRow:
        assert isinstance(state, TappTarockState)
        n = self.game.num_seats
        where = f"deal {self.deal_index + 1} (dealer seat {state.dealer})"
        scores = result.scores
        if len(scores) != n:
            raise SessionError(f"{where}: {len(scores)} scores for {n} seats")
        if sum(scores) != 0:
            raise SessionError(f"{where}: the entries {list(scores)} do not sum to zero (§8)")
        idle = [seat for seat in range(n) if seat not in state.active]
        if any(scores[seat] for seat in idle):
            raise SessionError(f"{where}: the dealer who sits out must score 0, entries {list(scores)} (§2)")
        if state.thrown:
            self.dealer = int(result.breakdown["next_dealer"])
            notes: dict[str, Any] = {"redeal": True, "reason": "all_pass", "game": None}
            return SheetRow(self.deal_index + 1, state.dealer, "Redeal (all passed)", scores, tuple(self.totals), notes)
        self.games += 1
        for seat in range(n):
            self.totals[seat] += scores[seat]
        self.dealer = (state.dealer + 1) % n
        breakdown = result.breakdown
        notes = {
            "game": self.games,
            "round": (self.games - 1) // n + 1,
            "contract": breakdown["contract"],
            "declarer": breakdown["declarer"],
            "won": breakdown["won"],
            "points": breakdown["points"]["declarer"],
            "per_defender": breakdown["per_defender"],
        }
        return SheetRow(self.deal_index + 1, state.dealer, self._label(breakdown), scores, tuple(self.totals), notes)

    @staticmethod
    def _label(breakdown: Mapping[str, Any]) -> str:
        """Sheet label, e.g. ``Unterer (seat 1) won 41:29, ultimo announced, Kontra``."""
        title = CONTRACT_BY_NAME[str(breakdown["contract"])].title
        points = breakdown["points"]
        verdict = "won" if breakdown["won"] else "lost"
        label = f"{title} (seat {breakdown['declarer']}) {verdict} {points['declarer']}:{points['defenders']}"
        extras = [str(item["name"]).replace("_", " ") for item in breakdown["items"] if item["name"] != "game"]
        doubled = [f"{level} {item}" for item, level in breakdown["doubling"].items()]
        return ", ".join([label, *extras, *doubled])
