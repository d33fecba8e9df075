"""The ``ismcts`` bot: Information Set Monte Carlo Tree Search on worlds sampled from its observation.

Each decision grows a single-observer ISMCTS tree (:mod:`stich.search.ismcts`)
over worlds drawn by :func:`stich.bots.samplers.prepare_sampler`, so the bot
sees only its observation.  Options (``ismcts:level=2``, ``ismcts:simulations=500``):

* ``level`` 1..5 or ``time`` (seconds per decision): iterate until the budget
  of :mod:`stich.search.budget` runs out (default level 3, 0.6 s);
* ``simulations``: exactly this many iterations per decision instead, so
  that the same seed gives the same decisions (tests, reproducible matches);
* ``rollout``: ``auto`` (the per-game choice of :data:`AUTO_ROLLOUT`),
  ``mixed`` (heuristic bidding, then random or kernel card play),
  ``greedy`` (``mixed`` with rule-based card play, Tarock family only,
  :mod:`stich.bots.tarock_family.greedy_playout`),
  ``random``, ``heuristic`` or ``kernel`` (Doppelkopf, Dobbm and Tapp Tarock, :func:`~stich.bots.rollouts.kernel_games`),
  or ``kernel-heuristic`` (Dobbm and Tapp Tarock: the heuristic's card play compiled, :mod:`stich.bots.dobbm.playout`,
  :mod:`stich.bots.tapp_tarock.playout`);
* ``prior``: ``true`` (default) anchors the search on the ``heuristic``
  bot's choice: it is tried first, favoured by a fading bonus and played
  unless another action is clearly better (:func:`~stich.search.ismcts.choose_root`);
  ``false`` gives plain ISMCTS;
* ``calls``: how decisions outside card play (bids, talon, discards,
  announcements before play, doubles) are searched: ``auto`` (default) is
  the per-game choice of :data:`AUTO_CALLS`; ``heuristic``
  in flat paired sweeps (no tree below the root action) whose rollouts let
  every seat's heuristic bot play the deal out, the last tricks searched
  exactly, as the ``pimc`` bot simulates them; ``simulation`` by the ``pimc``
  bot (below, ``call_worlds``).  With ``heuristic``, a call open during trick play (Doppelkopf's announcements)
  is the heuristic's: when it calls, the bot calls; when it plays a card, the
  tree searches the cards alone.  The card-play tree's playouts ignore what
  a hand's strength says about the outcome, so it declined the heuristic's
  Re far too often (−0.34 and −0.48 per such seat in two Doppelkopf matches
  against ``pimc``, 273 and 334 seats; ``tools/first_divergence.py``).
  A defender's double in Tapp Tarock, Dobbm and Droggn is the heuristic's too (:data:`stich.bots.doubles.DEFENDER_DOUBLES`);
* ``call_worlds``: with ``calls=simulation``, the ``pimc`` bot that makes
  the decisions outside card play weighs exactly this many worlds per
  decision (``pimc:worlds=N``) instead of sharing the time budget.  Its
  choices are then a function of the seed and the observation, so in a
  duplicate match against ``pimc:worlds=N``, or ``pimc:call_worlds=N``
  whose cards stay timed (the arena gives a seat's bots the same seed),
  both make the same calls wherever they see the same deal, and the match
  measures the card play alone: in Dappen the bidding
  of two time-budgeted ``pimc`` simulations swung thousands of points
  either way over 150 deals and buried the cards' difference;
* ``defend``: ``tree`` (default) searches a defender's cards like the
  declarer's (a game with a declarer against defenders: the Tarock family,
  a Doppelkopf solo); ``careful``
  searches a defender's cards too, but leaves the heuristic's card only
  for a clear lead (the careful switch, whatever ``switch`` says), so that
  with ``switch=eager`` only the declarer takes any paired lead: the
  ``pimc``-like tree (``others=heuristic,switch=eager``) gained against
  ``pimc`` where its declarer kept the heuristic's card and ``pimc`` left
  it, and lost where its defenders left it and ``pimc`` kept it (Droggn,
  the first 349 deals of a match: +4.99 per rotation over 292 and -5.36
  over 351; Dobbm, run ``18-reuse-baseline``).  Measured in Droggn with
  ``rollout=heuristic,paired=true,others=heuristic,switch=eager`` against
  ``pimc`` at 0.025 s over 1,000 deals: -1.15 (-2.46 .. +0.16), +1.38
  against plain ISMCTS on the same deals, from the declarer's cards;
  the defenders' rotations still cost -1.42 per deal (docs/strength.md,
  run ``4-careful-defence``).  That variant is Droggn's tuned default
  (:data:`TUNED`); ``tree`` stays the plain default;
* ``draw_share``: ``auto`` (:data:`DRAW_SHARES`: 0.3 in Dobbm, no limit
  elsewhere) or a share in (0, 1]: the most of a timed card-play search
  that drawing worlds may take; 1 draws a world whenever one is due.
* ``halving``: with ``paired=true``, ``true`` drops the worse half of
  the root actions after 4 sweeps and again at 8, 16, 32, ... sweeps
  (sequential halving, :func:`~stich.search.ismcts.halve`), so that the
  best actions are compared over more worlds; ``false`` (default) sweeps
  every action in every world;
* ``rewards``: ``bounded`` (default) values each deal end by
  ``tanh(score / scale)`` (:data:`~stich.search.ismcts.REWARD_SCALES`), a
  risk-averse utility that flattens large scores; ``score`` values it
  nearly linearly in the score, the quantity a match measures and the
  ``pimc`` bot maximizes (the scale :data:`SCORE_SCALE_FACTOR` times
  larger, the exploration constant as many times smaller, so UCB keeps its
  balance below the root);
* ``paired``: ``true`` compares the root actions in paired sweeps (every
  action played in every world, compared by winsorized paired differences
  like the ``pimc`` bot, see :meth:`~stich.search.ismcts.ISMCTS.search`),
  ``false`` selects them by UCB like every other node.  The default is
  :data:`PAIRED_DEFAULT`.
* ``tuned``: ``true`` (default) gives ``rollout``, ``paired``, ``others``,
  ``switch``, ``defend``, ``draw_share`` and ``rewards``, where the spec
  leaves them out, the values of the game's best variant measured against
  ``pimc`` (:data:`TUNED`: Dobbm and Droggn); ``false`` gives plain
  ISMCTS's defaults (:data:`PLAIN`, the defaults named above), those of
  every ``ismcts`` row of docs/strength.md measured before
  docs/decisions/0021-tuned-ismcts-defaults.md.  Tapp Tarock, Dappen and
  Doppelkopf play plain ISMCTS either way.

In Dobbm (:data:`~stich.search.call_reading.INFER_GAMES`) the worlds must
explain the other seats' bids and doubles as the heuristic would have made
them, as for the ``pimc`` bot (:mod:`stich.search.call_reading`).

A single legal action is played at once.  For a game without a world sampler,
an observation no world can be drawn for, or when preparing the sampler
already used up the time budget, the bot plays the ``heuristic`` bot's
choice for that decision (the heuristic is asked first, before the
sampler, so that answer is always at hand).  Such a decision was not
searched: the bot counts it in ``fallbacks`` (:class:`~stich.bots.fallbacks.Fallbacks`)
as ``no_sampler``, ``no_world`` or ``out_of_time``, together with the
fallbacks of its ``calls=simulation`` ``pimc`` bot, and ``stich arena``
reports them per bot.  A forced move and the decisions left to the
heuristic by design (a defender's double, a call during trick play with
``calls=heuristic``) are not
counted.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from stich.bots.base import Bot
from stich.bots.doubles import is_defender_double
from stich.bots.fallbacks import FallbackReason, Fallbacks
from stich.bots.heuristic import make_heuristic
from stich.bots.pimc import MAX_OTHER_CANDIDATES, MAX_WORLDS, PimcBot, make_pimc
from stich.bots.rollouts import kernel_games, make_rollout
from stich.bots.samplers import prepare_sampler
from stich.bots.tarock_family.greedy_playout import GAMES as GREEDY_GAMES
from stich.bots.tarock_rollout import HEURISTIC_POLICY_GAMES
from stich.core.game import Action, Game, Observation
from stich.core.rng import derive_seed
from stich.errors import OptionError
from stich.search.budget import Deadline, resolve_budget
from stich.search.call_reading import INFER_GAMES, CallReadingSampler
from stich.search.ismcts import EXPLORATION, ISMCTS, PLAY_PHASE, OutOfTime, SearchResult, rescale, reward_scale
from stich.search.sampling import SamplingError, WorldSampler

ROLLOUTS = ("auto", "mixed", "greedy", "random", "heuristic", "kernel", "kernel-heuristic")
"""Values of the ``rollout`` option."""

CALLS = ("auto", "heuristic", "simulation")
"""Values of the ``calls`` option."""

OTHERS = ("tree", "heuristic")
"""Values of the ``others`` option: who plays the other seats' cards in the tree."""

