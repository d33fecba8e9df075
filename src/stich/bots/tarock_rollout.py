"""The ``kernel`` rollout of the ISMCTS bot for the Tarock-family games: card play in :mod:`stich.bots.tarock_family.kernel`.

From a leaf in card play the rollout hands the position to the compiled
kernel: with more than ``solve_tricks`` tricks left it plays ``playouts``
games there (a few µs each; at random, or by the greedy rules of
:mod:`stich.bots.tarock_family.greedy_playout` for the seats :data:`GREEDY_DEFAULT`
names) and averages their rewards; with fewer
it solves the rest exactly, both sides playing for the declarer's card
points, as the ``pimc`` bot values its endgames (one exact value is worth
far more than a mean of random endings where one card decides the deal).
A leaf before card play (a bid or a double in the tree) is played on with
uniformly random actions until card play starts.

Each game needs an adapter that reads its state into a
:class:`~stich.bots.tarock_family.kernel.TrickPosition` and turns the kernel's
outcomes into every seat's score with the game's own evaluation; only games
whose card play is plain Tarock trick play have one (:data:`ADAPTERS`).
Dobbm's is exact: its score depends on the declarer's card points and on
whether he took a trick at all (dossier §7), both of which the kernel reports.
Tapp Tarock's scores every kernel game exactly too, but its score also
reads the declarer's tricks (Valat) and the last trick's Pagat (ultimo),
so it does not grow with the card points alone and the solver does not
apply: its last tricks go to the engine's exact search
(:class:`~stich.search.ismcts.ExactEndgame`, see ``make_rollout``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from math import tanh
from typing import Any, Protocol

from stich.bots.dobbm import playout as dobbm_playout
from stich.bots.dobbm.kernel_adapter import DobbmAdapter
from stich.bots.tapp_tarock import playout as tapp_tarock_playout
from stich.bots.tapp_tarock.kernel_adapter import TappTarockAdapter
from stich.bots.tarock_family import kernel as tarock_kernel
from stich.bots.tarock_family.adapter import Adapter
from stich.bots.tarock_family.kernel import KernelGame, TrickPosition
from stich.core.game import Game, State
from stich.search.ismcts import PLAY_PHASE, Rewards, bounded_rewards, reward_scale

SOLVE_TRICKS = 3
"""Tricks left from which a leaf is solved exactly instead of played out at random (with the compiled kernel).

Dobbm on one core of the idle 2-core machine (bench/bench_tarock_kernel.py):
median 0.024 ms at three tricks (at most 0.17 ms), about what the eight
random playouts of a leaf cost; 0.17 ms at four (up to 3.4 ms) and 1.4 ms
at five (up to 0.4 s), which a leaf cannot afford.
"""

PLAYOUTS = 8
"""Kernel games per leaf with more tricks left."""

GREEDY = ("never", "declarer", "opposed", "always")
"""Values of :class:`TarockKernelRollout`'s ``greedy``: which seats of its playouts follow by the greedy rules, and in whose searches."""

GREEDY_DEFAULT = "opposed"
"""Every seat follows by the greedy rules in the declarer's searches; in a defender's search the declarer only.

The searching side's opponents are modelled as sensible players, its own
seats too where that is the declarer.

Random defenders let the declarer's lines succeed that sensible defence
defeats: in Dobbm against ``pimc`` at 0.025 s the declarer's card play
carried the whole loss (run ``4-kernel-draw-share``, docs/strength.md)
while the defenders' was level.  In Tapp Tarock the Python greedy rollout
for every search had the declarer's cards gain and the defenders' lose
(docs/search.md, ``greedy``).  With it the Dobbm declarer's cards came
level with ``pimc``'s (run ``6-greedy-declarer``: −0.07 per seat where the
bot kept the heuristic's card and ``pimc`` did not, from −2.40; the match
−0.29 per deal, from −0.39).  A greedy declarer in the defenders' searches
as well (``opposed``) then gave −0.16 (−0.39 .. +0.06), level with
``pimc``; +0.12 per deal over ``declarer`` on the same 1,000 deals (paired
interval −0.11 .. +0.36; run ``7-greedy-opposed``).  Greedy defenders in
their own searches as well (``always``, run ``8-greedy-always``): −0.27,
−0.10 against ``opposed`` on the same deals (paired −0.35 .. +0.14); in
Tapp Tarock the engine's greedy rollout for every seat of every search had
lost in the defenders' cards too.
"""


