"""Dappen rules options (defaults = the Furtwangen version) and the presets of its local versions.

Every field names its section of ``shared/rules/dappen.md``.  The dossier's
``variant`` flag is not an option of its own: each version is a preset, and
the flags below say everything a version changes (docs/decisions/0013-dappen.md).
Counting in threes belongs to the Jeu du Tarot scoring and is implied by it.
"""

from __future__ import annotations

from dataclasses import dataclass

from stich.core.options import OptionTable, option
from stich.errors import OptionError
from stich.games.dappen.pack import CONTRACTS, LADDERS, SCORINGS

VARIANTS = ("furtwangen", "breitnau", "buchenbach", "schollach", "waldau", "jeu_du_tarot")


@dataclass(frozen=True)
class DappenOptions:
    """Options of a Dappen table.  With the defaults the engine plays the Furtwangen rules."""

    # §2 table and deal
    players: int = option(
        6, "players at the table; one more than max_active = the dealer sits out (8 in the Black Forest)", "2", minimum=3, maximum=8
    )
    max_active: int = option(7, "most players who take part in a deal (6 in Schollach, Buchenbach, Waldau)", "2, 3.5", minimum=3, maximum=7)
    idle_dealer_pays: bool = option(False, "a dealer who sits out shares the opponents' payments (and ultis)", "2, 8")
    deal: str = option(
        "black_forest",
        "deal table: Black Forest (6/7 players) or the Jeu du Tarot notes (3 to 7)",
        "2, 8.4",
        choices=("black_forest", "jeu_du_tarot"),
    )
    dapp_first: bool = option(False, "Black Forest deal: each Dapp packet is laid before the players' packet", "2")
    # §3 bidding
    solo: bool = option(True, "the Solo question round comes first", "3.1")
    solo_stretch: bool = option(False, "a later player may strecken against a Solo and take the Dapp (Buchenbach)", "3.4")
    raise_levels: str = option("strecken", "overcalls of a dapp in the Dapp round", "3.2, 3.3, 3.4", choices=tuple(LADDERS))
    compulsory_a: bool = option(True, "rule (a): a hand with a trump stop (T+H>22) must dapp while nobody has", "3.2")
    compulsory_b: bool = option(True, "rule (b): the second-to-last player must dapp if all before passed", "3.2")
    compulsory_enforcement: str = option(
        "engine_blocks_pass",
        "rule (a): the engine offers no pass, or [human table] a wrong pass ends the deal with a Marsch penalty",
        "3.2, 10.3",
        choices=("engine_blocks_pass", "penalty_marsch"),
    )
    # §4 talon
    discard_rule: str = option(
        "no_fives",
        "cards that may not be laid away: the five-pointers, or the Jeu du Tarot honneurs (kings; or all five-pointers)",
        "4, 8.4, 10.14",
        choices=("no_fives", "honneurs_kings", "honneurs_fives"),
    )
    seven_fives_marsch: bool = option(True, "a lone player holding all seven five-pointers shows them: a won Marsch, no play", "4")
    # §5 ulti
    ulti: str = option(
        "1_2_3", "Ulti: lay out trumps 3, 2, 1 for the last tricks; 1_only = the Geiß only", "5.1", choices=("none", "1_2_3", "1_only")
    )
    ulti_solo_only: bool = option(False, "only a Solo player may lay out an Ulti (Waldau's Solo-Ulti)", "3.6, 5.1")
    # §6 play
    gstiesieren: bool = option(True, "an opponent whose only trump is the Gstieß may keep it back", "6.2")
    first_three_tricks: bool = option(False, "Buchenbach: Gstieß, Mund and Geiß bound to tricks 1-3, trumps in each", "6.3")
    # §8 scoring
    scoring: str = option(
        "furtwangen", "payment rule and factors of the version (jeu_du_tarot counts in threes)", "7, 8", choices=tuple(SCORINGS)
    )
    game_scale: str = option(
        "full", "full game: 1 cent per point; half game: 1/2 cent (Furtwangen scoring only)", "8.1", choices=("full", "half")
    )
    ulti_scale: str = option("full", "full Ulti: 1 cent per Ulti point (10/20/30); half: 5/10/15", "5.1", choices=("full", "half"))
    marsch_liability: str = option(
        "full",
        "who pays the lone player's Marsch: the other bidder / Gstieß keeper alone (full), half alone (half), or everybody (none)",
        "8.1",
        choices=("full", "half", "none"),
    )
    seven_fives_liability: str = option(
        "normal", "a Marsch by seven five-pointers: normal liability, or every opponent pays", "8.1, 10.10", choices=("normal", "shared")
    )
    jdt_stake: int = option(1, "Jeu du Tarot: cents per game point (1 = the sheet shows game points)", "8.4", minimum=1, maximum=100)
    # session
    session_deals: int = option(
        0, "deals in a session when none is named; 0 = one round (every seat deals once)", "2", minimum=0, maximum=1000
    )

    def __post_init__(self) -> None:
        if self.players > self.max_active + 1:
            raise OptionError(f"players={self.players} needs max_active >= {self.players - 1} (only the dealer can sit out)")
        active = self.active_players
        if self.deal == "black_forest" and active not in (6, 7):
            raise OptionError(f"deal=black_forest is for 6 or 7 active players (players={self.players}, max_active={self.max_active})")
        if self.deal == "jeu_du_tarot" and self.players > 7:
            raise OptionError("deal=jeu_du_tarot is for 3 to 7 players (players <= 7)")
        if self.dapp_first and self.deal != "black_forest":
            raise OptionError("dapp_first needs deal=black_forest (the Jeu du Tarot table fixes its own order)")
        if self.solo_stretch and not self.solo:
            raise OptionError("solo_stretch=true needs solo=true")
        if self.gstiesieren and self.first_three_tricks:
            raise OptionError("gstiesieren and first_three_tricks exclude each other (Buchenbach binds the Gstieß to trick 1)")
        if self.first_three_tricks and self.ulti != "none":
            raise OptionError("first_three_tricks binds the Geiß to trick 3: it excludes ulti (set ulti=none)")
        if self.ulti_solo_only and self.ulti == "none":
            raise OptionError("ulti_solo_only=true needs ulti other than none")
        if self.ulti_solo_only and not self.solo:
            raise OptionError("ulti_solo_only=true needs solo=true")
        table = SCORINGS[self.scoring].factors
        for name in self.reachable_contracts:
            if name not in table:
                raise OptionError(
                    f"scoring={self.scoring} has no factor for {CONTRACTS[name].title}; check raise_levels, solo and solo_stretch"
                )
        if self.game_scale != "full" and self.scoring != "furtwangen":
            # The half game is defined only for Furtwangen's payment rule (§8.1); Breitnau and Buchenbach
            # round after the factor (§8.2-§8.3) and Jeu du Tarot pays game points (§8.4).
            raise OptionError(f"game_scale=half is defined only for scoring=furtwangen (§8.1), not scoring={self.scoring}")
        if self.compulsory_enforcement == "penalty_marsch" and not self.compulsory_a:
            raise OptionError("compulsory_enforcement=penalty_marsch needs compulsory_a=true")

    @property
    def active_players(self) -> int:
        """Players who take part in a deal."""
        return min(self.players, self.max_active)

    @property
    def idle_dealer(self) -> bool:
        """Whether the dealer sits out."""
        return self.players > self.max_active

    @property
    def ladder(self) -> tuple[str, ...]:
        """The Dapp round's bids, lowest first."""
        return LADDERS[self.raise_levels]

    @property
    def reachable_contracts(self) -> tuple[str, ...]:
        """Contracts a deal can end in under these options."""
        names = list(self.ladder)
        if self.solo:
            names.append("solo")
        if self.solo_stretch:
            names.append("solo_strecken")
        return tuple(names)

    @property
    def counting(self) -> str:
        """``pairs`` (all Black Forest versions) or ``threes`` (Jeu du Tarot) [§1, §7]."""
        return "threes" if self.scoring == "jeu_du_tarot" else "pairs"

    @property
    def compulsion(self) -> bool:
        """Whether a dapp can be compulsory (a deal then always has a lone player under rule (b))."""
        return self.compulsory_a or self.compulsory_b