SWITCHES = ("careful", "eager")
"""Values of the ``switch`` option: when a paired root search leaves the heuristic's choice."""

REWARDS = ("bounded", "score")
"""Values of the ``rewards`` option: how the tree values the end of a deal."""

SCORE_SCALE_FACTOR = 100.0
"""With ``rewards=score``: how many times the game's reward scale the search divides scores by before ``tanh``.

At 100 times the scale, ``tanh`` is within 0.4% of linear for every score
up to ten typical scores (``tanh(0.1) = 0.0997``); the exploration
constant is divided by the same factor."""

DEFENDS = ("tree", "careful")
"""Values of the ``defend`` option: who chooses a defender's cards."""

AUTO_CALLS: dict[str, str] = {
    "doppelkopf": "heuristic",
    "tapp_tarock": "simulation",
    "dobbm": "simulation",
    "droggn": "simulation",
    "dappen": "simulation",
}
"""``calls`` of ``calls=auto`` per game (``simulation`` for a game missing here).

Doppelkopf keeps ``heuristic``: its ISMCTS rung was reached with it
(docs/strength.md).  In the Tarock family the decisions before card play
carry most of a deal's score, and where the flat sweeps and ``pimc``
parted in Tapp Tarock the bot lost (``pimc``'s Dreier where it passed
−1,656 points in 93 seats, its Pagat ultimo −860 in 19); with
``simulation`` they are ``pimc``'s, the search bot measured above the
heuristic in every game, and the tree adds its card play.  Tapp Tarock
against ``pimc`` at level 1, 1,000 duplicate deals each: −0.04 per deal
(−0.64 .. +0.56) with the flat sweeps (against the ``pimc`` of before its
heuristic defender doubles), +0.02 (−0.11 .. +0.15) with ``simulation``.
"""

