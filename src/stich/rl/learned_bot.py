"""The ``learned`` bot: the packaged policy network of the game being played (issue 45, step 3).

One small MLP per game (:mod:`stich.rl.policy`'s layout, weights stored as
``float16``) ships in ``stich/rl/models/<game>.npz``, trained by
:mod:`stich.rl.train_learned` (the command and its seeds are in the file's
``meta`` and in docs/strength.md).  The bot spec is just ``learned``: the
model is chosen by the game's name, so a browser never names a file
(decision 0062) and web tables seat it like ``heuristic``.  A variant of a
game (another preset or rule option) is played by the same model when its
tensor and action list have the same sizes; the legal-action mask keeps
every move legal whatever the rules.

The bot reads its seat's :class:`Observation` only, through
:class:`stich.rl.encoding.Encoding` (:class:`~stich.rl.policy_bot.PolicyBot`
does the choosing), so it can know no hidden card; a decision is one
encoding and one forward pass (well under a millisecond of arithmetic).
It needs numpy only, a core dependency.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from stich.core.game import Game
from stich.errors import OptionError
from stich.rl.encoding import Encoding
from stich.rl.policy import MLPPolicy, load_policy
from stich.rl.policy_bot import PolicyBot

MODELS = Path(__file__).resolve().parent / "models"
"""The folder of the packaged models, ``<game name>.npz`` each (package data)."""

_CACHE: dict[str, MLPPolicy] = {}
_LOCK = threading.Lock()


def model_path(game: Game) -> Path:
    """Where the packaged model of ``game`` lies (whether or not it exists)."""
    return MODELS / f"{game.name}.npz"


def packaged_games() -> list[str]:
    """The names of the games a model is packaged for."""
    return sorted(path.stem for path in MODELS.glob("*.npz"))


def learned_policy(game: Game, observation_size: int) -> MLPPolicy:
    """The packaged policy of ``game`` (read once per process), checked to fit its tensor and actions."""
    with _LOCK:
        policy = _CACHE.get(game.name)
        if policy is None:
            path = model_path(game)
            if not path.is_file():
                raise OptionError(f"bot 'learned': no model for {game.name!r}; packaged: {', '.join(packaged_games()) or 'none'}")
            try:
                policy = load_policy(path)
            except (ValueError, OSError) as exc:
                raise OptionError(f"bot 'learned': {exc}") from None
            _CACHE[game.name] = policy
    sizes = (policy.meta.get("observation_size"), policy.meta.get("actions"))
    if sizes != (observation_size, len(game.actions)):
        raise OptionError(
            f"bot 'learned': the model of {game.name!r} was trained for {policy.meta.get('game')!r} "
            f"(tensor {sizes[0]}, {sizes[1]} actions), not {game.canonical!r} "
            f"(tensor {observation_size}, {len(game.actions)} actions)"
        )
    return policy


class LearnedBot(PolicyBot):
    """Plays the legal action the game's packaged policy prefers (``greedy``) or samples it."""

    name = "learned"

    def __init__(self, game: Game, seat: int, seed: int, *, greedy: bool = True) -> None:
        self.game = game
        self.seat = seat
        self.greedy = greedy
        self.encoding = Encoding(game)
        self.policy = learned_policy(game, self.encoding.size)
        self.rng = np.random.default_rng(seed)


def make_learned(game: Game, seat: int, seed: int, *, greedy: bool = True) -> LearnedBot:
    """The ``learned`` bot's factory: the packaged model of ``game``; ``greedy=false`` samples from it."""
    return LearnedBot(game, seat, seed, greedy=bool(greedy))
