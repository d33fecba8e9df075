"""Duplicate matches: a candidate bot against reference bots on the same seeded deals.

Card games are noisy: the cards decide more than the players.  Duplicate play
takes the cards out of the comparison.  For every deal ``i`` of a match with
seed ``S`` (dealt from ``derive_seed(S, i)`` by dealer ``i % seats``) and every
reference ``R``:

* the **baseline**: ``R`` plays every seat;
* one **rotation** per active seat ``k``: the candidate sits in seat ``k``,
  ``R`` in every other seat.

The candidate's mean for the deal is the mean over the rotations of its
score in seat ``k``; the reference mean is the mean of the baseline's scores
in the same seats; the deal's duplicate difference is candidate mean minus
reference mean.  Both sides held the same cards in the same seats, so what
is left is the difference the bot made.

**Idle seats.** At a table with a seat that gets no cards (a five-player
Doppelkopf or Dobbm table, four at Tapp Tarock or Droggn, eight at Dappen:
the dealer sits out) the candidate is only rotated through the *active*
seats, those dealt a hand.  A bot in an idle seat makes no decision, so that
rotation would repeat the baseline; its score there (zero, or a share of the
defenders' payment) says nothing about the bot and is left out of both means.

**Seeds.** The bot in seat ``k`` of deal ``i`` is seeded by
:func:`arena_bot_seed` from ``S``, ``i`` and ``k`` only, whichever bot it is
and whichever rotation is played, so a reference makes the same random
choices in the baseline and the rotations until the candidate changes the
course of the deal, and a bot against itself (``random,random``) gives a
difference of exactly zero on every deal.  Each deal is played on its own, so
the result does not depend on how deals are spread over worker processes.

**Reusing the baseline** (``reuse_baseline``, ``stich arena
--reuse-baseline``).  A reference with a time budget does not repeat
itself: it weighs as many worlds as the clock allows, so in a rotation it
may choose differently from the baseline before the candidate has done
anything different, and that noise lands in the candidate's difference.
With reuse, while a rotation is still the same game as the baseline (every
action so far equal), each reference seat plays the baseline's action
instead of deciding again; from the first action that differs (always the
candidate's: the other seats replay the baseline until then) every bot
decides as usual.  A reused action is the same bot's choice, with the same
seed, in the same position, so the rotation's course has the same law as
when the reference decides anew; what goes is the noise before the
candidate's first own difference, and the time of those decisions (28% of
the actions of a 1,000-deal Dobbm match between time-budgeted search bots,
which took 1,379 s instead of 1,978; docs/arena.md).  This
assumes the references decide from the observation alone: a bot that
carries state from one decision to the next (``ismcts:carry=true``) meets
its first live decision of a rotation without it.  A reference whose
choice is a function of its seed and the observation (``heuristic``,
``pimc:worlds=N``) plays the same match either way; one that draws from a
single stream through the deal (``random``, ``ismcts``) meets its first
live decision with a stream the reused decisions did not advance, so the
rest of the rotation can differ from a match without reuse.  The reused
decisions are not timed again.

**Bot specs.** A bot is named as in :mod:`stich.bots.registry`, optionally
with options: ``name:key=value,key=value`` (``pimc:time=0.5``,
``ismcts:sims=200``).  In a comma-separated list of bots a part with ``=`` and
no ``:`` continues the options of the bot before it, so
``pimc:time=0.5,worlds=20,random`` names two bots.  Option values are read as
integers, floats, ``true``/``false`` or else text, and passed to the bot's
factory as keyword arguments after ``(game, seat, seed)``.
"""

from __future__ import annotations

import dataclasses
import math
import os
import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from stich.bots.base import Bot
from stich.bots.fallbacks import fallback_counts
from stich.bots.registry import register_bot, registered_bots
from stich.bots.spec import BotSpec, build_bot, check_options, parse_bot_spec, parse_bot_specs
from stich.core.game import Action, Game, State
from stich.core.records import MAX_SEED, deal_record
from stich.core.registry import game_from_string
from stich.core.rng import MASK64, derive_seed
from stich.errors import OptionError, StichError