AUTO_ROLLOUT: dict[str, str] = {
    "doppelkopf": "mixed",
    "tapp_tarock": "mixed",
    "dobbm": "mixed",
    "droggn": "mixed",
    "dappen": "mixed",
}
"""Rollout of ``rollout=auto`` per game: heuristic bidding then fast card play (kernel in Doppelkopf), see docs/search.md."""

PAIRED_DEFAULT = False
"""Whether card play uses paired root sweeps unless ``paired`` is given.

Off: the ladder's matches against ``pimc`` (docs/strength.md) were played
with UCB roots in card play.  With paired card-play roots in Dobbm at
0.025 s over 1,000 duplicate deals the bot scored -0.04 per deal
(-0.25 .. +0.18) on seed 1's deals (run ``13-paired``, +0.13 against the
UCB-rooted bot on the same deals, paired interval -0.14 .. +0.39) and
-0.30 (-0.52 .. -0.09) on seed 2's (run ``15-paired-seed2``): the
defenders' cards level with ``pimc``'s on both, the declarer's swinging
with the seed.  At level 1 in
Doppelkopf they overruled the heuristic in 17-27% of card-play decisions
without agreeing more often with ``pimc`` at level 3 (docs/search.md).
Decisions outside card play use paired sweeps with ``calls=heuristic`` and ``pimc``'s simulation with ``calls=simulation``.
"""

