"""tools/strength_ladder.py: ``keep`` stores compact match results and ``render`` writes the table from them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from stich.arena.duplicate import DealOutcome, PairingDeal
from stich.cli.main import main as stich

TOOL = Path(__file__).resolve().parents[1] / "tools" / "strength_ladder.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength_ladder", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _outcomes(deals: int, reference: str) -> list[dict[str, Any]]:
    """Deal outcomes in the arena's own JSON form: three rotations, the candidate 1 point ahead on every odd deal."""
    return [DealOutcome(i, 1000 + i, i % 3, (PairingDeal(reference, (0, 1, 2), (i % 2, 0, 0), (0, 0, 0)),)).to_json() for i in range(deals)]


def _result(game: str, candidate: str, reference: str, mean: float, low: float, high: float, deals: int) -> dict[str, object]:
    return {
        "command": f"stich arena {game} --bots {candidate},{reference} --deals {deals} --seed 1 --workers 2 --out /tmp/x/{game}__m",
        "game": f"{game}(preset=p)",
        "candidate": candidate,
        "references": [reference],
        "seconds": 12.0,
        "workers": 2,
        "pairings": [
            {
                "candidate": candidate,
                "reference": reference,
                "deals": deals,
                "difference": {"mean": mean, "ci_t": [low, high]},
                "outcomes": {"win_rate": 0.5},
                "elo_difference": 10.0,
            }
        ],
        "timing": {candidate: {"mean_ms": 40.0, "max_ms": 90.0}},
        "deal_outcomes": _outcomes(deals, reference),
    }


def test_keep_compacts_the_deals_and_render_reads_the_copies(tmp_path: Path) -> None:
    tool = _tool()
    runs = tmp_path / "runs"
    for name, data in {
        "tapp_tarock__ismcts__vs__pimc": _result("tapp_tarock", "ismcts:level=1", "pimc:level=1", 0.3, 0.1, 0.5, 1000),
        "doppelkopf__pimc__vs__heuristic": _result("doppelkopf", "pimc:level=1", "heuristic", -0.1, -0.3, 0.1, 1000),
        "dobbm__ismcts__vs__pimc": _result("dobbm", "ismcts:level=1", "pimc:level=1", 0.4, 0.2, 0.6, 200),
    }.items():
        (runs / name).mkdir(parents=True)
        (runs / name / "results.json").write_text(json.dumps(data), encoding="utf-8")
    kept = tmp_path / "kept"
    assert tool.main(["keep", str(runs), "--into", str(kept)]) == 0
    copies = sorted(kept.glob("*.json"))
    assert [p.stem for p in copies] == ["dobbm__ismcts__vs__pimc", "doppelkopf__pimc__vs__heuristic", "tapp_tarock__ismcts__vs__pimc"]
    assert all("deal_outcomes" not in json.loads(p.read_text(encoding="utf-8")) for p in copies)
    compact = json.loads(copies[0].read_text(encoding="utf-8"))["deal_differences"]
    assert compact == {"version": 1, "indices": [[0, 200]], "rotations": 3, "difference_sums": [[i % 2 for i in range(200)]]}
    # A copy kept before the compact form existed renders as before, beside the new ones.
    old = json.loads(copies[0].read_text(encoding="utf-8"))
    del old["deal_differences"]
    copies[0].write_text(json.dumps(old), encoding="utf-8")

    doc = tmp_path / "strength.md"
    doc.write_text("intro\n<!-- ladder-table:start -->\nold\n<!-- ladder-table:end -->\nafter\n", encoding="utf-8")
    assert tool.main(["render", str(kept), "--output", str(doc)]) == 0
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("intro\n") and text.endswith("after\n") and "old" not in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and "preset=p" in line]
    # Games in ladder order (doppelkopf, tapp_tarock, dobbm), each row judged by its interval and deal count.
    assert [row.split(" | ")[0] for row in rows] == ["| doppelkopf(preset=p)", "| tapp_tarock(preset=p)", "| dobbm(preset=p)"]
    assert rows[0].endswith("| no | – |") and rows[1].endswith("| yes | – |") and rows[2].endswith("| (only 200 deals) | – |")
    assert "--out ladder/tapp_tarock__m   # 12 s with 2 workers" in text


