"""Display hooks (hand order, trick points, result in words) and the command line with Dappen."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest
from rich.console import Console

from stich.cards import parse_cards
from stich.cli.main import main
from stich.cli.play import run_play

from .helpers import begin_play, deal, game, play, solo
from .test_rules_play import GSTIESS_ALONE, KEEPER_WINS_PENULTIMATE


def test_hand_groups_trumps_then_suits_high_to_low() -> None:
    # §1: trumps from the Gstieß down; each suit from the king down, the red 1 above the red 4
    groups = game().hand_groups(parse_cards("H4 T1 CK H1 T22 C7 HK D2 T20"), {})
    assert [[c.text for c in g] for g in groups] == [["T22", "T20", "T1"], ["CK", "C7"], ["HK", "H1", "H4"], ["D2"]]


def test_trick_points_are_face_points() -> None:
    # §1: face values of a trick (the pair count comes at the end)
    assert game().trick_points(parse_cards("T22 CK CQ C7 H1 T5")) == 5 + 5 + 4 + 1 + 1 + 1


def test_describe_result_in_words() -> None:
    # §7 / §8: the evaluation in words: piles, winner, difference, factor, payment
    state = begin_play(solo(deal(game(), KEEPER_WINS_PENULTIMATE), 0))
    play(state, "T21 C9 S8 H3 D3 T13 T20 C10 S9 H2 D2 T14 T19 SQ S10 H1 D1 T15 T18 CQ SJ HJ DJ T16 T17 SK SC HC DC C8")
    play(state, "C7 CK CJ HQ DQ H4 CC HK DK D4 S7 T22")
    lines = game().describe_result(state.result().to_json())
    text = "\n".join(lines)
    assert "Game: Solo, lone player seat 0" in text
    assert "= 48 counted in pairs" in text and "= 31" in text
    assert "Difference to 40: 9; value 10 x factor 2 -> 20 cents per opponent" in text


def test_cli_rules_sim_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the command line works through the registry: rules, sim with records, replay, lists
    assert main(["rules", "dappen"]) == 0
    out = tmp_path / "dappen.jsonl"
    assert main(["sim", "dappen", "--games", "20", "--seed", "1", "--out", str(out)]) == 0
    assert main(["replay", str(out)]) == 0
    assert main(["sim", "dappen", "--lists", "--games", "2", "--seed", "1", "--preset", "buchenbach"]) == 0
    assert main(["sim", "dappen", "--games", "5", "--seed", "3", "--bots", "heuristic", "--players", "8"]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err


def test_cli_play_scripted() -> None:
    # a scripted terminal game (always the first choice) runs to its end without a traceback
    answers = itertools.repeat("1")
    console = Console(file=io.StringIO(), width=120, force_terminal=False)
    status = run_play(game(), seat=0, bots=["heuristic"] * 6, seed=6, deals=2, input_fn=lambda _prompt: next(answers), console=console)
    assert status == 0
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Evaluation" in text and "Game over" in text


def test_gstiess_alone_deal_is_playable_from_the_terminal_view() -> None:
    # observations carry what the terminal shows: the lone player and the tricks
    state = begin_play(solo(deal(game(), GSTIESS_ALONE), 0))
    obs = state.observation(3)
    assert obs.public["lone"] == 0 and obs.public["kind"] == "solo" and obs.phase == "play"
