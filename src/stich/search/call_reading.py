"""Worlds that explain the other seats' calls: the call-reading sampler shared by the ``pimc`` and ``ismcts`` bots.

A world sampler deals the unseen cards uniformly among the deals that fit
the cards seen; it does not ask whether the other seats would have bid and
doubled as they did with the cards it gives them.  In Dobbm a defender then
values a Schwacher against a declarer holding a random hand, not the hand of
somebody who bid, and doubles far too often (measured: the ``pimc`` bot lost
to the heuristic by 0.99 points per deal before it read the calls, and beat
it by 1.27 after; docs/strength.md).  :class:`CallReadingSampler` keeps a
world only if the heuristic bots, dealt that world's cards, would have made
every call (every action but a card or a discard) the other seats made.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from stich.bots.base import Bot
from stich.core.errors import IllegalActionError, NotationError
from stich.core.game import Game, State
from stich.search.sampling import World, WorldSampler

INFER_GAMES = frozenset({"dobbm"})
"""Games whose worlds must explain the other seats' calls (see the module docstring and the ``pimc`` bot's "Reading the calls").

Dobbm only: its sampler ignores the bidding and doubling, and there the
mistake cost the most (measured, docs/search.md); the other games keep their
measured behaviour.
"""

INFER_ATTEMPTS = 40
"""Draws per world before the bot gives up looking for one that explains the calls and takes an unexplained one."""

UNVERIFIED_KINDS = frozenset({"play", "discard"})
"""Action kinds not checked against the heuristic: cards and discards are what a world draws, not what it must explain."""


class CallReadingSampler:
    """Worlds of ``sampler`` in which ``players`` (the heuristic bots) would have made the other seats' calls.

    Each proposal of the wrapped sampler is replayed from its deal; at every
    earlier action of a seat other than ``seat`` whose kind is not in
    :data:`UNVERIFIED_KINDS` and that had an alternative, that seat's bot is
    asked from its own observation of the world, and the world is kept only
    if every answer matches.  After ``attempts`` draws without such a world
    the first consistent but unexplained one is taken (a human or another bot
    may call differently from the heuristic); ``explained`` and ``drawn``
    count the outcome.
    """

    def __init__(self, sampler: WorldSampler, game: Game, seat: int, players: Sequence[Bot], attempts: int = INFER_ATTEMPTS) -> None:
        if attempts < 1:
            raise ValueError(f"attempts must be at least 1, got {attempts}")
        self.sampler = sampler
        self.game = game
        self.seat = seat
        self.players = list(players)
        self.attempts = attempts
        self.drawn = 0
        self.explained = 0

    def explains(self, world: World) -> bool:
        """Whether the heuristic bots, dealt ``world``'s cards, make every checked call of its history."""
        kinds = [self.game.actions.actions[code].kind for code in world.codes]
        last = max((i for i, kind in enumerate(kinds) if kind not in UNVERIFIED_KINDS), default=-1)
        if last < 0:
            return True
        try:
            state = self.game.new_state(hands=world.piles, dealer=world.dealer, context=world.context)
            for i, code in enumerate(world.codes[: last + 1]):
                mover = state.current_player()
                checked = mover != self.seat and kinds[i] not in UNVERIFIED_KINDS and len(state.legal_codes()) > 1
                if checked and self.players[mover].choose(state.observation(mover)).code != code:
                    return False
                state.apply(code)
        except (IllegalActionError, NotationError):
            return False
        return True

    def sample(self, rng: random.Random) -> State:
        """A world that explains the calls if one turns up within ``attempts`` draws, else a merely consistent one."""
        world = self.draw(rng)
        assert world is not None  # without a stop, draw always ends with a world
        return world

    def draw(self, rng: random.Random, stop: Callable[[], bool] | None = None) -> State | None:
        """:meth:`sample`, asking ``stop()`` (when given) before every proposal but the first; ``None`` when it says so.

        When the budget runs out after a consistent but unexplained world
        turned up, that world is returned (as after ``attempts`` draws).
        """
        self.drawn += 1
        fallback: State | None = None
        for attempt in range(self.attempts):
            if attempt and stop is not None and stop():
                return fallback
            world = self.sampler.propose(rng)
            if world is None:
                continue
            state = self.sampler.check(world)
            if state is None:
                continue
            if self.explains(world):
                self.explained += 1
                return state
            if fallback is None:
                fallback = state
        return fallback if fallback is not None else self.sampler.draw(rng, stop)
