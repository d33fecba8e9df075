"""The ``pimc`` bot: Perfect Information Monte Carlo (determinized search) for every game.

For each decision the bot draws *worlds*, full deals consistent with its
observation (:func:`stich.bots.samplers.prepare_sampler`), values every
candidate action in each world as if all cards were known
(:class:`stich.search.perfect_info.WorldEvaluator`) and plays the action
with the best robust mean over the worlds.  It never sees the real state.

* **A single legal action** is played at once.
* **Trick play**: every legal card is a candidate (the heuristic's best
  :data:`MAX_PLAY_CANDIDATES` when the world is valued by rollouts, since
  each candidate costs a rollout per world).  In a world, a card is worth
  what exact search says once few tricks are left (Doppelkopf with known
  parties: the compiled kernel from :data:`~stich.search.perfect_info.KERNEL_TRICKS`
  tricks on; otherwise engine alpha-beta from
  :data:`~stich.search.perfect_info.EXACT_TRICKS`); earlier, all seats play on
  with the games' heuristic bots up to that horizon and the rest is searched.
* **Every other decision** (reservations, bids, talon and discards,
  announcements, doubles, Ulti...): "bidding by simulation": each candidate is
  applied in each world and the deal rolled out with the heuristic bots to
  the end (exact search for the last tricks outside Doppelkopf); the value
  is the seat's final score.  The candidates are the heuristic's own choice
  and its next choices, asked by withholding its earlier picks from the
  legal actions, :data:`MAX_OTHER_CANDIDATES` in all: a discard of four from
  twelve cards thus weighs five sensible cards, not every combination (the
  discards come one at a time anyway).
* **Announcements during trick play** (Doppelkopf): first the heuristic's
  choice is compared with the best alternatives of the other kind (its best
  card against its best calls, or its call against its best card) by
  rollouts to the end in score, on a share :data:`CALL_SHARE` of the
  budget; a call is made only when it wins that vote on at least
  :data:`MIN_CALL_WORLDS` worlds, otherwise the card is searched as above.

**Robust voting.**  Each world gives one value per candidate.  The bot
compares candidates by their *paired* difference to the heuristic's choice
in the same world (the luck of the world cancels out) and averages these
differences winsorized (:mod:`stich.search.voting`): the lowest and highest :data:`~stich.search.voting.TRIM` share of the
worlds are clipped to the nearest remaining value.  One world in which a
Retour or a Valat multiplies everything cannot outvote the rest, while the
size of a gain or loss still counts.  Ties go to the heuristic's choice.

**Reading the calls.**  A world sampler deals the unseen cards uniformly
among the deals that fit the cards seen; it does not ask whether the other
seats would have bid and doubled as they did with the cards it gives them
(Dobbm's sampler says so outright: "bidding and doubling depend on no
card").  A Dobbm defender then values a Schwacher against a declarer holding
a random hand, not the hand of somebody who bid, and doubles far too often.
For the games in :data:`INFER_GAMES` the bot therefore keeps a world only if
the heuristic bots, dealt that world's cards, would have made every call
(every action but a card or a discard) the other seats made so far; after
:data:`INFER_ATTEMPTS` draws without such a world it takes an unexplained one
(the other players need not think like the heuristic).

**Thinking time.**  ``level`` (1-5) or ``time`` (seconds) set the budget per
decision (:mod:`stich.search.budget`).  The bot samples worlds until the
budget is spent (at least :data:`MIN_WORLDS` unless one world alone would
overrun the limit below), never starting a world it expects to end past
:data:`OVERRUN` times the budget.  ``worlds`` fixes the number of worlds
instead (reproducible matches and tests); ``time`` then only caps the
thinking when given explicitly.  ``call_worlds`` fixes it for the decisions
outside card play only (bids, talon, discards, announcements before play),
while the cards keep the time budget: the calls are then a function of the
seed and the observation, exactly as those of an ``ismcts`` bot with the
same ``call_worlds`` (its ``calls=simulation`` is this bot with
``worlds``), so that in a duplicate match of the two both bots make the
same calls wherever they see the same deal and the match measures their
card play alone.  Each decision draws from its own
``random.Random`` seeded by the bot's seed and the observation, so the same
seed and the same observation give the same decision.

**A defender's double** (Tapp Tarock's Kontra and Subkontra, Dobbm's and
Droggn's Schwacher, :data:`~stich.bots.doubles.DEFENDER_DOUBLES`) is the heuristic's
unless ``doubles=search``: the worlds deal the declarer a random hand, not
the hand of somebody who bid, so the simulated double pays far more often
than the real one.  Against the heuristic in Tapp Tarock at level 1, the
seats whose first difference was such a Kontra lost 2,338 points in 473 of
2,168 (the first 699 deals of a 1,000-deal match, docs/strength.md); the
declarer's answer stays searched.

Games without a world sampler (see ``SAMPLERS``) get the heuristic's decision, and so does a
decision for which the sampler finds no world, while preparing it or while
drawing (a wrong inference somewhere: the real world always fits), instead
of the deal ending in an error.  These decisions were not searched: the bot
counts them by reason in ``fallbacks`` (:class:`~stich.bots.fallbacks.Fallbacks`:
``no_sampler``, ``no_world``), which ``stich arena`` reports per bot; a
forced move and a defender's double left to the heuristic are design, not
fallbacks, and are not counted.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import time as _time
from collections.abc import Callable, Sequence
from typing import Protocol

from stich.bots.base import Bot
from stich.bots.doubles import is_defender_double
from stich.bots.fallbacks import FallbackReason, Fallbacks
from stich.bots.heuristic import make_heuristic
from stich.bots.inference import (
    BETA,
    INFERENCE,
    MAX_PROPOSALS,
    MAX_WINDOW,
    PROPOSALS,
    WINDOW,
    HeuristicModel,
    InferenceSampler,
    PolicyModel,
    ProbabilityPlayer,
    likelihood_weights,
)
from stich.bots.random_bot import RandomBot
from stich.bots.ranking import heuristic_best, heuristic_ranking
from stich.bots.registry import BUILTIN_BOTS, load_factory
from stich.bots.samplers import prepare_sampler
from stich.bots.tarock_rollout import HEURISTIC_POLICY_GAMES, HeuristicFinish, heuristic_available
from stich.core.game import Action, Game, Observation, State
from stich.core.rng import derive_seed
from stich.errors import OptionError
from stich.search.budget import Deadline, resolve_budget
from stich.search.call_reading import INFER_GAMES, CallReadingSampler
from stich.search.ismcts import PLAY_PHASE
from stich.search.perfect_info import EyeSolver, WorldEvaluator
from stich.search.sampling import SamplingError
from stich.search.voting import vote

DOUBLES = ("heuristic", "search")
"""Values of the ``doubles`` option: who makes a defender's double (see the module docstring)."""

