// The shared "Weiter" (issue 28, defect 7): after a deal the server waits until every person at the table is ready
// (its "waiting" message names who still reads the evaluation) and only then deals the next one.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { countdown } from "./clock.js";

/** The "waiting" message on this page's own clock (its `deadline` in ms, or null without a time limit). */
export function localWaiting(message) {
  return { ...message, deadline: typeof message.remaining === "number" ? Date.now() + message.remaining * 1000 : null };
}

/** Whether this seat's person still has to say "Weiter" for the deal `dealId`. */
export function mustContinue(waiting, dealId, mySeat) {
  return Boolean(waiting && waiting.deal === dealId && typeof mySeat === "number" && waiting.waiting.includes(mySeat));
}

/** "Warte auf: Anna, Ben" (the others; the reader themself is asked by the button), with the time left if the table set one. */
export function waitingLine(waiting, { mySeat, names }) {
  const others = waiting.waiting.filter((seat) => seat !== mySeat).map((seat) => names[seat] ?? String(seat));
  const text = others.length ? t("ready.waiting_for", { names: others.join(", ") }) : t("ready.others_ready");
  return h(
    "span",
    { class: "waiting-line", testid: "eval-waiting", dataset: { waiting: waiting.waiting.join(",") } },
    text,
    waiting.deadline ? [" · ", t("ready.starts_at_latest"), " ", countdown(waiting.deadline)] : null,
  );
}