__all__ = [
    "ARENA_SALT",
    "ArenaError",
    "ArenaResult",
    "BotSpec",
    "BotTiming",
    "ChunkRunner",
    "DealOutcome",
    "FallbackTally",
    "PairingDeal",
    "PlayedDeals",
    "RunPart",
    "active_seats",
    "add_fallbacks",
    "arena_bot_seed",
    "bot_labels",
    "build_bot",
    "parse_bot_spec",
    "parse_bot_specs",
    "run_duplicate",
]

ARENA_SALT = 0xA2E7_A5EE_D000_0001
"""Mixed into bot seeds so that bots never draw from the same stream as the deal (nor as ``stich sim``'s bots)."""


class ArenaError(StichError, RuntimeError):
    """A match that could not be played to the end: a worker process died, or a bot failed (naming the deal, game and seat)."""


# --------------------------------------------------------------------- bot specs
def bot_labels(specs: Sequence[BotSpec]) -> tuple[str, ...]:
    """Distinct labels for the bots of a match: the spec text, with ``#2``, ``#3``... on repeats."""
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        count = seen.get(spec.text, 0) + 1
        seen[spec.text] = count
        labels.append(spec.text if count == 1 else f"{spec.text}#{count}")
    return tuple(labels)


def arena_bot_seed(seed: int, deal_index: int, seat: int) -> int:
    """Seed of the bot in ``seat`` for deal ``deal_index`` of a match with seed ``seed`` (the same in every rotation)."""
    return derive_seed(derive_seed((seed ^ ARENA_SALT) & MASK64, deal_index), seat)


def active_seats(state: State) -> tuple[int, ...]:
    """Seats dealt a hand: every seat but a dealer who sits out (who makes no decision in the deal)."""
    return tuple(seat for seat in range(state.game.num_seats) if state.dealt[seat])


# --------------------------------------------------------------------- results
@dataclass(frozen=True)
class PairingDeal:
    """One deal of the candidate against one reference.

    ``seats[j]`` is the seat of the ``j``-th rotation; ``candidate_scores[j]``
    the candidate's score in that seat and ``reference_scores[j]`` the
    reference's score in the same seat of the baseline.
    """

    reference: str
    seats: tuple[int, ...]
    candidate_scores: tuple[float, ...]
    reference_scores: tuple[float, ...]

    @property
    def candidate_mean(self) -> float:
        """The candidate's mean score over its rotations."""
        return math.fsum(self.candidate_scores) / len(self.seats)

    @property
    def reference_mean(self) -> float:
        """The reference's mean score in the same seats (baseline)."""
        return math.fsum(self.reference_scores) / len(self.seats)

    @property
    def difference(self) -> float:
        """Candidate mean minus reference mean (its sign is exact for integer scores)."""
        return (math.fsum(self.candidate_scores) - math.fsum(self.reference_scores)) / len(self.seats)

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "reference": self.reference,
            "seats": list(self.seats),
            "candidate_scores": list(self.candidate_scores),
            "reference_scores": list(self.reference_scores),
            "candidate_mean": self.candidate_mean,
            "reference_mean": self.reference_mean,
            "difference": self.difference,
        }


@dataclass(frozen=True)
class DealOutcome:
    """Deal ``index`` (dealt from ``seed`` by ``dealer``): one :class:`PairingDeal` per reference, in order."""

    index: int
    seed: int
    dealer: int
    pairings: tuple[PairingDeal, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"index": self.index, "seed": self.seed, "dealer": self.dealer, "pairings": [p.to_json() for p in self.pairings]}


@dataclass
class BotTiming:
    """How long one bot took to choose: total seconds over all its decisions, and the slowest one."""

    decisions: int = 0
    seconds: float = 0.0
    max_seconds: float = 0.0

    @property
    def mean_ms(self) -> float:
        """Mean milliseconds per decision (0 without decisions)."""
        return 1000.0 * self.seconds / self.decisions if self.decisions else 0.0

    @property
    def max_ms(self) -> float:
        """Milliseconds of the slowest decision (0 without decisions)."""
        return 1000.0 * self.max_seconds

    def add(self, decisions: int, seconds: float, max_seconds: float = 0.0) -> None:
        """Add more decisions (``max_seconds``: the slowest of them)."""
        self.decisions += decisions
        self.seconds += seconds
        self.max_seconds = max(self.max_seconds, max_seconds)