DRAW_SHARES: dict[str, float] = {"dobbm": 0.3}
"""Per game, the most of a timed card-play search that drawing worlds may take (:class:`~stich.search.ismcts.WorldPool`).

Dobbm's worlds must explain the calls (:mod:`stich.search.call_reading`):
about 2.4 ms a world, against 0.1-0.2 ms an iteration with the kernel
rollout.  Drawing one every fourth iteration took three quarters of a
0.025 s decision (profiled on five first-card positions: 29 iterations per
decision); with the share a decision cycles through fewer worlds and
iterates several times as often.
"""


@dataclass(frozen=True)
class Tuning:
    """Defaults of the options that pick an ISMCTS variant; :data:`PLAIN` is plain ISMCTS, :data:`TUNED` a game's best measured one.

    An option given in the bot's spec always wins.  ``switch`` applies only
    where ``paired`` comes out true (``switch=eager`` is a rule of paired
    root sweeps), so ``paired=false`` alone turns a tuned variant's eager
    switch off instead of being refused.
    """

    rollout: str = "auto"
    paired: bool = PAIRED_DEFAULT
    others: str = "tree"
    switch: str = "careful"
    defend: str = "tree"
    draw_share: float | str = "auto"
    rewards: str = "bounded"
    run: str = ""
    """The ladder run (docs/strength.md) that measured this variant against ``pimc``; empty for :data:`PLAIN`."""


PLAIN = Tuning()
"""The options of plain ISMCTS (``tuned=false``, and every game missing from :data:`TUNED`)."""

TUNED: dict[str, Tuning] = {
    "dobbm": Tuning(rollout="kernel-heuristic", paired=True, others="heuristic", switch="eager", draw_share=1, run="19-level1"),
    "droggn": Tuning(rollout="heuristic", paired=True, others="heuristic", switch="eager", defend="careful", run="4-careful-defence"),
}
"""Per game, the defaults of ``ismcts`` (``tuned=true``, the default): the variant that did best against ``pimc``.

Both were measured over 1,000 duplicate deals of seed 1 against ``pimc``
and did better than plain ISMCTS (docs/strength.md, decision 0021):

* Dobbm, run ``19-level1``: +0.02 per deal (−0.24 .. +0.27) at level 1
  against the ``pimc`` with compiled rollouts, plain ISMCTS −0.33 (−0.55 ..
  −0.10, run ``10-level1``) against the weaker ``pimc`` of before them; a
  bare spec, so tuned, against today's ``pimc``: +0.07 (−0.19 .. +0.34),
  run ``20-tuned-default``;
* Droggn, run ``4-careful-defence``: −1.15 (−2.46 .. +0.16) at 0.025 s,
  +1.38 per deal against plain ISMCTS on the same deals (run ``3-faster-rollouts``,
  −2.53); as the default, −1.01 (−2.21 .. +0.20), run ``6-tuned-default``.

Doppelkopf reached its rung with plain ISMCTS, and in Dappen the
``pimc``-like variant did worse than plain ISMCTS (−1.68 against −1.43,
runs ``3-pimc-like`` and ``2-reuse-baseline``), so both keep :data:`PLAIN`.
So does Tapp Tarock: against today's compiled ``pimc`` plain ISMCTS scored
−0.12 (−0.33 .. +0.09, run ``12-plain-tree``), the variants with compiled
leaves −0.30 and −0.23 (runs ``9-compiled-leaves``, ``10-identical-calls``).
"""

MAX_SIMULATIONS = 10_000_000
"""Largest accepted ``simulations`` (a typo is likelier than intent beyond it)."""


def _auto_rollout(game: Game) -> str:
    """The ``auto`` rollout for ``game``; ``kernel`` falls back to ``random`` without numba."""
    kind = AUTO_ROLLOUT.get(game.name, "mixed")
    if kind == "kernel":
        from stich.bots.doppelkopf import kernel

        if not kernel.available():
            return "random"
    return kind