ADAPTERS: dict[str, Callable[[Game], Adapter]] = {"dobbm": DobbmAdapter, "tapp_tarock": TappTarockAdapter}
"""Games the Tarock kernel can play out: name -> adapter factory."""


POLICIES = ("greedy", "heuristic")
"""Card play of :class:`TarockKernelRollout`'s games: random or greedy (see ``greedy``), or the game's heuristic bot's."""

HEURISTIC_POLICY_GAMES = frozenset({"dobbm", "tapp_tarock"})
"""Games whose heuristic card play is compiled (:data:`HEURISTIC_PLAYOUTS`)."""


class HeuristicPlayout(Protocol):
    """What a compiled heuristic card play module offers (:mod:`~stich.bots.dobbm.playout`, :mod:`~stich.bots.tapp_tarock.playout`)."""

    def available(self) -> bool: ...

    def warmup(self) -> bool: ...

    def knowledge(self, state: Any, pos: TrickPosition) -> Any:
        """What each kernel seat of ``pos`` may know in ``state`` (the game's own state class and knowledge)."""
        ...

    def heuristic_playouts(self, pos: TrickPosition, n: int, seed: int, know: Any, *, epsilon: float = 0.0) -> list[KernelGame]: ...


HEURISTIC_PLAYOUTS: dict[str, HeuristicPlayout] = {"dobbm": dobbm_playout, "tapp_tarock": tapp_tarock_playout}
"""Per game of :data:`HEURISTIC_POLICY_GAMES` its compiled heuristic card play."""


def heuristic_available(name: str) -> bool:
    """Whether game ``name`` has a compiled heuristic card play and it is in use (numba present and not switched off)."""
    module = HEURISTIC_PLAYOUTS.get(name)
    return module is not None and module.available()


class HeuristicFinish:
    """Every seat's final score when the heuristic bots play a deal's card play out, in compiled code (Dobbm, Tapp Tarock).

    ``finish(state)`` for a ``state`` in card play returns what the engine
    would score after the game's heuristic bot played every remaining card
    of every seat (``heuristic_playouts`` of :mod:`~stich.bots.dobbm.playout`
    or :mod:`~stich.bots.tapp_tarock.playout`, each seat knowing what its
    observation shows): the same scores as stepping the heuristic bots
    through the engine, which costs milliseconds a deal where this costs
    tens of microseconds (bench/bench_tarock_kernel.py).  The ``pimc``
    bot's ``rollout=kernel-heuristic`` values its worlds with it
    (:class:`~stich.search.perfect_info.WorldEvaluator`).
    """

    def __init__(self, game: Game) -> None:
        if not heuristic_available(game.name):
            raise ValueError(f"the compiled heuristic card play exists for {', '.join(sorted(HEURISTIC_POLICY_GAMES))} with numba only")
        self.adapter = ADAPTERS[game.name](game)
        self.playout = HEURISTIC_PLAYOUTS[game.name]
        self.playout.warmup()

    def __call__(self, state: State, pos: TrickPosition | None = None) -> tuple[int, ...]:
        """Every seat's score after the heuristic card play from ``state`` (in card play, not terminal) to the end.

        ``pos`` is ``state``'s kernel position when the caller has it already.
        """
        if pos is None:
            pos = self.adapter.position(state)
        games = self.playout.heuristic_playouts(pos, 1, 0, self.playout.knowledge(state, pos))
        return self.adapter.played_out(state, games)[0]


