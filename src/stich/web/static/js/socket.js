// The table's WebSocket with automatic reconnect: exponential backoff with jitter, a keep-alive ping,
// and an immediate retry when the browser comes back online or the tab becomes visible.
// After a reconnect the server sends welcome, table, deal_start and the current state again,
// so the page resumes exactly where the player was.

const MAX_DELAY_MS = 15000;
const PING_EVERY_MS = 20000;
const PONG_TIMEOUT_MS = 10000;
/** Close codes after which retrying cannot help: no such table (4404), private table without invite (4403). */
const FINAL_CODES = new Set([4403, 4404]);

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
    this._online = () => this.retryNow();
    this._visible = () => {
      if (!document.hidden) this.retryNow();
    };
    window.addEventListener("online", this._online);
    document.addEventListener("visibilitychange", this._visible);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = this.invite ? `?invite=${encodeURIComponent(this.invite)}` : "";
    return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${query}`;
  }

  setState(state, info = {}) {
    this.state = state;
    this.onStatus(state, info);
  }

  /** Open the connection (again). */
  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.nextRetryAt = null;
    this.setState("reconnecting", { attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
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
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopPing();
      if (this.stopped) return;
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
