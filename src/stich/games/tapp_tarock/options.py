"""Tapp Tarock rules options (defaults = the seed text, Mayr & Sedlaczek, plus doubling) and presets.

Every field names its section of ``shared/rules/tapp_tarock.md``.  Flags of the
dossier's §9 that the engine does not implement are deliberately absent (an
option silently ignored would be worse than none); docs/games/tapp_tarock.md
and docs/decisions/0010-tapp-tarock.md say which and why.
"""

from __future__ import annotations

from dataclasses import dataclass

from stich.core.options import OptionTable, option
from stich.errors import OptionError


@dataclass(frozen=True)
class TappTarockOptions:
    """Options of a Tapp Tarock table.  With the defaults the engine follows the dossier's recommendations."""

    # §2 table
    fourth_player: str = option(
        "none", "a fourth player at the table: the dealer sits out and scores 0", "2", choices=("none", "dealer_sits_out")
    )
    session_rounds: int = option(
        4, "rounds in a list; in a round every seat deals once (thrown-in deals do not count)", "2", minimum=1, maximum=100
    )
    # §3 bidding
    solo_jump: str = option("any_turn", "when a player may jump straight to Solo", "3.2", choices=("any_turn", "first_turn_only"))
    solo_ends_auction: bool = option(True, "a Solo bid ends the bidding at once (it cannot be held)", "3.2")
    hold_rule: str = option(
        "seniority",
        "who may hold an overcall: a senior overcalled player, or forehand only",
        "3.2",
        choices=("seniority", "forehand_only"),
    )
    bidding_style: str = option(
        "delayed_hold",
        "multi-round bidding in strict turn, or the original single round where an overcalled player answers at once",
        "3.2",
        choices=("delayed_hold", "immediate_hold"),
    )
    all_pass: str = option(
        "redeal_same_dealer",
        "when everybody passes the cards are thrown in and redealt by the same dealer, or by the next",
        "3.3",
        choices=("redeal_same_dealer", "redeal_next_dealer"),
    )
    # §4 talon
    talon_half_rule: str = option(
        "free_choice",
        "which talon half a Dreier / Unterer / Oberer takes: free choice, or fixed (Unterer lower, Oberer upper; unexposed)",
        "4.1",
        choices=("free_choice", "fixed", "fixed_unexposed"),
    )
    forced_tarock_discard: str = option(
        "show_card",
        "a tarock discarded because nothing else can go is shown, or only their number told",
        "4.1",
        choices=("show_card", "announce_count"),
    )
    # §5 announcements and doubling
    kontra_enabled: bool = option(True, "the defenders may double (Kontra), the declarer redouble, the defenders again", "5.2")
    kontra_scope: str = option(
        "per_item",
        "what can be doubled: the game and each announced bonus separately, or the game only",
        "5.2",
        choices=("per_item", "game_only"),
    )
    # §6 play
    first_lead: str = option("forehand", "who leads to the first trick", "6", choices=("forehand", "declarer"))
    # §8 scoring
    valat_mode: str = option(
        "fixed_12_24",
        "Valat worth 12 / 24 (silent / announced), or 4 / 8 times the game value",
        "8.2",
        choices=("fixed_12_24", "multiplier_4_8"),
    )
    valat_replaces_game: bool = option(True, "a Valat replaces the game value instead of adding to it", "8.2")
    defender_valat: bool = option(False, "a declarer who takes no trick pays the Valat value instead of the game value", "8.2")
    pagat_solo_values: str = option("8/16", "Pagat ultimo in a Solo, silent / announced", "8.3", choices=("8/16", "8/24"))
    hand_bonus_settlement: str = option(
        "holder_collects",
        "hand bonuses: the holder collects from each other player, or they go to the holder's side",
        "8.3",
        choices=("holder_collects", "side_based"),
    )
    hand_bonus_timing: str = option(
        "as_dealt",
        "hand bonuses count the hand as dealt, or the declarer's hand after the talon exchange",
        "8.3",
        choices=("as_dealt", "after_talon"),
    )

    def __post_init__(self) -> None:
        if self.kontra_scope == "game_only" and not self.kontra_enabled:
            raise OptionError("kontra_scope=game_only needs kontra_enabled=true")

    @property
    def num_seats(self) -> int:
        """Seats at the table, a dealer who sits out included."""
        return 4 if self.fourth_player == "dealer_sits_out" else 3


PRESETS: dict[str, dict[str, object]] = {
    "standard": {},
    "seed": {"kontra_enabled": False},
    "kruepl": {"talon_half_rule": "fixed", "hold_rule": "forehand_only", "valat_mode": "multiplier_4_8"},
    "furr": {"talon_half_rule": "fixed_unexposed", "first_lead": "declarer", "valat_mode": "multiplier_4_8"},
    "four_players": {"fourth_player": "dealer_sits_out"},
}

OPTION_TABLE = OptionTable("tapp_tarock", TappTarockOptions, PRESETS, "standard")
