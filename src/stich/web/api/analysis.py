"""The analysis of a finished deal for one of its players (issue 43): ``/api/deals/{id}/analysis``.

* ``POST /api/deals/{id}/analysis?seat=N`` starts the analysis of seat
  ``N`` (default: the requester's lowest seat at the deal) unless it is kept
  or running: 200 with ``{"status": "done", "analysis": ...}`` when kept,
  else 202 with the progress ``{"status": "running", "done", "total"}``.
* ``GET`` the same path: 200 when done, 202 with the progress while it runs
  (or ``"failed"`` and the error, after which a ``POST`` tries again), 404
  ``analysis`` when it was never started.

**Who gets it.** Never for a deal that is still being played, for anyone
(409 ``deal``: the analysis would show what the worlds hold about hidden
cards).  Once the deal is finished, only a person who sat at it (by session
or account, as ``/api/me/deals`` counts them) gets it, and only for a seat
they held (403 ``seat``): the analysis reads that seat's observation only.
A deal the requester cannot see at all is 404, as everywhere.  A session has
one analysis running at a time (429 ``analysis``), a server process
``max_analyses`` (settings); request size and time limits
are the app's, as for every route.

The numbers are those of ``stich analyse RECORD --seat N`` with the web's
budget and seed (:data:`~stich.web.runtime.analyses.BUDGET`, ``SEED``),
which the answer names.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from stich.web.api.lobby import visible_deal
from stich.web.api.services import count_action, services
from stich.web.api.session import current_identity
from stich.web.protocol import ApiError
from stich.web.runtime.analyses import DealAnalyses
from stich.web.storage.db import DealRow

router = APIRouter(prefix="/api", tags=["analysis"])


async def _owned(request: Request, deal_id: int, seat: int | None, invite: str | None) -> tuple[DealRow, int, int]:
    """The finished deal, the seat to analyse and the requester's session, or the refusal (see the module docstring)."""
    deal = await visible_deal(request, deal_id, invite)
    if deal.status != "finished" or deal.record is None:
        raise ApiError(409, "deal", "the deal is still being played; its analysis is available to its players when it ends")
    identity = await current_identity(request)
    if identity is None:
        raise ApiError(401, "session", "no session: only the players of a deal get its analysis")
    seats = await asyncio.to_thread(services(request).db.seats_of, deal.id, identity.user_id, identity.session_id)
    if not seats:
        raise ApiError(403, "seat", "only the players of a deal get its analysis")
    if seat is None:
        seat = seats[0]
    elif seat not in seats:
        raise ApiError(403, "seat", f"you did not play seat {seat} of this deal; your seats: {', '.join(map(str, seats))}")
    return deal, seat, identity.session_id


def _analyses(request: Request) -> DealAnalyses:
    found = services(request).analyses
    if found is None:  # pragma: no cover - the composition root always builds it
        raise ApiError(503, "analysis", "analyses are not available on this server")
    return found


def _done(analyses: DealAnalyses, seat: int, analysis: dict[str, Any]) -> dict[str, Any]:
    return {"status": "done", "seat": seat, "budget": analyses.budget, "seed": analyses.seed, "analysis": analysis}


def _running(analyses: DealAnalyses, seat: int, progress: dict[str, Any]) -> JSONResponse:
    return JSONResponse({**progress, "seat": seat, "budget": analyses.budget, "seed": analyses.seed}, status_code=202)


SeatQuery = Annotated[int | None, Query(ge=0, le=16)]
InviteQuery = Annotated[str | None, Query(max_length=100)]


@router.post("/deals/{deal_id}/analysis", response_model=None)
async def start_analysis(
    deal_id: int, request: Request, seat: SeatQuery = None, invite: InviteQuery = None
) -> dict[str, Any] | JSONResponse:
    """Start (or find) the analysis of one of your seats in a finished deal: 200 when done, 202 with its progress."""
    await count_action(request, "analysis", await current_identity(request))
    deal, seat, session_id = await _owned(request, deal_id, seat, invite)
    analyses = _analyses(request)
    progress = analyses.running(deal.id, seat)  # before the storage, as in get_analysis
    if progress is not None and progress.error is None:
        return _running(analyses, seat, progress.to_json())
    kept = await analyses.stored(deal.id, seat)
    if kept is not None:
        return _done(analyses, seat, kept)
    if analyses.running_for(session_id):
        raise ApiError(429, "analysis", "one analysis at a time: wait until your other analysis is done", {"Retry-After": "10"})
    if analyses.busy:
        raise ApiError(429, "analysis", "the server is analysing as many deals as it can; try again in a minute", {"Retry-After": "30"})
    assert deal.record is not None  # _owned said so
    return _running(analyses, seat, analyses.start(deal.id, seat, deal.record, session_id).to_json())


@router.get("/deals/{deal_id}/analysis", response_model=None)
async def get_analysis(deal_id: int, request: Request, seat: SeatQuery = None, invite: InviteQuery = None) -> dict[str, Any] | JSONResponse:
    """The analysis of one of your seats in a finished deal: 200 when done, 202 with its progress, 404 if never started."""
    deal, seat, _ = await _owned(request, deal_id, seat, invite)
    analyses = _analyses(request)
    # The progress first, then the storage: an analysis is saved before its progress is dropped, and the storage is
    # read in a thread, during which a running analysis may finish. Read the other way round, an analysis ending
    # between the two looks was in neither (a 404 for a finished analysis, seen on PostgreSQL).
    progress = analyses.running(deal.id, seat)
    if progress is not None and progress.error is None:
        return _running(analyses, seat, progress.to_json())
    kept = await analyses.stored(deal.id, seat)
    if kept is not None:
        return _done(analyses, seat, kept)
    if progress is None:
        raise ApiError(404, "analysis", "this deal's seat has not been analysed yet; POST to start it")
    return _running(analyses, seat, progress.to_json())
