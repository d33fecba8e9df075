"""Single-observer Information Set Monte Carlo Tree Search (SO-ISMCTS), generic over the Game/State API.

The algorithm is the one of Cowling, Powley and Whitehouse, "Information Set
Monte Carlo Tree Search" (IEEE TCIAIG 4(2), 2012), for one searching seat
(the *observer*).  One tree is grown per decision; its root is the observer's
information set and each edge an action code.  Every iteration

1. takes a **determinization**: a full world consistent with the observation
   (:mod:`stich.search.sampling`), so the search never reads the real hidden
   cards;
2. **selects** down the tree, at each node only among the children whose
   action is legal in this world, by UCB1 with *availability counts*: a
   child's exploration term uses how often it was available (legal when its
   parent was visited), not the parent's visit count;
3. **expands** one action legal in this world that has no child yet;
4. plays a **rollout** to the end of the deal (:class:`RandomRollout`,
   :class:`HeuristicRollout`, or for Doppelkopf :class:`KernelRollout`);
5. **backpropagates** the bounded reward of every seat: a node adds the
   reward of the seat that moved into it, so each node rates its action from
   its mover's point of view (multi-player, not zero-sum).

It works in every phase (bidding, talon, discards, announcements, play):
all of them are just actions of the State.  Actions the observer cannot see
(another seat's face-down discard) are edges like any other, keyed by their
code in the world where they were made; this is the single-observer
simplification (the multi-observer variant would merge them).

**Determinizations.**  Drawing a world costs about 0.2-0.3 ms, more than an
iteration should.  A :class:`WorldPool` draws a new world every
``resample_every`` iterations until it holds ``pool_size`` worlds and
cycles through them otherwise; each iteration works on a clone.

**Rewards.**  Scores differ by orders of magnitude between games and
contracts (a Dobbm or Droggn deal with doublings or a Retour can be worth
thousands under random play), and UCB needs bounded rewards.  A seat's
reward is ``tanh(score / scale)`` with a per-game ``scale`` in
:data:`REWARD_SCALES` (about a typical absolute score of a sensibly played
deal): within (-1, 1), linear for ordinary scores, saturating for huge ones.
A thrown-in deal scores 0 for everybody.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from stich.core.game import Action, Game, Observation, State
from stich.search.perfect_info import in_trick_play, play_flags, teams, tricks_left
from stich.search.policy import Policy, PolicyFactory
from stich.search.sampling import Drawing, SamplingError
from stich.search.scores import score_value
from stich.search.voting import vote

REWARD_SCALES: dict[str, float] = {
    "doppelkopf": 4.0,
    "tapp_tarock": 10.0,
    "dobbm": 12.0,
    "droggn": 60.0,
    "dappen": 40.0,
}
"""Game name -> score that maps to a reward of tanh(1) ~ 0.76 (about a typical |score| of a well-played deal)."""

DEFAULT_SCALE = 10.0
"""Scale for a game missing from :data:`REWARD_SCALES`."""

EXPLORATION = 0.7
"""UCB1 exploration constant ``c`` in ``mean + c * sqrt(ln(available) / visits)`` (rewards lie in (-1, 1))."""

Rewards = list[float]

PLAY_PHASE = "play"
"""The ``phase_name`` of card play in every game's state (the phase :class:`MixedRollout` hands to its fast rollout)."""

MIN_VARIANCE = 0.01
"""Floor of a root action's reward variance in :func:`choose_root` (a handful of equal rewards prove little)."""

PRIOR_BONUS = 0.5
"""Progressive bias of the anchor action at the root: UCB adds ``PRIOR_BONUS / visits`` to it, fading as evidence grows."""

SWITCH_Z = 2.0
"""How many standard errors better than the anchor's mean a root action must be for :meth:`ISMCTS.search` to prefer it."""

SWITCH_GAP = 0.05
"""Smallest lead in mean reward over the anchor that counts as clearly better, however many visits.

Rollouts are biased (random card play), so a long search's tiny standard
error alone would let that bias overrule the heuristic on near-ties."""

