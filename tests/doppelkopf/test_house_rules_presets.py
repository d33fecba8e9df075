"""The FreeDoko presets of issue 29 (docs/decisions/0026-freedoko-presets.md): their values, rule by rule
from FreeDoko's rule files, and a short list played under each with its records replayed."""

from __future__ import annotations

import json

from stich.core.records import deal_record, replay_deal
from stich.games.doppelkopf.options import DDV_SOLOS
from stich.games.doppelkopf.outcome import RE_KONTRA
from stich.games.doppelkopf.scoring import evaluate
from stich.games.doppelkopf.session import DoppelkopfSession

from .helpers import game, play_out, public, solo
from .test_evaluation_examples import DOPPELKOPF_KONTRA
from .test_evaluation_examples import deal as deal_facts
from .test_session import play_game


def test_freedoko_standard_values() -> None:
    # decision 0026: FreeDoko's standard rules file, option by option
    o = game("freedoko_standard").options
    assert (o.nines, o.pflichtsolo, o.lustsolo_soloist_leads, o.lustsolo_same_dealer_redeals) == (True, False, True, True)
    assert (o.second_dulle_beats_first, o.second_dulle_except_last_trick, o.second_dulle_in_solo) == (True, False, True)
    assert (o.schweine, o.schweine_in_solo, o.superschweine, o.schweine_fixed) == ("both", "trump_suit_aces", False, "reservation")
    assert o.solos == DDV_SOLOS | {"koenig", "damen_buben", "koenig_buben", "koenig_damen", "koehler"}
    assert (o.hochzeit_rule, o.hochzeit_window_tricks, o.genscher) == ("first_foreign", 12, True)
    assert (o.armut, o.schmeissen) == (True, frozenset({"five_nines"}))
    assert (o.call_min_cards, o.call_last_min_cards, o.reply_allowed, o.compulsory_call_first_trick_30) == ("11/9/6/3/3", 3, True, True)
    assert (o.call_scoring, o.sp_karlchen_gefangen, o.sp_fuchs_last_trick, o.sp_herzstich) == ("double", True, False, False)
    assert (o.bock, o.bock_triggers, o.bock_stacking, o.counting) == (True, frozenset({"120_120", "schwarz"}), "multiply", "plus")
    assert (o.bock_applies_to_specials, o.solo_always_triple) == (True, False)


def test_freedoko_tournament_is_ddv_but_for_replies_last_call_and_duty_solo_lead() -> None:
    # decision 0026 (amended, issue 40) / dossier A-5: FreeDoko's tournament file is DDV but for the reply rule,
    # the last-call limit and "lustsolo player leads = false", which leads a duty solo of the normal rounds too
    ddv, fd = game().options, game("freedoko_tournament").options
    differing = {f for f in ddv.__dataclass_fields__ if getattr(ddv, f) != getattr(fd, f)}
    assert differing == {"reply_allowed", "call_last_min_cards", "pflichtsolo_soloist_leads"}
    assert (fd.reply_allowed, fd.call_last_min_cards, fd.pflichtsolo_soloist_leads) == (False, 5, False)


def test_freedoko_tournament_duty_solo_is_led_from_the_dealers_left() -> None:
    # §2.1, decision 0026: a duty solo in the normal rounds is led by the dealer's left neighbour (FreeDoko)
    s = solo(game("freedoko_tournament").new_state(seed=1, dealer=3, context={"owes_solo": [True] * 4}), 2, "herz")
    assert (public(s)["pflichtsolo"], s.current_player()) == (True, 0)


def test_freedoko_standard_keeps_the_dealer_after_a_lustsolo() -> None:
    # §2.1 [VAR], decision 0026: FreeDoko's start player stays after a lust solo the soloist led
    session = DoppelkopfSession(game("freedoko_standard"), seed=5)
    state = play_game(session, {2: "solo pik"})
    assert state.kind == "solo" and session.rows[-1].label.startswith("Lustsolo")
    assert session.dealer == 0


def test_freedoko_standard_bock_doubles_the_special_points_too() -> None:
    # §7.8 [VAR], decision 0026: FreeDoko multiplies the whole sum by the bock factor, special points included
    facts = deal_facts(121, tricks=[DOPPELKOPF_KONTRA], re_call=RE_KONTRA, multiplier=2)
    assert evaluate(facts, game("freedoko_standard").options).breakdown["value"] == (1 * 2 - 1) * 2


def test_freedoko_presets_play_a_list_with_replayable_records() -> None:
    # §7.6 / §7.8: a short list under each preset books its games (plus counting: no negative entry) and replays
    for preset in ("freedoko_standard", "freedoko_tournament"):
        session = DoppelkopfSession(game(preset), seed=11, deals=5)
        for _ in range(5):
            state = session.next_deal()
            assert state is not None
            session.book(play_out(state))
            record = json.loads(json.dumps(deal_record(state)))
            assert replay_deal(record).result().to_json() == state.result().to_json()
        if preset == "freedoko_standard":
            assert all(entry >= 0 for row in session.rows for entry in row.scores)
