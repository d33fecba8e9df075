"""A small policy network in numpy: masked MLP, its gradients, Adam, and the ``.npz`` file a ``policy`` bot loads.

Deliberately framework-free (numpy only, the ``rl`` extra) so that the first
learner (:mod:`stich.rl.examples.train_policy`) reads top to bottom and a
trained file plays in the arena without torch.  A researcher with a real
network trains in their framework and exports the same layout, or writes a bot
factory of their own (``stich arena --register``).

The file holds ``w0, b0, w1, b1, ...`` (``float32``; ReLU between layers,
logits after the last) and ``meta``, a JSON string: ``format``
(:data:`FORMAT`), ``game`` (the canonical game string the policy was trained
on), ``encoding_version`` (:data:`stich.rl.ids.ENCODING_VERSION` then),
``observation_size`` and ``actions``.  :func:`load_policy` refuses a file whose
meta does not fit the game and encoding it is asked to play, naming the field.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from stich.core.game import Game
from stich.rl.ids import ENCODING_VERSION

FORMAT = "stich-policy-mlp-1"
"""The ``format`` of a policy file this module writes and reads."""

Floats = npt.NDArray[np.float32]
MASKED = -1e9
"""Logit of an illegal action: its probability is exactly 0 after the softmax."""


@dataclass
class MLPPolicy:
    """Weights of a masked MLP policy and the game it plays (``meta``)."""

    weights: list[Floats]
    biases: list[Floats]
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def create(cls, game: Game, observation_size: int, hidden: tuple[int, ...] = (256, 128), seed: int = 0) -> MLPPolicy:
        """A fresh policy (He initialisation, last layer small so the first policy is near uniform over legal actions)."""
        rng = np.random.default_rng(seed)
        sizes = [observation_size, *hidden, len(game.actions)]
        weights, biases = [], []
        for i, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
            scale = np.sqrt(2.0 / n_in) * (0.1 if i == len(sizes) - 2 else 1.0)
            weights.append((rng.standard_normal((n_in, n_out)) * scale).astype(np.float32))
            biases.append(np.zeros(n_out, dtype=np.float32))
        meta = {
            "format": FORMAT,
            "game": game.canonical,
            "encoding_version": ENCODING_VERSION,
            "observation_size": observation_size,
            "actions": len(game.actions),
        }
        return cls(weights, biases, meta)

    # ------------------------------------------------------------ forward
    def forward(self, x: Floats) -> tuple[Floats, list[Floats]]:
        """Logits of a batch ``x`` (rows = observations), and every layer's input (kept for :meth:`backward`)."""
        inputs = []
        h = x
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            inputs.append(h)
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        return h, inputs

    def probabilities(self, x: Floats, mask: npt.NDArray[Any]) -> Floats:
        """Action probabilities of a batch: softmax over the legal actions (``mask`` 1), 0 for the others."""
        logits, _ = self.forward(x)
        return masked_softmax(logits, mask)

    def probabilities_of_one(self, x: Floats, mask: npt.NDArray[Any]) -> Floats:
        """:meth:`probabilities` of one observation ``x`` (a vector), the first layer over its non-zero entries only.

        A bot's tensor is mostly zeros (one-hot cards and calls), and a full
        ``1 x D @ D x H`` product hands a tiny job to the BLAS's threads, which
        on a loaded machine cost tens of milliseconds instead of a fraction of
        one (issue 45: the ``learned`` bot in Droggn).
        """
        live = np.flatnonzero(x)
        h = x[live] @ self.weights[0][live] + self.biases[0]
        for w, b in zip(self.weights[1:], self.biases[1:], strict=True):
            h = np.maximum(h, 0.0) @ w + b
        probs: Floats = masked_softmax(h[None, :].astype(np.float32), mask[None, :])[0]
        return probs

    # ------------------------------------------------------------ backward
    def backward(self, inputs: list[Floats], grad_logits: Floats) -> list[Floats]:
        """Gradients ``[dw0, db0, dw1, db1, ...]`` of a loss whose gradient by the logits is ``grad_logits``."""
        grads: list[Floats] = []
        g = grad_logits
        for i in range(len(self.weights) - 1, -1, -1):
            grads.append(g.sum(axis=0))
            grads.append(inputs[i].T @ g)
            if i > 0:
                g = (g @ self.weights[i].T) * (inputs[i] > 0)  # ReLU: its output is the next layer's input
        grads.reverse()  # now dw0, db0, dw1, db1, ...
        return grads

    def parameters(self) -> list[Floats]:
        """``[w0, b0, w1, b1, ...]``, the order of :meth:`backward`'s gradients (updated in place by :class:`Adam`)."""
        out: list[Floats] = []
        for w, b in zip(self.weights, self.biases, strict=True):
            out.extend((w, b))
        return out

    # ------------------------------------------------------------ file
    def save(self, path: str | Path) -> Path:
        """Write the policy as ``.npz`` (no pickled objects); the path written."""
        target = Path(path)
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(self.meta, sort_keys=True))}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        with target.open("wb") as out:
            np.savez(out, **arrays)
        return target


