"""A Dappen session: the deal passes to the right, the idle dealer, thrown-in deals, a score sheet in cents.

Dossier sections in brackets.

* **First dealer** [§2]: drawn from the session seed (the rules say "random").
* **Next dealer** [§2]: after every deal — played, thrown in or penalised —
  the player on the old dealer's right deals, which is seat ``dealer + 1``
  (seats are numbered in the direction of play, see :mod:`stich.games.dappen.game`).
* **Idle dealer** [§2, §8]: with one player more than ``max_active`` at the
  table the dealer sits out and scores 0, unless ``idle_dealer_pays``.
* **Thrown-in deals** [§3.3, §10.12]: when everybody passes and no rule makes
  anybody dapp, "das Spiel kommt ins Loch": a zero row, and the next player deals.
* **End** [§2]: the rules say the session ends when the players agree; the
  engine plays the number of deals asked for, or ``session_deals``, or one
  round in which every seat deals once (docs/decisions/0013-dappen.md).

Every booked deal is checked: the entries sum to zero and an idle dealer who
does not share scores 0.  A failed check raises
:class:`~stich.core.session.SessionError` and books nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stich.cards import Card
from stich.core.game import DealResult, State
from stich.core.rng import SplitMix64
from stich.core.session import Session, SessionError, SheetRow
from stich.games.dappen.game import Dappen
from stich.games.dappen.options import DappenOptions
from stich.games.dappen.pack import CONTRACTS
from stich.games.dappen.state import DappenState

FIRST_DEALER_SALT = 0xDA99_E400_0000_0001
"""Mixed into the session seed to draw the first dealer, apart from the deals' own seeds."""


def euros(cents: int) -> str:
    """Cents as a signed euro amount, e.g. ``+1.20 €``."""
    sign = "-" if cents < 0 else "+"
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d} €"


class DappenSession(Session):
    """A Dappen session; see the module docstring for the rules it keeps.

    ``deals=None`` plays ``options.session_deals`` deals, or one round (every
    seat deals once) when that is 0; ``deals=k`` plays ``k`` deals, thrown-in
    deals included.
    """

    game: Dappen

    def __init__(self, game: Dappen, seed: int, deals: int | None = None) -> None:
        super().__init__(game, seed, deals)
        if deals is not None and deals < 0:
            raise SessionError(f"a session needs a non-negative number of deals, got {deals}")
        self.options: DappenOptions = game.options
        self.target = deals if deals is not None else (self.options.session_deals or game.num_seats)
        self.dealer = SplitMix64(seed ^ FIRST_DEALER_SALT).below(game.num_seats)
        self.thrown_in = 0
        """Deals that came "ins Loch" so far."""

    def next_deal(self, hands: Sequence[Sequence[Card]] | None = None) -> DappenState | None:
        """The next deal (see :meth:`Session.next_deal`), typed as a Dappen deal."""
        state = super().next_deal(hands)
        assert state is None or isinstance(state, DappenState)
        return state

    def is_over(self) -> bool:
        """Whether all deals of the session are booked."""
        return self.deal_index >= self.target

    def context(self) -> Mapping[str, Any]:
        """Dappen deals need nothing from the session."""
        return {}

    def _book(self, state: State, result: DealResult) -> SheetRow:
        assert isinstance(state, DappenState)
        where = f"deal {self.deal_index + 1} (dealer seat {state.dealer})"
        scores = result.scores
        n = self.game.num_seats
        if len(scores) != n:
            raise SessionError(f"{where}: {len(scores)} scores for {n} seats")
        if sum(scores) != 0:
            raise SessionError(f"{where}: the entries {list(scores)} do not sum to zero (§8)")
        if state.idle is not None and scores[state.idle] and not self.options.idle_dealer_pays:
            raise SessionError(f"{where}: the dealer sits out and must score 0, entries {list(scores)} (§2, §8)")
        for seat in range(n):
            self.totals[seat] += scores[seat]
        if state.thrown:
            self.thrown_in += 1
        self.dealer = (state.dealer + 1) % n  # the deal passes to the right [§2]
        label, notes = self._label(state, result)
        notes["idle"] = state.idle
        return SheetRow(self.deal_index + 1, state.dealer, label, scores, tuple(self.totals), notes)

    @staticmethod
    def _label(state: DappenState, result: DealResult) -> tuple[str, dict[str, Any]]:
        """Sheet label and notes: the game, the lone player, the result in words."""
        b = result.breakdown
        if state.thrown:
            return "ins Loch (all passed)", {"kind": "thrown"}
        if state.penalty is not None:
            return f"penalty: seat {state.penalty} passed with a trump stop", {"kind": "penalty", "seat": state.penalty}
        assert state.contract is not None and state.lone is not None
        title = CONTRACTS[state.contract].title
        won = b["winner"] == "lone"
        if b["seven_fives"]:
            outcome = "seven five-pointers shown (Marsch)"
        elif b["marsch"] == "lone":
            outcome = "won, Marsch"
        elif b["marsch"] == "opponents":
            outcome = "lost, the opponents marched"
        else:
            pts = b["points"]
            outcome = f"{'won' if won else 'lost'} {pts['lone']}:{pts['opponents']}"
        label = f"{title}, seat {state.lone}: {outcome}, {b['per_opponent']} ¢ per opponent"
        for row in b["ulti"]:
            label += f"; Ulti {row['trump']} {'won' if row['won'] else 'lost'} {row['cents']} ¢"
        notes: dict[str, Any] = {
            "kind": "game",
            "contract": state.contract,
            "lone": state.lone,
            "winner": b["winner"],
            "marsch": b["marsch"],
            "per_opponent": b["per_opponent"],
            "ulti": [row["trump"] for row in b["ulti"]],
        }
        return label, notes

    def totals_in_euros(self) -> list[str]:
        """The running totals as euro amounts."""
        return [euros(t) for t in self.totals]
