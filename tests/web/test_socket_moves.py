"""The browser's table socket follows ``moved`` (decision 0068): at once, only to a ws(s) address, and back home after a close.

``static/js/socket.js`` runs under Node with a stand-in ``WebSocket``,
``window``, ``document`` and ``location`` (skipped where Node is missing):
a unit-level check, not a browser test.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from stich.web.app import STATIC_DIR

HARNESS = r"""
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
globalThis.WebSocket = FakeSocket;
globalThis.window = { addEventListener() {}, removeEventListener() {} };
globalThis.document = { hidden: false, addEventListener() {}, removeEventListener() {} };
globalThis.location = { protocol: process.argv[2], host: "play.example:8000" };
const { TableSocket, movedBase } = await import(process.argv[3]);
const wait = (ms) => new Promise((done) => setTimeout(done, ms));
Math.random = () => 0; // the shortest retry pause (375 ms)

const out = { bases: {}, flow: [], received: [] };
for (const url of ["ws://a.test:8001", "wss://b.test/w2/", "javascript:alert(1)", "ws://u:p@a.test", "ws://a.test/?x=1",
                   "http://a.test", "ws://a.test#f", 7, null]) {
  out.bases[String(url)] = movedBase(url, location.protocol);
}
if (process.argv[4] === "bases") {
  console.log(JSON.stringify(out));
  process.exit(0);
}
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
console.log(JSON.stringify(out));
"""


def _run(tmp_path: Path, protocol: str, only_bases: bool = False) -> dict[str, object]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    module = tmp_path / "socket.mjs"
    module.write_text((STATIC_DIR / "js" / "socket.js").read_text(encoding="utf-8"), encoding="utf-8")
    harness = tmp_path / "harness.mjs"
    harness.write_text(HARNESS, encoding="utf-8")
    command = [node, str(harness), protocol, module.as_uri(), "bases" if only_bases else "all"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_socket_follows_moved_at_once_and_goes_home_after_a_close(tmp_path: Path) -> None:
    result = _run(tmp_path, "http:")
    flow = result["flow"]
    assert isinstance(flow, list)
    assert flow[:3] == [
        "ws://play.example:8000/ws/tables/T1?invite=inv&follow=1",
        "ws://a.test:8001/ws/tables/T1?invite=inv&follow=1",
        "ws://play.example:8000/ws/tables/T1?invite=inv&follow=1",
    ]
    assert result["received"] == ["welcome"]  # "moved" is the socket's own business
    # a move not followed stays home, and after three moves in a row unserved the socket asks to be relayed
    home = "ws://play.example:8000/ws/tables/T1?invite=inv"
    assert flow[3:] == [f"{home}&follow=1"] * 2 + [home] * 2


def test_only_a_ws_address_is_followed_and_never_a_downgrade(tmp_path: Path) -> None:
    plain = _run(tmp_path, "http:", only_bases=True)["bases"]
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
    secure = _run(tmp_path, "https:", only_bases=True)["bases"]
    assert isinstance(secure, dict)
    assert secure["ws://a.test:8001"] is None and secure["wss://b.test/w2/"] == "wss://b.test/w2"
