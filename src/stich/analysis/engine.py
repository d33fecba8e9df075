"""The analysis of a finished deal: every decision of one seat against the search's choice from the same observation.

For each decision the seat made with more than one legal action, the deal is
replayed to that point and only the seat's observation is read:

1. ``budget`` worlds are drawn from the game's world sampler
   (:func:`stich.bots.samplers.prepare_sampler`; Dobbm's worlds also explain
   the other seats' calls, :class:`~stich.search.call_reading.CallReadingSampler`,
   as for the ``pimc`` bot), from a ``random.Random`` seeded by the analysis
   seed and the decision's position: the same record, seat, seed and budget
   give the same worlds and the same numbers everywhere (CLI and web).
2. The candidates are the seat's own action and the heuristic's favourites
   (:data:`MAX_CANDIDATES`), or every legal card in the exact endgame.
3. Every candidate is valued in *the same* worlds as the seat's final score:
   by exact search of the rest of the card play (:class:`~stich.search.perfect_info.AlphaBeta`
   over the engine, leaves valued by the real score) when the deal is within
   :data:`EXACT_TRICKS` tricks of its end, in Doppelkopf within
   :data:`~stich.analysis.exact.KERNEL_TRICKS` by the compiled solver (its
   exact final eyes, scored: :mod:`stich.analysis.exact`), otherwise by playing the candidate
   and rolling the world out to the end with the games' heuristic bots
   (:meth:`~stich.search.perfect_info.WorldEvaluator.score_values`, the
   compiled heuristic card play in Dobbm and Tapp Tarock).
4. The search's choice is the candidate with the highest mean (the seat's
   own action on a tie); the *cost* is the mean over the worlds of the paired
   difference between it and the seat's action, in the seat's score, with
   its standard error.  A decision is *costly* when the cost is at least
   :data:`COST_FLOOR` and :data:`NOISE` standard errors (:func:`is_costly`).

The true hidden cards are never read for a value: only the observation goes
to the sampler.  The record's result serves the reasons' "what happened"
(:mod:`stich.analysis.reasons`) once the deal is over.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from stich.analysis.exact import KERNEL_TRICKS, kernel_ready, kernel_values, solvable
from stich.analysis.limits import DEFAULT_BUDGET, MAX_BUDGET
from stich.analysis.reasons import better_in, fuchs_caught, partner_void, trick_lost
from stich.analysis.report import Analysis, Candidate, DecisionReport, category
from stich.bots.heuristic import make_heuristic
from stich.bots.ranking import heuristic_ranking
from stich.bots.samplers import prepare_sampler
from stich.bots.tarock_rollout import HeuristicFinish, heuristic_available
from stich.core.game import Action, Game, Observation, State
from stich.core.records import replay_deal
from stich.core.rng import derive_seed
from stich.errors import OptionError, RecordError
from stich.search.call_reading import INFER_GAMES, CallReadingSampler
from stich.search.perfect_info import AlphaBeta, WorldEvaluator, final_score, in_trick_play, tricks_left
from stich.search.sampling import SamplingError

EXACT_TRICKS: dict[str, int] = {"doppelkopf": 3, "tapp_tarock": 4, "dobbm": 3, "droggn": 4, "dappen": 2}
"""Tricks left (the current one included) from which a card decision is searched exactly in every world.

