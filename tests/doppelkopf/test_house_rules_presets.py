"""The FreeDoko presets of issue 29 (docs/decisions/0026-freedoko-presets.md): their values, rule by rule
from FreeDoko's rule files, and a short list played under each with its records replayed."""

from __future__ import annotations

import json

from stich.core.records import deal_record, replay_deal
from stich.games.doppelkopf.options import DDV_SOLOS
from stich.games.doppelkopf.session import DoppelkopfSession

from .helpers import game, play_out


def test_freedoko_standard_values() -> None:
    # decision 0026: FreeDoko's standard rules file, option by option
    o = game("freedoko_standard").options
    assert (o.nines, o.pflichtsolo, o.lustsolo_soloist_leads) == (True, False, True)
    assert (o.second_dulle_beats_first, o.second_dulle_except_last_trick, o.second_dulle_in_solo) == (True, False, True)
    assert (o.schweine, o.schweine_in_solo, o.superschweine) == ("both", "trump_suit_aces", False)
    assert o.solos == DDV_SOLOS | {"koenig", "damen_buben", "koenig_buben", "koenig_damen", "koehler"}
    assert (o.hochzeit_rule, o.hochzeit_window_tricks, o.genscher) == ("first_foreign", 12, True)
    assert (o.armut, o.schmeissen) == (True, frozenset({"five_nines"}))
    assert (o.call_min_cards, o.call_last_min_cards, o.reply_allowed, o.compulsory_call_first_trick_30) == ("11/9/6/3/3", 3, True, True)
    assert (o.call_scoring, o.sp_karlchen_gefangen, o.sp_fuchs_last_trick, o.sp_herzstich) == ("double", True, False, False)
    assert (o.bock, o.bock_triggers, o.bock_stacking, o.counting) == (True, frozenset({"120_120", "schwarz"}), "multiply", "plus")


def test_freedoko_tournament_is_ddv_without_replies() -> None:
    # decision 0026 / dossier A-5: FreeDoko's tournament file is DDV but for the reply rule and the last-call limit
    ddv, fd = game().options, game("freedoko_tournament").options
    differing = {f for f in ddv.__dataclass_fields__ if getattr(ddv, f) != getattr(fd, f)}
    assert differing == {"reply_allowed", "call_last_min_cards"}
    assert (fd.reply_allowed, fd.call_last_min_cards) == (False, 5)


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
