"""The one-line reasons of a costly decision (stich.analysis.reasons): each checked against the deal itself."""

from __future__ import annotations

import random

from stich.analysis import prepare
from stich.analysis.engine import DecisionAnalyst
from stich.analysis.reasons import better_in, partner_void, trick_lost
from stich.bots.heuristic import make_heuristic
from stich.bots.samplers import prepare_sampler
from stich.core.registry import game_from_string
from stich.core.tricks import TRUMP
from stich.games.tapp_tarock.pack import ORDER
from stich.search.perfect_info import in_trick_play, teams

from ._blunder import blunder_deal


def test_a_trick_given_away_is_named_with_the_card_that_wins_it() -> None:
    # The blunder deal's seat plays last to a trick it could take: in every world the better card wins it.
    record, seat, index, _, best = blunder_deal(game_from_string("doppelkopf"))
    prepared = prepare(record, seat)
    number = next(i for i, (position, _, _) in enumerate(prepared.points) if position == index)
    _, before, action = prepared.points[number]
    analyst = DecisionAnalyst(prepared.final.game, seat, 0, 6, prepared.final, record["result"])
    observation = before.observation(seat)
    worlds = analyst.worlds(observation, index)
    trick = sum(1 for t in observation.tricks if t.winner is not None)
    better = before.to_action(best)
    reason = trick_lost(seat, trick, action, better, prepared.final, worlds, analyst.players)
    assert reason is not None
    assert f"{best.split()[1]} wins it in 6 of 6 worlds" in reason["en"] and "in 6 von 6 Welten" in reason["de"]
    # The card that lost it is never given as the reason's winner: swapped, there is nothing to say.
    assert trick_lost(seat, trick, better, action, prepared.final, worlds, analyst.players) is None


def test_a_lead_into_the_partners_void_is_named_only_where_the_partner_is_void() -> None:
    # Tapp Tarock's defenders are partners; a defender who did not follow a suit is void in it in every world.
    game = game_from_string("tapp_tarock")
    named = 0
    for seed in range(60):
        bots = [make_heuristic(game, s, seed) for s in range(game.num_seats)]
        state = game.new_state(seed=seed, dealer=seed % game.num_seats)
        while not state.is_terminal():
            seat = state.current_player()
            observation = state.observation(seat)
            current = observation.tricks[-1] if observation.tricks else None
            leading = in_trick_play(state) and not (current is not None and current.winner is None and current.cards)
            side = teams(state)
            partners = [p for p in range(game.num_seats) if p != seat and side[p] == side[seat]]
            if leading and partners and len(state.legal_codes()) > 1:
                sampler = prepare_sampler(game, observation)
                rng = random.Random(seed)
                worlds = [sampler.sample(rng) for _ in range(4)]
                for action in observation.legal_actions:
                    reason = partner_void(seat, state, action, worlds)
                    if reason is None:
                        continue
                    named += 1
                    face = action.text.split()[1]
                    suit = next(ORDER.eff[i] for i in range(len(ORDER.eff)) if game.deck.card(i).text == face)
                    assert suit != TRUMP
                    # True of the real deal too: the partner holds no card of the suit (the worlds only draw what fits the seat's view).
                    assert not any(state.hand_mask(p) & ORDER.follow[suit] for p in partners), reason
                    assert reason["de"] and face in reason["en"]
            state.apply(bots[seat].choose(observation))
        if named >= 3:
            break
    assert named, "no lead into a partner's void in 60 deals"


def test_without_a_named_cause_the_reason_counts_the_worlds() -> None:
    game = game_from_string("dobbm")
    played, best = game.actions.actions[0], game.actions.actions[1]
    reason = better_in(played, best, [2.0, 0.0, -1.0, 3.0, 4.0])
    assert reason is not None
    assert reason["en"] == f"{best.text} scores more than {played.text} in 3 of 5 worlds, less in 1."
    assert reason["de"] == f"{best.text} bringt in 3 von 5 Welten mehr als {played.text}, in 1 weniger."
    assert better_in(played, best, []) is None
