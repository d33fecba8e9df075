"""The browser's table socket follows ``moved`` (decision 0068): at once, only to a ws(s) address, and back home after a close.

``static/js/socket.js`` is imported in a real page of the test server, with a stand-in ``WebSocket`` class for the
table socket: a unit-level check of the client's logic (the cluster tests in tests/web cover the server's side, and
``tests/web/test_cluster.py`` a real browser-free redirect between two workers).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from .flows import LAPTOP, ContextFactory, person

FLOW = r"""
async () => {
  const sockets = [];
  class FakeSocket {
    static OPEN = 1;
    constructor(url) { this.url = url; this.readyState = 0; this.listeners = {}; sockets.push(this); }
    addEventListener(kind, fn) { (this.listeners[kind] ||= []).push(fn); }
    emit(kind, event) { for (const fn of this.listeners[kind] || []) fn(event); }
    message(data) { this.emit("message", { data: JSON.stringify(data) }); }
    send() {}
    close() {}
  }
  window.WebSocket = FakeSocket;
  Math.random = () => 0; // the shortest retry pause (375 ms)
  const { TableSocket } = await import("/static/js/socket.js");
  const wait = (ms) => new Promise((done) => setTimeout(done, ms));
  const out = { flow: [], received: [] };
  const socket = new TableSocket("T1", { invite: "inv", onMessage: (m) => out.received.push(m.type), onStatus() {} });
  socket.connect();
  const last = () => sockets[sockets.length - 1];
  out.flow.push(last().url);
  last().message({ type: "moved", url: "ws://a.test:8001" });
  last().emit("close", { code: 4307 });
  out.flow.push(last().url);                       // at once, at the owner
  last().emit("open", {});
  last().message({ type: "welcome" });
  last().emit("close", { code: 1012 });            // the table moved on: back home, after the usual pause
  await wait(450);
  out.flow.push(last().url);
  for (let i = 0; i < 4; i++) {                    // sent to an address not followed, again and again
    last().emit("open", {});
    last().message({ type: "moved", url: "javascript:alert(1)" });
    last().emit("close", { code: 4307 });
    await wait(450);
    out.flow.push(last().url);
  }
  socket.close();
  return out;
}
"""
"""Drive one :class:`TableSocket` through moves and closes; the URL of every socket it opened, and what it passed on."""

BASES = r"""
async (protocol) => {
  const { movedBase } = await import("/static/js/socket.js");
  const out = {};
  for (const url of ["ws://a.test:8001", "wss://b.test/w2/", "javascript:alert(1)", "ws://u:p@a.test", "ws://a.test/?x=1",
                     "http://a.test", "ws://a.test#f", 7, null]) {
    out[String(url)] = movedBase(url, protocol);
  }
  return out;
}
"""
"""``movedBase`` of addresses a ``moved`` message might carry, for a page served over ``protocol``."""


def _page(make_context: ContextFactory) -> Page:
    page = person(make_context, "en", LAPTOP)
    page.goto("/api/bots")  # an origin of the server, with none of the app's own sockets
    return page


def test_the_socket_follows_moved_at_once_and_goes_home_after_a_close(make_context: ContextFactory) -> None:
    page = _page(make_context)
    host = page.evaluate("location.host")
    result: dict[str, Any] = page.evaluate(FLOW)
    flow = result["flow"]
    home = f"ws://{host}/ws/tables/T1?invite=inv"
    assert flow[:3] == [f"{home}&follow=1", "ws://a.test:8001/ws/tables/T1?invite=inv&follow=1", f"{home}&follow=1"]
    assert result["received"] == ["welcome"]  # "moved" is the socket's own business
    # a move not followed stays home, and after three moves in a row unserved the socket asks to be relayed
    assert flow[3:] == [f"{home}&follow=1"] * 2 + [home] * 2
    # without an invite and no longer following, the address has no query at all
    bare: dict[str, Any] = page.evaluate(FLOW.replace('invite: "inv", ', ""))
    assert bare["flow"][-1] == f"ws://{host}/ws/tables/T1", bare["flow"]


def test_only_a_ws_address_is_followed_and_never_a_downgrade(make_context: ContextFactory) -> None:
    page = _page(make_context)
    plain: dict[str, Any] = page.evaluate(BASES, "http:")
    assert plain == {
        "ws://a.test:8001": "ws://a.test:8001",
        "wss://b.test/w2/": "wss://b.test/w2",
        "javascript:alert(1)": None,
        "ws://u:p@a.test": None,
        "ws://a.test/?x=1": None,
        "http://a.test": None,
        "ws://a.test#f": None,
        "7": None,
        "null": None,
    }
    secure: dict[str, Any] = page.evaluate(BASES, "https:")
    assert secure["ws://a.test:8001"] is None and secure["wss://b.test/w2/"] == "wss://b.test/w2"
