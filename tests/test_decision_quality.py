"""tools/decision_quality.py: card-play decisions screened on the true deal against a continuation policy."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.core.game import Game, Observation
from stich.core.registry import make_game
from stich.core.rng import derive_seed
from stich.search.scores import score_value

TOOL = Path(__file__).resolve().parents[1] / "tools" / "decision_quality.py"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("decision_quality", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the tool is loaded
    spec.loader.exec_module(module)
    return module


def _dobbm() -> Game:
    return make_game("dobbm", options={"retour_limit": 2})


def test_the_line_card_is_worth_the_line_score(tool: ModuleType) -> None:
    """Valuing the continuation's own card replays the line: its value is the seat's final score of the deal."""
    game = _dobbm()
    spec = parse_bot_spec("heuristic")
    state = game.new_state(seed=derive_seed(5, 0), dealer=0)
    bots = [build_bot(spec, game, s, s) for s in range(game.num_seats)]
    checked = []
    while not state.is_terminal():
        codes = state.legal_codes()
        seat = state.current_player()
        code = codes[0] if len(codes) == 1 else bots[seat].choose(state.observation(seat)).code
        if tool.is_screened(state, len(codes)):
            checked.append((seat, tool.value_after(state, code, seat, bots)))
        state.apply(code)
    assert len(checked) > 10
    final = state.result().scores
    assert all(value == score_value(final[seat]) for seat, value in checked)


def test_the_heuristic_never_leaves_the_heuristic_line(tool: ModuleType) -> None:
    decisions = tool.screen_deal(_dobbm(), [("h", parse_bot_spec("heuristic"))], parse_bot_spec("heuristic"), 3, 0)
    assert decisions
    assert all(d.picks["h"] == d.line and d.gains["h"] == 0.0 for d in decisions)
    assert {d.side for d in decisions} <= {"declarer", "defender"}
    assert all(d.legal > 1 and d.line.startswith("play ") for d in decisions)


def test_a_gain_is_the_value_of_the_pick_minus_the_line_card(tool: ModuleType) -> None:
    """Recomputed by hand for the random bot's cards: replay the line up to each decision and value both cards."""
    game = _dobbm()
    seed, deal = 11, 1
    decisions = tool.screen_deal(game, [("r", parse_bot_spec("random"))], parse_bot_spec("heuristic"), seed, deal)
    left = [d for d in decisions if d.picks["r"] != d.line]
    assert left, "the random bot should leave the heuristic's card somewhere"
    assert all(d.gains["r"] == 0.0 for d in decisions if d.picks["r"] == d.line)
    spec = parse_bot_spec("heuristic")
    bots = [build_bot(spec, game, s, derive_seed(derive_seed(seed, deal), 100 + s)) for s in range(game.num_seats)]
    state = game.new_state(seed=derive_seed(seed, deal), dealer=deal % game.num_seats)
    by_text = game.actions.by_text
    pending = iter(decisions)
    current = next(pending)
    seen = 0
    while not state.is_terminal():
        codes = state.legal_codes()
        seat = state.current_player()
        line = codes[0] if len(codes) == 1 else bots[seat].choose(state.observation(seat)).code
        if tool.is_screened(state, len(codes)):
            assert (seat, game.actions.actions[line].text) == (current.seat, current.line)
            pick = by_text[current.picks["r"]].code
            expected = tool.value_after(state, pick, seat, bots) - tool.value_after(state, line, seat, bots)
            assert current.gains["r"] == expected
            seen += 1
            current = next(pending, current)
        state.apply(line)
    assert seen == len(decisions)


def test_tested_bots_see_observations_only(tool: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[object] = []

    class Spy:
        def __init__(self, inner: object) -> None:
            self.inner = inner

        def choose(self, observation: object) -> object:
            seen.append(observation)
            return self.inner.choose(observation)  # type: ignore[attr-defined]

    real = tool.build_bot

    def spying(spec, game, seat, seed):  # type: ignore[no-untyped-def]
        bot = real(spec, game, seat, seed)
        return Spy(bot) if spec.name == "random" else bot

    monkeypatch.setattr(tool, "build_bot", spying)
    decisions = tool.screen_deal(_dobbm(), [("r", parse_bot_spec("random"))], parse_bot_spec("heuristic"), 2, 0)
    assert len(seen) == len(decisions) > 0
    assert all(isinstance(obs, Observation) for obs in seen)


def test_summary_counts_every_deal_and_pairs_the_bots(tool: ModuleType) -> None:
    D = tool.Decision
    decisions = [
        D(0, 0, "declarer", 3, "play A", {"a": "play B", "b": "play A"}, {"a": 4.0, "b": 0.0}),
        D(0, 1, "defender", 2, "play C", {"a": "play C", "b": "play D"}, {"a": 0.0, "b": -2.0}),
        D(1, 2, "defender", 2, "play E", {"a": "play F", "b": "play F"}, {"a": 1.0, "b": 1.0}),
    ]
    rows = {row["group"]: row for row in tool.summarize(decisions, ["a", "b"], [0, 1, 2, 3])}
    assert set(rows) == {"all", "declarer", "defender"}
    everything = {bot["bot"]: bot for bot in rows["all"]["bots"]}
    assert everything["a"]["gain_per_deal"]["n"] == 4  # deals without a decision count as 0
    assert everything["a"]["gain_per_deal"]["mean"] == pytest.approx(5.0 / 4)
    assert everything["b"]["gain_per_deal"]["mean"] == pytest.approx(-1.0 / 4)
    assert everything["a"]["left_line"] == pytest.approx(2 / 3)
    assert everything["a"]["gain_per_decision"] == pytest.approx(5.0 / 3)
    (pair,) = rows["all"]["pairs"]
    assert pair["difference_per_deal"]["mean"] == pytest.approx(6.0 / 4)
    defence = {bot["bot"]: bot for bot in rows["defender"]["bots"]}
    assert rows["defender"]["decisions"] == 2
    assert defence["b"]["gain_per_deal"]["mean"] == pytest.approx(-1.0 / 4)


def test_command_line_writes_json_and_names_bad_input(tool: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "q.json"
    args = ["dobbm", "--option", "retour_limit=2", "--bots", "heuristic,random", "--deals", "2", "--json", str(out)]
    assert tool.main(args) == 0
    data = json.loads(out.read_text())
    assert data["decisions"] and {"summary", "decisions"} == set(data)
    assert "heuristic - random" in capsys.readouterr().out
    assert tool.main(["dobbm", "--bots", "nosuchbot"]) == 2
    assert "nosuchbot" in capsys.readouterr().err
    assert tool.main(["dobbm", "--bots", "heuristic", "--deals", "0"]) == 2
    assert "--deals" in capsys.readouterr().err