class IsmctsBot:
    """Chooses by ISMCTS over sampled worlds; seeded, and deterministic with a fixed ``simulations``."""

    name = "ismcts"

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int,
        *,
        budget: float | None,
        simulations: int | None,
        rollout: str,
        prior: bool = True,
        paired: bool = PAIRED_DEFAULT,
        calls: str = "heuristic",
        others: str = "tree",
        switch: str = "careful",
        call_worlds: int | None = None,
        defend: str = "tree",
        draw_share: float | None = None,
        halving: bool = False,
        rewards: str = "bounded",
    ) -> None:
        self.game = game
        self.defend = defend
        """``heuristic``: a defender's card is the heuristic's; ``careful``: searched, with the careful switch (``defend`` option)."""
        self.calls = calls
        self.prior = prior
        self.seat = seat
        self.budget = budget
        self.simulations = simulations
        self.rollout_kind = rollout
        self.rng = random.Random(seed)
        self.paired = paired
        factor = SCORE_SCALE_FACTOR if rewards == "score" else 1.0
        scale = reward_scale(game) * factor
        self.search = ISMCTS(
            game,
            rescale(make_rollout(rollout, game, seed), scale),
            scale=scale,
            exploration=EXPLORATION / factor,
            halving=halving,
            paired=paired,
            draw_share=draw_share,
            others=[make_heuristic(game, s, derive_seed(seed, 2000 + s)) for s in range(game.num_seats)] if others == "heuristic" else None,
            eager=switch == "eager",
        )
        self.call_search = self.search
        """The search of decisions outside card play (see the ``calls`` option)."""
        if calls == "heuristic":
            self.call_search = ISMCTS(game, rescale(make_rollout("heuristic", game, seed), scale), scale=scale, paired=True, flat=True)
        self.fallbacks = Fallbacks()
        """The decisions not searched, by reason (see the module docstring); the simulator counts its own here too."""
        self._unsampled: FallbackReason = "no_world"
        """Why :meth:`_sampler` last returned no sampler."""
        self.simulator: Bot | None = None
        """With ``calls=simulation``: the ``pimc`` bot that makes the decisions outside card play."""
        if calls == "simulation":
            calls_rollout = "kernel-heuristic" if rollout == "kernel-heuristic" else "auto"
            simulator = _simulator(game, seat, seed, budget, simulations, call_worlds, calls_rollout)
            simulator.fallbacks = self.fallbacks
            self.simulator = simulator
        self.fallback: Bot = make_heuristic(game, seat, seed)
        self.readers: list[Bot] = [make_heuristic(game, s, derive_seed(seed, s)) for s in range(game.num_seats)]
        """The heuristic bots whose calls a world must reproduce (games of :data:`~stich.search.call_reading.INFER_GAMES`)."""
        self.clock: Callable[[float], Deadline] = Deadline
        """Makes the per-decision deadline from the budget (tests swap in a fake clock)."""
        self.last_result: SearchResult | None = None
        """The tree and counts of the latest search (``None`` after a shortcut or a fallback)."""

    def choose(self, observation: Observation) -> Action:
        """The most visited root action of an ISMCTS search on ``observation``."""
        if observation.seat != self.seat:
            raise ValueError(f"observation is for seat {observation.seat}, this bot plays seat {self.seat}")
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"seat {self.seat} has no legal action to choose from")
        self.last_result = None
        if len(legal) == 1:
            return legal[0]
        if self.simulator is not None and observation.phase != PLAY_PHASE:
            return self.simulator.choose(observation)  # it leaves a defender's double to its heuristic too
        deadline = self.clock(self.budget) if self.simulations is None and self.budget is not None else None
        heuristic = self.fallback.choose(observation)
        only: tuple[Action, ...] | None = None
        if is_defender_double(self.game, observation):
            return heuristic
        if observation.phase == PLAY_PHASE:
            plays = tuple(a for a in legal if a.kind == "play")
            if len(plays) < len(legal):
                # A call is open during trick play (Doppelkopf's announcements): the heuristic decides it, and
                # the tree searches the cards only (see the ``calls`` option).
                if heuristic.kind != "play" or not plays:
                    return heuristic
                only = plays
        source = self._sampler(observation)
        if source is None:
            self.fallbacks.note(self._unsampled)
            return heuristic
        if deadline is not None and deadline.expired():
            self.fallbacks.note("out_of_time")
            return heuristic
        rng = random.Random(self.rng.getrandbits(64))
        try:
            search = self.search if observation.phase == PLAY_PHASE else self.call_search
            result = search.search(
                observation,
                source,
                rng,
                iterations=self.simulations,
                stop=deadline.expired if deadline is not None else None,
                anchor=heuristic.code if self.prior else None,
                only=only,
                eager=False if self.defend == "careful" and self._defending(observation) else None,
            )
        except SamplingError as exc:
            self.fallbacks.note("out_of_time" if isinstance(exc, OutOfTime) else self._unsampled)
            return heuristic
        self.last_result = result
        return self.game.actions[result.code]

    def _defending(self, observation: Observation) -> bool:
        """Whether ``observation`` is a card-play decision of a defender (a game with a declarer, and it is another seat)."""
        return observation.phase == PLAY_PHASE and observation.public.get("declarer") not in (None, self.seat)

    def _sampler(self, observation: Observation) -> WorldSampler | CallReadingSampler | None:
        """The world sampler for ``observation``, or ``None`` where the game has none or no world fits.

        In the games of :data:`~stich.search.call_reading.INFER_GAMES` the
        worlds must also explain the other seats' calls, as for the ``pimc``
        bot (:class:`~stich.search.call_reading.CallReadingSampler`).
        """
        self._unsampled = "no_world"
        try:
            plain = prepare_sampler(self.game, observation)
        except NotImplementedError:
            self._unsampled = "no_sampler"
            return None
        except SamplingError:
            return None
        if self.game.name in INFER_GAMES:
            return CallReadingSampler(plain, self.game, observation.seat, self.readers)
        return plain