ROLLOUTS = ("auto", "heuristic", "random", "kernel-heuristic")
"""Values of the ``rollout`` option: who plays the worlds on.

``heuristic``: the games' heuristic bots; ``random``: uniformly random play;
``kernel-heuristic`` (Dobbm and Tapp Tarock, :data:`~stich.bots.tarock_rollout.HEURISTIC_POLICY_GAMES`):
the heuristic bots until card play, then their card play compiled
(:class:`~stich.bots.tarock_rollout.HeuristicFinish`): the same values as
``heuristic``, card play about a hundred times faster, so the same time
buys more worlds; without numba it is ``heuristic``.  ``auto`` (the
default) is :data:`AUTO_ROLLOUT`'s choice for the game."""

AUTO_ROLLOUT: dict[str, str] = {"dobbm": "kernel-heuristic", "tapp_tarock": "kernel-heuristic"}
"""``rollout=auto`` per game (``heuristic`` for a game missing here).

Dobbm's compiled heuristic gives the values of ``heuristic`` in less time,
and the extra worlds pay: ``pimc:time=0.025,rollout=kernel-heuristic``
against ``pimc:time=0.025`` (``heuristic`` then) over 1,000 duplicate deals
+0.77 per deal (+0.48 .. +1.06), 19.2 against 19.7 ms per decision
(docs/strength.md, run ``16-compiled-heuristic``).  So does Tapp Tarock's
(:mod:`stich.bots.tapp_tarock.playout`; about 86 worlds per card decision
at level 1 instead of 5): ``pimc:level=1,rollout=kernel-heuristic`` against
``pimc:level=1`` (``heuristic`` then) over 1,000 duplicate deals +0.56 per
deal (+0.38 .. +0.73) (docs/strength.md, run ``5-compiled-heuristic``)."""