class TarockKernelRollout:
    """Random actions until card play, then ``playouts`` kernel games (mean reward) or, near the end, an exact solve.

    ``greedy`` (:data:`GREEDY`) says when the kernel games follow by the
    greedy rules (:func:`~stich.bots.tarock_family.kernel.playouts`) instead of at
    random: ``never``; ``always`` (every seat); ``declarer`` (every seat
    when the seat whose search this is, :meth:`set_root`, is on the
    declarer's side, none otherwise); ``opposed`` (as ``declarer``, and the
    declarer's side in a defender's search).  Not told whose search it is,
    ``declarer`` and ``opposed`` play at random.

    ``policy="heuristic"`` (Dobbm and Tapp Tarock, :data:`HEURISTIC_POLICY_GAMES`)
    plays every card of every seat as the game's heuristic bot would
    (:class:`HeuristicFinish`, ``greedy`` is not read): the card play of the
    ``pimc`` bot's simulations, at tens of µs a deal instead of milliseconds
    (bench/bench_tarock_kernel.py).  Its games are all the same, so one is
    played per leaf whatever ``playouts`` says.
    """

    name = "kernel"

    def __init__(
        self,
        game: Game,
        playouts: int = PLAYOUTS,
        solve_tricks: int = SOLVE_TRICKS,
        greedy: str = GREEDY_DEFAULT,
        policy: str = "greedy",
    ) -> None:
        make = ADAPTERS.get(game.name)
        if make is None:
            raise ValueError(f"the Tarock kernel rollout knows {', '.join(sorted(ADAPTERS))}, not {game.name}")
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {policy!r}")
        self.policy = policy
        self.finish = HeuristicFinish(game) if policy == "heuristic" else None
        """With ``policy="heuristic"``: the compiled heuristic card play that values every leaf (raises without numba)."""
        if playouts < 1:
            raise ValueError(f"playouts must be at least 1, got {playouts}")
        if solve_tricks < 0:
            raise ValueError(f"solve_tricks must be 0 or more, got {solve_tricks}")
        if greedy not in GREEDY:
            raise ValueError(f"greedy must be one of {', '.join(GREEDY)}, got {greedy!r}")
        self.greedy = greedy
        self.root = -1
        """The searching seat (:meth:`set_root`; -1: not told)."""
        self.game = game
        self.adapter = make(game)
        self.playouts = playouts
        self.solve_tricks = solve_tricks if tarock_kernel.available() and self.adapter.exact else 0
        """Tricks left from which leaves are solved (0 without numba: the pure-Python solver is too slow for a leaf;
        0 for a game whose score the solver's value does not give, see :class:`Adapter`)."""
        self.solved = 0
        """Leaves valued by the solver so far (the rest by playouts)."""
        self.scale = reward_scale(game)
        self._rewards: dict[tuple[int, ...], list[float]] = {}
        tarock_kernel.warmup()

    def set_root(self, seat: int) -> None:
        """Tell the rollout whose search it serves (``greedy="declarer"`` and ``"opposed"`` read it)."""
        self.root = seat

    def _greedy_mask(self, pos: TrickPosition) -> int:
        """The kernel seats following by the greedy rules in this search's playouts."""
        everyone = (1 << len(pos.seats)) - 1
        if self.greedy == "always":
            return everyone
        if self.greedy in ("declarer", "opposed") and self.root in pos.seats:
            if pos.side >> pos.seats.index(self.root) & 1:
                return everyone
            if self.greedy == "opposed":
                return pos.side  # a defender's search: the declarer's side follows by the greedy rules
        return 0

    def _bounded(self, scores: tuple[int, ...]) -> list[float]:
        found = self._rewards.get(scores)
        if found is None:
            found = self._rewards[scores] = [tanh(s / self.scale) for s in scores]
        return found

    def __call__(self, state: State, rng: random.Random) -> Rewards:
        rand = rng.random
        while not state.is_terminal() and getattr(state, "phase_name", PLAY_PHASE) != PLAY_PHASE:
            codes = state.legal_codes()
            state._apply_code(codes[int(rand() * len(codes))])
        if state.is_terminal():
            return bounded_rewards(state.result().scores, self.scale)
        adapter = self.adapter
        pos = adapter.position(state)
        if pos.tricks_left <= self.solve_tricks:
            tricks, bonus = adapter.bonus(state)
            value = tarock_kernel.solve(pos, tricks=tricks, bonus=bonus)
            self.solved += 1
            return list(self._bounded(adapter.solved(state, value)))
        if self.finish is not None:
            return list(self._bounded(self.finish(state, pos)))
        games = tarock_kernel.playouts(pos, self.playouts, rng.getrandbits(63), greedy=self._greedy_mask(pos))
        total = [0.0] * self.game.num_seats
        for scores in adapter.played_out(state, games):
            for seat, reward in enumerate(self._bounded(scores)):
                total[seat] += reward
        return [t / len(games) for t in total]