FallbackTally = dict[str, dict[str, int]]
"""Per bot label, its decisions that fell back to the heuristic, by reason (:mod:`stich.bots.fallbacks`: ``no_world``...).

Only bots that count fallbacks (``pimc``, ``ismcts``) have a label here, with
every reason they count, zero or not; ``random``, ``heuristic`` and registered
bots have none.
"""


def add_fallbacks(into: FallbackTally, more: Mapping[str, Mapping[str, int]]) -> None:
    """Add the per-label counts ``more`` to ``into`` (a label or reason new to ``into`` starts at zero)."""
    for label, counts in more.items():
        tally = into.setdefault(label, {})
        for reason, count in counts.items():
            tally[reason] = tally.get(reason, 0) + count


@dataclass(frozen=True)
class RunPart:
    """One run of a match: deals ``first_deal`` to ``stop - 1``, played by ``workers`` processes in ``seconds``.

    A match played in one go has one part; a match stopped and resumed
    (``stich arena --resume``) has one part per run.
    """

    first_deal: int
    stop: int
    workers: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"first_deal": self.first_deal, "stop": self.stop, "workers": self.workers, "seconds": round(self.seconds, 3)}


@dataclass
class PlayedDeals:
    """Deals of a match already played: their outcomes (consecutive, in deal order), decision timings and games.

    It is what :func:`run_duplicate` hands to ``on_chunk`` after every chunk
    of deals (``seconds``: the wall-clock time of the run so far; ``parts``
    empty), and what it takes as ``done`` to go on with a stopped match
    (``parts``: the runs that played the deals; ``seconds``: their total).
    ``fallbacks``: the decisions of these deals that fell back to the
    heuristic, per bot label and reason (:data:`FallbackTally`).
    """

    deals: list[DealOutcome]
    timings: dict[str, BotTiming]
    games: int
    seconds: float
    parts: tuple[RunPart, ...] = ()
    fallbacks: FallbackTally = field(default_factory=dict)

    @property
    def stop(self) -> int:
        """The first deal index after these deals (0 when there are none)."""
        return self.deals[-1].index + 1 if self.deals else 0


@dataclass
class ArenaResult:
    """Everything a duplicate match measured.

    ``deals`` (in deal order) is deterministic: the same game, bots, seed and
    number of deals give the same list whatever the number of workers.
    ``timings``, ``seconds``, ``workers`` and ``parts`` describe the runs,
    not the match; for a resumed match ``timings`` and ``seconds`` add up
    every run and ``workers`` is the last run's.
    """

    game: str
    """Canonical string of the configured game."""
    seed: int
    candidate: BotSpec
    references: tuple[BotSpec, ...]
    labels: tuple[str, ...]
    """Distinct labels: the candidate's first, then one per reference."""
    deals: list[DealOutcome]
    games_played: int
    timings: dict[str, BotTiming] = field(default_factory=dict)
    workers: int = 1
    seconds: float = 0.0
    reuse_baseline: bool = False
    """Whether the rotations reused the baseline's reference actions up to their first difference (see the module docstring)."""
    parts: tuple[RunPart, ...] = ()
    """The runs that played the deals, in order (one unless the match was resumed)."""
    fallbacks: FallbackTally = field(default_factory=dict)
    """Per bot label that counts them, the decisions not searched but left to the heuristic, by reason (all runs)."""

    @property
    def candidate_label(self) -> str:
        """The candidate's label."""
        return self.labels[0]

    @property
    def reference_labels(self) -> tuple[str, ...]:
        """The references' labels, in order."""
        return self.labels[1:]

    def differences(self, reference: int = 0) -> list[float]:
        """Per-deal duplicate differences against reference number ``reference`` (0 = the first)."""
        return [deal.pairings[reference].difference for deal in self.deals]


