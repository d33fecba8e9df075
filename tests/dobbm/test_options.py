"""Options and presets (dossier §9, §10): defaults follow the dossier's recommendations, contradictions are refused."""

from __future__ import annotations

import pytest

from stich.core.registry import game_from_string
from stich.errors import OptionError
from stich.games.dobbm.game import Dobbm
from stich.games.dobbm.options import DobbmOptions

from .helpers import game


def test_defaults_follow_the_dossier() -> None:
    # §9 defaults: 4 players, Match stake 12 rounded up, declarer's left doubles first, no Retour limit,
    # a distinct heart per Sow, Dobb to the defenders after no trick, Stockerl at five, no Mußrunde overbid
    o = DobbmOptions()
    assert (o.players, o.match_stake, o.payment_rounding) == (4, 12, "ceil")
    assert (o.doubling_first_speaker, o.retour_limit, o.sow_discard_rule) == ("declarer_left", 0, "distinct_heart_per_sow")
    assert o.dobb_to_defenders_if_declarer_no_trick and o.stockerl_5p and not o.mussrunde_allow_overbid
    assert Dobbm.option_table.default_preset == "pagat"


def test_presets_and_canonical_strings() -> None:
    # §9 presets: the dossier's defaults, five players, a Mußrunde list, a 60-unit exact stake, the seed's doubling order
    assert set(Dobbm.option_table.presets) == {"pagat", "pagat_5", "mussrunde", "high_stake", "seed"}
    assert game().canonical == "dobbm(preset=pagat)"
    assert game(players=5).canonical == "dobbm(preset=pagat,players=5)"
    assert game("high_stake").options.match_stake == 60
    assert game_from_string("dobbm(preset=seed,retour_limit=2)").options.doubling_first_speaker == "dealer_left"


def test_exact_payment_needs_a_stake_divisible_by_60() -> None:
    # §8.2 exact mode pays margin x stake / 60 in whole units: a 12 stake would pay fractions
    with pytest.raises(OptionError, match=r"payment_rounding=exact.*match_stake"):
        game(payment_rounding="exact")


def test_unknown_and_out_of_range_options_are_refused() -> None:
    # §9 only the listed values
    with pytest.raises(OptionError, match="players"):
        game(players=6)
    with pytest.raises(OptionError, match="no option"):
        game(all_pass_4p="x")
    with pytest.raises(OptionError, match="sow_discard_rule"):
        game(sow_discard_rule="none")
