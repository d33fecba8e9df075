// The server's refusals for people. The server writes its messages in English and names the field at fault
// (`{"type": "error", "field": "options.nines", "message": ...}`); in English the message is shown as it is,
// in German the text comes from the field (and a rule reference the message gives, such as "§6.1", is kept).

import { ApiError } from "./api.js";
import { language, t } from "./i18n.js";

/** Fields whose German text names the field's own subject; a numbered or dotted field is read by its first part. */
const KNOWN = new Set(["$", "tournament", "tournaments", "tables", "start_at", "account", "game", "preset", "options", "kind", "deals", "seat", "seats", "bot", "bots", "name", "password", "session", "table", "deal", "invite", "action", "step", "type", "limit", "offset", "rated", "family", "player"]);

/** The engine's reasons for an illegal card, by their English wording, and the key of their German text. */
const REASONS = [
  [/not in your hand/, "not_held"],
  [/cannot follow suit.*(trump|tarock|heart)/, "must_trump"],
  [/trumps were led/, "trump_led"],
  [/follow/, "follow"],
  [/must beat|Überstechen/, "beat"],
  [/may not be laid away|may be discarded only|may not be laid/, "no_discard"],
  [/Gstieß may not/, "gstiess"],
  [/first three tricks/, "first_three"],
];

/** The rule a server message refers to ("[§6.1]", "(§7.6)", "§2.3"), or "". */
function ruleOf(message) {
  return /§\s?[0-9][0-9.]*/.exec(String(message || ""))?.[0] || "";
}

/** A refusal's text in the current language, from its field, HTTP status (0 for the WebSocket) and English message. */
export function refusalText(field, message, status = 0) {
  if (language() !== "de") return t("error.field", { field, message });
  const base = String(field || "$").split(".")[0];
  const key = KNOWN.has(base) ? base : "other";
  let text = t(`server_error.${key}`);
  if (status === 429 && /too many requests/.test(message)) text = t("server_error.too_many"); // a rate limit (api/services.count_action): its field names what was counted
  if (key === "table" && /finished/.test(message)) text = t("server_error.table_finished");
  if (key === "table" && status === 403) text = t("server_error.table_forbidden");
  if ((key === "seat" || key === "seats") && /taken|full|no empty/.test(message)) text = t("server_error.seat_taken");
  if (key === "action" && /turn/.test(message)) text = t("server_error.not_your_turn");
  if (key === "action") {
    const reason = REASONS.find(([pattern]) => pattern.test(message));
    if (reason) text = t(`server_error.reason.${reason[1]}`);
  }
  const rule = ruleOf(message);
  return rule ? `${text} (${rule})` : text;
}

/** The text of an error from `api()`: network trouble, a refusal, or something unexpected. */
export function apiErrorText(error) {
  if (error instanceof ApiError && error.status === 0) return t("error.network");
  if (error instanceof ApiError) return refusalText(error.field, error.message, error.status);
  return t("error.generic", { message: String(error?.message || error) });
}
