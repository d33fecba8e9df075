"""Inference for the ``pimc`` bot: worlds drawn by how likely the other seats' observed decisions are in them.

A world sampler (:mod:`stich.search.sampling`) deals the unseen cards
uniformly among the deals that fit the cards seen: an action counts as
evidence only of what it proves (a void, a card shown), never of what a
player would likely have done with the cards the world gives him.  Card
programs in Skat and Schafkopf gained most over plain determinized search
by weighting the worlds with the likelihood of the opponents' moves under a
model of how they play (docs/decisions/0047-pimc-inference.md).

:class:`InferenceSampler` replays each consistent world of the plain
sampler from its deal and multiplies, over the earlier decisions of the
other seats that had an alternative (every call: bids, announcements, talon
choices, discards; and their last :data:`WINDOW` cards), the probability
that the opponent model gives the action actually taken, asked from that
seat's own observation of the world.  It uses that likelihood in one of two
ways (``proposals``):

* ``proposals=1`` (the default, *importance weighting*): every world is
  searched and carries its likelihood into the vote
  (:func:`stich.search.voting.vote` with ``weights``); no likelihood is
  computed in vain.
* ``proposals=K`` > 1 (*sampling importance resampling*): for every world
  the search asks for, ``K`` worlds are drawn and one of them is returned
  with probability proportional to its likelihood; the vote is unweighted.

Every world is a world of the plain sampler, so it never contradicts what
the seat knows; the likelihoods read only sampled worlds and the
observation's public history, never the real deal.

The opponent model (:class:`HeuristicModel`) is the game's heuristic bot
made stochastic.  The heuristics are rules, not scores, so the model derives
the simplest score there is: 1 for the action the heuristic picks from that
observation, 0 for every other legal action, and plays a softmax over it at
inverse temperature ``beta``: the heuristic's pick has probability
``e^beta / (e^beta + n - 1)`` among ``n`` legal actions, each other action
``1 / (e^beta + n - 1)``.  Nobody plays exactly like the heuristic, so no
world is ever ruled out (unlike :class:`~stich.search.call_reading.CallReadingSampler`'s
hard check of the calls); a world in which the heuristic explains more of
what the others did is only likelier.

The extra cost (``PROPOSALS`` draws and a replay with one heuristic call per
scored decision, per world) comes out of the same time budget: the ``pimc``
bot's loop counts every world's time, so at a given level an inference bot
weighs fewer, better-chosen worlds than plain ``pimc``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from stich.core.game import Game, Observation, State
from stich.errors import IllegalActionError, NotationError
from stich.search.policy import Policy
from stich.search.sampling import World, WorldSampler

INFERENCE = ("none", "heuristic", "learned")
"""Values of the ``pimc`` bot's ``inference`` option: no weighting (plain ``pimc``, the default), :class:`HeuristicModel`,
or :class:`PolicyModel` over the ``learned`` bot's packaged network (issue 45, step 3)."""

PROPOSALS = 1
"""Default consistent worlds drawn per world returned: 1 weighs each world by its likelihood, more resample by it (module docstring).

Resampling from 4 proposals (with :data:`BETA` 2) searched 2.6 worlds per
Tapp Tarock card decision at level 1 against plain ``pimc``'s 18 (the
likelihood of a proposal costs a few milliseconds of heuristic calls, a
world's search about half of one); weighing uses every likelihood.
"""

BETA = 1.0
"""Default inverse temperature of :class:`HeuristicModel`: the heuristic's pick is ``e`` (about 2.7) times as likely as another.

Mild on purpose: with weighted worlds a sharper model leaves a few worlds to
decide (their effective number, :func:`stich.search.voting.effective_worlds`, falls).
"""

MAX_PROPOSALS = 64
"""Largest accepted ``proposals`` option."""

WINDOW = 4
"""Default number of the other seats' most recent cards scored (one round of a trick); every call is scored.

One heuristic decision costs about half a millisecond (Doppelkopf, in
Python), so scoring all of a deal's thirty-odd cards costs about 10 ms a world,
a fifth of a level-1 decision's 50 ms; the calls carry most of the
evidence (Dobbm's call reading, docs/search.md), the latest cards the rest.
"""

MAX_WINDOW = 64
"""Largest accepted ``window`` option."""


