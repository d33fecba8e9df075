"""Hints on request at a learning table: what the hint bot would play from the asking seat's observation, and why (issue 43).

Who gets one (:func:`table_hint`; every refusal names its field and changes nothing):

* the table must allow hints (:func:`stich.web.deals.table_options.hints_refused`:
  ``learning: true``, never rated or tournament tables) -> 403 ``learning``;
* the asker must sit at the table; a spectator or another seat's person gets
  none (a hint is only ever for the asker's own seat) -> 403 ``seat``;
* a deal must be running and the asker's seat must be to move -> 409 ``turn``;
* one computed hint per seat per ``hint_interval_seconds`` -> 429 ``hint``
  (asking again for the same moment returns the hint already given, free).

What the bot gets: a :class:`~stich.web.runtime.bot_pool.BotJob` with the
seat's observation only, never the state, seeded from the deal's secret seed
and salt, the seat and the step (:func:`hint_seed`): the hint depends only
on what the seat may see, and the same moment gives the same hint.  It runs
where the search bots think (:meth:`BotPool.consult`, off the event loop and
in the table's fair share), within the hint bot's ``time`` cap and
``hint_timeout_seconds`` in all (a hint that does not come in time is
refused with 503 ``hint``: nothing is made up).

Using a hint marks the deal: the seat goes into the record's ``meta.hints``
and the ``deal_end`` message's ``hints``, which the score sheet shows.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from stich.arena.duplicate import build_bot, parse_bot_spec
from stich.core.registry import game_from_string
from stich.web.deals.table_options import hints_refused
from stich.web.identity import Identity
from stich.web.protocol import ApiError
from stich.web.runtime.bot_pool import BotJob

if TYPE_CHECKING:
    from stich.web.runtime.table import TableRuntime

EVEN = 0.05
"""Two candidates whose mean values differ by less than this are called equally good."""


@dataclass(frozen=True)
class HintResult:
    """What the worker found: the action's code and how the bot decided (its ``last`` statistics, where it keeps them)."""

    code: int
    mode: str
    worlds: int
    values: dict[int, float]


def hint_seed(seed: int, salt: str, seat: int, step: int) -> int:
    """The hint bot's seed for ``seat`` at ``step`` of a deal committed with ``seed`` and ``salt`` (a one-way hash, as :func:`bot_seed`)."""
    text = f"stich hint:{seed}:{salt}:{seat}:{step}"
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


def compute_hint(job: BotJob) -> HintResult:
    """Build the job's bot from its seed and let it choose from the observation (runs in a worker process)."""
    game = game_from_string(job.game)
    bot = build_bot(parse_bot_spec(job.spec), game, job.seat, job.seed)
    action = bot.choose(job.observation)
    if action not in job.observation.legal_actions:  # pragma: no cover - a bot bug
        raise ValueError(f"hint bot {job.spec!r} chose {action.text!r}, which is not legal")
    stats = getattr(bot, "last", None)
    mode = str(getattr(stats, "mode", "") or "")
    worlds = int(getattr(stats, "worlds", 0) or 0)
    values = {int(code): float(value) for code, value in (getattr(stats, "values", None) or {}).items()}
    return HintResult(action.code, mode, worlds, values)


def why_facts(result: HintResult, texts: dict[int, str]) -> dict[str, Any]:
    """The reason's facts, for a client that names the actions in its own words (``kind``: ``forced``, ``search``, ``even``, ``rules``)."""
    if result.mode == "forced" or len(texts) == 1:
        return {"kind": "forced"}
    others = {code: value for code, value in result.values.items() if code != result.code and code in texts}
    if result.code in result.values and others and result.worlds > 0:
        second = max(others, key=lambda code: others[code])
        margin = result.values[result.code] - others[second]
        kind = "even" if margin < EVEN else "search"
        return {"kind": kind, "worlds": result.worlds, "margin": round(margin, 1), "runner_up": texts[second]}
    return {"kind": "rules"}


