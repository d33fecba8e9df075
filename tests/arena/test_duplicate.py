"""Duplicate matches: who plays which seat, determinism across workers, idle seats, bot specs, strength."""

from __future__ import annotations

import random
from typing import Any

import pytest

from stich.arena.duplicate import (
    ArenaResult,
    BotSpec,
    active_seats,
    arena_bot_seed,
    bot_labels,
    build_bot,
    parse_bot_spec,
    parse_bot_specs,
    run_duplicate,
)
from stich.arena.stats import mean_interval
from stich.bots import registry
from stich.bots.random_bot import RandomBot
from stich.core.game import Action, Game, Observation
from stich.core.records import replay_deal, validate_record
from stich.core.registry import make_game
from stich.core.rng import derive_seed
from stich.errors import OptionError


def _match(game: Game, deals: int, seed: int, workers: int, *refs: str) -> tuple[ArenaResult, list[dict[str, Any]]]:
    records: list[dict[str, Any]] = []
    result = run_duplicate(game, "heuristic", list(refs) or ["random"], deals, seed, workers, record_sink=records.extend)
    return result, records


@pytest.mark.parametrize(("game_name", "deals", "seed"), [("doppelkopf", 40, 2), ("tapp_tarock", 20, 1)])
def test_heuristic_beats_random_and_workers_do_not_change_the_result(game_name: str, deals: int, seed: int) -> None:
    game = make_game(game_name)
    one, records_one = _match(game, deals, seed, 1)
    two, records_two = _match(game, deals, seed, 2)
    assert one.workers == 1 and two.workers == 2
    assert one.deals == two.deals  # every score of every rotation
    assert records_one == records_two  # the same games, in the same order
    assert len(one.deals) == deals and [d.index for d in one.deals] == list(range(deals))
    # Seeded and rotated as documented; every seat is active at these tables.
    for deal in one.deals:
        assert deal.seed == derive_seed(seed, deal.index) and deal.dealer == deal.index % game.num_seats
        assert deal.pairings[0].seats == tuple(range(game.num_seats))
    assert one.games_played == deals * (game.num_seats + 1) == len(records_one)
    # The heuristic comes out ahead, with the whole 95 % interval above zero.
    interval = mean_interval(one.differences())
    assert interval.t is not None and interval.t[0] > 0
    assert one.timings["heuristic"].decisions > 0 and one.timings["random"].decisions > 0


def test_means_and_difference_come_from_the_rotations_and_the_baseline() -> None:
    game = make_game("doppelkopf")
    result, records = _match(game, 3, 9, 1)
    per_deal = game.num_seats + 1
    for deal in result.deals:
        games = records[deal.index * per_deal : (deal.index + 1) * per_deal]
        baseline, rotations = games[0], games[1:]
        assert baseline["meta"]["arena"]["role"] == "baseline" and baseline["meta"]["bots"] == ["random"] * 4
        pairing = deal.pairings[0]
        for seat, record, score in zip(pairing.seats, rotations, pairing.candidate_scores, strict=True):
            assert record["meta"]["arena"] == {
                "deal_index": deal.index,
                "candidate": "heuristic",
                "reference": "random",
                "role": "rotation",
                "rotation": seat,
            }
            assert record["meta"]["bots"] == ["heuristic" if s == seat else "random" for s in range(4)]
            assert record["result"]["scores"][seat] == score
            assert record["seed"] == deal.seed and record["dealer"] == deal.dealer
        assert list(pairing.reference_scores) == [baseline["result"]["scores"][s] for s in pairing.seats]
        assert pairing.candidate_mean == sum(pairing.candidate_scores) / 4
        assert pairing.difference == pytest.approx(pairing.candidate_mean - pairing.reference_mean)
    for record in records:
        validate_record(record)
        replay_deal(record)


def test_a_bot_against_itself_differs_by_exactly_zero() -> None:
    # The bot in a seat gets the same seed in the baseline and in every rotation.
    result = run_duplicate(make_game("doppelkopf"), "random", ["random", "heuristic"], 6, 4, 1)
    assert result.labels == ("random", "random#2", "heuristic")
    assert result.differences(0) == [0.0] * 6
    assert arena_bot_seed(4, 2, 1) == arena_bot_seed(4, 2, 1) != arena_bot_seed(4, 2, 2)