MAX_WORLDS = 100_000
"""Largest accepted ``worlds`` or ``call_worlds`` (a typo is likelier than intent beyond it)."""

MIN_WORLDS = 2
"""Worlds sampled at least per decision (time permitting, see the module docstring)."""

OVERRUN = 1.25
"""A world is not started when it is expected to end later than this many budgets after the decision began."""

MAX_PLAY_CANDIDATES = 6
"""Cards weighed when a world is valued by rollouts (the heuristic's favourites); exact search weighs all."""

MAX_OTHER_CANDIDATES = 5
"""Candidates of a decision other than a card (the heuristic's favourites)."""

CALL_SHARE = 0.35
"""Share of the budget spent on whether to make a call (announcement) during trick play."""

MIN_CALL_WORLDS = 6
"""Worlds needed before the bot overrules the heuristic on a call during trick play."""

CONFIDENCE = 1.0
"""Standard errors by which a simulated alternative must beat the heuristic's choice outside trick play."""

MIN_OVERRULE_WORLDS = 4
"""Worlds needed before a simulated alternative may overrule the heuristic's choice outside trick play."""


class Sampler(Protocol):
    """What the search loop needs of a world source: one full state per call."""

    def sample(self, rng: random.Random) -> State:
        """One world consistent with the observation."""
        ...


@dataclasses.dataclass
class DecisionStats:
    """What the last decision did (for benchmarks and curious users)."""

    worlds: int = 0
    candidates: int = 0
    seconds: float = 0.0
    mode: str = ""
    values: dict[int, float] = dataclasses.field(default_factory=dict)
    """The searched candidates' values by action code: mean paired difference to the heuristic's choice (empty: not searched)."""