# --------------------------------------------------------------------- playing
@dataclass(frozen=True)
class _Chunk:
    """Deals ``start`` to ``stop - 1`` of a match: everything a worker process needs (picklable)."""

    game: str
    candidate: BotSpec
    references: tuple[BotSpec, ...]
    labels: tuple[str, ...]
    seed: int
    start: int
    stop: int
    records: bool
    registered: tuple[tuple[str, str], ...] = ()
    """Bots added by :func:`~stich.bots.registry.register_bot` in the main process: a spawned worker registers them again."""
    reuse_baseline: bool = False
    """Rotations replay the baseline's reference actions until they first differ from it (see the module docstring)."""


@dataclass
class _ChunkResult:
    """What a worker sends back for one chunk: the outcomes, records (if asked for), decision timings, games played, fallbacks."""

    start: int
    stop: int
    deals: list[DealOutcome]
    records: list[dict[str, Any]]
    timings: dict[str, tuple[int, float, float]]
    games: int
    fallbacks: FallbackTally = field(default_factory=dict)


ChunkRunner = Callable[[list[_Chunk], int], Iterator[_ChunkResult]]
"""Plays chunks of deals somewhere (``(chunks, workers)``, :func:`_play_chunk` on each) and yields their results as they finish.

The local process pool (:func:`_run_parallel`) is one; a Ray cluster
(:class:`stich.arena.ray_runner.RayRunner`) another.  They may finish in
any order: :func:`run_duplicate` puts the results back in deal order.
"""


@lru_cache(maxsize=8)
def _game(canonical: str) -> Game:
    """The configured game in a worker process, rebuilt once from its canonical string."""
    return game_from_string(canonical)


def _play(
    state: State,
    bots: Sequence[Bot],
    labels: Sequence[str],
    timings: dict[str, list[float]],
    *,
    script: Sequence[Action] | None = None,
    own: int = -1,
    fallbacks: FallbackTally | None = None,
) -> list[Action]:
    """Play ``state`` to its end and return the actions; each bot sees only its own observation and its ``choose`` is timed.

    With ``script`` (the baseline's actions) every seat but ``own`` (the
    candidate's) plays the script's action while the game is still the
    script's, so only ``own`` decides until its action first differs; from
    there on every seat decides (``reuse_baseline``).  At the end, the
    fallbacks the bots counted (:func:`~stich.bots.fallbacks.fallback_counts`;
    they are built for this game) are added to ``fallbacks`` per label.
    """
    clock = time.perf_counter
    played: list[Action] = []
    following = script is not None
    script = script if script is not None else ()
    while not state.is_terminal():
        seat = state.current_player()
        step = len(played)
        if following and seat != own and step < len(script):
            action = script[step]
        else:
            observation = state.observation(seat)
            started = clock()
            try:
                action = bots[seat].choose(observation)
            except StichError as exc:
                raise ArenaError(f"{labels[seat]} in seat {seat} failed at action {step}: {exc}") from exc
            elapsed = clock() - started
            tally = timings[labels[seat]]
            tally[0] += 1
            tally[1] += elapsed
            tally[2] = max(tally[2], elapsed)
            if following and (step >= len(script) or action.code != script[step].code):
                following = False
        state.apply(action)
        played.append(action)
    if fallbacks is not None:
        for seat, bot in enumerate(bots):
            counts = fallback_counts(bot)
            if counts is not None:
                add_fallbacks(fallbacks, {labels[seat]: counts})
    return played