def test_a_suffix_given_to_keep_labels_the_row(tmp_path: Path) -> None:
    tool = _tool()
    run = tmp_path / "runs" / "dobbm__m"
    run.mkdir(parents=True)
    data = _result("dobbm", "pimc:level=1", "heuristic", 1.0, 0.5, 1.5, 1000)
    data["out"] = str(run)
    (run / "results.json").write_text(json.dumps(data), encoding="utf-8")
    assert tool.main(["keep", str(tmp_path / "runs"), "--into", str(tmp_path / "kept"), "--suffix=-2-call-reading"]) == 0
    assert tool.main(["render", str(tmp_path / "kept"), "--output", str(tmp_path / "s.md")]) == 0
    row = next(line for line in (tmp_path / "s.md").read_text(encoding="utf-8").splitlines() if line.startswith("| dobbm"))
    assert row.endswith("| yes | 2-call-reading |")


def test_run_plays_each_match_and_passes_reuse_baseline(tmp_path: Path) -> None:
    tool = _tool()
    out = tmp_path / "ladder"
    match = ["--games", "tapp_tarock", "--rungs", "heuristic>random", "--deals", "2", "--workers", "1"]
    status = tool.main(["run", *match, "--out", str(out), "--reuse-baseline"])
    assert status == 0
    results = json.loads((out / "tapp_tarock__heuristic__vs__random" / "results.json").read_text(encoding="utf-8"))
    assert results["reuse_baseline"] is True and results["deals"] == 2
    assert results["command"].endswith(f"--reuse-baseline --out {out / 'tapp_tarock__heuristic__vs__random'}")


def test_run_resume_keeps_finished_matches_and_goes_on_with_stopped_ones(tmp_path: Path) -> None:
    tool = _tool()
    out = tmp_path / "ladder"
    match = ["--games", "tapp_tarock", "--rungs", "heuristic>random", "--workers", "1", "--out", str(out)]
    folder = out / "tapp_tarock__heuristic__vs__random"
    assert tool.main(["run", *match, "--deals", "2"]) == 0
    first = (folder / "results.json").read_bytes()
    assert tool.main(["run", *match, "--deals", "2", "--resume"]) == 0
    assert (folder / "results.json").read_bytes() == first  # finished: kept, not played again
    assert tool.main(["run", *match, "--deals", "4", "--resume"]) == 0
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    assert results["deals"] == 4 and [p["first_deal"] for p in results["parts"]] == [0, 2]
    assert tool.main(["render", str(out), "--output", str(tmp_path / "s.md")]) == 0
    assert "--deals 4 --seed 1 --workers 1 --out ladder/tapp_tarock__heuristic__vs__random   # " in (tmp_path / "s.md").read_text()
    assert " s with 1 workers in 2 runs (--resume)" in (tmp_path / "s.md").read_text()
    assert tool.main(["run", *match, "--deals", "5"]) == 0  # without --resume a finished match is played again from the start
    assert [p["first_deal"] for p in json.loads((folder / "results.json").read_text(encoding="utf-8"))["parts"]] == [0]


def test_keep_stores_each_deal_difference_exactly(tmp_path: Path) -> None:
    """A real match with two references: every deal's difference is its kept sum over its rotations, to the last bit."""
    tool = _tool()
    folder = tmp_path / "runs" / "tapp_tarock__m"
    argv = ["arena", "tapp_tarock", "--bots", "heuristic,random,pimc:worlds=1", "--deals", "5", "--seed", "2", "--workers", "1"]
    assert stich([*argv, "--out", str(folder)]) == 0
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    assert tool.main(["keep", str(tmp_path / "runs"), "--into", str(tmp_path / "kept")]) == 0
    text = (tmp_path / "kept" / "tapp_tarock__m.json").read_text(encoding="utf-8")
    copy = json.loads(text)
    compact = copy.pop("deal_differences")
    assert copy == {key: value for key, value in results.items() if key != "deal_outcomes"}
    assert compact["indices"] == [[0, 5]] and compact["rotations"] == 3
    kept = [[total / 3 for total in sums] for sums in compact["difference_sums"]]
    full = [[deal["pairings"][j]["difference"] for deal in results["deal_outcomes"]] for j in range(2)]
    assert kept == full  # exact: the sums are whole numbers
    assert any(d != round(d) for d in full[0])  # thirds: differences rounded to a few decimals would not be equal
    assert '"indices": [[0,5]],' in text and len(text.splitlines()) < 200  # each list on one line
    assert tool.main(["render", str(tmp_path / "kept"), "--output", str(tmp_path / "s.md")]) == 0