class HeuristicModel:
    """An opponent model: the heuristic bots of ``players`` made stochastic by a softmax (see the module docstring)."""

    def __init__(self, players: Sequence[Policy], beta: float = BETA) -> None:
        if not math.isfinite(beta) or beta < 0:
            raise ValueError(f"beta must be a finite number of at least 0, got {beta!r}")
        self.players = list(players)
        self.beta = beta
        self._pick_weight = math.exp(beta)

    def log_probability(self, state: State, code: int) -> float:
        """Log-probability that the seat to move in ``state`` takes action ``code``, asked from its own observation only."""
        n = len(state.legal_codes())
        if n < 2:
            return 0.0
        mover = state.current_player()
        pick = self.players[mover].choose(state.observation(mover)).code
        weight = self._pick_weight if pick == code else 1.0
        return math.log(weight / (self._pick_weight + n - 1))


@runtime_checkable
class ProbabilityPlayer(Protocol):
    """A bot that gives a probability to every action code of an observation (the ``learned`` bot)."""

    def probabilities(self, observation: Observation) -> npt.NDArray[np.float32]: ...


class PolicyModel:
    """An opponent model: the action probabilities of a learned policy per seat, tempered by ``beta`` (``p ** beta``, renormalised).

    ``beta`` 1 takes the policy as it is; every legal action keeps at least
    :data:`FLOOR` of probability before the tempering, so no world is ruled out.
    """

    FLOOR = 1e-4

    def __init__(self, players: Sequence[ProbabilityPlayer], beta: float = BETA) -> None:
        if not math.isfinite(beta) or beta < 0:
            raise ValueError(f"beta must be a finite number of at least 0, got {beta!r}")
        self.players = list(players)
        self.beta = beta

    def log_probability(self, state: State, code: int) -> float:
        """Log-probability that the seat to move in ``state`` takes action ``code``, asked from its own observation only."""
        legal = state.legal_codes()
        if len(legal) < 2:
            return 0.0
        mover = state.current_player()
        probs = np.maximum(self.players[mover].probabilities(state.observation(mover))[list(legal)], self.FLOOR).astype(np.float64)
        logs = self.beta * np.log(probs)
        top = float(logs.max())
        return float(logs[list(legal).index(code)]) - top - math.log(float(np.exp(logs - top).sum()))


@dataclass
class InferenceStats:
    """What the inference did over one decision: worlds returned, proposals weighed, decisions scored."""

    worlds: int = 0
    proposals: int = 0
    scored: int = 0