def _play_chunk(chunk: _Chunk, game: Game | None = None) -> _ChunkResult:
    """Play the deals of ``chunk``: per deal and reference, the baseline and one rotation per active seat."""
    for name, target in chunk.registered:
        register_bot(name, target)
    game = game if game is not None else _game(chunk.game)
    n = game.num_seats
    cand_label = chunk.labels[0]
    timings: dict[str, list[float]] = {label: [0, 0.0, 0.0] for label in chunk.labels}
    fallbacks: FallbackTally = {}
    deals: list[DealOutcome] = []
    records: list[dict[str, Any]] = []
    games = 0
    for i in range(chunk.start, chunk.stop):
        _stop_if_orphaned()
        deal_seed = derive_seed(chunk.seed, i)
        dealer = i % n
        initial = game.new_state(seed=deal_seed, dealer=dealer)
        seats = active_seats(initial)
        if not seats:  # pragma: no cover - every game deals to someone
            raise OptionError(f"deal {i} of {game} deals no hand to any seat")
        bot_seeds = [arena_bot_seed(chunk.seed, i, seat) for seat in range(n)]
        pairings = []
        for ref, ref_label in zip(chunk.references, chunk.labels[1:], strict=True):
            baseline = initial.clone()
            seat_labels = [ref_label] * n
            try:
                script = _play(
                    baseline, [build_bot(ref, game, s, bot_seeds[s]) for s in range(n)], seat_labels, timings, fallbacks=fallbacks
                )
            except ArenaError as exc:
                raise ArenaError(f"deal {i} (deal seed {deal_seed}), the baseline of {ref_label}: {exc}") from exc
            games += 1
            base_scores = baseline.result().scores
            if chunk.records:
                records.append(_record(baseline, [ref] * n, i, cand_label, ref_label, None))
            cand_scores = []
            for seat in seats:
                state = initial.clone()
                specs = [chunk.candidate if s == seat else ref for s in range(n)]
                labels = [cand_label if s == seat else ref_label for s in range(n)]
                bots = [build_bot(spec, game, s, bot_seeds[s]) for s, spec in enumerate(specs)]
                try:
                    _play(state, bots, labels, timings, script=script if chunk.reuse_baseline else None, own=seat, fallbacks=fallbacks)
                except ArenaError as exc:
                    raise ArenaError(f"deal {i} (deal seed {deal_seed}), the rotation with the candidate in seat {seat}: {exc}") from exc
                games += 1
                cand_scores.append(state.result().scores[seat])
                if chunk.records:
                    records.append(_record(state, specs, i, cand_label, ref_label, seat))
            pairings.append(PairingDeal(ref_label, seats, tuple(cand_scores), tuple(base_scores[s] for s in seats)))
        deals.append(DealOutcome(i, deal_seed, dealer, tuple(pairings)))
    return _ChunkResult(
        chunk.start,
        chunk.stop,
        deals,
        records,
        {label: (int(t[0]), float(t[1]), float(t[2])) for label, t in timings.items()},
        games,
        fallbacks,
    )


def _record(state: State, specs: Sequence[BotSpec], index: int, candidate: str, reference: str, rotation: int | None) -> dict[str, Any]:
    """The deal record of one arena game, its meta naming the bot per seat and the rotation (``None``: the baseline)."""
    meta = {
        "bots": [spec.text for spec in specs],
        "arena": {
            "deal_index": index,
            "candidate": candidate,
            "reference": reference,
            "role": "baseline" if rotation is None else "rotation",
            "rotation": rotation,
        },
    }
    return deal_record(state, meta=meta)


def _chunks(template: _Chunk, first: int, deals: int, workers: int) -> list[_Chunk]:
    """Split deals ``first`` to ``deals - 1`` into pieces: about four per worker (balance), at most 25 deals each (progress bar)."""
    size = max(1, min(25, math.ceil((deals - first) / (workers * 4))))
    out = []
    for start in range(first, deals, size):
        stop = min(deals, start + size)
        out.append(dataclasses.replace(template, start=start, stop=stop))
    return out


def _in_order(
    results: Iterator[_ChunkResult], sink: Callable[[list[dict[str, Any]]], None] | None, first: int = 0
) -> Iterator[_ChunkResult]:
    """Pass chunk results through in deal order from deal ``first``, handing their records to ``sink``, whatever order they finish in."""
    waiting: dict[int, _ChunkResult] = {}
    next_start = first
    for result in results:
        waiting[result.start] = result
        while next_start in waiting:
            ready = waiting.pop(next_start)
            if sink is not None and ready.records:
                sink(ready.records)
            ready.records = []
            next_start = ready.stop
            yield ready


def _reporting(results: Iterator[_ChunkResult], progress: Callable[[int], None] | None) -> Iterator[_ChunkResult]:
    """Pass chunk results through, telling ``progress`` how many deals each one finished as soon as it arrives."""
    for result in results:
        if progress is not None:
            progress(result.stop - result.start)
        yield result


_PARENT: int | None = None
"""In a worker process: the pid of its parent when it started (see :func:`_stop_if_orphaned`)."""


