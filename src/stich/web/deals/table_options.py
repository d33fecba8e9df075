"""A table's own options (not the game's): learning mode and "play this deal again" (issue 43, decision 0059).

They are stored as one JSON object with the table (``game_tables.table_options``):

* ``learning: true``: the seated person may ask for hints
  (:mod:`stich.web.runtime.hints`).  Only for a table whose every other seat
  is a bot (creation fills them: ``bots`` must be given), and never at a
  rated table (``game_tables.rated``, decision 0055: refused at creation,
  and :func:`hints_refused` refuses hints there) or a tournament's table
  (decision 0057; a tournament creates its tables without this option).
* ``replay_of``: the finished deal this table plays again, with what its
  record revealed once it ended: the seed, the dealer, the context and its
  commitment.  The table's first deal is dealt from that seed, dealer and
  context, so it holds exactly the same cards; its own commitment uses the
  same seed with a fresh salt (the seed is public after the original deal,
  so nothing is hidden by it, but ``stich verify`` works on the replay's
  record as on any other and shows the seed it reveals is the original's).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from stich.core.game import Game
from stich.core.session import Session
from stich.web.deals.fairness import Commitment, commitment

LEARNING = "learning"
"""The option key of learning mode (hints on request)."""
REPLAY_OF = "replay_of"
"""The option key of a replay table: the deal it plays again (:class:`ReplayOf`)."""


def hints_refused(options: Mapping[str, Any], *, rated: bool = False, tournament: bool = False) -> str | None:
    """Why the table's hints are refused (``None``: they are not): not a learning table, or a rated or tournament one."""
    if rated or options.get("rated") is True:
        return "a rated table gives no hints"
    if tournament or options.get("tournament") is not None:
        return "a tournament table gives no hints"
    if options.get(LEARNING) is not True:
        return "this table is not in learning mode (create it with learning: true)"
    return None


@dataclass(frozen=True)
class ReplayOf:
    """The finished deal a replay table plays again: all of it public once that deal ended."""

    deal: int
    table: str
    seed: int
    dealer: int
    context: Mapping[str, Any]
    commitment: str
    """The original deal's commitment (``sha256(seed:salt)`` with its own salt)."""

    def to_json(self) -> dict[str, Any]:
        """The stored form (the seed as text: a 64-bit number does not survive every JSON reader)."""
        return {
            "deal": self.deal,
            "table": self.table,
            "seed": str(self.seed),
            "dealer": self.dealer,
            "context": dict(self.context),
            "commitment": self.commitment,
        }

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> ReplayOf | None:
        """The replay a table's options name, or ``None``."""
        data = options.get(REPLAY_OF)
        if not isinstance(data, Mapping):
            return None
        return cls(
            int(data["deal"]), str(data["table"]), int(data["seed"]), int(data["dealer"]), dict(data["context"]), str(data["commitment"])
        )

    def fair(self) -> Commitment:
        """The replay's commitment: the original's (revealed) seed with a fresh salt."""
        salt = secrets.token_hex(32)
        return Commitment(self.seed, salt, commitment(self.seed, salt))


def replay_of_record(deal_id: int, table_id: str, record: Mapping[str, Any], digest: str) -> ReplayOf:
    """The :class:`ReplayOf` of a finished deal's record (its seed, dealer and context) and its commitment ``digest``."""
    return ReplayOf(deal_id, table_id, int(record["seed"]), int(record["dealer"]), dict(record["context"]), digest)


def session_class(base: type[Session], seeds: Mapping[int, int], replay: ReplayOf | None) -> type[Session]:
    """``base`` whose deal ``i`` comes from ``seeds[i]``; a replay's first deal also from the original's dealer and context."""

    def deal_seed(self: Session, index: int) -> int:
        return seeds[index]

    members: dict[str, Any] = {"deal_seed": deal_seed, "__module__": __name__}
    if replay is not None:

        def before_deal(self: Session) -> None:
            base._before_deal(self)
            if self.deal_index == 0:
                self.dealer = replay.dealer

        def context(self: Session) -> Mapping[str, Any]:
            return dict(replay.context) if self.deal_index == 0 else base.context(self)

        members.update({"_before_deal": before_deal, "context": context})
    return type(f"Table{base.__name__}", (base,), members)


def first_deal_fair(options: Mapping[str, Any], index: int) -> Commitment:
    """The commitment of a table's deal ``index``: a replay's first deal reuses the original seed, every other is fresh."""
    replay = ReplayOf.from_options(options)
    if replay is not None and index == 0:
        return replay.fair()
    return Commitment.fresh()


def check_game(game: Game, replay: ReplayOf) -> None:
    """Deal the replay's first deal once: raises if the seed, dealer or context do not fit the game (never expected)."""
    game.new_state(seed=replay.seed, dealer=replay.dealer, context=replay.context)


def learning_options(learning: bool, seat: int | None, bots: str | None, rated: bool = False) -> dict[str, Any]:
    """The options of a new table asked for with ``learning``; raises :class:`ValueError` naming why it cannot learn.

    Learning mode is for one person against bots: the creator sits
    (``seat`` given) and ``bots`` fill every other seat at once.
    """
    if not learning:
        return {}
    if rated:
        raise ValueError("a rated table gives no hints: choose learning mode or a rated table")
    if seat is None or bots is None:
        raise ValueError("learning mode is for a table where you sit and every other seat is a bot: give seat and bots")
    return {LEARNING: True}
