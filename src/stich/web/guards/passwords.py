"""Password hashes: Argon2id (``argon2-cffi``'s defaults) on a small pool of threads of their own.

A login for an unknown name still spends one hash, so timing does not tell which names exist.
The pool is bounded: past ``password_hash_workers`` running and ``password_hash_queue`` waiting,
a check is refused (:class:`HashersBusy`) instead of holding up the server.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_T = TypeVar("_T")


class HashersBusy(Exception):
    """More password checks are waiting than the server queues; the request is refused (503) rather than queued."""


class Passwords:
    """Argon2id hashing with a constant-time path for unknown accounts, on a small pool of its own.

    The server hashes through :meth:`check` and :meth:`make`, which run on a
    pool of ``workers`` threads of their own (opened by :meth:`open_pool`
    for the app's lifetime) and queue at most ``max_waiting`` more.  Argon2
    is built to be slow and memory-hungry: run in the shared worker threads
    that the database calls use, 30 parallel logins filled them all and held
    up every other request (a bystander's 3 ms request took 1.9 s).  Here
    only as many hashes run as there are hashing threads, and everything
    else goes on.
    """

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self._dummy = self.hasher.hash(secrets.token_hex(16))
        self._pool: ThreadPoolExecutor | None = None
        self._slots = 0
        self._taken = 0

    def open_pool(self, workers: int, max_waiting: int) -> None:
        """Start the hashing threads: ``workers`` hashes at once, ``max_waiting`` more queued, the rest refused."""
        self.close_pool()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="stich-argon2")
        self._slots = workers + max_waiting

    def close_pool(self) -> None:
        """Stop the hashing threads (queued hashes are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def _on_pool(self, work: Callable[[], _T]) -> _T:
        if self._pool is None:
            raise RuntimeError("the password pool is not open (Passwords.open_pool)")
        if self._taken >= self._slots:
            raise HashersBusy
        self._taken += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work)
        finally:
            self._taken -= 1

    async def check(self, stored: str | None, password: str) -> bool:
        """:meth:`verify` on the hashing pool; raises :class:`HashersBusy` when its queue is full."""
        return await self._on_pool(lambda: self.verify(stored, password))

    async def make(self, password: str) -> str:
        """:meth:`hash` on the hashing pool; raises :class:`HashersBusy` when its queue is full."""
        return await self._on_pool(lambda: self.hash(password))

    def hash(self, password: str) -> str:
        """A new hash of ``password``."""
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (``None``: an unknown account, always false, same cost)."""
        try:
            return self.hasher.verify(stored if stored is not None else self._dummy, password) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with weaker parameters than the current ones."""
        return self.hasher.check_needs_rehash(stored)