SWITCH_GAPS: dict[str, float] = {"droggn": 0.3}
"""Per-game :data:`SWITCH_GAP`: in Droggn random card play rates leading the Pagat (T1) and other trumps
far too well and big scores saturate the rewards, so small leads are not trusted there."""


def reward_scale(game: Game) -> float:
    """The score scale of ``game`` for :func:`bounded_rewards`."""
    return REWARD_SCALES.get(game.name, DEFAULT_SCALE)


def bounded_rewards(scores: Sequence[int], scale: float) -> Rewards:
    """Each seat's score squeezed into (-1, 1): ``tanh(score / scale)``."""
    return [math.tanh(score_value(s) / scale) for s in scores]


# --------------------------------------------------------------------------- rollouts


class Rollout(Protocol):
    """Plays a world to the end and returns every seat's bounded reward."""

    name: str

    def __call__(self, state: State, rng: random.Random) -> Rewards: ...


@runtime_checkable
class RootAware(Protocol):
    """A rollout that plays differently depending on whose search it serves (:meth:`ISMCTS.search` tells it)."""

    def set_root(self, seat: int) -> None: ...


class RandomRollout:
    """Uniformly random legal actions to the end of the deal (cheap: a few µs per action)."""

    name = "random"

    def __init__(self, game: Game) -> None:
        self.scale = reward_scale(game)

    def finish(self, state: State, rng: random.Random) -> None:
        """Play ``state`` to the end with random legal actions (in place)."""
        rand = rng.random
        while not state.is_terminal():
            codes = state.legal_codes()
            state._apply_code(codes[int(rand() * len(codes))])

    def __call__(self, state: State, rng: random.Random) -> Rewards:
        self.finish(state, rng)
        return bounded_rewards(state.result().scores, self.scale)


def heuristic_step(state: State, bots: Sequence[Policy]) -> None:
    """One action in ``state`` by its mover's bot from the mover's observation (a forced action without asking)."""
    codes = state.legal_codes()
    if len(codes) == 1:
        state._apply_code(codes[0])
        return
    seat = state.current_player()
    state._apply_code(bots[seat].choose(state.observation(seat)).code)


class HeuristicRollout:
    """Every seat plays its policy from ``players`` (the ``heuristic`` bots) on its own observation (stronger, 30-60x slower per action).

    With a ``finish`` rollout, card play with at most ``finish_tricks``
    tricks left is handed to it: the exact endgame search (the
    :class:`ExactEndgame` of the game, or the Doppelkopf kernel rollout, which
    solves its last tricks), as the ``pimc`` bot values its simulations.
    """

    name = "heuristic"

    def __init__(self, game: Game, seed: int, players: PolicyFactory, finish: Rollout | None = None, finish_tricks: int = 0) -> None:
        self.scale = reward_scale(game)
        self.bots: list[Policy] = [players(game, seat, seed + seat) for seat in range(game.num_seats)]
        self.table = game.actions.actions
        self.finish = finish
        self.finish_tricks = finish_tricks if finish is not None else 0

    def __call__(self, state: State, rng: random.Random) -> Rewards:
        bots = self.bots
        horizon = self.finish_tricks
        while not state.is_terminal():
            if horizon and in_trick_play(state) and tricks_left(state) <= horizon and self.finish is not None:
                return self.finish(state, rng)
            heuristic_step(state, bots)
        return bounded_rewards(state.result().scores, self.scale)