def reason(result: HintResult, texts: dict[int, str]) -> dict[str, str]:
    """A one-line "why" in German and English from how the bot decided (``texts``: action code -> action text)."""
    chosen = texts[result.code]
    if result.mode == "forced" or len(texts) == 1:
        return {"de": f"{chosen} ist hier die einzige erlaubte Aktion.", "en": f"{chosen} is the only legal action here."}
    others = {code: value for code, value in result.values.items() if code != result.code and code in texts}
    if result.code in result.values and others and result.worlds > 0:
        second = max(others, key=lambda code: others[code])
        margin = result.values[result.code] - others[second]
        runner = texts[second]
        if margin < EVEN:
            return {
                "de": f"In {result.worlds} möglichen Verteilungen der unbekannten Karten waren {chosen} und {runner} im Mittel gleich gut.",
                "en": f"Over {result.worlds} possible layouts of the unseen cards, {chosen} and {runner} did equally well on average.",
            }
        return {
            "de": f"In {result.worlds} möglichen Verteilungen der unbekannten Karten brachte {chosen} im Mittel "
            f"{margin:.1f} mehr als {runner}, die nächstbeste Wahl.",
            "en": f"Over {result.worlds} possible layouts of the unseen cards, {chosen} scored {margin:.1f} more "
            f"on average than {runner}, the next best choice.",
        }
    return {
        "de": f"{chosen} folgt den Faustregeln des Bots (hier wurde nicht gesucht).",
        "en": f"{chosen} follows the bot's rules of thumb (no search here).",
    }


@dataclass
class HintDesk:
    """A table's hints so far: per seat the last moment answered and when a hint was last computed."""

    answers: dict[int, tuple[tuple[int, int], dict[str, Any]]] = field(default_factory=dict)
    """Per seat: ``(deal id, step)`` and the hint given for it."""
    computed_at: dict[int, float] = field(default_factory=dict)
    busy: set[int] = field(default_factory=set)
    """Seats whose hint is being computed now (one at a time per seat)."""


def _desk(runtime: TableRuntime) -> HintDesk:
    if not isinstance(runtime.hint_desk, HintDesk):
        runtime.hint_desk = HintDesk()
    desk: HintDesk = runtime.hint_desk
    return desk


async def table_hint(runtime: TableRuntime, identity: Identity | None) -> dict[str, Any]:
    """The hint for ``identity``'s seat at ``runtime`` now, or the :class:`ApiError` saying why not (see the module docstring)."""
    why = hints_refused(runtime.options, rated=runtime.rated, tournament=runtime.duplicate is not None)
    if why is not None:
        raise ApiError(403, "learning", why)
    seat = runtime.seat_of(identity)
    if seat is None:
        raise ApiError(403, "seat", "hints are only for a player seated at this table, for their own seat")
    desk = _desk(runtime)
    async with runtime.lock:
        state, deal = runtime.state, runtime.deal
        if state is None or deal is None or state.is_terminal() or state.current_player() != seat:
            raise ApiError(409, "turn", "a hint is given when it is your turn in a running deal")
        moment = (deal.id, len(state.history))
        given = desk.answers.get(seat)
        if given is not None and given[0] == moment:
            return given[1]
        now = time.monotonic()
        last = desk.computed_at.get(seat)
        interval = runtime.settings.hint_interval_seconds
        if seat in desk.busy or (last is not None and now - last < interval):
            raise ApiError(
                429, "hint", f"one hint per {interval:g} seconds; try again shortly", {"Retry-After": str(max(1, round(interval)))}
            )
        observation = state.observation(seat)
        seed = hint_seed(deal.fair.seed, deal.fair.salt, seat, moment[1])
        job = BotJob(runtime.id, runtime.settings.hint_bot, runtime.game.canonical, seat, seed, observation)
        texts = {action.code: action.text for action in observation.legal_actions}
        desk.busy.add(seat)
        desk.computed_at[seat] = now
    limit = runtime.settings.hint_timeout_seconds
    try:
        result = await asyncio.wait_for(runtime.manager.bots.consult(job, compute_hint), limit)
    except TimeoutError:
        raise ApiError(503, "hint", f"the hint took longer than {limit:g} seconds; try again") from None
    except ApiError:
        raise
    except Exception as exc:
        raise ApiError(503, "hint", f"the hint could not be computed: {type(exc).__name__}") from None
    finally:
        desk.busy.discard(seat)
    answer = {
        "type": "hint",
        "table": runtime.id,
        "deal": moment[0],
        "step": moment[1],
        "seat": seat,
        "action": texts[result.code],
        "bot": runtime.settings.hint_bot,
        "worlds": result.worlds,
        "reason": reason(result, texts),
        "why": why_facts(result, texts),
    }
    async with runtime.lock:
        deal = runtime.deal
        if deal is None or deal.id != moment[0]:
            raise ApiError(409, "turn", "the deal ended while the hint was computed")
        if seat not in deal.hints:  # the deal is marked once the hint is given, whether or not it is followed; stored first
            await asyncio.to_thread(runtime.db.mark_hint, deal.id, seat, runtime.fence)
            deal.hints.add(seat)
        desk.answers[seat] = (moment, answer)
    return answer