def test_keep_varied_rotations_and_gaps(tmp_path: Path) -> None:
    tool = _tool()
    deals = [
        DealOutcome(0, 1, 0, (PairingDeal("r", (0, 1, 2), (3, 1, 0), (0, 0, 0)),)),
        DealOutcome(1, 2, 1, (PairingDeal("r", (0, 2), (1, -1), (2, 0)),)),
        DealOutcome(4, 3, 0, (PairingDeal("r", (0, 1, 2), (0, 0, 0), (1, 1, 1)),)),
    ]
    compact = tool.deal_differences([d.to_json() for d in deals], 1, "x")
    assert compact == {"version": 1, "indices": [[0, 2], [4, 5]], "rotations": [3, 2, 3], "difference_sums": [[4, -2, -3]]}


def test_keep_names_the_deal_it_cannot_read(tmp_path: Path) -> None:
    tool = _tool()
    run = tmp_path / "runs" / "m"
    run.mkdir(parents=True)
    data = _result("dobbm", "pimc:level=1", "heuristic", 1.0, 0.5, 1.5, 3)
    data["deal_outcomes"][1]["pairings"][0]["candidate_scores"] = [1, "x", 0]  # type: ignore[index]
    (run / "results.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SystemExit, match=r"results\.json deal_outcomes\[1\]\.pairings\[0\]"):
        tool.main(["keep", str(tmp_path / "runs"), "--into", str(tmp_path / "kept")])


def _kept_pair(tmp_path: Path) -> tuple[ModuleType, Path]:
    """Two kept Tapp Tarock runs of the pimc rung (labels 1-old and 2-new) and one of the heuristic rung, in ``kept``."""
    tool = _tool()
    for label, mean, low, high in (("-1-old", 0.2, -0.1, 0.5), ("-2-new", 1.5, 1.3, 1.7)):
        run = tmp_path / "runs" / label / "tapp_tarock__pimc-level1__vs__heuristic"
        run.mkdir(parents=True)
        data = _result("tapp_tarock", "pimc:level=1", "heuristic", mean, low, high, 1000)
        data["out"] = str(run)
        (run / "results.json").write_text(json.dumps(data), encoding="utf-8")
        assert tool.main(["keep", str(run.parent), "--into", str(tmp_path / "kept"), f"--suffix={label}"]) == 0
    run = tmp_path / "runs" / "h" / "tapp_tarock__heuristic__vs__random"
    run.mkdir(parents=True)
    data = _result("tapp_tarock", "heuristic", "random", 46.0, 43.0, 49.0, 1000)
    data["out"] = str(run)
    (run / "results.json").write_text(json.dumps(data), encoding="utf-8")
    assert tool.main(["keep", str(run.parent), "--into", str(tmp_path / "kept")]) == 0
    return tool, tmp_path / "kept"


def test_standings_show_the_run_each_rung_stands_on(tmp_path: Path) -> None:
    tool, kept = _kept_pair(tmp_path)
    standings = {
        "tapp_tarock": {"heuristic": "tapp_tarock__heuristic__vs__random", "pimc": "tapp_tarock__pimc-level1__vs__heuristic-2-new"}
    }
    (kept / "standings.json").write_text(json.dumps(standings), encoding="utf-8")
    doc = tmp_path / "strength.md"
    doc.write_text("intro\n<!-- standings:start -->\nstale\n<!-- standings:end -->\nmiddle\n", encoding="utf-8")
    assert tool.main(["render", str(kept), "--output", str(doc)]) == 0
    text = doc.read_text(encoding="utf-8")
    block = text[text.index("<!-- standings:start -->") : text.index("<!-- standings:end -->")]
    assert "stale" not in block and text.index("<!-- standings:end -->") < text.index("middle")
    row = next(line for line in block.splitlines() if line.startswith("| tapp_tarock"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[1] == "+46.00 (+43.00 .. +49.00), **reached**<br>1,000 deals"
    assert cells[2] == "+1.50 (+1.30 .. +1.70), **reached**<br>run `2-new`, 1,000 deals"  # the named run, not the older one
    assert cells[3] == "–"
    assert "<!-- ladder-table:start -->" in text and text.count("| tapp_tarock(preset=p) |") == 3  # the full table lists every run


def test_standings_naming_what_is_not_there_are_refused(tmp_path: Path) -> None:
    tool, kept = _kept_pair(tmp_path)
    output = ["--output", str(tmp_path / "s.md")]
    (kept / "standings.json").write_text(json.dumps({"tapp_tarock": {"pimc": "tapp_tarock__pimc-level1__vs__heuristic-3-gone"}}))
    with pytest.raises(SystemExit, match=r"field tapp_tarock\.pimc names 'tapp_tarock__pimc-level1__vs__heuristic-3-gone'"):
        tool.main(["render", str(kept), *output])
    (kept / "standings.json").write_text(json.dumps({"tapp_tarock": {"uct": "x"}}))
    with pytest.raises(SystemExit, match=r"field tapp_tarock\.uct: unknown rung"):
        tool.main(["render", str(kept), *output])
    (kept / "standings.json").write_text(json.dumps({"skat": {}}))
    with pytest.raises(SystemExit, match="unknown game 'skat'"):
        tool.main(["render", str(kept), *output])
    (kept / "standings.json").write_text("{")
    with pytest.raises(SystemExit, match="is not JSON"):
        tool.main(["render", str(kept), *output])


def test_a_bound_near_zero_keeps_its_sign_visible() -> None:
    tool = _tool()
    assert tool._signed(0.004) == "+0.004" and tool._signed(-0.004) == "-0.004"
    assert tool._signed(0.0) == "+0.00" and tool._signed(0.126) == "+0.13"


def test_the_kept_standings_render_to_the_current_docs_and_module(tmp_path: Path) -> None:
    """docs/strength.md and stich.bots.ladder_standings are what ``render`` writes from docs/ladder: one source for both."""
    tool = _tool()
    root = TOOL.parents[1]
    doc, module = tmp_path / "strength.md", tmp_path / "ladder_standings.py"
    doc.write_text((root / "docs" / "strength.md").read_text(encoding="utf-8"), encoding="utf-8")
    assert tool.main(["render", str(root / "docs" / "ladder"), "--output", str(doc), "--module", str(module)]) == 0
    command = f"python tools/strength_ladder.py render docs/ladder --output docs/strength.md --module {tool.STANDINGS_MODULE}"
    assert doc.read_text(encoding="utf-8") == (root / "docs" / "strength.md").read_text(encoding="utf-8"), f"run {command}"
    assert module.read_text(encoding="utf-8") == (root / tool.STANDINGS_MODULE).read_text(encoding="utf-8"), f"run {command}"


def test_the_strongest_bot_is_the_top_of_the_unbroken_ladder() -> None:
    from stich.bots.ladder import Standing, strongest
    from stich.web.api.history import STRONGEST

    def run(low: float, deals: int = 1000) -> Standing:
        return Standing("r", "–", low + 0.1, low, low + 0.2, deals)

    standings = {
        "a": {"heuristic": run(1.0), "pimc": run(0.5), "ismcts": run(0.01)},
        "b": {"heuristic": run(1.0), "pimc": run(0.5), "ismcts": run(-0.2)},  # level: the rung below stays on top
        "c": {"heuristic": run(1.0), "pimc": run(0.5, deals=600), "ismcts": run(0.3)},  # too few deals, and nothing above counts
        "d": {"pimc": run(0.5)},  # no heuristic run: the ladder's foot
    }
    assert strongest(standings) == {"a": "ismcts", "b": "pimc", "c": "heuristic", "d": "random"}
    assert list(STRONGEST) == ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"]  # GET /api/bots' order, as before


def test_render_writes_the_module_only_with_standings(tmp_path: Path) -> None:
    tool, kept = _kept_pair(tmp_path)
    with pytest.raises(SystemExit, match=r"--module needs a standings\.json"):
        tool.main(["render", str(kept), "--output", str(tmp_path / "s.md"), "--module", str(tmp_path / "m.py")])
    (kept / "standings.json").write_text(json.dumps({"tapp_tarock": {"heuristic": "tapp_tarock__heuristic__vs__random"}}))
    assert tool.main(["render", str(kept), "--output", str(tmp_path / "s.md"), "--module", str(tmp_path / "m.py")]) == 0
    namespace: dict[str, Any] = {}
    exec((tmp_path / "m.py").read_text(encoding="utf-8"), namespace)
    standing = namespace["STANDINGS"]["tapp_tarock"]["heuristic"]
    assert (standing.mean, standing.low, standing.high, standing.deals, standing.reached) == (46.0, 43.0, 49.0, 1000, True)