class MixedRollout:
    """The seats' policies from ``players`` (the heuristic bots) before card play (bids, talon, announcing), then a fast card-play rollout.

    Random bidding makes a declaration look bad (random partners and
    opponents bid and double wildly), which made random rollouts pass in
    Tapp Tarock; the heuristic's bidding costs a few observations per rollout
    only, while card play, the bulk of the actions, stays cheap.  ``play`` is
    the card-play rollout (``random``, or the Doppelkopf ``kernel``); the
    phase comes from the state's ``phase_name`` (a state without one counts
    as being in card play already).
    """

    name = "mixed"

    def __init__(self, game: Game, seed: int, players: PolicyFactory, play: Rollout) -> None:
        self.scale = reward_scale(game)
        self.bots: list[Policy] = [players(game, seat, seed + seat) for seat in range(game.num_seats)]
        self.play = play

    def set_root(self, seat: int) -> None:
        """Pass the searching seat on to the card-play rollout if it asks for it (:class:`RootAware`)."""
        if isinstance(self.play, RootAware):
            self.play.set_root(seat)

    def __call__(self, state: State, rng: random.Random) -> Rewards:
        bots = self.bots
        while not state.is_terminal() and getattr(state, "phase_name", PLAY_PHASE) != PLAY_PHASE:
            heuristic_step(state, bots)
        if state.is_terminal():
            return bounded_rewards(state.result().scores, self.scale)
        return self.play(state, rng)


def best_line_scores(state: State) -> tuple[float, Sequence[int]]:
    """The end of the card play when both teams play their best: the first team's value and every seat's score there.

    Plain alpha-beta over the ``play`` actions through the engine (as
    :class:`stich.search.perfect_info.AlphaBeta`), for the team with label 0
    of :func:`~stich.search.perfect_info.teams` (Re, the declarer, Dappen's
    lone player) maximising the score of its first seat against the others.
    Besides the value it returns the scores of all seats at the end of a line
    that reaches that value, which is what a tree search backs up.  Meant for
    the last two or three tricks: it is exponential in the tricks left.  The
    teams are read once, at ``state``, except in Doppelkopf, where a wedding
    may still be clarified on the way.
    """
    side = teams(state)
    seat = side.index(0) if 0 in side else state.current_player()
    fixed = None if state.game.name == "doppelkopf" else side
    return _best_line(state, seat, -math.inf, math.inf, fixed, play_flags(state.game))


def _best_line(
    state: State, seat: int, alpha: float, beta: float, fixed: tuple[int, ...] | None, flags: tuple[bool, ...]
) -> tuple[float, Sequence[int]]:
    if state.is_terminal():
        final = state.result().scores
        return score_value(final[seat]), final
    side = fixed if fixed is not None else teams(state)
    maximising = side[state.current_player()] == side[seat]
    best = -math.inf if maximising else math.inf
    best_scores: Sequence[int] = ()
    for code in state.legal_codes():
        if not flags[code]:
            continue
        child = state.clone()
        child._apply_code(code)
        value, scores = _best_line(child, seat, alpha, beta, fixed, flags)
        if maximising:
            if value > best:
                best, best_scores = value, scores
            alpha = max(alpha, best)
        else:
            if value < best:
                best, best_scores = value, scores
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best, best_scores


class ExactEndgame:
    """Trick play with at most ``tricks`` tricks left valued by exact search (:func:`best_line_scores`), else by ``inner``.

    Random card play decides the last tricks of a Tarock deal by chance: who
    keeps the Pagat for the last trick, who smears his points, whether the
    declarer's last trump is drawn.  The ``pimc`` bot searches those tricks
    exactly; with this wrapper the ISMCTS leaves near the end are valued the
    same way, so the tree's endgame decisions compare perfect-play outcomes
    instead of noisy random ones (at a few times a random ending's cost).
    """

    name = "exact"

    def __init__(self, game: Game, inner: Rollout, tricks: int) -> None:
        self.scale = reward_scale(game)
        self.inner = inner
        self.tricks = tricks
        self.solved = 0
        """Leaves valued by exact search so far."""

    def set_root(self, seat: int) -> None:
        """Pass the searching seat on to ``inner`` if it asks for it (:class:`RootAware`)."""
        if isinstance(self.inner, RootAware):
            self.inner.set_root(seat)

    def __call__(self, state: State, rng: random.Random) -> Rewards:
        if not state.is_terminal() and in_trick_play(state) and tricks_left(state) <= self.tricks:
            _value, scores = best_line_scores(state)
            self.solved += 1
            return bounded_rewards(scores, self.scale)
        return self.inner(state, rng)