def _simulator(
    game: Game,
    seat: int,
    seed: int,
    budget: float | None,
    simulations: int | None,
    worlds: int | None = None,
    rollout: str = "auto",
) -> PimcBot:
    """The ``pimc`` bot of ``calls=simulation``: ``worlds`` worlds, or the same budget, or a fixed number from ``simulations``.

    A fixed ``simulations`` count becomes ``simulations / MAX_OTHER_CANDIDATES``
    worlds (at least one): about as many rollouts as the flat sweeps of
    ``calls=heuristic`` would play, and just as reproducible.  ``rollout``
    is the simulation's (``pimc:rollout=...``): the bot passes
    ``kernel-heuristic`` when its own leaves are compiled, so that its calls
    weigh as many worlds as a ``pimc:rollout=kernel-heuristic`` opponent's.
    """
    if worlds is not None:
        return make_pimc(game, seat, seed, worlds=worlds, rollout=rollout)
    if simulations is not None:
        return make_pimc(game, seat, seed, worlds=max(1, simulations // MAX_OTHER_CANDIDATES), rollout=rollout)
    return make_pimc(game, seat, seed, time=budget, rollout=rollout)


def make_ismcts(
    game: Game,
    seat: int,
    seed: int,
    *,
    level: int | None = None,
    time: float | None = None,
    simulations: int | None = None,
    rollout: str | None = None,
    prior: bool = True,
    paired: bool | None = None,
    calls: str = "auto",
    others: str | None = None,
    switch: str | None = None,
    call_worlds: int | None = None,
    defend: str | None = None,
    draw_share: float | str | None = None,
    halving: bool = False,
    rewards: str | None = None,
    tuned: bool = True,
) -> IsmctsBot:
    """An ``ismcts`` bot for ``seat`` of ``game``; see the module docstring for the options.

    The options left ``None`` take the game's :data:`TUNED` value with
    ``tuned`` (the default), else :data:`PLAIN`'s (see :class:`Tuning`).
    Raises :class:`OptionError` naming the option for a bad value, or for
    ``simulations`` given together with ``level`` or ``time``.
    """
    if not isinstance(tuned, bool):
        raise OptionError(f"tuned must be true or false, got {tuned!r}")
    base = TUNED.get(game.name, PLAIN) if tuned else PLAIN
    rollout = base.rollout if rollout is None else rollout
    paired = base.paired if paired is None else paired
    others = base.others if others is None else others
    defend = base.defend if defend is None else defend
    draw_share = base.draw_share if draw_share is None else draw_share
    rewards = base.rewards if rewards is None else rewards
    if switch is None:
        switch = base.switch if paired is True else PLAIN.switch
    if simulations is not None:
        if isinstance(simulations, bool) or not isinstance(simulations, int) or not 1 <= simulations <= MAX_SIMULATIONS:
            raise OptionError(f"simulations must be a whole number from 1 to {MAX_SIMULATIONS:,}, got {simulations!r}")
        if level is not None or time is not None:
            raise OptionError("give either simulations or level/time, not both")
        budget = None
    else:
        budget = resolve_budget(level, time)
    if not isinstance(rollout, str) or rollout not in ROLLOUTS:
        raise OptionError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
    if rollout == "kernel" and game.name not in kernel_games():
        raise OptionError(f"rollout 'kernel' exists only for {', '.join(sorted(kernel_games()))}, not {game.name}")
    if rollout == "kernel-heuristic" and game.name not in HEURISTIC_POLICY_GAMES:
        raise OptionError(f"rollout 'kernel-heuristic' exists only for {', '.join(sorted(HEURISTIC_POLICY_GAMES))}, not {game.name}")
    if rollout == "greedy" and game.name not in GREEDY_GAMES:
        raise OptionError(f"rollout 'greedy' exists only for {', '.join(sorted(GREEDY_GAMES))}, not {game.name}")
    if not isinstance(prior, bool):
        raise OptionError(f"prior must be true or false, got {prior!r}")
    if not isinstance(paired, bool):
        raise OptionError(f"paired must be true or false, got {paired!r}")
    if not isinstance(calls, str) or calls not in CALLS:
        raise OptionError(f"calls must be one of {', '.join(CALLS)}, got {calls!r}")
    if not isinstance(others, str) or others not in OTHERS:
        raise OptionError(f"others must be one of {', '.join(OTHERS)}, got {others!r}")
    if not isinstance(switch, str) or switch not in SWITCHES:
        raise OptionError(f"switch must be one of {', '.join(SWITCHES)}, got {switch!r}")
    if not isinstance(defend, str) or defend not in DEFENDS:
        raise OptionError(f"defend must be one of {', '.join(DEFENDS)}, got {defend!r}")
    if draw_share == "auto":
        share = DRAW_SHARES.get(game.name)
    elif isinstance(draw_share, bool) or not isinstance(draw_share, int | float) or not 0 < draw_share <= 1:
        raise OptionError(f"draw_share must be auto or a number above 0 and at most 1, got {draw_share!r}")
    else:
        share = None if draw_share == 1 else float(draw_share)
    if not isinstance(halving, bool):
        raise OptionError(f"halving must be true or false, got {halving!r}")
    if halving and not paired:
        raise OptionError("halving needs paired=true (it halves the actions of paired root sweeps)")
    if not isinstance(rewards, str) or rewards not in REWARDS:
        raise OptionError(f"rewards must be one of {', '.join(REWARDS)}, got {rewards!r}")
    if switch == "eager" and not paired:
        raise OptionError("switch=eager needs paired=true (it is a rule for paired root sweeps)")
    kind = _auto_rollout(game) if rollout == "auto" else rollout
    if calls == "auto":
        calls = AUTO_CALLS.get(game.name, "simulation")
    if call_worlds is not None:
        if isinstance(call_worlds, bool) or not isinstance(call_worlds, int) or not 1 <= call_worlds <= MAX_WORLDS:
            raise OptionError(f"call_worlds must be a whole number from 1 to {MAX_WORLDS:,}, got {call_worlds!r}")
        if calls != "simulation":
            raise OptionError(f"call_worlds needs calls=simulation (the pimc simulation it sizes), not calls={calls}")
    return IsmctsBot(
        game,
        seat,
        seed,
        budget=budget,
        simulations=simulations,
        rollout=kind,
        prior=prior,
        paired=paired,
        calls=calls,
        others=others,
        switch=switch,
        call_worlds=call_worlds,
        defend=defend,
        draw_share=share,
        halving=halving,
        rewards=rewards,
    )
