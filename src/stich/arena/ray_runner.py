"""Playing a duplicate match's deals on a Ray cluster (``stich arena --ray [ADDRESS]``).

A :class:`RayRunner` is a :data:`~stich.arena.duplicate.ChunkRunner`, like
the local process pool: every chunk of deals becomes one Ray task that runs
:func:`~stich.arena.duplicate._play_chunk` on some node, and
:func:`~stich.arena.duplicate.run_duplicate` puts the results back in deal
order.  A chunk names its game, bots, seed and deals and nothing else, and
every deal is seeded from the match seed and its index alone, so the match
is the same, byte for byte, as with ``--workers`` (the run's seconds and
decision times aside).

:meth:`RayRunner.map` is the same for any module-level function and items,
with inputs shared by every task of a call put into the object store once:
the learner's self-play (:mod:`stich.rl.selfplay`, ``train_policy --ray``)
runs on it, the policy's weights shared per policy-gradient step.

The chunks travel as pickles that name stich's own classes and functions,
so every node needs the same stich version installed (and the files of any
``--register``-ed bot at the same path).  Ray is an optional dependency
(``pip install 'stich[ray]'``): this module imports it only when a runner
is made.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any, TypeVar

from stich.arena.duplicate import ArenaError, _Chunk, _ChunkResult, _play_chunk
from stich.errors import OptionError, StichError

__all__ = ["RayRunner"]

R = TypeVar("R")

LOCAL = "local"
"""The address that makes :func:`ray.init` start a new Ray instance on this machine (``--ray`` without an address)."""


def _ray() -> Any:
    """The ``ray`` module; a clear error naming the extra to install if it is missing."""
    try:
        import ray
    except ImportError:
        raise OptionError("--ray needs Ray: pip install 'stich[ray]' (on every node of the cluster)") from None
    return ray


class RayRunner:
    """Plays chunks of deals as Ray tasks; a context manager that disconnects (and stops a local instance it started) on exit.

    ``address`` ``None`` starts a local Ray instance; otherwise it is the
    cluster's address as ``ray.init(address=...)`` takes it (``HOST:6379``
    of the head node, ``auto``, or ``ray://HOST:10001`` with Ray Client).
    In a process already connected to Ray (``ray.init`` called before, as
    the tests do) that connection is used and left open.
    """

    def __init__(self, address: str | None = None) -> None:
        self._ray = _ray()
        self._owned = not self._ray.is_initialized()
        if self._owned:
            local = {} if address else {"include_dashboard": False}
            try:
                self._ray.init(address=address or LOCAL, logging_level=logging.WARNING, **local)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = f"--ray {address}" if address else "--ray"
                raise OptionError(f"{where}: cannot connect to a Ray cluster: {exc}") from None
        self._tasks: dict[Callable[..., Any], Any] = {}
        """The Ray remote function of each function run so far (made once: Ray exports it to the cluster on first use)."""

    @property
    def workers(self) -> int:
        """The cluster's CPUs: how many chunks run at once (and what the match reports as its workers)."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def __enter__(self) -> RayRunner:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Disconnect from the cluster if this runner connected (a local instance it started stops)."""
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()

    def __call__(self, chunks: list[_Chunk], workers: int) -> Iterator[_ChunkResult]:
        """Run the chunks as tasks, at most ``2 * workers`` at a time (results stream back in about deal order), yielding each as it ends.

        A bot's failure comes back as the :class:`ArenaError` it raised in
        the task; a lost worker or node as an :class:`ArenaError` (Ray has
        retried the task first).  On any error or Ctrl-C the tasks still
        queued or running are cancelled.
        """
        for _index, result in self.map(_play_chunk, chunks, workers):
            yield result

    def map(self, function: Callable[..., R], items: Sequence[Any], workers: int, *shared: Any) -> Iterator[tuple[int, R]]:
        """``function(item, *shared)`` for every item as a Ray task, at most ``2 * workers`` at a time; ``(index, result)`` as each ends.

        The general form of a call, for other work than a match's deals (the
        learner's self-play, :mod:`stich.rl.selfplay`): each of ``shared``
        (a policy's weights, say) goes into the object store once per call
        (``ray.put``) and every task reads it from there instead of getting a
        copy of its own.  ``function`` must be importable on every node (a
        module-level function of stich).  Errors as for a match's chunks.
        """
        ray = self._ray
        task = self._tasks.get(function)
        if task is None:
            task = self._tasks[function] = ray.remote(function)
        refs = [ray.put(value) for value in shared]
        queue = list(reversed(list(enumerate(items))))
        pending: dict[Any, int] = {}
        try:
            while queue or pending:
                while queue and len(pending) < 2 * workers:
                    index, item = queue.pop()
                    pending[task.remote(item, *refs)] = index
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    yield pending.pop(ref), self._result(ref)
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise

    def _result(self, ref: Any) -> Any:
        """A finished task's result; its error as the arena's own (without Ray's wrapping)."""
        exceptions = self._ray.exceptions
        try:
            result = self._ray.get(ref)
        except exceptions.RayTaskError as exc:
            cause = exc.cause
            if isinstance(cause, StichError):
                raise cause from None
            raise ArenaError(f"a Ray task failed: {cause!r}") from None
        except exceptions.RayError as exc:
            raise ArenaError(f"a Ray worker or node stopped unexpectedly ({type(exc).__name__}): {exc}") from None
        return result