def masked_softmax(logits: Floats, mask: npt.NDArray[Any]) -> Floats:
    """Row-wise softmax over the actions with ``mask`` 1 (every row needs at least one)."""
    z = np.where(mask > 0, logits, MASKED)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z) * (mask > 0)
    probs: Floats = (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)
    return probs


def cross_entropy_step(
    policy: MLPPolicy, opt: Adam, x: Floats, mask: npt.NDArray[np.int8], action: npt.NDArray[np.int64], target: Floats | None = None
) -> float:
    """One Adam step on the mean cross-entropy of the legal-action softmax; the agreement with ``action`` before it.

    The cross-entropy is against the chosen ``action`` alone, or against ``target`` (one probability row per
    row of ``x``, zero outside the mask) where given: a teacher's soft preferences over its candidates.
    """
    logits, inputs = policy.forward(x)
    probs = masked_softmax(logits, mask)
    grad = probs.copy()
    if target is None:
        grad[np.arange(len(action)), action] -= 1.0
    else:
        grad -= target
    opt.step(policy.backward(inputs, (grad / len(action)).astype(np.float32)))
    return float(np.mean(probs.argmax(axis=1) == action))


class Adam:
    """The Adam optimiser over a list of arrays, updated in place."""

    def __init__(self, params: list[Floats], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8) -> None:
        self.params, self.lr, self.betas, self.eps = params, lr, betas, eps
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[Floats]) -> None:
        """One descent step along ``grads`` (the gradients of a loss to minimise)."""
        self.t += 1
        b1, b2 = self.betas
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            m_hat = m / (1 - b1**self.t)
            v_hat = v / (1 - b2**self.t)
            p -= (self.lr * m_hat / (np.sqrt(v_hat) + self.eps)).astype(p.dtype)


def load_policy(path: str | Path, game: Game | None = None, observation_size: int | None = None) -> MLPPolicy:
    """The policy in ``path``; with ``game`` (and ``observation_size``) checked to fit them, else ``ValueError`` naming the field."""
    source = Path(path)
    if not source.is_file():
        raise ValueError(f"policy file {str(source)!r} does not exist")
    with np.load(source, allow_pickle=False) as data:
        if "meta" not in data:
            raise ValueError(f"policy file {str(source)!r} has no 'meta' (not written by stich.rl.policy)")
        meta = json.loads(str(data["meta"]))
        layers = sum(1 for key in data.files if key.startswith("w"))
        weights = [np.asarray(data[f"w{i}"], dtype=np.float32) for i in range(layers)]
        biases = [np.asarray(data[f"b{i}"], dtype=np.float32) for i in range(layers)]
    if meta.get("format") != FORMAT:
        raise ValueError(f"policy file {str(source)!r}: format {meta.get('format')!r}, expected {FORMAT!r}")
    if game is not None:
        expected = {"game": game.canonical, "encoding_version": ENCODING_VERSION, "actions": len(game.actions)}
        if observation_size is not None:
            expected["observation_size"] = observation_size
        for key, value in expected.items():
            if meta.get(key) != value:
                raise ValueError(f"policy file {str(source)!r} was trained for {key} {meta.get(key)!r}, not {value!r}")
    if not weights or weights[0].shape[0] != meta.get("observation_size") or weights[-1].shape[1] != meta.get("actions"):
        raise ValueError(f"policy file {str(source)!r}: the layer shapes do not match its meta")
    return MLPPolicy(weights, biases, meta)
