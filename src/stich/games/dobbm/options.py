"""Dobbm rules options (defaults = the dossier's recommendations, after PAGAT's field record) and presets.

Every field names its section of ``shared/rules/dobbm.md``.  Options of the
dossier's §9 table that cannot change anything in this engine are absent:
``all_pass_4p`` has one value only, and ``revoke_penalty_doubled`` never
applies because the engine never accepts a revoke (§8.4); see
docs/decisions/0011-dobbm.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from stich.core.options import OptionTable, option
from stich.errors import OptionError

MATCH_POINTS = 60
"""Card points over 60 of a Match: the stake is quoted as the price of a Match (§8.2)."""


@dataclass(frozen=True)
class DobbmOptions:
    """Options of a Dobbm table.  With the defaults the engine follows the dossier (PAGAT's Fulpmes rules)."""

    # §2 table
    players: int = option(
        4, "players at the table; 5 = the dealer sits out (feiert) and pays or receives like a defender", "2", minimum=4, maximum=5
    )
    # §8 payments
    match_stake: int = option(12, "the price of a Match in an ordinary game, in payment units", "8.2", minimum=1, maximum=1_000_000)
    payment_rounding: str = option(
        "ceil",
        "ceil = one unit per started step of card points (small stakes); exact = margin x stake / 60",
        "8.2",
        choices=("ceil", "exact"),
    )
    # §5 doubling
    doubling_first_speaker: str = option(
        "declarer_left",
        "who speaks first in the Schwacher round: the declarer's left (PAGAT) or the dealer's left (seed)",
        "5, 10.1",
        choices=("declarer_left", "dealer_left"),
    )
    retour_limit: int = option(0, "most Retours in one deal; 0 = no limit (PAGAT)", "5", minimum=0, maximum=30)
    # §4 the Dobb
    sow_discard_rule: str = option(
        "distinct_heart_per_sow",
        "each discarded Sow needs a discarded heart that is no Sow (the heart Sow too), or any heart counts and the heart Sow needs none",
        "4.1, 10.4",
        choices=("distinct_heart_per_sow", "any_heart_incl_sow"),
    )
    # §7 counting
    dobb_to_defenders_if_declarer_no_trick: bool = option(
        True, "a declarer without a trick loses the discards (Dobbm) or the Dobb (Solo) to the defenders", "7.2, 10.8"
    )
    # §3 bidding and the session
    stockerl_5p: bool = option(True, "5 players: after all pass, the new dealer collects a Stockerl from each other player", "3.2")
    mussrunde_at_end: bool = option(False, "the list ends with a Mußrunde: one forced declarer per player at the table", "3.4")
    mussrunde_allow_overbid: bool = option(False, "in the Mußrunde the others may still bid Solo over a forced Dobbm", "3.4, 10.9")
    list_deals: int = option(20, "deals in a list (thrown-in deals not counted), the Mußrunde included", "3.4", minimum=1, maximum=10_000)

    def __post_init__(self) -> None:
        if self.payment_rounding == "exact" and self.match_stake % MATCH_POINTS:
            raise OptionError(
                f"payment_rounding=exact needs a match_stake that is a multiple of 60 (got match_stake={self.match_stake}), "
                "so that every card point pays a whole number of units"
            )

    @property
    def hand_size(self) -> int:
        """Cards dealt to each active player (§2)."""
        return 8


PRESETS: dict[str, dict[str, object]] = {
    "pagat": {},
    "pagat_5": {"players": 5},
    "mussrunde": {"mussrunde_at_end": True},
    "high_stake": {"match_stake": 60, "payment_rounding": "exact"},
    "seed": {"doubling_first_speaker": "dealer_left"},
}

OPTION_TABLE = OptionTable("dobbm", DobbmOptions, PRESETS, "pagat")