Chosen so that one world's exact search of every card stays within tens of
milliseconds through the engine (measured at these depths: Doppelkopf 3-20 ms,
Tapp Tarock 9 ms, Dobbm 3-30 ms, Droggn 16-84 ms, Dappen a few ms; one
trick more costs Dappen seconds).
"""

SEARCH, SOLVER, ROLLOUT = "search", "solver", "rollout"
"""How a decision's candidates are valued (:meth:`DecisionAnalyst.exact_mode`, a report's ``method``): the engine's exact
search (the real score, special points included: the only one reported ``exact``), the compiled Doppelkopf solver (best
play in card points, scored with the deal's calls, without the special points of the tricks to come:
:mod:`stich.analysis.exact`), or rollouts."""

MAX_CANDIDATES: dict[str, int] = {"card": 6, "other": 5}
"""Candidates weighed outside the exact endgame: the seat's action plus the heuristic's favourites."""

COST_FLOOR = 0.05
"""Smallest cost (in the seat's score) that counts as a costly decision."""

NOISE = 2.0
"""Standard errors a cost must exceed to count as costly (the rest is the sampling's noise)."""

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each analysed decision."""


class AnalysisError(RecordError):
    """The record cannot be analysed (not finished, no such seat); ``where`` names the field."""


def is_costly(cost: float, stderr: float) -> bool:
    """Whether a cost is a mistake rather than noise: at least :data:`COST_FLOOR` and more than :data:`NOISE` standard errors."""
    return cost >= COST_FLOOR and cost > NOISE * stderr


def check_budget(budget: Any) -> int:
    """``budget`` as worlds per decision; raises :class:`OptionError` naming ``budget`` when it is not 1..MAX_BUDGET."""
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= MAX_BUDGET:
        raise OptionError(f"budget must be a whole number of worlds from 1 to {MAX_BUDGET}, got {budget!r}")
    return budget


@dataclasses.dataclass(frozen=True)
class Prepared:
    """A checked, finished record and the decisions of one seat in it, ready to be analysed one by one."""

    record: Mapping[str, Any]
    final: State
    seat: int
    points: tuple[tuple[int, State, Action], ...]
    """(position in ``actions``, state before, action) of every decision of the seat that had an alternative."""
    skipped: int
    """The seat's actions without an alternative (not analysed)."""


def prepare(record: Mapping[str, Any], seat: int) -> Prepared:
    """Replay and check ``record`` and find ``seat``'s decisions.

    An unfinished deal or a seat outside the game raises :class:`AnalysisError`;
    a record that does not replay, :class:`~stich.errors.RecordError`.
    """
    final = replay_deal(record)
    if not final.is_terminal():
        raise AnalysisError("the deal is not finished; only a finished deal can be analysed", "result")
    game = final.game
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_seats:
        raise AnalysisError(f"no seat {seat!r} in {game.name}: seats are 0 to {game.num_seats - 1}", "seat")
    points = tuple(_decision_points(record, final, seat))
    skipped = sum(1 for s, _ in record["actions"] if s == seat) - len(points)
    return Prepared(record, final, seat, points, skipped)


def analyse_point(prepared: Prepared, number: int, *, budget: int, seed: int) -> DecisionReport:
    """The report of the seat's decision ``number`` (0-based among ``prepared.points``).

    Each decision gets its own rollout bots and worlds (seeded by ``seed``
    and the decision's position), so a decision's numbers do not depend on
    which others were analysed before it, or where: the web analyses them
    one by one in its worker processes, ``stich analyse`` in a row.
    """
    budget = check_budget(budget)
    index, before, played = prepared.points[number]
    analyst = DecisionAnalyst(prepared.final.game, prepared.seat, seed, budget, prepared.final, prepared.record["result"])
    return analyst.decision(index, before, played)


def assemble(prepared: Prepared, reports: Sequence[DecisionReport], *, budget: int, seed: int) -> Analysis:
    """The :class:`Analysis` of ``prepared`` from its decisions' reports, in order."""
    analysis = Analysis(game=prepared.final.game.canonical, seat=prepared.seat, seed=seed, budget=budget, skipped=prepared.skipped)
    analysis.decisions.extend(reports)
    return analysis


def analyse_record(
    record: Mapping[str, Any],
    seat: int,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    progress: Progress | None = None,
) -> Analysis:
    """Analyse every decision of ``seat`` in the finished deal ``record`` (see the module docstring).

    The record is replayed and checked first (:func:`prepare`); an
    unfinished deal or a seat outside the game raises :class:`AnalysisError`,
    a bad budget :class:`OptionError`.
    """
    budget = check_budget(budget)
    prepared = prepare(record, seat)
    reports = []
    for number in range(len(prepared.points)):
        reports.append(analyse_point(prepared, number, budget=budget, seed=seed))
        if progress is not None:
            progress(number + 1, len(prepared.points))
    return assemble(prepared, reports, budget=budget, seed=seed)


def _fresh_state(record: Mapping[str, Any], final: State) -> State:
    """The deal of ``record`` before its first action (replay_deal has checked it)."""
    game = final.game
    if record["seed"] is not None:
        return game.new_state(seed=record["seed"], dealer=record["dealer"], context=record["context"])
    return game.new_state(hands=[game.deck.cards(mask) for mask in final.dealt], dealer=record["dealer"], context=record["context"])


def _decision_points(record: Mapping[str, Any], final: State, seat: int) -> list[tuple[int, State, Action]]:
    """(position, state before, action) of every action of ``seat`` that had an alternative."""
    state = _fresh_state(record, final)
    points: list[tuple[int, State, Action]] = []
    for index, (mover, text) in enumerate(record["actions"]):
        action = state.to_action(text)
        if mover == seat and len(state.legal_codes()) > 1:
            points.append((index, state.clone(), action))
        state.apply(action)
    return points


def trick_number(observation: Observation) -> int | None:
    """The 0-based trick a decision during trick play belongs to; ``None`` before trick play."""
    if observation.phase != "play":
        return None
    tricks = observation.tricks
    finished = sum(1 for t in tricks if t.winner is not None)
    return finished


class DecisionAnalyst:
    """One decision's machinery: the heuristic that proposes candidates, the rollout bots and the evaluator.

    :func:`analyse_point` builds one per decision, so that no decision's
    numbers depend on the bots' state after another.  It reads the true
    state ``before`` a decision only for the seat's observation and public
    facts (the phase, the contract's suit order); the values come from the
    sampled worlds alone (tested with twin deals the seat cannot tell apart).
    """

    def __init__(self, game: Game, seat: int, seed: int, budget: int, final: State, result: Mapping[str, Any]) -> None:
        self.game = game
        self.seat = seat
        self.seed = seed
        self.budget = budget
        self.final = final
        self.result = result
        self.heuristic = make_heuristic(game, seat, seed)
        self.players = [make_heuristic(game, s, derive_seed(seed, s)) for s in range(game.num_seats)]
        finish = HeuristicFinish(game) if heuristic_available(game.name) else None
        self.evaluator = WorldEvaluator(game, seat, self.players, finish=finish)

    def worlds(self, observation: Observation, index: int) -> list[State]:
        """``budget`` worlds consistent with ``observation``, from the decision's own generator."""
        rng = random.Random(derive_seed(self.seed, index + 1))
        plain = prepare_sampler(self.game, observation)
        if self.game.name in INFER_GAMES:
            sampler = CallReadingSampler(plain, self.game, self.seat, self.players)
            return [sampler.sample(rng) for _ in range(self.budget)]
        return [plain.sample(rng) for _ in range(self.budget)]

    def candidates(self, observation: Observation, played: Action, *, every_card: bool) -> list[Action]:
        """The seat's action first, then every legal card (searched or solved endgame) or the heuristic's favourites."""
        legal = observation.legal_actions
        if every_card:
            rest = [a for a in legal if a.kind == "play" and a != played]
            return [played, *rest]
        limit = MAX_CANDIDATES["card" if played.kind == "play" else "other"]
        ranked = heuristic_ranking(self.heuristic, observation, None, legal, limit)
        return [played, *(a for a in ranked if a != played)][: limit + 1]

    def decision(self, index: int, before: State, played: Action) -> DecisionReport:
        """The report of one decision."""
        observation = before.observation(self.seat)
        trick = trick_number(observation)
        base = DecisionReport(
            index=index,
            trick=trick,
            phase=observation.phase,
            category=category(played.kind),
            played=played.text,
            best=played.text,
            cost=0.0,
            stderr=0.0,
            exact=False,
            method=ROLLOUT,
            worlds=0,
            costly=False,
            candidates=(),
        )
        try:
            worlds = self.worlds(observation, index)
        except (NotImplementedError, SamplingError):
            # No world fits (a sampler's inference is wrong somewhere; the real world always fits): 0 worlds, cost unknown.
            return base
        mode = self.exact_mode(played, worlds)
        candidates = self.candidates(observation, played, every_card=mode != ROLLOUT)
        codes = [a.code for a in candidates]
        rows = [self._values(world, codes, mode) for world in worlds]
        means = [sum(row[i] for row in rows) / len(rows) for i in range(len(codes))]
        best = 0
        for i, mean in enumerate(means):
            if mean > means[best] + 1e-9:
                best = i
        diffs = [row[best] - row[0] for row in rows]
        cost = sum(diffs) / len(diffs)
        stderr = _stderr(diffs)
        costly = best != 0 and is_costly(cost, stderr)
        reason = self._reason(trick, before, played, candidates[best], worlds, diffs) if costly else None
        order = sorted(range(len(candidates)), key=lambda i: (-means[i], i))
        return dataclasses.replace(
            base,
            best=candidates[best].text,
            cost=cost,
            stderr=stderr,
            exact=mode == SEARCH,
            method=mode,
            worlds=len(worlds),
            costly=costly,
            candidates=tuple(Candidate(candidates[i].text, means[i]) for i in order),
            reason=reason,
        )

    def exact_mode(self, played: Action, worlds: Sequence[State]) -> str:
        """How a decision's candidates are valued: :data:`SEARCH`, :data:`SOLVER` or :data:`ROLLOUT`.

        A card decision within :data:`EXACT_TRICKS` of the end is searched
        through the engine; a Doppelkopf card decision within
        :data:`~stich.analysis.exact.KERNEL_TRICKS` whose worlds the compiled
        solver can value (:func:`~stich.analysis.exact.solvable`: parties
        known, no schwarz called, both public) is solved; any other is
        rolled out.  Hand sizes are public, so every world agrees.
        """
        first = worlds[0]
        if played.kind != "play" or not in_trick_play(first):
            return ROLLOUT
        left = tricks_left(first)
        if left <= EXACT_TRICKS.get(self.game.name, 2):
            return SEARCH
        if left <= KERNEL_TRICKS and self.game.name == "doppelkopf" and kernel_ready() and all(solvable(w) for w in worlds):
            return SOLVER
        return ROLLOUT

    def _values(self, world: State, codes: Sequence[int], mode: str) -> list[float]:
        """The seat's final score after each candidate in ``world``: exact search, the compiled solver, or rollouts."""
        if mode == SEARCH:
            solved = AlphaBeta(self.seat, final_score).solve(world, codes)
            return [solved[code] for code in codes]
        if mode == SOLVER:
            return kernel_values(world, self.seat, codes)
        return self.evaluator.score_values(world, codes)

    def _reason(
        self, trick: int | None, before: State, played: Action, best: Action, worlds: Sequence[State], diffs: Sequence[float]
    ) -> dict[str, str] | None:
        """The first reason of :mod:`stich.analysis.reasons` that holds, else how often the better action scored more."""
        return (
            fuchs_caught(self.game.name, self.seat, played, trick, self.result)
            or partner_void(self.seat, before, best, worlds, played)
            or trick_lost(self.seat, trick, played, best, self.final, worlds, self.players)
            or better_in(played, best, diffs)
        )


def _stderr(values: Sequence[float]) -> float:
    """Standard error of the mean of ``values`` (0 for fewer than two)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return math.sqrt(variance / n)