def _init_worker() -> None:
    """In a worker process: leave Ctrl-C to the main process, which stops the pool (no traceback per worker); note the parent.

    SIGTERM gets its default back: a worker forked while ``stich arena``
    turns SIGTERM into an interrupt would otherwise catch it as a failed
    chunk and play on.
    """
    global _PARENT
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _PARENT = os.getppid()


def _stop_if_orphaned() -> None:
    """In a worker process whose parent was killed (``kill -9``, a time limit): exit instead of playing on for nobody.

    A pool's workers outlive a killed main process and would go on with the
    chunks already queued, slowing the run that resumes the match.
    """
    if _PARENT is not None and os.getppid() != _PARENT:
        os._exit(1)


def _run_parallel(chunks: list[_Chunk], workers: int) -> Iterator[_ChunkResult]:
    """Play the chunks in ``workers`` processes of the platform's default kind, yielding results as they finish.

    Callers on platforms that spawn processes (macOS, Windows) need the usual
    ``if __name__ == "__main__":`` guard in a script that calls
    :func:`run_duplicate` with several workers.
    """
    executor = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker)
    try:
        pending: set[Future[_ChunkResult]] = set()
        queue = list(reversed(chunks))
        # Keep a bounded number of chunks in flight so results stream back in roughly deal order.
        while queue or pending:
            while queue and len(pending) < 2 * workers:
                pending.add(executor.submit(_play_chunk, queue.pop()))
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    result = future.result()
                except BrokenProcessPool:
                    raise ArenaError("a worker process stopped unexpectedly (out of memory?); try fewer --workers") from None
                yield result
    except BaseException:
        _stop_now(executor)
        raise
    executor.shutdown(wait=True)


def _stop_now(executor: ProcessPoolExecutor) -> None:
    """Stop a pool at once (Ctrl-C, an error): drop the queued chunks and end the workers in the middle of theirs.

    Waiting for the running chunks could take minutes with search bots; their
    deals are lost either way, and ``--resume`` plays them again.  The workers
    are killed (SIGKILL): they hold nothing that needs cleaning up, and a
    SIGTERM was seen to leave a freshly forked worker running.
    """
    kill: Callable[[], None] | None = getattr(executor, "kill_workers", None)  # Python 3.14 and later
    if kill is not None:
        kill()
        return
    processes = list((getattr(executor, "_processes", None) or {}).values())  # earlier: the pool's own table of its processes
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.kill()


