// The pace at which a table's messages are shown: with the "slow" bot speed, each move of another player stays
// in view for a moment before the next one is drawn (the server sends them as fast as its bots decide).
// Messages keep their order: a deal's end is never shown before its last card.

/** Queue of a table's messages, handed on in order, each move of another player at least `gap()` ms after the last was drawn. */
export class MovePacer {
  /**
   * @param {(msg: object) => void} deliver shows a message
   * @param {() => number} gap milliseconds between two shown moves of other players (0: no pause)
   * @param {() => number|null} mySeat the viewer's seat (their own moves are never held back)
   * @param {() => number} heldUntil until when (Date.now() ms) a completed trick stays in the middle: with a pause
   *   between moves, the next trick's first card waits for it, so that no move is shown behind the held trick
   */
  constructor(deliver, gap, mySeat, heldUntil = () => 0) {
    this.deliver = deliver;
    this.gap = gap;
    this.mySeat = mySeat;
    this.heldUntil = heldUntil;
    this.queue = [];
    this.lastMoveAt = 0;
    this.timer = null;
  }

  /** Take a message from the socket. */
  push(msg) {
    this.queue.push(msg);
    this.drain();
  }

  /** Whether a message shows another player's move (a state after an action that is not the viewer's). */
  othersMove(msg) {
    if (msg.type !== "state") return false;
    const events = msg.view?.events || [];
    const last = events[events.length - 1];
    return Boolean(last) && last[0] !== this.mySeat();
  }

  drain() {
    if (this.timer) return;
    let shown = false;
    while (this.queue.length) {
      const msg = this.queue[0];
      const gap = this.gap();
      if (gap > 0 && this.othersMove(msg)) {
        const wait = Math.max(this.lastMoveAt + gap, this.heldUntil()) - Date.now();
        if (wait > 0) {
          this.timer = setTimeout(() => {
            this.timer = null;
            this.drain();
          }, wait);
          return;
        }
        shown = true;
      }
      this.queue.shift();
      this.deliver(msg);
      // The pause counts from when the move is drawn, not from when drawing began: on a slow machine drawing it
      // (and the messages handed on with it) takes a noticeable part of the pause, which the player would not see.
      if (shown) this.lastMoveAt = Date.now();
    }
  }

  /** Drop what is queued (the page is left). */
  close() {
    clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
  }
}
