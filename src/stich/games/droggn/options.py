"""Droggn rules options (defaults = PAGAT's main description of the Stubai game) and presets.

Every field names its section of ``shared/rules/droggn.md``.  The dossier's
flags (§9) that are implemented are here; ``kleine_und_gstiess_ultimo`` is
deliberately absent (its procedure is not described precisely enough to
implement, see docs/decisions/0012-droggn.md).  Where the dossier names a
flag ``players_at_table`` the option is called ``players``, like in every
other game of stich.
"""

from __future__ import annotations

from dataclasses import dataclass

from stich.core.options import OptionTable, option
from stich.errors import OptionError

DEAL_PATTERNS_66 = ("7-7-7-talon", "talon_in_middle", "5-5-5-3-3-talon")
DEAL_PATTERNS_78 = ("5-5-5-5-5-talon",)
DEAL_PATTERNS = DEAL_PATTERNS_66 + DEAL_PATTERNS_78


@dataclass(frozen=True)
class DroggnOptions:
    """Options of a Droggn table.  With the defaults the engine follows PAGAT's main text."""

    players: int = option(
        3, "players at the table; 4 = the dealer sits out and is scored with the defenders", "2, §8.6", minimum=3, maximum=4
    )
    deck_size: str = option(
        "66",
        "66 cards (the 78-card pack minus the three lowest of each suit), or [VAR] the full 78-card pack",
        "1, §9",
        choices=("66", "78"),
    )
    deal_pattern: str = option("7-7-7-talon", "packets of the deal (the 78-card pack is dealt in fives)", "2, §9", choices=DEAL_PATTERNS)
    expose_talon: str = option(
        "never",
        "[VAR] in an Ansager the declarer shows the talon to everybody before taking it",
        "4.1, §10.4",
        choices=("never", "ansager_only"),
    )
    king_discard_rule: str = option(
        "one_trump_per_king",
        "a king may be discarded only with a trump: one trump per king, or [VAR] one trump for any number of kings",
        "4.1, §10.5",
        choices=("one_trump_per_king", "one_trump_any_kings"),
    )
    defender_may_lay_out_pagat: bool = option(True, "a defender holding the Pagat may lay it out in the doubling round", "5.1, §10.7")
    retour_limit: int = option(0, "most Retours in one deal; 0 = no limit", "5.3", minimum=0, maximum=20)
    super_mord_doubled: bool = option(True, "a Schwacher or Retour doubles the 167 / 187 of a Super Mord", "8.3, §10.9")
    gstiess_last_trick_illegal: bool = option(False, "[VAR] the Gstieß may not be played to the last trick (it must go earlier)", "6.2, §9")
    win_threshold: str = option(
        "37",
        "card points the declarer needs: 37 of 74 (39 of 78), [VAR] 38 (40), or 37 where a 37:37 tie goes to the last trick's winner",
        "7, §10.1",
        choices=("37", "38", "37_tie_last_trick"),
    )
    super_mord_pagat_scoring: str = option(
        "all_or_nothing",
        "Super Mord: a laid-out Pagat or Gstieß only makes it 187, or [VAR] the Pagat bonuses of §8.4 count on top (additive)",
        "8.3, §9",
        choices=("all_or_nothing", "additive"),
    )
    session_deals: int = option(12, "played deals in a session (thrown-in deals do not count)", "8.7", minimum=1, maximum=400)

    def __post_init__(self) -> None:
        patterns = DEAL_PATTERNS_78 if self.deck_size == "78" else DEAL_PATTERNS_66
        if self.deal_pattern not in patterns:
            raise OptionError(
                f"deal_pattern={self.deal_pattern} does not fit deck_size={self.deck_size}; with {self.deck_size} cards use "
                + " or ".join(patterns)
            )

    @property
    def pack_size(self) -> int:
        """Cards in the pack (66 or 78)."""
        return int(self.deck_size)

    @property
    def hand_size(self) -> int:
        """Cards per active player: 21, or 25 with the 78-card pack [§2]."""
        return (self.pack_size - 3) // 3


PRESETS: dict[str, dict[str, object]] = {
    "stubai": {},
    "kroesbacher": {"expose_talon": "ansager_only", "gstiess_last_trick_illegal": True},
    "pack78": {"deck_size": "78", "deal_pattern": "5-5-5-5-5-talon"},
}

OPTION_TABLE = OptionTable("droggn", DroggnOptions, PRESETS, "stubai")
