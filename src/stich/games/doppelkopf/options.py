"""Doppelkopf rules options (defaults = DDV tournament rules) and presets.

Every field names its section of ``shared/rules/doppelkopf.md``.  Options the
dossier lists that are not implemented are deliberately absent (an option that
is silently ignored would be worse than none); docs/decisions/ says which.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise

from stich.core.options import OptionTable, option
from stich.errors import OptionError
from stich.games.doppelkopf.contracts import Contract, played_contract

DDV_SOLOS = frozenset({"karo", "kreuz", "pik", "herz", "damen", "buben", "fleischlos"})
HOUSE_SOLOS = frozenset(
    {
        "koenig",
        "damen_buben",
        "koenig_damen",
        "koenig_buben",
        "koehler",
        "zehner",
        "rein_kreuz",
        "rein_pik",
        "rein_herz",
        "rein_karo",
    }
)
ALL_SOLOS = tuple(sorted(DDV_SOLOS | HOUSE_SOLOS))
THROW_CONDITIONS = ("five_nines", "four_nines_four_kings", "nine_of_each_suit", "seven_full_cards", "max_trump_le_dj", "max_trump_le_da")
BOCK_TRIGGERS = ("120_120", "lost_call", "lost_solo", "schwarz", "zero_game")


OPTION_DEFAULTS = {"schweine_fixed": "play_start", "schweine_announce": "reservation", "schweine_in_solo": "off"}
"""Defaults of the Schweine sub-options, which only mean something with Schweine."""


@dataclass(frozen=True)
class DoppelkopfOptions:
    """Options of a Doppelkopf table.  With the defaults the engine follows the TSR."""

    # §8.1 table, deck, round
    players: int = option(4, "players at the table; 5 = the dealer sits out and scores 0", "2.1", minimum=4, maximum=5)
    nines: bool = option(True, "play with the nines (48 cards); false = 40 cards, 10 tricks, call counts -2", "1.1")
    round_games: int = option(
        0, "games in a list round including the Pflichtsoli; 0 = 24 (4 players) or 30 (5 players)", "2.1", minimum=0, maximum=400
    )
    pflichtsolo: bool = option(True, "each player owes one compulsory solo per list round", "2.2")
    vorfuehrung: bool = option(True, "force the owed compulsory solos at the end of the round", "2.3")
    pflichtsolo_same_dealer_redeals: bool = option(True, "after a compulsory solo the same dealer deals again", "2.1")
    pflichtsolo_soloist_leads: bool = option(True, "the soloist leads a compulsory solo", "2.1")
    lustsolo_soloist_leads: bool = option(False, "[VAR] the soloist also leads a voluntary solo", "2.1")
    lustsolo_same_dealer_redeals: bool = option(False, "[VAR] after a voluntary solo the same dealer deals again", "2.1")
    # §8.2 card order
    dullen: bool = option(True, "the hearts tens (Dullen) are the highest trumps", "1.3")
    second_dulle_beats_first: bool = option(False, "[VAR] of two Dullen in one trick the second wins", "1.2")
    second_dulle_except_last_trick: bool = option(False, "[VAR] ... except in the last trick", "1.2")
    second_dulle_in_solo: bool = option(False, "[VAR] ... also in solos (a silent wedding counts as a solo)", "1.2")
    dullen_in_color_solo: str = option(
        "hearts",
        "[VAR] the Dullen of a colour solo: the hearts tens, or the short suit's tens "
        "(the suit before the trump suit in Kreuz, Pik, Herz, Karo: Kreuz solo D10, Pik C10, Herz S10, Karo H10)",
        "1.3, 8.2, decision 0027",
        choices=("hearts", "short_suit"),
    )
    schweine: str = option(
        "off",
        "[VAR] both diamond aces in one hand become the highest trumps: both, only the first played, "
        "only the second and only if the first won its trick for the holder's party, "
        "or both once their holder shows them (holder_choice: before one of his cards, while he holds both)",
        "1.3, 8.2",
        choices=("off", "both", "first_played", "second_if_first_won", "holder_choice"),
    )
    schweine_fixed: str = option(
        "play_start",
        "[VAR] Schweine are judged on the hands at the start of play (after a poverty exchange, "
        "a wedding's clarification), or on the dealt hands when the game is named (kept if a wedding falls back to a solo)",
        "1.3, 8.2",
        choices=("play_start", "reservation"),
    )
    schweine_announce: str = option(
        "reservation",
        "[VAR] Schweine are announced when they are settled, or only when the first one is played",
        "1.3, 8.2",
        choices=("reservation", "on_play"),
    )
    schweine_in_solo: str = option(
        "off",
        "[VAR] Schweine in colour solos: the trump suit's aces, or the diamond aces",
        "1.3, 8.2",
        choices=("off", "trump_suit_aces", "diamond_aces"),
    )
    superschweine: bool = option(False, "[VAR] with Schweine, both diamond nines (no nines: kings) in one hand rank above them", "1.3")
    superschweine_card: str = option(
        "nine",
        "[VAR] which pair are the Superschweine: the nines (kings without nines), the tens or the kings of the Schweine's suit",
        "1.3, 8.2",
        choices=("nine", "ten", "king"),
    )
    superschweine_in_solo: bool = option(
        False, "[VAR] Superschweine in colour solos too (the nines, or kings, of the Schweine's suit)", "1.3, 8.2"
    )
    must_overtrump: bool = option(False, "[VAR] Überstechen: a player must beat the trick when able", "6.1")
    # §8.3 game types and game finding
    solos: frozenset[str] = option(DDV_SOLOS, "solo types that may be declared", "1.3", choices=ALL_SOLOS)
    hochzeit: bool = option(True, "a player with both queens of clubs may announce a wedding", "4.2")
    genscher: bool = option(
        False,
        "[VAR] in a normal game the holder of both diamond kings may, on playing the first, choose a new partner",
        "4.1, decision 0025",
    )
    hochzeit_rule: str = option(
        "first_foreign",
        "which trick finds the wedding partner; named_suit = the first trick of a plain suit the bride names when announcing",
        "4.2",
        choices=("first_foreign", "first_plain", "first_trump", "named_suit"),
    )
    hochzeit_window_tricks: int = option(3, "tricks in which the wedding partner can be found", "4.2", minimum=1, maximum=12)
    hochzeit_announcement_timing: str = option(
        "shifted",
        "wedding call deadlines: TSR shift, or normal deadlines with Kontra converted",
        "5.4",
        choices=("shifted", "normal_with_conversion"),
    )
    stille_hochzeit: bool = option(True, "a holder of both queens of clubs may keep quiet and play alone", "4.3")
    armut: bool = option(False, "[VAR] poverty: a player with few trumps hands them over to a partner", "4.5")
    armut_max_trumps: int = option(3, "[VAR] most trumps a poor hand may hold (all of them are handed over)", "4.5", minimum=0, maximum=3)
    armut_two_poor: str = option(
        "redeal", "[VAR] when a second player is poor too: redeal, or the first to declare plays it", "4.5", choices=("redeal", "play")
    )
    armut_offer: str = option(
        "clockwise",
        "[VAR] who is offered the poverty: everybody clockwise from the poor player's left, or only the left neighbour",
        "4.5, 8.3",
        choices=("clockwise", "left_only"),
    )
    armut_no_taker: str = option("redeal", "[VAR] when nobody takes the poverty", "4.5", choices=("redeal", "last_must_take"))
    schmeissen: frozenset[str] = option(frozenset(), "[VAR] hands that may be thrown in for a redeal", "4.6", choices=THROW_CONDITIONS)
    throw_before_solo: bool = option(False, "[VAR] throwing in outranks solos in the reservation query", "3.2")
    hochzeit_before_armut: bool = option(False, "[VAR] a wedding outranks poverty in the reservation query", "3.2")
    # §8.4 announcements
    announcements: bool = option(True, "announcements (Re/Kontra and absagen) are allowed", "5.1")
    call_min_cards: str = option(
        "11/10/9/8/7",
        "cards in hand (with 12 cards) a call needs: Re/Kontra/keine 90/keine 60/keine 30/schwarz; -2 without nines",
        "5.2, 8.4",
    )
    timing_mode: str = option(
        "cards_in_hand",
        "[VAR] call deadlines count the caller's cards in hand, or the cards played to the table "
        "(a call needing N cards is open while at most 4 x (12 - N) cards lie played: Re before the 5th card)",
        "5.5, 8.4, A-22",
        choices=("cards_in_hand", "table_cards"),
    )
    call_last_min_cards: int = option(
        0,
        "[VAR] no call at all, replies included, with fewer cards in hand (shifted like the deadlines); 0 = no limit",
        "5.5, 8.4",
        minimum=0,
        maximum=12,
    )
    reply_allowed: bool = option(True, "a party may reply Re/Kontra one card after its own deadline", "5.3")
    compulsory_call_first_trick_30: bool = option(
        False,
        "[VAR] the winner of a first trick of 30 eyes or more must say Re/Kontra before his next card"
        " (only in a normal game, as FreeDoko, and in a silent wedding, which looks like one:"
        " not in a solo, an announced wedding, Armut or Genscher game)",
        "5.5, 8.4",
    )
    knocking: bool = option(
        False,
        "[VAR] Klopfen: each player may once make an anonymous raise (+2, or a doubling) within the Re/Kontra deadline",
        "5.5, 8.4, decision 0028",
    )
    skip_levels: bool = option(True, "an absage may skip levels whose deadlines are still open", "5.2")
    absage_after_opponent_absage: bool = option(True, "[VAR] false = absagen only while the other side has made none", "5.5")
    # §8.5 scoring
    call_scoring: str = option(
        "add_2", "Re and Kontra each add 2 points, or [VAR] each double the value", "7.8", choices=("add_2", "double")
    )
    specials_before_doubling: bool = option(
        False,
        "[VAR] with call_scoring=double the special points join the value before the doublings (else they are added after)",
        "7.8, 8.5",
    )
    re_needs_121_when_only_kontra: bool = option(False, "[VAR] Re needs 121 even when only Kontra was called", "7.1")
    sp_gegen_die_alten: bool = option(True, "special point: Kontra wins against the queens of clubs", "7.3")
    sp_doppelkopf: bool = option(True, "special point: a trick of 40 or more eyes", "7.3")
    sp_fuchs: bool = option(True, "special point: catching an opponent's fox (diamond ace)", "7.3")
    sp_karlchen: bool = option(True, "special point: jack of clubs wins the last trick", "7.3")
    sp_karlchen_gefangen: bool = option(False, "[VAR] special point: catching an opponent's jack of clubs in the last trick", "7.3")
    sp_double_karlchen: bool = option(False, "[VAR] 2 points when both jacks of clubs of one party are in the last trick", "7.3")
    sp_fuchs_last_trick: bool = option(False, "[VAR] special point: a diamond ace wins the last trick", "7.3")
    sp_dulle_gefangen: bool = option(False, "[VAR] special point: the second Dulle beats the first", "7.3")
    sp_herzstich: bool = option(False, "[VAR] special point: a hearts trick that nobody trumped", "7.3, 8.5")
    specials_in_solo: bool = option(False, "[VAR] special points also count in solos", "7.3")
    bock: bool = option(False, "[VAR] bock rounds double the value of following games", "7.8")
    bock_triggers: frozenset[str] = option(frozenset({"120_120"}), "[VAR] events that start bock rounds", "7.8", choices=BOCK_TRIGGERS)
    bock_games: int = option(4, "[VAR] games in one bock round", "7.8", minimum=1, maximum=30)
    bock_stacking: str = option("append", "[VAR] bock rounds queue up or multiply", "7.8", choices=("append", "multiply"))
    repeat_if_value_le: int = option(
        -1,
        "[VAR] in a list, a game whose value is at most this is repeated (same dealer, nothing booked); -1 = never",
        "7.8, 8.5",
        minimum=-1,
        maximum=10,
    )
    bock_applies_to_specials: bool = option(False, "[VAR] the bock factor multiplies the special points too", "7.8, 8.5")
    counting: str = option(
        "plus_minus",
        "who books a game: both sides (DDV), [VAR] only the side it credits (plus), or only the side it debits (minus)",
        "7.8, 8.5",
        choices=("plus_minus", "plus", "minus"),
    )
    solo_always_triple: bool = option(
        False,
        "[VAR] with counting plus or minus every entry of a solo counts triple: the opponents', and the soloist's when nobody won",
        "7.4, 8.5",
    )

    def __post_init__(self) -> None:
        _ = self.call_deadlines  # validates call_min_cards
        if self.superschweine and self.schweine == "off":
            raise OptionError("superschweine=true needs schweine=both (or another Schweine variant than off)")
        schweine_options = ("schweine_fixed", "schweine_announce", "schweine_in_solo")
        if self.schweine == "off" and any(getattr(self, name) != OPTION_DEFAULTS[name] for name in schweine_options):
            raise OptionError("schweine_fixed / schweine_announce / schweine_in_solo need schweine other than off")
        if self.superschweine_card != "nine" and not self.superschweine:
            raise OptionError("superschweine_card needs superschweine=true")
        if self.schweine == "holder_choice" and self.schweine_announce != OPTION_DEFAULTS["schweine_announce"]:
            raise OptionError("schweine=holder_choice: the holder shows the Schweine himself, so schweine_announce stays reservation")
        if self.superschweine_in_solo and (not self.superschweine or self.schweine_in_solo == "off"):
            raise OptionError("superschweine_in_solo needs superschweine=true and schweine_in_solo other than off")
        if self.dullen_in_color_solo != "hearts" and not self.dullen:
            raise OptionError("dullen_in_color_solo=short_suit needs dullen=true")
        if self.second_dulle_beats_first and not self.dullen:
            raise OptionError("second_dulle_beats_first needs dullen=true")
        if (self.second_dulle_except_last_trick or self.second_dulle_in_solo) and not self.second_dulle_beats_first:
            raise OptionError("second_dulle_except_last_trick / second_dulle_in_solo need second_dulle_beats_first=true")
        if not self.solos:
            raise OptionError("at least one solo type must be enabled (a reservation must always be possible)")
        if self.solo_always_triple and self.counting == "plus_minus":
            raise OptionError("solo_always_triple matters only with counting=plus or counting=minus")
        if self.specials_before_doubling and self.call_scoring != "double":
            raise OptionError("specials_before_doubling needs call_scoring=double")
        if self.armut_offer != "clockwise" and not self.armut:
            raise OptionError("armut_offer needs armut=true")
        if self.knocking and not self.announcements:
            raise OptionError("knocking needs announcements=true (a knock is made where calls are)")
        if self.bock_applies_to_specials and not self.bock:
            raise OptionError("bock_applies_to_specials needs bock=true")
        if self.sp_dulle_gefangen and not self.second_dulle_beats_first:
            raise OptionError("sp_dulle_gefangen needs second_dulle_beats_first=true")

    @cached_property
    def call_deadlines(self) -> tuple[int, ...]:
        """Cards in hand each level needs with 12 cards, indexed by level (0 = none, 1 = Re/Kontra .. 5 = schwarz) [§5.2]."""
        parts = self.call_min_cards.split("/")
        if len(parts) != 5 or not all(p.strip().isdigit() for p in parts):
            raise OptionError(f"call_min_cards takes five card counts like 11/10/9/8/7, not {self.call_min_cards!r}")
        counts = tuple(int(p) for p in parts)
        if any(not 1 <= c <= 12 for c in counts) or any(a < b for a, b in pairwise(counts)):
            raise OptionError(
                f"call_min_cards: counts must lie in 1..12 and never rise from one level to the next, not {self.call_min_cards!r}"
            )
        return (0, *counts)

    def contract(self, name: str) -> Contract:
        """The game type ``name`` as these options play it (the Dullen of colour solos, decision 0027)."""
        return played_contract(name, self.dullen_in_color_solo == "short_suit")

    @property
    def hand_size(self) -> int:
        """Cards per active player."""
        return 12 if self.nines else 10

    @property
    def games_per_round(self) -> int:
        """Games in a list round."""
        if self.round_games:
            return self.round_games
        return 24 if self.players == 4 else 30


PRESETS: dict[str, dict[str, object]] = {
    "ddv": {},
    "ddv_no_nines": {"nines": False},
    "house_classic": {
        "second_dulle_beats_first": True,
        "second_dulle_except_last_trick": True,
        "schweine": "both",
        "armut": True,
        "schmeissen": "five_nines",
        "sp_karlchen_gefangen": True,
        "sp_fuchs_last_trick": True,
        "bock": True,
        "bock_triggers": "120_120+lost_call",
        "call_scoring": "double",
        "solos": "+".join(sorted(DDV_SOLOS | {"koenig", "damen_buben", "koehler"})),
        "lustsolo_soloist_leads": True,
        "lustsolo_same_dealer_redeals": True,
    },
}

# FreeDoko's rule files data/rules/standard and data/rules/tournament (FreeDoko 0.7.x), option by option;
# where stich reads a FreeDoko rule differently or lacks it, docs/decisions/0026-freedoko-presets.md says so.
PRESETS["freedoko_standard"] = {
    "pflichtsolo": False,  # number of duty soli = 0
    "lustsolo_soloist_leads": True,  # lustsolo player leads
    "lustsolo_same_dealer_redeals": True,  # ... and the start player stays (GameSummary::startplayer_stays)
    "second_dulle_beats_first": True,  # dollen second over first (no exception in the last trick or in solos)
    "second_dulle_in_solo": True,
    "schweine": "both",  # swines, swine only second = false
    "schweine_fixed": "reservation",  # swines announcement begin: in the reservation, before a poverty shift
    "schweine_in_solo": "trump_suit_aces",  # swines in solo: the trump suit's aces
    "solos": "+".join(sorted(DDV_SOLOS | {"koenig", "damen_buben", "koenig_buben", "koenig_damen", "koehler"})),
    "hochzeit_window_tricks": 12,  # marriage determination = 12, first foreign
    "genscher": True,
    "armut": True,  # poverty with shift
    "schmeissen": "five_nines",  # throw with nines, at least 5
    "call_min_cards": "11/9/6/3/3",  # announcement no 120 / 90 / 60 / 30 / 0
    "call_last_min_cards": 3,  # last announcement = 3
    "compulsory_call_first_trick_30": True,  # announcement first trick thirty points (only Re/Kontra, only in a normal game)
    "call_scoring": "double",  # announcement re/contra doubles
    "sp_karlchen_gefangen": True,  # extrapoint catch charlie
    "bock": True,
    "bock_triggers": "120_120+schwarz",  # bock after 120-120 and after a black game
    "bock_stacking": "multiply",  # append bock = false: overlapping bock rounds multiply
    "bock_applies_to_specials": True,  # the bock factor multiplies the whole sum, special points included
    "counting": "plus",
}
PRESETS["freedoko_tournament"] = {
    "pflichtsolo_soloist_leads": False,  # lustsolo player leads = false: a duty solo of the normal rounds is led as a lust solo
    "reply_allowed": False,  # announcement reply = false (dossier A-5: not the TSR)
    "call_last_min_cards": 5,  # last announcement = 5
}

OPTION_TABLE = OptionTable("doppelkopf", DoppelkopfOptions, PRESETS, "ddv")
