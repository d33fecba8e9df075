"""Which ISMCTS rollout each game gets: the generic rollouts of :mod:`stich.search.ismcts` joined to the games' own card play.

:mod:`stich.search.ismcts` holds the tree and the rollouts that work for
any game (random play, the seats' policies, exact endgames); the rollouts
that know a game (the Doppelkopf kernel, the Tarock-family kernel and
compiled heuristic card play, greedy card play) live with that game's
players under ``stich.bots``.  :func:`make_rollout` puts the two together
by game name, handing the search the games' heuristic bots as the seats'
policies, so that the search layer never imports a bot.
"""

from __future__ import annotations

from stich.bots.heuristic import make_heuristic
from stich.core.game import Game
from stich.search.ismcts import ExactEndgame, HeuristicRollout, MixedRollout, RandomRollout, Rollout

EXACT_LEAF_TRICKS: dict[str, int] = {"tapp_tarock": 2, "dobbm": 2, "droggn": 2}
"""Tricks left from which :class:`ExactEndgame` plays a leaf out by exact search, per game.

Doppelkopf solves its endgames in the kernel rollout itself.  Dappen has
none: with its six seats two tricks cost about 5 ms through the engine
(measured on the 2-core machine under load), twenty random endings' worth.
"""


def kernel_games() -> dict[str, bool]:
    """Games with a ``kernel`` rollout -> whether its compiled kernel is in use (else it runs the pure-Python path)."""
    from stich.bots.doppelkopf import kernel
    from stich.bots.tarock_family import kernel as tarock_kernel
    from stich.bots.tarock_rollout import ADAPTERS

    games = {"doppelkopf": kernel.available()}
    games.update(dict.fromkeys(ADAPTERS, tarock_kernel.available()))
    return games


def make_rollout(kind: str, game: Game, seed: int) -> Rollout:
    """The rollout policy ``kind`` (``mixed``, ``greedy``, ``random``, ``heuristic``, ``kernel`` or ``kernel-heuristic``) for ``game``.

    ``heuristic`` hands the last tricks to the exact endgame search
    (:class:`ExactEndgame`, or the Doppelkopf kernel rollout's solve) where
    the game has one.  ``mixed`` plays card play with the ``kernel`` rollout
    where the game has one and its compiled kernel is available (Doppelkopf,
    :mod:`stich.bots.doppelkopf.kernel_rollout`; Dobbm and Tapp Tarock,
    :mod:`stich.bots.tarock_rollout`; all value their last tricks exactly,
    Tapp Tarock's through :class:`ExactEndgame`) and with random actions otherwise,
    the last :data:`EXACT_LEAF_TRICKS` tricks of a Tarock-family game
    searched exactly (:class:`ExactEndgame`).  ``greedy``
    is ``mixed`` with the rule-based card play of
    :class:`~stich.bots.tarock_family.greedy_playout.GreedyRollout` (Tarock-family games only).
    ``kernel-heuristic`` (Dobbm and Tapp Tarock) is ``heuristic`` with the
    card play in the compiled kernel (:mod:`stich.bots.dobbm.playout`,
    :mod:`stich.bots.tapp_tarock.playout`: the same cards, tens to hundreds
    of times faster, bench/bench_tarock_kernel.py), leaves with few tricks
    left solved exactly (Dobbm: the kernel's solver in
    :class:`~stich.bots.tarock_rollout.TarockKernelRollout`; Tapp Tarock,
    whose score the solver does not give: :class:`ExactEndgame`) and the
    others played to the end by the heuristic's cards (``heuristic``
    searches the last tricks of every rollout instead); without numba it
    is ``heuristic``.
    """
    if kind == "random":
        return RandomRollout(game)
    if kind == "heuristic":
        if game.name == "doppelkopf":
            from stich.bots.doppelkopf import kernel

            if kernel.available():
                from stich.bots.doppelkopf.kernel_rollout import SOLVE_TRICKS, KernelRollout

                return HeuristicRollout(game, seed, make_heuristic, KernelRollout(game), SOLVE_TRICKS)
            return HeuristicRollout(game, seed, make_heuristic)
        exact = EXACT_LEAF_TRICKS.get(game.name, 0)
        if exact:
            return HeuristicRollout(game, seed, make_heuristic, ExactEndgame(game, RandomRollout(game), exact), exact)
        return HeuristicRollout(game, seed, make_heuristic)
    if kind in ("mixed", "greedy"):
        play: Rollout = RandomRollout(game)
        if kind == "greedy":
            from stich.bots.tarock_family.greedy_playout import GreedyRollout

            play = GreedyRollout(game)
        elif kernel_games().get(game.name, False):
            # The compiled card play (Doppelkopf; Tarock-family games with an adapter) solves its own endgames.
            return MixedRollout(game, seed, make_heuristic, make_rollout("kernel", game, seed))
        exact = EXACT_LEAF_TRICKS.get(game.name, 0)
        if exact:
            play = ExactEndgame(game, play, exact)
        return MixedRollout(game, seed, make_heuristic, play)
    if kind == "kernel-heuristic":
        from stich.bots.tarock_rollout import HEURISTIC_POLICY_GAMES, TarockKernelRollout, heuristic_available

        if game.name not in HEURISTIC_POLICY_GAMES:
            raise ValueError(f"rollout 'kernel-heuristic' exists only for {', '.join(sorted(HEURISTIC_POLICY_GAMES))}, not {game.name}")
        if not heuristic_available(game.name):
            return make_rollout("heuristic", game, seed)  # the same cards through the engine
        compiled = TarockKernelRollout(game, policy="heuristic")
        exact = EXACT_LEAF_TRICKS.get(game.name, 0)
        if not compiled.adapter.exact and exact:
            return MixedRollout(
                game, seed, make_heuristic, ExactEndgame(game, compiled, exact)
            )  # the kernel's solver does not give this score
        return MixedRollout(game, seed, make_heuristic, compiled)
    if kind == "kernel":
        if game.name not in kernel_games():
            raise ValueError(f"rollout 'kernel' exists only for {', '.join(sorted(kernel_games()))}, not {game.name}")
        if game.name == "doppelkopf":
            from stich.bots.doppelkopf.kernel_rollout import KernelRollout  # numba/numpy only when asked for

            return KernelRollout(game)
        from stich.bots.tarock_rollout import TarockKernelRollout

        rollout = TarockKernelRollout(game)
        exact = EXACT_LEAF_TRICKS.get(game.name, 0)
        if not rollout.adapter.exact and exact:
            return ExactEndgame(game, rollout, exact)  # the kernel's solver does not give this game's score
        return rollout
    raise ValueError(f"unknown rollout {kind!r}; choose mixed, greedy, random, heuristic, kernel or kernel-heuristic")
