"""The ``policy`` bot: a trained :class:`~stich.rl.policy.MLPPolicy` file playing a seat, ``policy:file=PATH``.

Registered in :data:`stich.bots.registry.BUILTIN_BOTS` by its target string
(``stich.rl.policy_bot:make_policy_bot``), so every spec reader (``stich
arena``, ``stich sim``, ``stich play``, the Gymnasium env's opponents) accepts
``policy:file=PATH`` (decision 0031: the registry names the target, it does not
import it, so the layer contract ``bots`` below ``rl`` holds; the module is
loaded only when a spec names it).  Web tables do not seat it: they accept no
option but ``level``, and a file path from a browser must not reach the
server's disk.

The bot sees what every bot sees, its seat's :class:`Observation`, and reads it
only through :class:`stich.rl.encoding.Encoding` (the tensor and mask a learner
saw), so it can know no hidden card.  ``greedy=true`` (default) plays the most
probable legal action; ``greedy=false`` samples from the policy with the bot's
seeded generator.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from stich.core.game import Action, Game, Observation
from stich.errors import OptionError
from stich.rl.encoding import Encoding
from stich.rl.policy import Floats, MLPPolicy, load_policy

_CACHE: dict[tuple[str, int, str], MLPPolicy] = {}
_LOCK = threading.Lock()


def cached_policy(path: str, game: Game, observation_size: int) -> MLPPolicy:
    """The policy in ``path`` for ``game``, loaded once per file version (the arena builds a bot per seat and deal)."""
    source = Path(path).expanduser()
    try:
        stamp = source.stat().st_mtime_ns
    except OSError:
        raise OptionError(f"bot 'policy': option 'file': no policy file {path!r}") from None
    key = (str(source.resolve()), stamp, game.canonical)
    with _LOCK:
        policy = _CACHE.get(key)
        if policy is None:
            try:
                policy = load_policy(source, game, observation_size)
            except (ValueError, OSError) as exc:
                raise OptionError(f"bot 'policy': option 'file': {exc}") from None
            _CACHE[key] = policy
    return policy


class PolicyBot:
    """Plays the legal action a trained policy prefers, from the seat's observation tensor and mask."""

    name = "policy"

    def __init__(self, game: Game, seat: int, seed: int, *, file: str, greedy: bool = True) -> None:
        self.game = game
        self.seat = seat
        self.greedy = greedy
        self.encoding = Encoding(game)  # its own: an encoding keeps the seat's last scan of the events
        self.policy = cached_policy(str(file), game, self.encoding.size)
        self.rng = np.random.default_rng(seed)

    def choose(self, observation: Observation) -> Action:
        """The policy's action for ``observation`` (always one of ``observation.legal_actions``)."""
        if not observation.legal_actions:
            raise ValueError(f"seat {self.seat} has no legal action to choose from")
        probs = self.probabilities(observation)
        code = int(np.argmax(probs)) if self.greedy else int(self.rng.choice(len(probs), p=probs / probs.sum()))
        by_code = {a.code: a for a in observation.legal_actions}
        return by_code[code]

    def probabilities(self, observation: Observation) -> Floats:
        """The policy's probability of every action code for ``observation`` (0 for the illegal ones)."""
        return self.policy.probabilities_of_one(self.encoding.tensor(observation), self.encoding.mask(observation))


def make_policy_bot(game: Game, seat: int, seed: int, *, file: str, greedy: bool = True) -> PolicyBot:
    """The ``policy`` bot's factory; ``file`` (the ``.npz`` a learner saved) is required, so a spec without it fails to parse."""
    return PolicyBot(game, seat, seed, file=str(file), greedy=bool(greedy))
