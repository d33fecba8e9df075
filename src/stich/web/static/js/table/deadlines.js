// The announcement deadlines next to the call buttons (issue 43): "Re bis zur 2. Karte". Doppelkopf's come from the
// server (the state message's `deadlines`, worked out from the public facts and the table's options); the Tarock
// games' calls belong to a phase before the first card, which is their deadline.

import { h } from "../dom.js";
import { language, t } from "../i18n.js";
import { actionLabel } from "../labels.js";

const LEVELS = ["none", "re_kontra", "keine90", "keine60", "keine30", "schwarz"];
const CALL_VERBS = new Set(["announce", "kontra", "rekontra", "subkontra", "double", "retour", "schwacher"]);

/** Whether a button's action is a call (an announcement or a doubling). */
export const isCall = (text) => CALL_VERBS.has(text.split(" ")[0]);

/** "2." in German, "2nd" in English. */
export function ordinal(n) {
  if (language() === "de") return `${n}.`;
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

/**
 * Until which card a Doppelkopf call may be made: `{n, reply}`; a party that has not called may still answer the
 * other party's call one card after that call's deadline (§5.3), which can be later than its own.
 */
export function callDeadline(word, deadlines, view) {
  const level = word === "re" || word === "kontra" ? "re_kontra" : word;
  let n = deadlines.until?.[level];
  let reply = false;
  if (level === "re_kontra" && deadlines.reply) {
    const party = view?.private?.party;
    const calls = view?.public?.calls || {};
    const own = party === "re" ? calls.re : party === "kontra" ? calls.kontra : 0;
    const other = party === "re" ? calls.kontra : party === "kontra" ? calls.re : 0;
    if (!own && other >= 1 && deadlines.until?.[LEVELS[other]] !== undefined) {
      const late = deadlines.until[LEVELS[other]] + 1;
      if (late > n) [n, reply] = [late, true];
    }
  }
  return { n, reply };
}

/** The line under the call buttons, or null when none of `buttons` is a call. */
export function deadlineLine(buttons, { view, deadlines, gameName, pack }) {
  const calls = buttons.filter(isCall);
  if (!calls.length) return null;
  if (gameName !== "doppelkopf") {
    // the Tarock games ask for calls in a phase of their own, which ends with the first card
    return h("p", { class: "call-deadlines small", testid: "call-deadlines", text: t("deadline.before_play") });
  }
  if (!deadlines || !deadlines.until) return null;
  const key = deadlines.count === "table" ? "deadline.trick" : "deadline.card";
  const parts = calls
    .filter((text) => text.startsWith("announce "))
    .map((text) => {
      const word = text.split(" ")[1];
      const { n, reply } = callDeadline(word, deadlines, view);
      if (n === undefined) return null;
      const call = actionLabel(text, gameName, view?.phase, pack);
      return h("span", { class: "call-deadline", testid: "call-deadline", dataset: { call: word, until: n } }, t(key, { call, nth: ordinal(n) }) + (reply ? t("deadline.reply") : ""));
    })
    .filter(Boolean);
  if (!parts.length) return null;
  const notes = [];
  const unit = deadlines.count === "table" ? "trick" : "card";
  if (deadlines.shift) notes.push(t(`deadline.shift_${unit}${deadlines.shift === 1 ? "_one" : ""}`, { n: deadlines.shift }));
  return h(
    "p",
    { class: "call-deadlines small", testid: "call-deadlines", title: t(deadlines.count === "table" ? "deadline.explain_trick" : "deadline.explain_card") },
    parts.flatMap((part, i) => (i ? [" · ", part] : [part])),
    notes.map((note) => [" · ", h("span", { class: "deadline-shift", testid: "deadline-shift", text: note })]),
  );
}
