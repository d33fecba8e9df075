// The table's WebSocket with automatic reconnect: exponential backoff with jitter, a keep-alive ping,
// and an immediate retry when the browser comes back online or the tab becomes visible.
// After a reconnect the server sends welcome, table, deal_start and the current state again,
// so the page resumes exactly where the player was. With several workers the server may answer `moved` and close (4307):
// the socket opens again at once at the worker that runs the table, and goes back to this page's server after any other close.

const MAX_DELAY_MS = 15000;
const PING_EVERY_MS = 20000;
const PONG_TIMEOUT_MS = 10000;
/** Close codes after which retrying cannot help: no such table (4404), private table without invite (4403). */
const FINAL_CODES = new Set([4403, 4404]);
/** Close code after a `moved` message: the table's own worker takes the socket at the address it names (decision 0068). */
const MOVED_CODE = 4307;
/** Moves in a row without being served, after which the socket asks to be relayed instead (never sent round in circles). */
const MAX_MOVES = 3;

/**
 * The base address of a `moved` message, or null when it is not one to follow: only ws: or wss: (never ws: from an https
 * page), a host, an optional path prefix, and nothing else. The client adds the table's path itself.
 * @param {unknown} url
 * @param {string} pageProtocol
 * @returns {string | null}
 */
export function movedBase(url, pageProtocol) {
  if (typeof url !== "string" || url.length > 2000) return null;
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const secure = parsed.protocol === "wss:";
  if (!secure && (parsed.protocol !== "ws:" || pageProtocol === "https:")) return null;
  if (!parsed.hostname || parsed.username || parsed.password || parsed.search || parsed.hash) return null;
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, "")}`;
}

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {{invite?: string, onMessage: (msg: object) => void, onStatus: (state: string, info: object) => void}} options
   */
  constructor(tableId, { invite = null, onMessage, onStatus }) {
    this.tableId = tableId;
    this.invite = invite;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.stopped = false;
    this.state = "reconnecting";
    this.nextRetryAt = null;
    /** Where the last `moved` message sent the socket (null: this page's own server). */
    this.movedTo = null;
    this.moves = 0;
    this._online = () => this.retryNow();
    this._visible = () => {
      if (!document.hidden) this.retryNow();
    };
    window.addEventListener("online", this._online);
    document.addEventListener("visibilitychange", this._visible);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const params = new URLSearchParams();
    if (this.invite) params.set("invite", this.invite);
    if (this.moves < MAX_MOVES) params.set("follow", "1"); // send me to the table's own worker rather than relaying me
    const base = this.movedTo || `${scheme}://${location.host}`;
    const query = params.toString();
    return `${base}/ws/tables/${encodeURIComponent(this.tableId)}${query ? `?${query}` : ""}`;
  }

  setState(state, info = {}) {
    this.state = state;
    this.onStatus(state, info);
  }

  /** Open the connection (again); `following`: at the address of a `moved`, at once, the page still showing "connected". */
  connect(following = false) {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.nextRetryAt = null;
    if (!following) this.setState("reconnecting", { attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.movedTo = null; // an address the browser refused: back to this page's server
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.moved = null;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.setState("connected");
      this.startPing();
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "pong") {
        clearTimeout(this.pongTimer);
        return;
      }
      if (message.type === "moved") {
        this.moved = movedBase(message.url, location.protocol);
        return;
      }
      if (message.type === "welcome") this.moves = 0; // served
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopPing();
      if (this.stopped) return;
      const moved = event.code === MOVED_CODE ? this.moved : null;
      this.moved = null;
      this.movedTo = moved; // any other close goes back to this page's server, which knows where the table is now
      if (event.code === MOVED_CODE) this.moves += 1; // a move to an address not followed counts too: it ends in a relay
      if (moved) {
        this.connect(true);
        return;
      }
      if (FINAL_CODES.has(event.code)) {
        this.setState("closed", { code: event.code });
        return;
      }
      this.scheduleRetry();
    });
  }

  scheduleRetry() {
    if (this.stopped) return;
    const base = Math.min(MAX_DELAY_MS, 500 * 2 ** this.attempt);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    this.nextRetryAt = Date.now() + delay;
    this.setState("reconnecting", { attempt: this.attempt, retryAt: this.nextRetryAt });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Retry at once (the network came back, the tab is visible again, the player asked). */
  retryNow() {
    if (this.stopped || this.ws) return;
    this.attempt = 0;
    this.connect();
  }

  startPing() {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (!this.send({ type: "ping", id: Date.now() % 1e9 })) return;
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => {
        // No answer: the connection is dead even if the browser has not noticed; start over.
        if (this.ws) this.ws.close(4000, "no pong");
      }, PONG_TIMEOUT_MS);
    }, PING_EVERY_MS);
  }

  stopPing() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }

  /** Send a message; false when not connected. */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Close for good (leaving the page). */
  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.stopPing();
    window.removeEventListener("online", this._online);
    document.removeEventListener("visibilitychange", this._visible);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000, "leaving");
    }
  }
}
