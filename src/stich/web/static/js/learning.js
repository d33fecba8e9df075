// Learning from a deal (issue 43): the hint button of a learning table, "play this deal again", and a replayed deal
// beside its original. The server answers in both languages; the page shows the one chosen.

import { api, ApiError } from "./api.js";
import { h, replace } from "./dom.js";
import { formatNumber, language, t } from "./i18n.js";
import { cardName } from "./cards.js";
import { actionLabel } from "./labels.js";
import { evaluationContent } from "./results.js";

/** The mark on a score sheet row whose deal had hints (the seats' names in its title), or null. */
export function hintMark(seats, names) {
  if (!Array.isArray(seats) || !seats.length) return null;
  const who = seats.map((seat) => names[seat] ?? String(seat)).join(", ");
  const text = t("learning.hint_mark", { names: who });
  return h("span", { class: "hint-mark", testid: "hint-mark", title: text, "aria-label": text, text: "💡" });
}

/** The hint's reason with the actions named as the page names them (the server's own sentence as a fallback). */
function whyText(hint, gameName, phase, pack) {
  const why = hint.why || {};
  // a card is named by itself ("Herz Dame"), any other action by its button's label
  const named = (text) => (/^play [CSHDT]/.test(text || "") ? cardName(text.slice(5), gameName, pack) : actionLabel(text, gameName, phase, pack));
  const action = named(hint.action);
  if (why.kind === "forced") return t("learning.why_forced", { action });
  if (why.kind === "rules") return t("learning.why_rules", { action });
  if (why.kind === "search" || why.kind === "even") {
    const runner = named(why.runner_up);
    return t(`learning.why_${why.kind}`, { action, runner, worlds: why.worlds, margin: formatNumber(why.margin) });
  }
  return hint.reason?.[language()] || hint.reason?.en || "";
}

/** The hint box of a table page: a button while it is the viewer's turn at a learning table, and the hint once given. */
export function createHintBox({ s, tableId, view, mySeat, gameName, pack }) {
  const element = h("div", { class: "hint-box", testid: "hint-box", hidden: true, "aria-live": "polite" });
  let shown = null; // { deal, step, hint } or { deal, step, error }
  let asking = false;

  async function ask(render) {
    const state = s.state;
    if (!state || asking) return;
    asking = true;
    render();
    try {
      const hint = await api(`/api/tables/${encodeURIComponent(tableId)}/hint`, { method: "POST" });
      shown = { deal: state.deal, step: state.step, hint };
    } catch (error) {
      const text = error instanceof ApiError && error.status === 429 ? t("learning.hint_wait") : error instanceof ApiError ? error.message : String(error);
      shown = { deal: state.deal, step: state.step, error: text };
    } finally {
      asking = false;
      render();
    }
  }

  function renderHint(render) {
    const v = view();
    const mine = Boolean(s.summary?.learning && v && v.phase !== "end" && v.to_move === mySeat() && (v.legal_actions || []).length);
    element.hidden = !mine;
    if (!mine) return;
    const current = shown && s.state && shown.deal === s.state.deal && shown.step === s.state.step ? shown : null;
    const answer = current?.hint
      ? h(
          "p",
          { class: "hint-answer", testid: "hint-answer" },
          h("strong", { text: `${t("learning.hint_says")} ${actionLabel(current.hint.action, gameName(), v.phase, pack())}` }),
          " ",
          h("span", { class: "hint-why", testid: "hint-why", text: whyText(current.hint, gameName(), v.phase, pack()) }),
        )
      : current?.error
        ? h("p", { class: "muted small", testid: "hint-error", text: current.error })
        : null;
    replace(
      element,
      h("button", { type: "button", class: "small ghost", testid: "hint-button", disabled: asking, title: t("learning.hint_title"), text: asking ? t("learning.hint_thinking") : t("learning.hint"), onclick: () => ask(render) }),
      answer,
    );
  }

  return { element, renderHint };
}

/** "Play this deal again": your seat, against bots or with friends; opens the new table. */
export function playAgainBox(dealId, { names, inviteQuery = "" }) {
  const seat = h("select", { testid: "again-seat", "aria-label": t("learning.again_seat") }, names.map((name, i) => h("option", { value: String(i), text: name })));
  const message = h("span", { class: "muted small", role: "status" });
  async function start(friends) {
    try {
      const body = { seat: Number(seat.value), bots: friends ? null : "heuristic", private: friends };
      const table = await api(`/api/deals/${encodeURIComponent(dealId)}/again${inviteQuery}`, { method: "POST", body });
      location.hash = `#/table/${table.id}`;
    } catch (error) {
      message.textContent = error instanceof ApiError ? error.message : String(error);
    }
  }
  return h(
    "div",
    { class: "play-again", testid: "play-again" },
    h("strong", { text: t("learning.again") }),
    h("label", { class: "small" }, t("learning.again_seat"), " ", seat),
    h("button", { type: "button", class: "small", testid: "again-bots", text: t("learning.again_bots"), onclick: () => start(false) }),
    h("button", { type: "button", class: "small ghost", testid: "again-friends", text: t("learning.again_friends"), onclick: () => start(true) }),
    message,
  );
}

/** A replayed deal beside its original (filled once the server answers; empty for a deal that is no replay). */
export function compareBox(dealId, { gameName, names, inviteQuery = "" }) {
  const box = h("section", { class: "card-panel compare", testid: "compare", hidden: true });
  api(`/api/deals/${encodeURIComponent(dealId)}/compare${inviteQuery}`)
    .then((answer) => {
      const side = (data, title) =>
        h(
          "div",
          { class: "compare-side", testid: "compare-side" },
          h("h3", {}, title, " ", h("a", { href: `#/replay/${data.deal}`, class: "muted small", text: `#${data.deal}` })),
          evaluationContent(data.result || {}, { gameName, names: (data.players || names).map((n, i) => names[i] ?? n), mySeat: null, lines: data.result_lines || [] }),
        );
      replace(
        box,
        h("h2", { text: t("learning.compare") }),
        h("p", { class: "muted small", testid: "compare-same", text: answer.same_cards ? t("learning.same_cards") : t("learning.other_cards") }),
        h("div", { class: "compare-grid" }, side(answer.original, t("learning.original")), side(answer.replay, t("learning.replayed"))),
      );
      box.hidden = false;
    })
    .catch(() => {}); // not a replay (404), or the original is hidden from this viewer: nothing to compare
  return box;
}

/** The table's own marks under its title: learning mode, and "replay of deal #X" (linking the original's replay). */
export function renderTableMarks(element, summary) {
  const marks = [];
  if (summary?.learning) marks.push(h("span", { class: "tag", testid: "learning-mark", text: t("learning.mode") }));
  if (summary?.replay_of) marks.push(h("a", { class: "tag", testid: "replay-of", href: `#/replay/${summary.replay_of}`, text: t("learning.replay_of", { deal: summary.replay_of }) }));
  element.hidden = !marks.length;
  replace(element, marks);
}