def test_idle_dealer_seats_are_left_out_of_the_rotation() -> None:
    # Five at a Doppelkopf table: the dealer gets no cards, so four rotations per deal.
    game = make_game("doppelkopf", None, {"players": 5})
    result, records = _match(game, 5, 3, 1)
    for deal in result.deals:
        assert deal.pairings[0].seats == tuple(s for s in range(5) if s != deal.dealer)
    assert result.games_played == 5 * (1 + 4) == len(records)
    state = game.new_state(seed=1, dealer=2)
    assert active_seats(state) == (0, 1, 3, 4)
    assert active_seats(make_game("droggn", None, {"players": 4}).new_state(seed=1, dealer=0)) == (1, 2, 3)


def test_two_references_make_two_pairings_on_the_same_deals() -> None:
    result, records = _match(make_game("tapp_tarock"), 4, 5, 1, "random", "heuristic")
    assert result.labels == ("heuristic", "random", "heuristic#2")
    assert [p.reference for p in result.deals[0].pairings] == ["random", "heuristic#2"]
    assert result.differences(1) == [0.0] * 4  # the heuristic against itself
    assert result.games_played == 4 * 2 * (3 + 1) == len(records)


# --------------------------------------------------------------------- bot specs
class OptionBot(RandomBot):
    """A random bot that takes options, standing in for the search bots (``pimc:time=0.5``)."""

    def __init__(self, game: Game, seat: int, seed: int, *, level: int = 1, time: float = 1.0, tag: str = "", fast: bool = False) -> None:
        if level < 0:
            raise ValueError(f"level must be at least 0, not {level}")
        super().__init__(game, seat, seed)
        self.options = {"level": level, "time": time, "tag": tag, "fast": fast}


@pytest.fixture
def option_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.BOTS, "optbot", f"{__name__}:OptionBot")


def test_bot_specs_parse_names_and_typed_options(option_bot: None) -> None:
    assert parse_bot_specs("heuristic, random") == [BotSpec("heuristic"), BotSpec("random")]
    specs = parse_bot_specs("optbot:level=3,time=0.5,tag=x1,fast=true,random")
    assert specs == [BotSpec("optbot", (("level", 3), ("time", 0.5), ("tag", "x1"), ("fast", True))), BotSpec("random")]
    assert specs[0].text == "optbot:level=3,time=0.5,tag=x1,fast=true"
    assert parse_bot_spec(specs[0].text) == specs[0]  # the text form round-trips
    bot = build_bot(specs[0], make_game("doppelkopf"), 2, 7)
    assert isinstance(bot, OptionBot) and bot.options == {"level": 3, "time": 0.5, "tag": "x1", "fast": True}
    assert bot_labels([BotSpec("random"), BotSpec("random"), BotSpec("heuristic"), BotSpec("random")]) == (
        "random",
        "random#2",
        "heuristic",
        "random#3",
    )


def test_a_bot_with_options_plays_a_match(option_bot: None) -> None:
    records: list[dict[str, Any]] = []
    result = run_duplicate(make_game("doppelkopf"), "optbot:level=2", ["random"], 2, 1, 1, record_sink=records.extend)
    assert result.labels == ("optbot:level=2", "random")
    assert records[1]["meta"]["bots"] == ["optbot:level=2", "random", "random", "random"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nobot,random", "unknown bot 'nobot'; available: random, heuristic"),
        (",random", "empty bot name"),
        ("heuristic:depth=2,random", "bot 'heuristic' has no option 'depth'; it takes no options"),
        ("optbot:speed=2", "bot 'optbot' has no option 'speed'; its options: level, time, tag, fast"),
        ("optbot:seed=2", "has no option 'seed'"),
        ("optbot:level", "expected key=value, got 'level'"),
        ("optbot:", "expected key=value options after ':'"),
        ("optbot:level=1,level=2", "option 'level' given twice"),
        ("level=1,random", "follows no bot"),
    ],
)
def test_bad_bot_specs_say_what_is_wrong(option_bot: None, text: str, message: str) -> None:
    with pytest.raises(OptionError, match="^.*" + message.replace("(", r"\(")):
        parse_bot_specs(text)