class PimcBot:
    """Determinized search for one seat; see the module docstring."""

    name = "pimc"

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int,
        *,
        budget: float,
        worlds: int | None,
        cap: bool,
        rollout: str,
        doubles: str = "heuristic",
        call_worlds: int | None = None,
        inference: str = "none",
        proposals: int = PROPOSALS,
        beta: float = BETA,
        window: int = WINDOW,
    ) -> None:
        self.game = game
        self.seat = seat
        self.seed = seed
        self.budget = budget
        self.worlds = worlds
        self.cap = cap
        self.call_worlds = call_worlds
        """Worlds of every decision outside card play (``None``: as ``worlds`` or the budget say)."""
        self._target: int | None = worlds
        """Worlds of the current decision (``None``: as many as the budget allows)."""
        self._capped = cap
        """Whether the budget caps the current decision's fixed number of worlds."""
        self.rollout = rollout
        self.doubles = doubles
        self.heuristic = make_heuristic(game, seat, seed)
        self._finish: Callable[[State], Sequence[int]] | None = None
        """With ``rollout=kernel-heuristic`` (and numba): the compiled heuristic card play that ends every rollout."""
        if rollout == "kernel-heuristic" and heuristic_available(game.name):
            self._finish = HeuristicFinish(game)
        self._heuristic_players = [make_heuristic(game, s, derive_seed(seed, s)) for s in range(game.num_seats)]
        self.inference = inference
        """``heuristic`` or ``learned``: worlds weighed by the other seats' decisions (:mod:`stich.bots.inference`); ``none``: plain."""
        self._learned_players: list[ProbabilityPlayer] | None = None
        self.proposals = proposals
        self.beta = beta
        self.window = window
        self._first_seconds = 0.0
        """Time spent drawing the first world of a card decision before ``_collect`` (with inference only; 0 otherwise)."""
        self._weights: list[float] | None = None
        """The weights of the worlds :meth:`_collect` gathered last (``None``: all equal; inference with ``proposals=1``)."""
        self.last = DecisionStats()
        self.fallbacks = Fallbacks()
        """The decisions not searched, by reason (see the module docstring); ``ismcts`` shares its own with its simulator."""
        self._decision_start = 0.0

    def _learned(self) -> list[ProbabilityPlayer]:
        """The ``learned`` bot of every seat (built once; by its registry target, as ``stich.rl`` lies above this package)."""
        if self._learned_players is None:
            factory = load_factory(BUILTIN_BOTS["learned"])
            players = [factory(self.game, s, derive_seed(self.seed, s)) for s in range(self.game.num_seats)]
            checked: list[ProbabilityPlayer] = []
            for player in players:  # one per seat, in seat order: a bot without probabilities would shift the seats
                if not isinstance(player, ProbabilityPlayer):
                    raise TypeError(f"the learned bot {type(player).__name__} gives no action probabilities")
                checked.append(player)
            self._learned_players = checked
        return self._learned_players

    # ------------------------------------------------------------------ entry
    def choose(self, observation: Observation) -> Action:
        """The action with the best robust mean value over sampled worlds."""
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"seat {observation.seat} has no legal action to choose from")
        if len(legal) == 1:
            self.last = DecisionStats(mode="forced")
            return legal[0]
        if self.doubles == "heuristic" and is_defender_double(self.game, observation):
            self.last = DecisionStats(mode="heuristic (defender double)")
            return self.heuristic.choose(observation)
        try:
            plain = prepare_sampler(self.game, observation)
        except NotImplementedError:
            return self._fall_back(observation, "no_sampler")
        except SamplingError:
            # No world fits what the seat knows: a sampler's inference is wrong somewhere (the real world
            # always fits).  The heuristic plays on rather than the deal ending in an error; ``ismcts`` does the same.
            return self._fall_back(observation, "no_world")
        started = self._decision_start = _time.monotonic()
        if self.call_worlds is not None and observation.phase != PLAY_PHASE:
            self._target, self._capped = self.call_worlds, False
        else:
            self._target, self._capped = self.worlds, self.cap
        sampler: Sampler = plain
        if self.inference in ("heuristic", "learned"):
            # Replaces the hard call reading of INFER_GAMES: the soft model weighs the calls too.
            model: HeuristicModel | PolicyModel
            if self.inference == "heuristic":
                model = HeuristicModel(self._heuristic_players, self.beta)
            else:
                model = PolicyModel(self._learned(), self.beta)
            inferring = InferenceSampler(plain, self.game, observation.seat, model, self.proposals, self.window)
            inferring.until = started + self.budget if self._target is None or self._capped else None
            sampler = inferring
        elif self.game.name in INFER_GAMES:
            sampler = CallReadingSampler(plain, self.game, observation.seat, self._heuristic_players)
        seed = self._decision_seed(observation)
        rng_seed = derive_seed(seed, 0)
        rng = random.Random(rng_seed)
        evaluator = WorldEvaluator(self.game, observation.seat, self._players(seed), finish=self._finish, solver=doppelkopf_solver)
        preferred = self.heuristic.choose(observation)
        plays = [a for a in legal if a.kind == "play"]
        others = [a for a in legal if a.kind != "play"]
        try:
            if plays and others:
                action = self._call_or_card(observation, sampler, rng, evaluator, preferred, plays, others)
            elif plays:
                action = self._play(observation, sampler, rng, evaluator, preferred, self.budget)
            else:
                candidates = self._ranking(observation, preferred, legal, MAX_OTHER_CANDIDATES)
                action = self._search(sampler, rng, candidates, evaluator.score_values, self.budget, "simulation", careful=True)
        except SamplingError:
            # The sampler was prepared but a draw found no world (a rejection sampler gave up): as above.
            return self._fall_back(observation, "no_world", preferred)
        self.last.seconds = _time.monotonic() - started
        return action

    def _fall_back(self, observation: Observation, reason: FallbackReason, preferred: Action | None = None) -> Action:
        """The heuristic's action (``preferred`` when already asked) for a decision that cannot be searched, counted by ``reason``."""
        self.fallbacks.note(reason)
        self.last = DecisionStats(mode=_FALLBACK_MODES[reason])
        return preferred if preferred is not None else self.heuristic.choose(observation)

    # ------------------------------------------------------------------ decisions
    def _play(
        self,
        observation: Observation,
        sampler: Sampler,
        rng: random.Random,
        evaluator: WorldEvaluator,
        preferred: Action,
        budget: float,
    ) -> Action:
        """A card: all legal cards when the worlds are searched exactly, the heuristic's favourites otherwise."""
        plays = [a for a in observation.legal_actions if a.kind == "play"]
        if isinstance(sampler, InferenceSampler):
            # The first world's likelihood is a large share of its cost: count it in the per-world estimate of ``_collect``.
            drawing = _time.monotonic()
            first = sampler.sample(rng)
            self._first_seconds = _time.monotonic() - drawing
        else:
            first = sampler.sample(rng)
        exact = evaluator.search_ready(first)
        if preferred not in plays:
            preferred = self._best_of(observation, plays)
        if exact or len(plays) <= MAX_PLAY_CANDIDATES:
            candidates = [preferred, *(a for a in plays if a != preferred)]
        else:
            candidates = self._ranking(observation, preferred, plays, MAX_PLAY_CANDIDATES)
        return self._search(sampler, rng, candidates, evaluator.play_values, budget, "search" if exact else "rollout", first)

    def _call_or_card(
        self,
        observation: Observation,
        sampler: Sampler,
        rng: random.Random,
        evaluator: WorldEvaluator,
        preferred: Action,
        plays: list[Action],
        others: list[Action],
    ) -> Action:
        """During trick play with calls open: decide on a call by simulation, then search the card."""
        if preferred.kind == "play":
            calls = self._ranking(observation, None, others, MAX_OTHER_CANDIDATES - 1)
            candidates = [preferred, *calls]
        else:
            candidates = [preferred, self._best_of(observation, plays)]
        share = self.budget * CALL_SHARE
        rows = self._collect(sampler, rng, candidates, evaluator.score_values, share)
        best, scores = vote(rows, 0, confidence=CONFIDENCE, min_worlds=MIN_CALL_WORLDS, weights=self._weights)
        decided = candidates[best]
        if decided.kind != "play":
            by_code = {c.code: score for c, score in zip(candidates, scores, strict=True)}
            self.last = DecisionStats(worlds=len(rows), candidates=len(candidates), mode="call", values=by_code)
            return decided
        card_view = dataclasses.replace(observation, legal_actions=tuple(plays))
        return self._play(card_view, sampler, rng, evaluator, decided, self.budget)

    # ------------------------------------------------------------------ the loop
    def _search(
        self,
        sampler: Sampler,
        rng: random.Random,
        candidates: list[Action],
        values: Callable[[State, Sequence[int]], list[float]],
        budget: float,
        mode: str,
        first: State | None = None,
        *,
        careful: bool = False,
    ) -> Action:
        """Vote among ``candidates`` (the first is the heuristic's choice) over sampled worlds.

        ``careful``: the heuristic's choice stands unless an alternative beats
        it clearly (:data:`CONFIDENCE`, :data:`MIN_OVERRULE_WORLDS`).
        """
        if len(candidates) == 1:
            self.last = DecisionStats(worlds=0, candidates=1, mode=mode)
            return candidates[0]
        rows = self._collect(sampler, rng, candidates, values, budget, first)
        if careful:
            best, _scores = vote(rows, 0, confidence=CONFIDENCE, min_worlds=MIN_OVERRULE_WORLDS, weights=self._weights)
        else:
            best, _scores = vote(rows, 0, weights=self._weights)
        by_code = {c.code: score for c, score in zip(candidates, _scores, strict=True)}
        self.last = DecisionStats(worlds=len(rows), candidates=len(candidates), mode=mode, values=by_code)
        return candidates[best]

    def _collect(
        self,
        sampler: Sampler,
        rng: random.Random,
        candidates: list[Action],
        values: Callable[[State, Sequence[int]], list[float]],
        budget: float,
        first: State | None = None,
    ) -> list[list[float]]:
        """Candidate values per world, as many worlds as the budget (or ``worlds``) allows.

        ``budget`` counts from the start of the decision (sampler set-up and
        heuristic calls included), so that stages of one decision share it.
        """
        codes = [a.code for a in candidates]
        deadline = Deadline(max(0.0, budget - (_time.monotonic() - self._decision_start)))
        limit = self._decision_start + OVERRUN * self.budget
        rows: list[list[float]] = []
        logs: list[float] = []
        weighing = isinstance(sampler, InferenceSampler) and sampler.weighting
        started = _time.monotonic() - (self._first_seconds if first is not None else 0.0)
        self._first_seconds = 0.0
        while True:
            done = len(rows)
            if self._target is not None:
                if done >= self._target or (self._capped and done >= 1 and deadline.expired()):
                    break
            elif done >= 1:
                now = _time.monotonic()
                if done >= MIN_WORLDS and deadline.expired():
                    break
                if now + (now - started) / done > limit:
                    break
            world = first if first is not None and done == 0 else sampler.sample(rng)
            rows.append(values(world, codes))
            if weighing:
                assert isinstance(sampler, InferenceSampler)
                logs.append(sampler.log_weight(world))
        self._weights = likelihood_weights(logs) if weighing else None
        return rows

    # ------------------------------------------------------------------ helpers
    def _players(self, seed: int) -> list[Bot]:
        """The rollout players of one decision."""
        if self.rollout == "random":
            return [RandomBot(self.game, s, derive_seed(seed, s + 1)) for s in range(self.game.num_seats)]
        return list(self._heuristic_players)

    def _decision_seed(self, observation: Observation) -> int:
        """A seed for one decision from the bot's seed and everything the observation holds."""
        text = repr((self.seed, observation.to_json()))
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")

    def _best_of(self, observation: Observation, actions: Sequence[Action]) -> Action:
        """The heuristic's choice among ``actions`` only (the first of them if it declines)."""
        return heuristic_best(self.heuristic, observation, actions)

    def _ranking(self, observation: Observation, first: Action | None, actions: Sequence[Action], limit: int) -> list[Action]:
        """Up to ``limit`` of ``actions`` in the heuristic's order of preference (:func:`~stich.bots.ranking.heuristic_ranking`)."""
        return heuristic_ranking(self.heuristic, observation, first, actions, limit)


