"""The table WebSocket, ``/ws/tables/{id}``: the route that admits a client and hands it to the live table.

It checks the origin and the session, finds the table (here, claimed from a dead worker, or relayed
to the worker that owns it), checks the invite and the socket caps, then reads the client's messages
into :meth:`~stich.web.runtime.table.TableRuntime.handle` until it leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from stich.web.api.services import request_address, services
from stich.web.api.session import current_identity
from stich.web.guards.cross_site import foreign_origin, normal_origins
from stich.web.protocol import WHOLE, error_message
from stich.web.runtime.connection import Connection
from stich.web.runtime.table import TableRuntime

log = logging.getLogger("stich.web")

router = APIRouter()


def _same_origin(websocket: WebSocket, allowed_origins: tuple[str, ...]) -> bool:
    """A browser's WebSocket must come from a page of this server or an allowed origin (no cross-site WebSocket hijacking)."""
    return foreign_origin(websocket.headers, normal_origins(allowed_origins)) is None


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """The table's live channel: players act for their own seat; everybody gets a message after every action."""
    svc = services(websocket)
    if not _same_origin(websocket, svc.settings.allowed_origins):
        log.info("table %s: refused a socket from %s: a foreign origin (1008)", table_id, request_address(websocket))
        await websocket.close(code=1008)
        return
    checked_at = time.monotonic()  # before the lookup: a session change recorded during it makes the socket ask again
    identity = await current_identity(websocket)
    runtime = svc.tables.get(table_id) or await svc.tables.claim(table_id)
    if runtime is None and await svc.tables.relay(websocket, identity, table_id):
        return
    await websocket.accept()
    if runtime is None:
        finished = await asyncio.to_thread(svc.db.get_table, table_id)
        text = "the table has finished" if finished is not None and finished.status == "finished" else "no such table"
        log.info("table %s: refused a socket: %s (4404)", table_id, text)
        await websocket.send_json(error_message("table", text))
        await websocket.close(code=4404)
        return
    if not runtime.may_see(identity, websocket.query_params.get("invite")):
        log.info("table %s: refused a socket: private, no invite (4403)", table_id)
        await websocket.send_json(error_message("invite", "this table is private; you need its invite link"))
        await websocket.close(code=4403)
        return
    address = request_address(websocket)
    ticket = await svc.tables.open_socket(identity, address, table_id)
    if isinstance(ticket, str):
        log.warning("table %s: refused a socket from %s: %s (4429)", table_id, address, ticket)
        await websocket.send_json(error_message(WHOLE, ticket))
        await websocket.close(code=4429)
        return
    conn = Connection(websocket, identity, svc.settings, address, svc.tables.sessions, checked_at, db=svc.db)
    writer = asyncio.create_task(conn.writer())
    try:
        await runtime.attach(conn)
        if svc.tables.get(table_id) is runtime:
            await _serve(runtime, conn)
        else:  # let go while the socket was being opened (another worker took it over): never a socket nobody serves
            log.warning("table %s: let go while a socket was being opened; the client is told to reconnect", table_id)
            conn.close_code = 1012
            conn.kicked = True
    finally:
        with contextlib.suppress(Exception):  # Redis away (several workers): a dead worker's count lapses anyway
            await svc.tables.close_socket(ticket)
        await runtime.detach(conn)
        await conn.end(writer)


async def _serve(runtime: TableRuntime, conn: Connection) -> None:
    """Read the client's messages until it leaves or is disconnected."""
    websocket = conn.websocket
    try:
        while not conn.kicked:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            await runtime.handle(conn, message.get("text") if message.get("text") is not None else message.get("bytes"))
    except WebSocketDisconnect:
        pass