def test_bad_option_values_and_counts_fail_before_any_deal(option_bot: None) -> None:
    game = make_game("doppelkopf")
    with pytest.raises(OptionError, match="bot 'optbot:level=-1': level must be at least 0"):
        run_duplicate(game, "optbot:level=-1", ["random"], 1, 1)
    with pytest.raises(OptionError, match="at least one reference"):
        run_duplicate(game, "heuristic", [], 1, 1)
    with pytest.raises(OptionError, match="deals must be at least 1"):
        run_duplicate(game, "heuristic", ["random"], 0, 1)
    with pytest.raises(OptionError, match="workers must be at least 1"):
        run_duplicate(game, "heuristic", ["random"], 1, 1, 0)


# --------------------------------------------------------------------- reusing the baseline
_NOISE = random.Random(20261124)
"""Shared by every :class:`NoisyBot`: a repeat of a decision draws anew, as a time-budgeted search weighs other worlds."""


class NoisyBot:
    """A reference that does not repeat itself: a random legal action from a stream its seed does not fix."""

    name = "noisy"

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        self.seat = seat

    def choose(self, observation: Observation) -> Action:
        return _NOISE.choice(observation.legal_actions)


class FirstLegal:
    """A reference whose choice is a function of the observation alone."""

    name = "first"

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        self.seat = seat

    def choose(self, observation: Observation) -> Action:
        return observation.legal_actions[0]


@pytest.fixture
def reference_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.BOTS, "noisy", f"{__name__}:NoisyBot")
    monkeypatch.setitem(registry.BOTS, "first", f"{__name__}:FirstLegal")


def _first_differences(records: list[dict[str, Any]], seats: int) -> list[tuple[int, int]]:
    """(rotation seat, seat of the first action that differs from the baseline) of every rotation that differs at all."""
    out = []
    for start in range(0, len(records), seats + 1):
        baseline, rotations = records[start], records[start + 1 : start + 1 + seats]
        for record in rotations:
            pairs = zip(record["actions"], baseline["actions"], strict=False)
            index = next((i for i, (mine, theirs) in enumerate(pairs) if mine != theirs), None)
            if index is not None:
                out.append((record["meta"]["arena"]["rotation"], record["actions"][index][0]))
    return out


def test_reusing_the_baseline_leaves_the_first_difference_to_the_candidate(reference_bots: None) -> None:
    # docs/arena.md, "Reusing the baseline": a reference that does not repeat itself departs from the baseline in
    # the rotations on its own; with reuse it replays the baseline until the candidate plays something else.
    game = make_game("doppelkopf")
    plain: list[dict[str, Any]] = []
    run_duplicate(game, "heuristic", ["noisy"], 4, 6, record_sink=plain.extend)
    assert any(seat != mover for seat, mover in _first_differences(plain, 4))
    reused: list[dict[str, Any]] = []
    result = run_duplicate(game, "heuristic", ["noisy"], 4, 6, record_sink=reused.extend, reuse_baseline=True)
    assert result.reuse_baseline
    firsts = _first_differences(reused, 4)
    assert firsts and all(seat == mover for seat, mover in firsts)
    for record in reused:
        replay_deal(record)


def test_reusing_the_baseline_changes_nothing_for_a_repeatable_reference_but_its_time(reference_bots: None) -> None:
    game = make_game("tapp_tarock")
    plain: list[dict[str, Any]] = []
    reused: list[dict[str, Any]] = []
    one = run_duplicate(game, "heuristic", ["first"], 5, 2, record_sink=plain.extend)
    two = run_duplicate(game, "heuristic", ["first"], 5, 2, record_sink=reused.extend, reuse_baseline=True)
    assert one.deals == two.deals and plain == reused
    assert not one.reuse_baseline and two.reuse_baseline
    # The candidate decides everywhere in both; the reference's replayed decisions are not made (nor timed) again.
    assert one.timings["heuristic"].decisions == two.timings["heuristic"].decisions
    assert 0 < two.timings["first"].decisions < one.timings["first"].decisions
