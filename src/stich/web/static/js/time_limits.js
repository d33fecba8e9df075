// The lobby's time limits of a new table (issue 28): a turn timer (off, or seconds per move; when it runs out a
// bot makes that move) and the longest wait for everybody's "Weiter" after a deal. Both are kept with the table.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The turn limits the lobby offers (the server takes any whole number of seconds in its range). */
export const TURN_CHOICES = [15, 30, 60, 120];
/** The limits on the wait for "Weiter" the lobby offers. */
export const CONTINUE_CHOICES = [15, 30, 60, 120, 300];

/** The two fields of the create form; `keep` remembers the choices. Returns {rows, apply(body)}. */
export function timeLimitFields(keep) {
  const turn = h(
    "select",
    { id: "create-turn", testid: "create-turn", onchange: () => { keep.turn = turn.value; } },
    h("option", { value: "", text: t("clock.turn_off") }),
    TURN_CHOICES.map((n) => h("option", { value: String(n), text: t("clock.per_move", { n }) })),
  );
  const wait = h(
    "select",
    { id: "create-continue", testid: "create-continue", onchange: () => { keep.continueAfter = wait.value; } },
    h("option", { value: "", text: t("ready.wait_for_all") }),
    CONTINUE_CHOICES.map((n) => h("option", { value: String(n), text: t("ready.at_most", { n }) })),
  );
  if (keep.turn) turn.value = keep.turn;
  if (keep.continueAfter) wait.value = keep.continueAfter;
  return {
    rows: [
      h("label", { for: "create-turn", text: t("clock.turn_limit") }),
      h("div", {}, turn, h("p", { class: "muted small", text: t("clock.turn_hint") })),
      h("label", { for: "create-continue", text: t("ready.limit") }),
      h("div", {}, wait, h("p", { class: "muted small", text: t("ready.limit_hint") })),
    ],
    apply(body) {
      if (turn.value) body.turn_seconds = Number(turn.value);
      if (wait.value) body.continue_seconds = Number(wait.value);
      return body;
    },
  };
}

/** What a table's time limits are, in words ("Zugzeit: 30 s pro Zug"), or "" for a table without any. */
export function limitsText(summary) {
  const parts = [];
  if (summary?.turn_seconds) parts.push(`${t("clock.turn_limit")}: ${t("clock.per_move", { n: summary.turn_seconds })}`);
  if (summary?.continue_seconds) parts.push(`${t("ready.limit")}: ${t("ready.at_most", { n: summary.continue_seconds })}`);
  return parts.join(" · ");
}
