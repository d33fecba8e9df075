"""The ``ismcts`` bot's per-game tuned defaults (``tuned`` option, :data:`stich.bots.ismcts.TUNED`).

docs/decisions/0021-tuned-ismcts-defaults.md: where a variant measured
better against ``pimc`` than plain ISMCTS, a bare ``ismcts`` spec plays it;
``tuned=false`` plays plain ISMCTS, and an option given in the spec wins.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.bots.ismcts import PLAIN, TUNED, IsmctsBot, Tuning, make_ismcts
from stich.core.registry import make_game
from stich.errors import OptionError

LADDER = Path(__file__).resolve().parents[2] / "docs" / "ladder"

BUDGET_OPTIONS = frozenset({"level", "time", "simulations", "calls", "call_worlds"})
"""Options of a ladder run's candidate that set its budget or its calls, not the variant."""


def _variant(bot: IsmctsBot) -> dict[str, object]:
    """What a bot's variant options came out as, read from the bot and its search."""
    return {
        "rollout": bot.rollout_kind,
        "paired": bot.paired,
        "others": "heuristic" if bot.search.others is not None else "tree",
        "eager": bot.search.eager,
        "defend": bot.defend,
        "draw_share": bot.search.draw_share,
    }


def _changed(tuning: Tuning) -> dict[str, object]:
    """The options in which ``tuning`` differs from plain ISMCTS."""
    return {
        field.name: getattr(tuning, field.name)
        for field in dataclasses.fields(tuning)
        if field.name != "run" and getattr(tuning, field.name) != getattr(PLAIN, field.name)
    }


def test_a_bare_spec_plays_the_tuned_variant_in_dobbm() -> None:
    bot = build_bot(parse_bot_spec("ismcts:simulations=20"), make_game("dobbm"), 0, 1)
    assert isinstance(bot, IsmctsBot)
    assert _variant(bot) == {
        "rollout": "kernel-heuristic",
        "paired": True,
        "others": "heuristic",
        "eager": True,
        "defend": "tree",
        "draw_share": None,  # draw_share=1: no limit
    }


def test_a_bare_spec_plays_the_tuned_variant_in_droggn() -> None:
    bot = make_ismcts(make_game("droggn"), 0, 1, simulations=20)
    assert _variant(bot) == {
        "rollout": "heuristic",
        "paired": True,
        "others": "heuristic",
        "eager": True,
        "defend": "careful",
        "draw_share": None,
    }


def test_tuned_false_plays_plain_ismcts() -> None:
    """``tuned=false`` gives the plain defaults, the same bot as in a game without tuning."""
    dobbm = make_ismcts(make_game("dobbm"), 0, 1, simulations=20, tuned=False)
    assert _variant(dobbm) == {
        "rollout": "mixed",
        "paired": False,
        "others": "tree",
        "eager": False,
        "defend": "tree",
        "draw_share": 0.3,  # Dobbm's DRAW_SHARES entry under draw_share=auto
    }
    droggn = make_ismcts(make_game("droggn"), 0, 1, simulations=20, tuned=False)
    assert (droggn.paired, droggn.defend, droggn.search.others, droggn.search.eager) == (False, "tree", None, False)


@pytest.mark.parametrize("name", ["doppelkopf", "tapp_tarock", "dappen"])
def test_games_without_tuning_play_plain_ismcts_either_way(name: str) -> None:
    assert name not in TUNED
    game = make_game(name)
    assert _variant(make_ismcts(game, 0, 1, simulations=20)) == _variant(make_ismcts(game, 0, 1, simulations=20, tuned=False))


def test_an_option_in_the_spec_wins_over_the_tuned_value() -> None:
    game = make_game("dobbm")
    bot = make_ismcts(game, 0, 1, simulations=20, rollout="mixed", others="tree")
    assert (bot.rollout_kind, bot.search.others, bot.paired, bot.search.eager) == ("mixed", None, True, True)
    on_plain = make_ismcts(game, 0, 1, simulations=20, tuned=False, paired=True, switch="eager")
    assert (on_plain.paired, on_plain.search.eager, on_plain.search.others) == (True, True, None)


def test_paired_false_turns_the_tuned_eager_switch_off_instead_of_failing() -> None:
    """``switch=eager`` needs paired sweeps: a tuned eager switch yields to ``paired=false``; one given in the spec is refused."""
    game = make_game("droggn")
    bot = make_ismcts(game, 0, 1, simulations=20, paired=False)
    assert (bot.paired, bot.search.eager, bot.defend) == (False, False, "careful")
    with pytest.raises(OptionError, match="switch=eager needs paired=true"):
        make_ismcts(game, 0, 1, simulations=20, paired=False, switch="eager")


@pytest.mark.parametrize("bad", ["yes", 1, None])
def test_a_bad_tuned_value_is_named(bad: object) -> None:
    with pytest.raises(OptionError, match="tuned must be true or false"):
        make_ismcts(make_game("dobbm"), 0, 1, simulations=20, tuned=bad)  # type: ignore[arg-type]


def test_a_tuned_spec_is_refused_by_name_when_misspelt() -> None:
    with pytest.raises(OptionError, match="tuned must be true or false"):
        build_bot(parse_bot_spec("ismcts:simulations=5,tuned=maybe"), make_game("dobbm"), 0, 1)


@pytest.mark.parametrize("name", sorted(TUNED))
def test_each_tuning_is_the_variant_of_its_ladder_run(name: str) -> None:
    """A game's tuned defaults are exactly the options of the kept run they cite, so the docs' numbers are this bot's."""
    tuning = TUNED[name]
    runs = sorted(LADDER.glob(f"{name}__ismcts-*-{tuning.run}.json"))
    assert len(runs) == 1, f"{name}: expected one kept run named {tuning.run!r} in {LADDER}, found {runs}"
    result = json.loads(runs[0].read_text())
    candidate = parse_bot_spec(result["candidate"])
    assert candidate.name == "ismcts"
    assert result["pairings"][0]["reference"].startswith("pimc:")
    variant = {key: value for key, value in candidate.options if key not in BUDGET_OPTIONS}
    assert variant == _changed(tuning)