def rescale(rollout: Rollout, scale: float) -> Rollout:
    """Set the reward ``scale`` of ``rollout`` and of the rollouts it hands over to (``play``, ``finish``, ``inner``), in place.

    Every rollout squeezes the scores it reaches by ``tanh(score / scale)``
    with the game's :func:`reward_scale`; ``ismcts:rewards=score`` values
    outcomes nearly linearly in the score instead (a scale many times the
    game's), so the rollouts it plays must use that scale too.  Call it
    before the first rollout: the compiled rollouts cache their rewards.
    """
    seen: set[int] = set()
    stack: list[object] = [rollout]
    while stack:
        part = stack.pop()
        if id(part) in seen or not hasattr(part, "scale"):
            continue
        seen.add(id(part))
        part.scale = scale
        cache = getattr(part, "_rewards", None)
        if isinstance(cache, dict):
            cache.clear()  # rewards cached at the old scale
        stack.extend(getattr(part, name) for name in ("play", "finish", "inner") if getattr(part, name, None) is not None)
    return rollout


# --------------------------------------------------------------------------- tree


class Node:
    """One node of the tree: the information set reached by the actions on its path.

    ``player`` is the seat that moved into it (``-1`` at the root), ``total``
    the sum of that seat's rewards over the ``visits`` through it, and
    ``avail`` how many times its action was legal when its parent was
    visited (so ``avail >= visits``).
    """

    __slots__ = ("avail", "children", "guided", "outcomes", "player", "squares", "total", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.squares = 0.0
        """Sum of the squared rewards (kept for the root's children only, for :func:`choose_root`)."""
        self.children: dict[int, Node] = {}
        self.outcomes: dict[int, Rewards] | None = None
        """At a terminal node: the rewards per world of the pool (the end of a deal is evaluated once per world)."""
        self.guided: dict[int, int] | None = None
        """At another seat's node with ``others``, its model's choice, per world of the pool.

        The node and the world fix the state, so each pair costs one call."""

    def mean(self) -> float:
        """Mean reward of the mover (0 before the first visit)."""
        return self.total / self.visits if self.visits else 0.0

    def variance_of_mean(self) -> float:
        """Estimated variance of :meth:`mean` (sample variance over visits, floored at :data:`MIN_VARIANCE`)."""
        if not self.visits:
            return math.inf
        mean = self.mean()
        return max(self.squares / self.visits - mean * mean, MIN_VARIANCE) / self.visits


def choose_root(root: Node, legal: Set[int], anchor: int | None, z: float | None = None, gap: float | None = None) -> int:
    """The action to play after a search: the most visited legal root action, unless the ``anchor`` holds its own.

    Without an anchor (or one never tried) this is plain ISMCTS: most visits,
    ties by higher mean, then lower code.  With one (the heuristic bot's
    choice), the most visited action replaces it only when its mean reward
    exceeds the anchor's by more than ``z`` standard errors of the
    difference and by at least ``gap`` (defaults :data:`SWITCH_Z`,
    :data:`SWITCH_GAP`), so a short, noisy search cannot talk the bot out of
    a sound move, and a long one still can.
    """
    candidates = [(ch.visits, ch.mean(), -code, code) for code, ch in root.children.items() if code in legal]
    best = max(candidates)[3]
    if anchor is None or anchor == best or anchor not in root.children or anchor not in legal:
        return best
    top, held = root.children[best], root.children[anchor]
    z = SWITCH_Z if z is None else z
    gap = SWITCH_GAP if gap is None else gap
    margin = max(gap, z * math.sqrt(top.variance_of_mean() + held.variance_of_mean()))
    return best if top.mean() - held.mean() > margin else anchor


PAIRED_CONFIDENCE = 1.0
"""Standard errors by which an action's paired lead over the anchor must exceed zero in :func:`choose_paired`."""

MIN_SWEEPS = 4
"""Complete sweeps (worlds) a paired search needs before it may overrule the anchor."""

PAIRED_POOL = 4096
"""Worlds a paired search may draw (one per sweep), so that its rows are independent samples while time allows."""


def choose_paired(
    rows: Sequence[Sequence[float]], codes: Sequence[int], anchor: int | None, *, gap: float = SWITCH_GAP, eager: bool = False
) -> int:
    """The action of a paired search: ``rows[w][i]`` is the observer's reward for ``codes[i]`` in world ``w``.

    With an anchor, the best action by winsorized mean paired difference to
    the anchor (:func:`~stich.search.voting.vote`) replaces the anchor only
    with at least :data:`MIN_SWEEPS` worlds, a lead above
    :data:`PAIRED_CONFIDENCE` standard errors, and a lead of at least
    ``gap``; ``eager`` drops these three conditions, as the ``pimc`` bot
    does in card play: any lead counts, ties go to the anchor.  Without an
    anchor it is the best mean (ties to the lower code).  With no complete
    sweep, the anchor, or else the lowest code.
    """
    if not rows:
        return anchor if anchor is not None else min(codes)
    if anchor is None:
        best, _scores = vote(rows, 0)
        return codes[best]
    base = list(codes).index(anchor)
    if eager:
        return codes[vote(rows, base)[0]]
    best, scores = vote(rows, base, confidence=PAIRED_CONFIDENCE, min_worlds=MIN_SWEEPS)
    return codes[best] if best != base and scores[best] >= gap else anchor


def halve(rows: Sequence[Sequence[float]], codes: Sequence[int], anchor: int | None) -> tuple[list[int], list[list[float]]]:
    """Sequential halving of a paired root: the better half of ``codes`` (at least two, the anchor always among them) and their columns.

    ``rows[w][i]`` is the observer's reward for ``codes[i]`` in world ``w``.
    The actions are ranked by their winsorized mean paired difference to the
    anchor (to the first code without one, :func:`~stich.search.voting.vote`);
    the anchor stays whatever its rank, as the action the search must beat
    (without an anchor the best half is kept, whichever it is).
    The kept codes keep their order, and so do the kept columns of ``rows``.
    """
    if len(codes) <= 2 or not rows:
        return list(codes), [list(row) for row in rows]
    base = list(codes).index(anchor) if anchor is not None else 0
    _best, scores = vote(rows, base)
    keep_count = max(2, (len(codes) + 1) // 2)
    ranked = sorted(range(len(codes)), key=lambda i: (-scores[i], codes[i]))
    kept = sorted(ranked[:keep_count]) if anchor is None else sorted([base, *[i for i in ranked if i != base][: keep_count - 1]])
    return [codes[i] for i in kept], [[row[i] for i in kept] for row in rows]


class OutOfTime(SamplingError):
    """The time budget ran out before the first world of a search was drawn (the caller falls back on another choice)."""


class WorldPool:
    """Determinizations for one decision: a new world every ``resample_every`` iterations up to ``pool_size``, then cycling.

    ``draw`` may return ``None`` (out of time): the pool then cycles through
    the worlds it has, or raises :class:`OutOfTime` when it has none.
    """

    def __init__(
        self,
        draw: Callable[[random.Random], State | None],
        rng: random.Random,
        *,
        pool_size: int,
        resample_every: int,
        draw_share: float | None = None,
    ) -> None:
        if pool_size < 1 or resample_every < 1:
            raise ValueError("pool_size and resample_every must be at least 1")
        if draw_share is not None and not 0.0 < draw_share <= 1.0:
            raise ValueError(f"draw_share must lie in (0, 1], got {draw_share}")
        self.draw = draw
        self.rng = rng
        self.pool_size = pool_size
        self.resample_every = resample_every
        self.draw_share = draw_share
        """With a share: a due world is drawn only while drawing took at most this share of the time since the pool began."""
        self.drawing = 0.0
        self.started = time.perf_counter()
        self.worlds: list[State] = []
        self.cursor = 0

    def _may_draw(self, iteration: int) -> bool:
        if len(self.worlds) >= self.pool_size:
            return False
        if iteration % self.resample_every:
            return False
        return self.draw_share is None or self.drawing <= self.draw_share * (time.perf_counter() - self.started)

    def world(self, iteration: int) -> tuple[int, State]:
        """The index and a fresh clone of the world for ``iteration`` (callers mutate the clone)."""
        worlds = self.worlds
        fresh = None
        if not worlds or self._may_draw(iteration):
            begun = time.perf_counter()
            fresh = self.draw(self.rng)
            self.drawing += time.perf_counter() - begun
            if fresh is None and not worlds:
                raise OutOfTime("the time budget ran out before a first world could be drawn")
        if fresh is not None:
            worlds.append(fresh)
            self.cursor = len(worlds) - 1
        else:
            self.cursor = (self.cursor + 1) % len(worlds)
        return self.cursor, worlds[self.cursor].clone()


@dataclass
class SearchResult:
    """What a search found: the chosen action code, the tree and how much work it did."""

    code: int
    root: Node
    iterations: int
    worlds: int


class ISMCTS:
    """SO-ISMCTS for one decision of one seat; :meth:`search` grows a tree and picks the root action.

    ``paired`` switches the root to *paired sweeps* (see :meth:`search`).
    """

    def __init__(
        self,
        game: Game,
        rollout: Rollout,
        *,
        exploration: float = EXPLORATION,
        pool_size: int = 64,
        resample_every: int = 4,
        paired: bool = False,
        flat: bool = False,
        draw_share: float | None = None,
        others: Sequence[Policy] | None = None,
        eager: bool = False,
        scale: float | None = None,
        halving: bool = False,
    ) -> None:
        self.game = game
        self.scale = reward_scale(game) if scale is None else scale
        """The score that maps to a reward of tanh(1) at the deal ends the tree reaches (the rollout has its own, see :func:`rescale`)."""
        if self.scale <= 0:
            raise ValueError(f"scale must be positive, got {scale}")
        self.halving = halving
        """With ``paired``: sequential halving of the root actions (see :meth:`search`)."""
        if halving and not paired:
            raise ValueError("halving needs paired root sweeps")
        self.eager = eager
        """With ``paired``: any paired lead over the anchor switches (:func:`choose_paired`), as in the ``pimc`` bot."""
        self.observer = -1
        """The searching seat of the current :meth:`search`."""
        self.others = list(others) if others is not None else None
        """One bot per seat that plays the other seats' cards in the tree (see :meth:`_iterate`); ``None``: the tree chooses them."""
        self.draw_share = draw_share
        """Most of a timed search's time that drawing worlds may take (:class:`WorldPool`); ``None``: no limit."""
        self.rollout = rollout
        self.exploration = exploration
        self.pool_size = pool_size
        self.resample_every = resample_every
        self.paired = paired
        self.flat = flat
        """With ``paired``: every sweep rolls out straight after the root action (no tree below the root), see :meth:`search`."""
        if flat and not paired:
            raise ValueError("flat needs paired root sweeps")

    def search(
        self,
        observation: Observation,
        sampler: Drawing,
        rng: random.Random,
        *,
        iterations: int | None = None,
        stop: Callable[[], bool] | None = None,
        anchor: int | None = None,
        only: Sequence[Action] | None = None,
        eager: bool | None = None,
    ) -> SearchResult:
        """Run ``iterations`` iterations, or until ``stop()`` says so (asked before every iteration but the first).

        ``anchor`` (an action code, normally the heuristic bot's choice) is
        tried first at the root, gets a progressive bias there
        (:data:`PRIOR_BONUS`), and is kept unless another action is clearly
        better (:func:`choose_root`).  Only the observation and worlds drawn
        from ``sampler`` are read; the result depends only on them and on
        ``rng``.  ``only`` narrows the root to some of the legal actions
        (the cards, when the bot leaves a call open during trick play to the
        heuristic); without it every legal action is searched.

        With ``paired`` the root is not chosen by UCB: each world is played
        once after *every* root action (a sweep; below the root the tree is
        searched as usual, one information set per node), so the actions are
        compared by their paired differences in the same worlds, winsorized
        (:func:`~stich.search.voting.vote`), as the ``pimc`` bot compares
        them.  The luck of a world, which dominates a single rollout, cancels
        out.  Every sweep draws a new world while the pool is not full.  The
        anchor is kept unless another action leads it by more than
        :data:`PAIRED_CONFIDENCE` standard errors and by the game's switch gap;
        a search too short for :data:`MIN_SWEEPS` sweeps keeps it (or, without
        one, plays the best mean).

        With ``halving`` (paired only) not every root action is played in
        every world: after :data:`MIN_SWEEPS` complete sweeps, and again
        each time the sweeps double (8, 16, 32, ...), the worse half of the
        actions still swept is dropped (:func:`halve`; the anchor always
        stays), so the last actions standing are compared over many more
        worlds than a full sweep of every action would give them in the same
        time (sequential halving, Karnin, Koren and Somekh, ICML 2013).  The
        choice is then made among the remaining actions, over every world.

        ``eager`` overrides, for this search only, the switch rule the search
        was built with (``eager`` of the constructor; ``None`` keeps it): the
        bot's ``defend=careful`` searches a defender's cards with the careful
        rule while its declarer's are eager.

        ``flat`` (with ``paired``) rolls every sweep out straight after the
        root action: no tree below the root.  Each new node below the root
        is first tried with a uniformly random action, so in a short search
        the next seats' first answers (a bid, a double, the searching seat's
        own next card after a call) would be random in most sweeps and blur
        the comparison; flat sweeps let the rollout policy play them, as the
        ``pimc`` bot's simulation does.
        """
        if iterations is None and stop is None:
            raise ValueError("search needs iterations or stop")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        root = Node(-1)
        if self.paired:
            pool_size, resample_every = max(self.pool_size, PAIRED_POOL), 1
        else:
            pool_size, resample_every = self.pool_size, self.resample_every
        share = self.draw_share if iterations is None else None  # a fixed number of iterations stays reproducible
        pool = WorldPool(lambda r: sampler.draw(r, stop), rng, pool_size=pool_size, resample_every=resample_every, draw_share=share)
        root_codes = frozenset(a.code for a in (observation.legal_actions if only is None else only))
        narrowed = root_codes if only is not None else None
        if anchor is not None and anchor not in root_codes:
            raise ValueError(f"anchor {anchor} is not a legal action of the observation")
        sweep = sorted(root_codes)
        checkpoint = MIN_SWEEPS  # with ``halving``: the number of complete sweeps at which the root actions are halved next
        rows: list[list[float]] = []
        row: list[float] = []
        seat = self.observer = observation.seat
        if isinstance(self.rollout, RootAware):
            self.rollout.set_root(seat)
        world = -1
        state: State | None = None
        done = 0
        while True:
            if iterations is not None:
                if done >= iterations:
                    break
            elif done and stop is not None and stop():
                break
            if not self.paired:
                world, state = pool.world(done)
                self._iterate(root, state, world, rng, anchor, None, narrowed)
            else:
                if not row:
                    world, state = pool.world(len(rows))
                else:
                    state = pool.worlds[world].clone()
                rewards = self._iterate(root, state, world, rng, anchor, sweep[len(row)], narrowed)
                row.append(rewards[seat])
                if len(row) == len(sweep):
                    rows.append(row)
                    row = []
                    if self.halving and len(rows) == checkpoint:
                        checkpoint *= 2
                        sweep, rows = halve(rows, sweep, anchor)
            done += 1
        gap = SWITCH_GAPS.get(self.game.name, SWITCH_GAP)
        if self.paired:
            code = choose_paired(rows, sweep, anchor, gap=gap, eager=self.eager if eager is None else eager)
        else:
            code = choose_root(root, root_codes, anchor, gap=gap)
        return SearchResult(code, root, done, len(pool.worlds))

    def _iterate(
        self,
        root: Node,
        state: State,
        world: int,
        rng: random.Random,
        anchor: int | None,
        forced: int | None,
        narrowed: frozenset[int] | None,
    ) -> Rewards:
        """One iteration on ``state`` (a clone of world ``world``): select, expand, roll out, back up; every seat's rewards.

        ``forced`` is the root action to take (paired sweeps); otherwise the
        root is selected by UCB like every other node, among the ``narrowed``
        codes only when given (see ``only`` in :meth:`search`).

        Untried actions come in random order (the anchor first at the root).

        With ``others``, a card-play node where a seat other than the
        observer moves with a choice is no choice of the tree: that seat's
        model bot plays from its observation of this world (cached per world
        in :attr:`Node.guided`) and the descent goes on without expanding there.
        """
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        rand = rng.random
        node = root
        path = [root]
        if forced is not None:
            child = root.children.get(forced)
            expanded = child is None
            if child is None:
                child = root.children[forced] = Node(state.current_player())
            child.avail += 1
            state._apply_code(forced)
            path.append(child)
            node = child
            if expanded or self.flat:
                return self._finish(path, state, world, rng)
        others = self.others
        observer = self.observer
        while not state.is_terminal():
            codes = state.legal_codes()
            if others is not None and len(codes) > 1 and in_trick_play(state):
                mover = state.current_player()
                if mover != observer:
                    # Another seat's card: its model bot plays it (cached per node and world); the tree does not choose.
                    if node.guided is None:
                        node.guided = {}
                    code = node.guided.get(world, -1)
                    if code < 0:
                        code = node.guided[world] = others[mover].choose(state.observation(mover)).code
                    child = node.children.get(code)
                    if child is None:
                        child = node.children[code] = Node(mover)
                    child.avail += 1
                    state._apply_code(code)
                    path.append(child)
                    node = child
                    continue
            if narrowed is not None and node is root:
                codes = [code for code in codes if code in narrowed]
            children = node.children
            # The action the root favours: the anchor.
            favoured = anchor if node is root else None
            untried: list[int] = []
            best = -math.inf
            chosen = -1
            # One pass: count availability of the existing children, rate them by UCB1, collect the untried actions.
            for code in codes:
                ch = children.get(code)
                if ch is None:
                    untried.append(code)
                    continue
                ch.avail += 1
                value = ch.total / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                if code == favoured:
                    value += PRIOR_BONUS / ch.visits
                if value > best:
                    best = value
                    chosen = code
            if untried:
                first = favoured is not None and favoured in untried
                code = favoured if first and favoured is not None else untried[int(rand() * len(untried))]
                child = children[code] = Node(state.current_player())
                child.avail = 1
                state._apply_code(code)
                path.append(child)
                break
            node = children[chosen]
            path.append(node)
            state._apply_code(chosen)
        return self._finish(path, state, world, rng)

    def _finish(self, path: list[Node], state: State, world: int, rng: random.Random) -> Rewards:
        """Value the end of ``path`` (a deal end once per world, else a rollout) and back the rewards up along it."""
        if state.is_terminal():
            leaf = path[-1]
            if leaf.outcomes is None:
                leaf.outcomes = {}
            rewards = leaf.outcomes.get(world)
            if rewards is None:
                rewards = leaf.outcomes[world] = bounded_rewards(state.result().scores, self.scale)
        else:
            rewards = self.rollout(state, rng)
        for n in path:
            n.visits += 1
            if n.player >= 0:
                n.total += rewards[n.player]
        if len(path) > 1:
            head = path[1]
            head.squares += rewards[head.player] ** 2
        return rewards
