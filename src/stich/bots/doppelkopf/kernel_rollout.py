"""The ``kernel`` rollout of the ISMCTS bot: Doppelkopf card play in the compiled kernel.

From a leaf of the tree the rollout plays uniformly random actions through
the engine until the deal reaches trick play with the parties known (a
wedding clarified), then hands the position to
:func:`stich.bots.doppelkopf.kernel.random_playouts`, which plays ``playouts``
random card sequences to the end in compiled code (a few µs each, the call
itself about 40 µs) and returns Re's final eyes for each.  With at most
``solve_tricks`` tricks left (default :data:`SOLVE_TRICKS`) the position is
solved exactly instead (:class:`stich.bots.doppelkopf.kernel.KernelSolver`, both
parties playing for eyes, as the ``pimc`` bot values its endgames): a single
exact value, which costs about what the playouts do at that depth (median
0.04 ms at four tricks, 0.17 ms at five on one core) and is worth far more
than a mean of random endings, where a single card decides the deal.

The eyes become scores with the deal's evaluation rules (dossier §7.1-7.2,
:mod:`stich.games.doppelkopf.scoring`): the goals and the game value given
the announcements made so far, the bock multiplier and the solo factor.
Two simplifications, because the kernel reports only eyes: special points
(Fuchs, Doppelkopf, Karlchen...) are left out, and a party is taken to have
won no trick exactly when it has no eyes (schwarz).  The kernel makes no
announcements, so calls made in the tree keep their full weight.  Each seat's
reward is the mean over the playouts of ``tanh(score / scale)``.
"""

from __future__ import annotations

import random
from math import tanh

from stich.bots.doppelkopf import kernel
from stich.bots.doppelkopf.solver import PlayPosition, position_of
from stich.core.game import Game, State
from stich.games.doppelkopf.scoring import KONTRA, RE, SOLO_FACTOR, Tally, find_winner, value_items
from stich.games.doppelkopf.state import PLAY, DoppelkopfState
from stich.games.doppelkopf.state import RE as RE_PARTY
from stich.search.ismcts import RandomRollout, Rewards, bounded_rewards, reward_scale

SOLO_KINDS = frozenset({"solo", "stille_hochzeit", "hochzeit_solo"})
"""Game kinds scored as a solo (the soloist scores three times the value, §7.4)."""

TOTAL_EYES = 240

SOLVE_TRICKS = 4
"""Tricks left from which a leaf is solved exactly instead of played out at random (needs the compiled kernel)."""


class KernelRollout:
    """Random engine actions until the parties are known, then ``playouts`` kernel card playouts (mean reward) or, near the end, a solve."""

    name = "kernel"

    def __init__(self, game: Game, playouts: int = 8, solve_tricks: int = SOLVE_TRICKS) -> None:
        if game.name != "doppelkopf":
            raise ValueError(f"rollout 'kernel' exists only for doppelkopf, not {game.name}")
        if playouts < 1:
            raise ValueError(f"playouts must be at least 1, got {playouts}")
        if solve_tricks < 0:
            raise ValueError(f"solve_tricks must be 0 or more, got {solve_tricks}")
        self.game = game
        self.playouts = playouts
        self.solve_tricks = solve_tricks if kernel.available() else 0
        """Tricks left from which leaves are solved (0 without numba: the pure-Python solver is too slow for a leaf)."""
        self.solved = 0
        """Leaves valued by the solver so far (the rest by playouts)."""
        self.scale = reward_scale(game)
        self.random = RandomRollout(game)
        self._values: dict[tuple[int, int, int], int] = {}
        self._rewards: dict[tuple[int, int, int, int, int], tuple[float, float]] = {}
        self._templates: dict[tuple[object, ...], kernel.KernelPosition] = {}
        # Compile or load the kernel now (seconds, once per process), not inside the first timed decision.
        kernel.warmup()

    def _kernel_position(self, pos: PlayPosition) -> PlayPosition | kernel.KernelPosition:
        """``pos`` in the kernel's array form, reusing the rule tables of an earlier position with the same card order and parties.

        Building a :class:`~stich.bots.doppelkopf.kernel.KernelPosition` fills its
        rule tables face by face (most of the ~40 µs a kernel call costs);
        they depend only on the card order, the rule flags and the parties,
        which stay the same through a deal's card play, so a cached template
        is moved to this position (:meth:`~stich.bots.doppelkopf.kernel.KernelPosition.moved_to`:
        hands, current trick and eyes still to be won rebuilt).
        """
        if not kernel.available():
            return pos
        key = (pos.eff, pos.strength, pos.re, pos.must_overtrump, pos.dulle)
        template = self._templates.get(key)
        if template is None:
            template = self._templates[key] = kernel.KernelPosition(pos)
            return template
        return template.moved_to(pos)

    def re_value(self, re_eyes: int, re_level: int, kontra_level: int) -> int:
        """Game value for Re (negative when Kontra wins) for Re's final eyes, before bock and solo factor."""
        key = (re_eyes, re_level, kontra_level)
        value = self._values.get(key)
        if value is None:
            eyes = {RE: re_eyes, KONTRA: TOTAL_EYES - re_eyes}
            tricks = {party: 1 if eyes[party] else 0 for party in eyes}
            tally = Tally(eyes, tricks, {RE: re_level, KONTRA: kontra_level})
            items = value_items(find_winner(tally, self.game.options), tally, self.game.options)
            value = self._values[key] = sum(item.points if item.party == RE else -item.points for item in items)
        return value

    def __call__(self, state: State, rng: random.Random) -> Rewards:
        assert isinstance(state, DoppelkopfState)
        rand = rng.random
        while not state.is_terminal() and not (state.phase == PLAY and state.clarified):
            codes = state.legal_codes()
            state._apply_code(codes[int(rand() * len(codes))])
        if state.is_terminal():
            return bounded_rewards(state.result().scores, self.scale)
        pos = position_of(state)
        if pos.tricks_left <= self.solve_tricks:
            eyes_list = [kernel.KernelSolver(self._kernel_position(pos)).value()]
            self.solved += 1
        else:
            eyes_list = kernel.random_playouts(self._kernel_position(pos), self.playouts, rng.getrandbits(63))
        re_level, kontra_level = state.level
        factor = SOLO_FACTOR if state.kind in SOLO_KINDS else 1
        mult = state.multiplier
        re_total = kontra_total = 0.0
        cache = self._rewards
        for re_eyes in eyes_list:
            key = (re_eyes, re_level, kontra_level, factor, mult)
            pair = cache.get(key)
            if pair is None:
                value = self.re_value(re_eyes, re_level, kontra_level) * mult
                pair = cache[key] = (tanh(factor * value / self.scale), tanh(-value / self.scale))
            re_total += pair[0]
            kontra_total += pair[1]
        n = len(eyes_list)
        re_reward, kontra_reward = re_total / n, kontra_total / n
        rewards = [0.0] * self.game.num_seats
        party = state.party
        for seat in state.active:
            rewards[seat] = re_reward if party[seat] == RE_PARTY else kontra_reward
        return rewards