def run_duplicate(
    game: Game,
    candidate: BotSpec | str,
    references: Sequence[BotSpec | str],
    deals: int,
    seed: int,
    workers: int = 1,
    *,
    progress: Callable[[int], None] | None = None,
    record_sink: Callable[[list[dict[str, Any]]], None] | None = None,
    reuse_baseline: bool = False,
    done: PlayedDeals | None = None,
    on_chunk: Callable[[PlayedDeals], None] | None = None,
    runner: ChunkRunner | None = None,
) -> ArenaResult:
    """Play a duplicate match of ``candidate`` against each of ``references`` on ``deals`` seeded deals.

    ``workers`` > 1 plays in that many processes, 1 in this process; the
    result's ``deals`` are the same either way.  ``progress(k)`` is called
    each time ``k`` more deals are done.  ``record_sink(records)`` receives
    the deal records of every game played (baseline, then the rotations, per
    deal and reference), in deal order; without it no records are made.
    ``reuse_baseline`` lets the reference seats of a rotation replay the
    baseline's actions until the rotation first differs from it (see the
    module docstring).

    ``done`` goes on with a stopped match: the deals it holds (``0`` to
    ``k - 1``, played with the same bots and seed) are taken as they are and
    only deals ``k`` to ``deals - 1`` are played; the result is the whole
    match.  ``on_chunk(played)`` is called after every chunk of deals, in deal
    order and after ``record_sink`` has its records, so that a caller can keep
    a journal from which a stopped match can go on (``stich arena --resume``,
    :mod:`stich.arena.journal`).
    ``runner`` plays the chunks elsewhere (:data:`ChunkRunner`, e.g. on a Ray
    cluster, ``workers`` being its number of CPUs); the result is the same.
    Raises :class:`OptionError` for an unknown bot, a bad bot option, a bad
    count, or ``done`` deals that do not fit.
    """
    cand = candidate if isinstance(candidate, BotSpec) else parse_bot_spec(candidate)
    refs = tuple(r if isinstance(r, BotSpec) else parse_bot_spec(r) for r in references)
    if not refs:
        raise OptionError("a duplicate match needs at least one reference bot")
    if deals < 1:
        raise OptionError(f"the number of deals must be at least 1, not {deals}")
    if workers < 1:
        raise OptionError(f"the number of workers must be at least 1, not {workers}")
    if not 0 <= seed <= MAX_SEED:
        raise OptionError(f"the seed must be 0..{MAX_SEED}, not {seed}")
    for spec in (cand, *refs):
        check_options(spec)
        build_bot(spec, game, 0, 0)  # a bad option value fails here, before any work
    labels = bot_labels((cand, *refs))
    earlier = done if done is not None else PlayedDeals([], {}, 0, 0.0)
    first = _check_done(earlier, labels, deals)
    template = _Chunk(game.canonical, cand, refs, labels, seed, 0, 0, record_sink is not None, registered_bots(), reuse_baseline)
    chunks = _chunks(template, first, deals, workers)
    used = max(1, min(workers, len(chunks)))
    started = time.perf_counter()
    if runner is None and used == 1:
        raw: Iterator[_ChunkResult] = (_play_chunk(chunk, game) for chunk in chunks)
    else:
        raw = (runner or _run_parallel)(chunks, used)
    outcomes = list(earlier.deals)
    timings = {label: BotTiming() for label in labels}
    for label, timing in earlier.timings.items():
        timings[label].add(timing.decisions, timing.seconds, timing.max_seconds)
    games = earlier.games
    fallbacks: FallbackTally = {}
    add_fallbacks(fallbacks, earlier.fallbacks)
    for result in _in_order(_reporting(raw, progress), record_sink, first):
        outcomes.extend(result.deals)
        games += result.games
        chunk_timings = {label: BotTiming(*values) for label, values in result.timings.items()}
        for label, timing in chunk_timings.items():
            timings[label].add(timing.decisions, timing.seconds, timing.max_seconds)
        add_fallbacks(fallbacks, result.fallbacks)
        if on_chunk is not None:
            on_chunk(PlayedDeals(result.deals, chunk_timings, result.games, time.perf_counter() - started, fallbacks=result.fallbacks))
    seconds = time.perf_counter() - started
    parts = (*earlier.parts, RunPart(first, deals, used, seconds)) if chunks else earlier.parts
    return ArenaResult(
        game=game.canonical,
        seed=seed,
        candidate=cand,
        references=refs,
        labels=labels,
        deals=outcomes,
        games_played=games,
        timings=timings,
        workers=parts[-1].workers if parts else used,
        seconds=earlier.seconds + seconds,
        reuse_baseline=reuse_baseline,
        parts=parts,
        fallbacks={label: fallbacks[label] for label in labels if label in fallbacks},
    )


def _check_done(done: PlayedDeals, labels: Sequence[str], deals: int) -> int:
    """The first deal still to play after ``done``; raises :class:`OptionError` if its deals do not belong at the start of this match."""
    indices = [deal.index for deal in done.deals]
    if indices != list(range(len(indices))):
        raise OptionError(f"the deals played already must be deals 0 to {len(indices) - 1} in order, not {indices[:5]}...")
    first = len(indices)
    if deals < first:
        raise OptionError(f"the match already holds {first} deals; --deals {deals} would leave some out (give at least {first})")
    unknown = sorted(set(done.timings) - set(labels))
    if unknown:
        raise OptionError(f"the deals played already have timings of bots not in this match: {', '.join(unknown)}")
    unknown = sorted(set(done.fallbacks) - set(labels))
    if unknown:
        raise OptionError(f"the deals played already have fallbacks of bots not in this match: {', '.join(unknown)}")
    references = list(labels[1:])
    for deal in done.deals:
        against = [p.reference for p in deal.pairings]
        if against != references:
            raise OptionError(f"deal {deal.index} played already was played against {against}, not {references}")
    return first
