"""A Doppelkopf list (*Liste*): dealer rotation, compulsory solos, Vorführung, bock rounds, score sheet.

Dossier sections in brackets.  A list round has ``options.games_per_round``
counted games (24 at four players, 30 at five), the compulsory solos included
[§2.1, §2.2, A-1].  Between deals the session keeps:

* the **dealer**: normally the deal passes clockwise; after a Pflichtsolo the
  same dealer deals again (``pflichtsolo_same_dealer_redeals``), after a
  vorgeführte solo the deal moves on, after a Lustsolo it moves on unless
  ``lustsolo_same_dealer_redeals`` [§2.1];
* who still **owes a Pflichtsolo** (context ``owes_solo``); a solo declared by
  such a player discharges it, a silent wedding or a wedding that falls back
  to a Karo solo does not [§2.2];
* the **Vorführung**: once the games left in the round are no more than the
  solos still owed, the first owing player clockwise from the dealer's left
  (dealer last) is forced (context ``forced_soloist``) [§2.3]; at five players
  only the four active players are searched, and if only the would-be dealer
  owes, the deal moves on by one seat first (A-17, not TSR);
* **bock rounds** (``options.bock``): each trigger of a finished game adds
  ``bock_games`` bock games that either queue up (``append``: factor 2 while
  any is queued) or overlap (``multiply``: factor 2^k for k running rounds);
  the factor goes to the deal as context ``multiplier`` [§7.8];
* **redeals**: a thrown-in deal (Schmeißen, or a poverty nobody takes) gets a
  zero row labelled as a redeal; the same dealer deals again and it is not a
  counted game, so it neither uses up the round nor a bock game [§4.5, §4.6].

Every counted game is checked before it is booked: the entries sum to zero,
the active players' entries are all even or all odd, and an idle dealer at a
five-player table scores 0 [§7.5, §7.6].  A failed check raises
:class:`~stich.core.session.SessionError` and books nothing.

With ``deals=k`` the list has ``k`` counted games.  With ``pflichtsolo`` on it
is cut into rounds of ``games_per_round`` games, each with its own compulsory
solos; a last round cut short by ``k`` forces the owed solos into the games it
has, as the TSR does when time runs out (A-23).  Decisions:
docs/decisions/0004-doppelkopf-session.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stich.cards import Card
from stich.core.game import DealResult, State
from stich.core.session import Session, SessionError, SheetRow
from stich.games.doppelkopf.contracts import CONTRACTS
from stich.games.doppelkopf.game import Doppelkopf
from stich.games.doppelkopf.options import DoppelkopfOptions
from stich.games.doppelkopf.state import DoppelkopfState

BOCK_FACTOR = 2
"""Factor of one bock round (the dossier's ``bock_multiplier``, fixed at 2) [§7.8]."""

KIND_LABELS = {
    "normal": "Normalspiel",
    "hochzeit": "Hochzeit",
    "armut": "Armut",
    "stille_hochzeit": "Stille Hochzeit",
    "hochzeit_solo": "Hochzeit ohne Partner (Karo-Solo)",
    "genscher": "Genscher",
}


def solo_title(contract: str) -> str:
    """Short display name of a solo type: ``damen`` → ``Damen``, ``koehler`` → ``Köhler``."""
    return CONTRACTS[contract].title.removesuffix("-Solo")


def bock_triggers(breakdown: Mapping[str, Any], triggers: frozenset[str]) -> list[str]:
    """The enabled bock triggers (option ``bock_triggers``) that a played game's breakdown sets off [§7.8].

    ``120_120``: both parties took 120 eyes.  ``lost_call``: a party that
    called Re/Kontra (or more) did not win the game (without a winner both
    parties count as losers).  ``lost_solo``: a game scored as a solo (a
    declared solo, a silent wedding, a wedding without partner) that the
    soloist did not win.  ``schwarz``: one party took no trick.
    ``zero_game``: the game value is 0.  Returned in the order of
    :data:`~stich.games.doppelkopf.options.BOCK_TRIGGERS`; each one starts a
    bock round of its own.
    """
    eyes = breakdown["eyes"]
    tricks = breakdown["tricks"]
    calls = breakdown["calls"]
    winner = breakdown["winner"]
    fired = {
        "120_120": eyes["re"] == 120 and eyes["kontra"] == 120,
        "lost_call": any(calls[party] != "none" and winner != party for party in ("re", "kontra")),
        "lost_solo": bool(breakdown["solo"]) and winner != "re",
        "schwarz": tricks["re"] == 0 or tricks["kontra"] == 0,
        "zero_game": breakdown["value"] == 0,
    }
    return [name for name in ("120_120", "lost_call", "lost_solo", "schwarz", "zero_game") if name in triggers and fired[name]]


class DoppelkopfSession(Session):
    """A Doppelkopf list; see the module docstring for the rules it keeps.

    ``deals=None`` plays one round of ``options.games_per_round`` counted
    games; ``deals=k`` plays ``k`` counted games.  Thrown-in deals never count.
    """

    game: Doppelkopf

    def __init__(self, game: Doppelkopf, seed: int, deals: int | None = None) -> None:
        super().__init__(game, seed, deals)
        if deals is not None and deals < 0:
            raise SessionError(f"a list needs a non-negative number of games, got {deals}")
        self.options: DoppelkopfOptions = game.options
        self.round_length = self.options.games_per_round
        self.target = self.round_length if deals is None else deals
        self.games = 0
        """Counted games booked so far (redeals excluded)."""
        self.owes = [self.options.pflichtsolo] * game.num_seats
        """Per seat: still owes a Pflichtsolo in the current round."""
        self.forced: int | None = None
        """The seat forced to play the next deal (Vorführung), settled by :meth:`_before_deal`."""
        self.dealer_skipped: int | None = None
        """The seat passed over as dealer for the next deal (A-17), if any."""
        self.bock: list[int] = []
        """Bock games left per bock round, oldest first (``append``: only the first one runs)."""

    def next_deal(self, hands: Sequence[Sequence[Card]] | None = None) -> DoppelkopfState | None:
        """The next deal (see :meth:`Session.next_deal`), typed as a Doppelkopf deal."""
        state = super().next_deal(hands)
        assert state is None or isinstance(state, DoppelkopfState)
        return state

    # ------------------------------------------------------------ list state
    def is_over(self) -> bool:
        """Whether all counted games of the list are booked."""
        return self.games >= self.target

    @property
    def round_number(self) -> int:
        """1-based number of the round the next game belongs to."""
        return self.games // self.round_length + 1

    def games_left_in_round(self) -> int:
        """Counted games left in the current round, a round cut short by ``deals`` included."""
        return min(self.round_length - self.games % self.round_length, self.target - self.games)

    def multiplier(self) -> int:
        """Bock factor of the next counted game: 2 while a round is queued (append), 2^k for k rounds (multiply) [§7.8]."""
        if not self.bock:
            return 1
        if self.options.bock_stacking == "multiply":
            return int(BOCK_FACTOR ** len(self.bock))
        return BOCK_FACTOR

    def _before_deal(self) -> None:
        """Settle the Vorführung for the next deal: who is forced, and whether the deal skips a seat [§2.3, A-17]."""
        self.forced = None
        self.dealer_skipped = None
        opts = self.options
        owed = sum(self.owes)
        if not (opts.pflichtsolo and opts.vorfuehrung and owed) or self.games_left_in_round() > owed:
            return
        n = self.game.num_seats
        # Clockwise from the dealer's left, dealer last; at five players the idle dealer is not asked.
        order = [(self.dealer + i) % n for i in range(1, n + 1)]
        if n == 5:
            order = order[:-1]
        candidates = [seat for seat in order if self.owes[seat]]
        if not candidates:
            # Only the would-be dealer owes and would sit out: pass the deal on one seat (A-17, not TSR).
            self.dealer_skipped = self.dealer
            candidates = [self.dealer]
            self.dealer = (self.dealer + 1) % n
        self.forced = candidates[0]

    def context(self) -> Mapping[str, Any]:
        """Context of the next deal: ``owes_solo``, ``multiplier`` and, in a Vorführung, ``forced_soloist``."""
        ctx: dict[str, Any] = {"owes_solo": tuple(self.owes), "multiplier": self.multiplier()}
        if self.forced is not None:
            ctx["forced_soloist"] = self.forced
        return ctx

    # --------------------------------------------------------------- booking
    def _book(self, state: State, result: DealResult) -> SheetRow:
        """Check and book a finished deal: a redeal row, or a counted game that moves the list on."""
        assert isinstance(state, DoppelkopfState)
        self._check(state, result)
        if state.thrown is not None:
            return self._book_redeal(state, result)
        limit = self.options.repeat_if_value_le
        if limit >= 0 and abs(int(result.breakdown["value"])) <= limit:
            return self._book_repeat(state, result)
        return self._book_game(state, result)

    def _book_repeat(self, state: DoppelkopfState, result: DealResult) -> SheetRow:
        """[VAR §7.8 repeat_if_value_le] a game worth too little: nothing booked, same dealer, not a counted game."""
        value = int(result.breakdown["value"])
        notes = {"redeal": True, "reason": "repeat_if_value_le", "value": value, "game": None, "round": self.round_number}
        zero = tuple(0 for _ in result.scores)
        return SheetRow(self.deal_index + 1, state.dealer, f"Redeal (repeat_if_value_le: value {value})", zero, tuple(self.totals), notes)

    def _check(self, state: DoppelkopfState, result: DealResult) -> None:
        """Zero-sum, parity and idle-dealer checks, and consistency with the session's bookkeeping [§7.6, §2.2, §2.3]."""
        where = f"deal {self.deal_index + 1} (dealer seat {state.dealer})"
        scores = result.scores
        if len(scores) != self.game.num_seats:
            raise SessionError(f"{where}: {len(scores)} scores for {self.game.num_seats} seats")
        counting = self.options.counting
        if counting == "plus_minus" and sum(scores) != 0:
            raise SessionError(f"{where}: the entries {list(scores)} do not sum to zero (§7.6)")
        if (counting == "plus" and min(scores) < 0) or (counting == "minus" and max(scores) > 0):
            raise SessionError(f"{where}: the entries {list(scores)} book the wrong side for counting={counting} (§7.8)")
        idle = [seat for seat in range(self.game.num_seats) if seat not in state.active]
        if any(scores[seat] for seat in idle):
            raise SessionError(f"{where}: the idle dealer must score 0, entries {list(scores)} (§2.1, §7.5)")
        if counting == "plus_minus" and len({scores[seat] % 2 for seat in state.active}) > 1:
            raise SessionError(f"{where}: the entries {list(scores)} are not all even or all odd (§7.6)")
        if state.thrown is not None:
            return
        if state.forced != self.forced or (self.forced is not None and (state.kind != "solo" or state.soloist != self.forced)):
            raise SessionError(f"{where}: expected a Vorführung of seat {self.forced}, got {state.kind} by seat {state.soloist}")
        if state.pflicht and (state.soloist is None or not self.owes[state.soloist]):
            raise SessionError(f"{where}: a Pflichtsolo by seat {state.soloist}, who owes none (§2.2)")

    def _book_redeal(self, state: DoppelkopfState, result: DealResult) -> SheetRow:
        """A thrown-in deal: zero row, same dealer, not a counted game [§4.5, §4.6]."""
        assert state.thrown is not None
        reason, seat = state.thrown
        what = "Armut nicht genommen" if reason == "armut_not_taken" else f"schmeissen: {reason}"
        notes = {"redeal": True, "reason": reason, "seat": seat, "game": None, "round": self.round_number}
        return SheetRow(self.deal_index + 1, state.dealer, f"Redeal ({what}, seat {seat})", result.scores, tuple(self.totals), notes)

    def _book_game(self, state: DoppelkopfState, result: DealResult) -> SheetRow:
        """A counted game: totals, Pflichtsolo, dealer, bock rounds and the round boundary."""
        opts = self.options
        n = self.game.num_seats
        forced = self.forced is not None
        round_number = self.round_number
        self.games += 1
        for seat in range(n):
            self.totals[seat] += result.scores[seat]
        # Compulsory solo [§2.2]: only a declared (or forced) solo by an owing player discharges it.
        pflicht = state.kind == "solo" and state.pflicht
        if pflicht:
            assert state.soloist is not None
            self.owes[state.soloist] = False
        # Next dealer [§2.1, §2.3].
        stays = state.kind == "solo" and not forced
        stays = stays and (opts.pflichtsolo_same_dealer_redeals if pflicht else opts.lustsolo_same_dealer_redeals)
        if not stays:
            self.dealer = (state.dealer + 1) % n
        # Bock rounds [§7.8]: this game uses up its bock game, then its triggers add new rounds.
        if self.bock:
            if opts.bock_stacking == "multiply":
                self.bock = [left - 1 for left in self.bock]
            else:
                self.bock[0] -= 1
            self.bock = [left for left in self.bock if left > 0]
        triggered = bock_triggers(result.breakdown, opts.bock_triggers) if opts.bock else []
        self.bock += [opts.bock_games] * len(triggered)
        # End of a round (or of the list): note the solos never played; a new round owes new solos [§2.2].
        unplayed: list[int] = []
        round_over = self.games % self.round_length == 0
        if opts.pflichtsolo and (round_over or self.is_over()):
            unplayed = [seat for seat in range(n) if self.owes[seat]]
            if round_over:
                self.owes = [True] * n
        notes: dict[str, Any] = {
            "game": self.games,
            "round": round_number,
            "kind": state.kind,
            "contract": state.contract,
            "soloist": state.soloist,
            "pflicht": pflicht,
            "forced": forced,
            "value": result.breakdown.get("value"),
            "multiplier": state.multiplier,
        }
        # Who the game type names, for a sheet worded in another language than the label (the terminal's --lang).
        if state.kind == "hochzeit":
            notes["hochzeiter"] = state.hochzeiter
        elif state.kind == "genscher" and state.genscher is not None:
            notes["genscher"] = list(state.genscher)
        elif state.kind == "armut":
            notes["poor"], notes["armut_taker"] = state.poor, state.armut_taker
        if self.dealer_skipped is not None:
            notes["dealer_skipped"] = self.dealer_skipped
        if triggered:
            notes["bock_triggers"] = triggered
        if opts.bock:
            notes["bock_queued"] = sum(self.bock) if opts.bock_stacking == "append" else list(self.bock)
        if unplayed:
            notes["pflichtsolo_not_played"] = unplayed
        label = self._label(state, pflicht, forced)
        return SheetRow(self.deal_index + 1, state.dealer, label, result.scores, tuple(self.totals), notes)

    @staticmethod
    def _label(state: DoppelkopfState, pflicht: bool, forced: bool) -> str:
        """Sheet label: game type, soloist and bock factor, e.g. ``Bock x2 Pflichtsolo Damen (seat 2)``."""
        if state.kind == "solo":
            kind = "Vorführung" if forced else "Pflichtsolo" if pflicht else "Lustsolo"
            label = f"{kind} {solo_title(state.contract)} (seat {state.soloist})"
        elif state.kind in ("stille_hochzeit", "hochzeit_solo"):
            label = f"{KIND_LABELS[state.kind]} (seat {state.soloist})"
        elif state.kind == "hochzeit":
            label = f"Hochzeit (seat {state.hochzeiter})"
        elif state.kind == "genscher" and state.genscher is not None:
            label = f"Genscher (seat {state.genscher[0]} with seat {state.genscher[1]})"
        elif state.kind == "armut":
            label = f"Armut (seat {state.poor}, taken by seat {state.armut_taker})"
        else:
            label = KIND_LABELS.get(state.kind, state.kind)
        return f"Bock x{state.multiplier} {label}" if state.multiplier > 1 else label