PRESETS: dict[str, dict[str, object]] = {
    "furtwangen": {},
    "breitnau": {
        "raise_levels": "strecken+stupfen",
        "compulsory_a": False,
        "compulsory_b": False,
        "gstiesieren": False,
        "ulti": "none",
        "scoring": "breitnau",
        "marsch_liability": "none",
    },
    "buchenbach": {
        "max_active": 6,
        "solo_stretch": True,
        "raise_levels": "hannes_ladder",
        "compulsory_a": False,
        "compulsory_b": False,
        "gstiesieren": False,
        "first_three_tricks": True,
        "ulti": "none",
        "scoring": "buchenbach",
        "marsch_liability": "none",
    },
    "schollach": {"max_active": 6, "ulti": "none"},
    "waldau": {"max_active": 6, "compulsory_a": False, "compulsory_b": False, "ulti": "1_only", "ulti_solo_only": True},
    "jeu_du_tarot": {
        "deal": "jeu_du_tarot",
        "solo": False,
        "raise_levels": "none",
        "compulsory_a": False,
        "compulsory_b": False,
        "gstiesieren": False,
        "ulti": "none",
        "scoring": "jeu_du_tarot",
        "marsch_liability": "none",
        "seven_fives_marsch": False,
        "discard_rule": "honneurs_kings",
    },
}

OPTION_TABLE = OptionTable("dappen", DappenOptions, PRESETS, "furtwangen")