_FALLBACK_MODES: dict[FallbackReason, str] = {
    "no_world": "heuristic (no world fits)",
    "no_sampler": "heuristic (no sampler)",
    "out_of_time": "heuristic (out of time)",
}
"""``DecisionStats.mode`` of a decision that fell back, per reason."""

_kernel_ready = False


def doppelkopf_solver(state: State) -> EyeSolver:
    """The compiled kernel's exact solver of a Doppelkopf position with known parties (what :class:`WorldEvaluator` searches with)."""
    from stich.bots.doppelkopf import kernel  # imported late: numba loads only where Doppelkopf is searched

    return kernel.KernelSolver(state)  # type: ignore[arg-type]


def _warm_kernel() -> None:
    """Compile (or load) the Doppelkopf kernel once per process, outside any decision's time."""
    global _kernel_ready
    if not _kernel_ready:
        from stich.bots.doppelkopf import kernel

        kernel.warmup()
        _kernel_ready = True


def make_pimc(
    game: Game,
    seat: int,
    seed: int,
    *,
    level: int | None = None,
    time: float | None = None,
    worlds: int | None = None,
    rollout: str = "auto",
    doubles: str = "heuristic",
    call_worlds: int | None = None,
    inference: str = "none",
    proposals: int = PROPOSALS,
    beta: float = BETA,
    window: int = WINDOW,
) -> PimcBot:
    """A ``pimc`` bot for ``seat`` of ``game``.

    ``level`` (1-5, default 3) or ``time`` (seconds per decision) set the
    thinking time; ``worlds`` fixes the number of sampled worlds per decision
    (``time`` then only caps it when given); ``call_worlds`` fixes it for the
    decisions outside card play only (see the module docstring); ``rollout`` is ``auto``
    (:data:`AUTO_ROLLOUT`), ``heuristic``, ``random`` or ``kernel-heuristic``
    (:data:`ROLLOUTS`); ``doubles`` is ``heuristic`` (a defender's double is the
    heuristic's) or ``search``; ``inference`` is ``none`` (the default) or
    ``heuristic`` (worlds resampled by the likelihood of the other seats'
    decisions under the heuristic made stochastic, :mod:`stich.bots.inference`; ``learned``: under
    the ``learned`` bot's network),
    with ``proposals`` worlds drawn per world kept, inverse temperature
    ``beta`` and the other seats' last ``window`` cards scored (every call is).  Bad values raise :class:`OptionError` naming the option.
    """
    budget = resolve_budget(level, time)
    for name, value in (("worlds", worlds), ("call_worlds", call_worlds)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_WORLDS):
            raise OptionError(f"{name} must be a whole number from 1 to {MAX_WORLDS}, got {value!r}")
    if rollout not in ROLLOUTS:
        raise OptionError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
    if rollout == "auto":
        rollout = AUTO_ROLLOUT.get(game.name, "heuristic")
    if rollout == "kernel-heuristic" and game.name not in HEURISTIC_POLICY_GAMES:
        raise OptionError(f"rollout 'kernel-heuristic' exists only for {', '.join(sorted(HEURISTIC_POLICY_GAMES))}, not {game.name}")
    if doubles not in DOUBLES:
        raise OptionError(f"doubles must be one of {', '.join(DOUBLES)}, got {doubles!r}")
    if inference not in INFERENCE:
        raise OptionError(f"inference must be one of {', '.join(INFERENCE)}, got {inference!r}")
    if isinstance(proposals, bool) or not isinstance(proposals, int) or not 1 <= proposals <= MAX_PROPOSALS:
        raise OptionError(f"proposals must be a whole number from 1 to {MAX_PROPOSALS}, got {proposals!r}")
    if isinstance(window, bool) or not isinstance(window, int) or not 0 <= window <= MAX_WINDOW:
        raise OptionError(f"window must be a whole number from 0 to {MAX_WINDOW}, got {window!r}")
    if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0 <= beta <= 50:
        raise OptionError(f"beta must be a number from 0 to 50, got {beta!r}")
    if game.name == "doppelkopf":
        _warm_kernel()
    return PimcBot(
        game,
        seat,
        seed,
        budget=budget,
        worlds=worlds,
        cap=time is not None,
        rollout=rollout,
        doubles=doubles,
        call_worlds=call_worlds,
        inference=inference,
        proposals=proposals,
        beta=float(beta),
        window=window,
    )