class InferenceSampler:
    """Worlds of ``sampler`` weighed or resampled by the likelihood of the other seats' decisions under ``model`` (module docstring).

    ``seat`` is the deciding seat: its own decisions are not scored (they are
    the same in every world).  ``proposals`` is the pool per world: with 1
    every world is returned and :meth:`log_weight` gives its likelihood for
    the vote; with more, one of them is kept by likelihood.
    """

    def __init__(
        self,
        sampler: WorldSampler,
        game: Game,
        seat: int,
        model: HeuristicModel | PolicyModel,
        proposals: int = PROPOSALS,
        window: int = WINDOW,
    ) -> None:
        if proposals < 1:
            raise ValueError(f"proposals must be at least 1, got {proposals}")
        if window < 0:
            raise ValueError(f"window must be at least 0, got {window}")
        self.sampler = sampler
        self.game = game
        self.seat = seat
        self.model = model
        self.proposals = proposals
        self.stats = InferenceStats()
        self._weighed: dict[int, tuple[State, float]] = {}
        """``id(world) -> (world, log-likelihood)`` of the worlds returned with ``proposals=1``."""
        self.last_weights: list[float] = []
        """Log-likelihoods of the last world's proposals (for tests and the curious)."""
        self.window = window
        self.until: float | None = None
        """A ``time.monotonic()`` instant after which a world is the first consistent proposal, unweighed (the budget is spent)."""
        self._scored: frozenset[int] | None = None
        """Positions in the history of the decisions scored (fixed by the first world: the kinds are public)."""
        events = sampler.observation.events
        self._evidence = any(s != seat for s, _text in events)
        """Whether another seat has acted yet: without that every world weighs the same and one draw is enough."""

    def scored_positions(self, world: World) -> frozenset[int]:
        """Positions in ``world``'s history that are scored: the other seats' calls, and their last :attr:`window` cards.

        Who acted and whether it was a card is public (the observation's
        events), so every world of a decision gives the same positions.
        """
        actions = self.game.actions.actions
        others = [i for i, (s, _text) in enumerate(self.sampler.observation.events) if s != self.seat]
        cards = [i for i in others if actions[world.codes[i]].kind == "play"]
        kept = set(cards[len(cards) - self.window :] if self.window else [])
        return frozenset(i for i in others if i in kept or actions[world.codes[i]].kind != "play")

    def log_likelihood(self, world: World) -> float:
        """Sum of the model's log-probabilities of the other seats' decisions in ``world`` (``-inf`` if it cannot be replayed)."""
        total = 0.0
        if self._scored is None:
            self._scored = self.scored_positions(world)
        scored = self._scored
        last = max(scored, default=-1)
        try:
            state = self.game.new_state(hands=world.piles, dealer=world.dealer, context=world.context)
            for i, code in enumerate(world.codes[: last + 1]):
                if i in scored:
                    total += self.model.log_probability(state, code)
                    self.stats.scored += 1
                state.apply(code)
        except (IllegalActionError, NotationError):
            return -math.inf
        return total

    @property
    def weighting(self) -> bool:
        """Whether the worlds carry their likelihood into the vote (``proposals=1``) rather than being resampled by it."""
        return self.proposals == 1

    def log_weight(self, world: State) -> float:
        """The log-likelihood a world returned by :meth:`sample` carries into the vote (0 unless :attr:`weighting`)."""
        entry = self._weighed.get(id(world))
        return entry[1] if entry is not None and entry[0] is world else 0.0

    def sample(self, rng: random.Random) -> State:
        """One world: the plain sampler's, chosen among :attr:`proposals` by likelihood (or, with one proposal, weighed by it)."""
        self.stats.worlds += 1
        if not self._evidence:
            self.stats.proposals += 1
            return self.sampler.sample(rng)
        if self.weighting:
            return self._weighed_world(rng)
        pool: list[tuple[World, State]] = []
        attempts = 0
        while len(pool) < self.proposals and attempts < 4 * self.proposals:
            if pool and self.until is not None and time.monotonic() > self.until:
                break
            attempts += 1
            world = self.sampler.propose(rng)
            if world is None:
                continue
            state = self.sampler.check(world)
            if state is not None:
                pool.append((world, state))
        if not pool:
            self.stats.proposals += 1
            return self.sampler.sample(rng)  # a rarely consistent observation: the plain sampler's redraws (or its error)
        self.stats.proposals += len(pool)
        if len(pool) == 1:
            return pool[0][1]
        logs = [self.log_likelihood(world) for world, _state in pool]
        self.last_weights = logs
        return pool[choose_index(logs, rng)][1]

    def _weighed_world(self, rng: random.Random) -> State:
        """One consistent world of the plain sampler, its log-likelihood kept for :meth:`log_weight`."""
        for _attempt in range(self.sampler.max_attempts):
            self.stats.proposals += 1
            world = self.sampler.propose(rng)
            state = self.sampler.check(world) if world is not None else None
            if world is not None and state is not None:
                log = self.log_likelihood(world)
                self.last_weights = [log]
                self._weighed[id(state)] = (state, log)
                return state
        return self.sampler.sample(rng)  # raises the plain sampler's error, as its own draws would


def choose_index(logs: Sequence[float], rng: random.Random) -> int:
    """An index drawn with probability proportional to ``exp(logs[i])`` (uniform when all are ``-inf``)."""
    top = max(logs)
    if top == -math.inf:
        return rng.randrange(len(logs))
    weights = [math.exp(v - top) for v in logs]
    x = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        x -= w
        if x < 0:
            return i
    return len(weights) - 1


def likelihood_weights(logs: Sequence[float]) -> list[float]:
    """Vote weights from log-likelihoods: ``exp(log - max)``, so the likeliest world weighs 1 (all 1 when none is finite)."""
    top = max(logs, default=-math.inf)
    if top == -math.inf:
        return [1.0] * len(logs)
    return [math.exp(v - top) for v in logs]
