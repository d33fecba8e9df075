"""OpenSpiel's utility bounds hold for every preset, and unlimited Retours are capped (issue 41, item 4).

Largest score changes seen in 300 random deals per preset (every seat
playing uniformly random legal actions): Doppelkopf 204
(house_classic), Tapp Tarock 1,409 (kruepl), Dappen 400; before the
Schwacher / Retour doubling Dobbm 360 (high_stake) and Droggn 378 (pack78),
while the doubled scores reached 1.4 billion (kroesbacher, 22 doublings).
:data:`stich.rl.bounds.UNDOUBLED_BOUND` keeps at least five times these.
"""

from __future__ import annotations

import random

import pyspiel
import pytest

from stich.core.registry import game_class, game_names, make_game
from stich.rl.bounds import RETOUR_CAP, UNDOUBLED_BOUND, retour_limit, utility_bound, with_retour_cap
from stich.rl.ids import registered_ids
from stich.rl.openspiel_game import config_of, load, short_name

PRESETS = [(name, preset) for name in game_names() for preset in game_class(name).option_table.presets]


@pytest.mark.parametrize("env_id", registered_ids())
def test_openspiel_random_sim_test_on_every_preset(env_id: str) -> None:
    pyspiel.random_sim_test(load(env_id), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "preset"), PRESETS)
def test_random_deals_stay_inside_the_openspiel_bounds(name: str, preset: str) -> None:
    # Random play doubles often: Dobbm and Droggn deals run into the Retour cap, and still stay inside
    game = pyspiel.load_game(short_name(name), {"preset": preset})
    engine_game = config_of(game).game
    bound = game.max_utility()
    assert game.min_utility() == -bound and bound == utility_bound(engine_game)
    rng = random.Random(f"{name}-{preset}")
    deals = 25 if retour_limit(engine_game) is None else 60
    worst, capped = 0, 0
    for _ in range(deals):
        state = engine_game.new_state(seed=rng.getrandbits(64), dealer=rng.randrange(engine_game.num_seats))
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_codes()))
        worst = max(worst, *(abs(s) for s in state.result().scores))
        capped += getattr(state, "doubles", 0) == 1 + RETOUR_CAP
    assert worst <= bound
    if retour_limit(engine_game) is not None:
        assert capped > 0, "random play never reached the cap: the test does not test it"


def test_unlimited_retours_have_no_bound_and_openspiel_caps_them() -> None:
    # §5.3 (Dobbm, Droggn): retour_limit=0 means no limit, so no score bound holds; the adapter caps the Retours
    for name in ("dobbm", "droggn"):
        unlimited = make_game(name)
        assert retour_limit(unlimited) == 0 and utility_bound(unlimited) is None
        capped = with_retour_cap(unlimited)
        assert retour_limit(capped) == RETOUR_CAP
        assert utility_bound(capped) == UNDOUBLED_BOUND[name] * 2 ** (1 + RETOUR_CAP)
        assert config_of(pyspiel.load_game(short_name(name))).game == capped
        chosen = pyspiel.load_game(short_name(name), {"options": "retour_limit:2"})
        assert retour_limit(config_of(chosen).game) == 2 and chosen.max_utility() == UNDOUBLED_BOUND[name] * 8
    game = make_game("doppelkopf")
    assert with_retour_cap(game) is game and utility_bound(game) == UNDOUBLED_BOUND["doppelkopf"]
