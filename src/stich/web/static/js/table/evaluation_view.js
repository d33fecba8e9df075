// The evaluation of the last deal on the table page: on the felt until the player says "Weiter", beside the table
// while the next deal runs; with the replay, the record and the shared "Weiter".

import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { evaluationContent, gameNumber } from "../results.js";
import { mustContinue, waitingLine } from "./ready.js";
import { compareBox, playAgainBox } from "../learning.js";

/** The evaluation box of one table page. */
export function createEvaluationView(ctx) {
  const { s, evaluation, showEval, side, felt, socket, gameName, names, mySeat, status, inviteQuery, betweenDeals, render } = ctx;
  /** "Weiter": tell the server this person has read the evaluation (the next deal waits for everybody), and close it. */
  function continueAfter(end) {
    if (mustContinue(s.waiting, end.deal, mySeat())) socket()?.send({ type: "continue", deal: end.deal });
    s.evalHidden = true;
    render();
  }

  let learned = { deal: null, again: null, compare: null }; // made once per deal: the comparison asks the server

  function renderEvaluation() {
    const end = s.lastEnd;
    const visible = Boolean(end) && !s.evalHidden;
    evaluation.hidden = !visible;
    showEval.hidden = !end || visible;
    showEval.textContent = t("table.show_result");
    if (!end) {
      evaluation.replaceChildren();
      return;
    }
    const recordUrl = `${end.record_url || `/api/deals/${end.deal}/record`}${inviteQuery}`;
    const more = status() === "playing";
    const rows = [...s.sheet.values()];
    const running = more && s.dealStart && s.dealStart.deal !== end.deal ? gameNumber(rows, s.dealStart.number) : null;
    const endNumber = gameNumber(rows, end.number ?? 0, end.result || {}); // null: thrown in, no game of the list
    // While the next deal runs, the last one's evaluation moves beside the table: it covers neither trick nor buttons.
    const home = running ? side : felt;
    if (evaluation.parentNode !== home) (running ? side.prepend(evaluation) : felt.append(evaluation));
    evaluation.classList.toggle("docked", Boolean(running));
    if (learned.deal !== end.deal) {
      learned = { deal: end.deal, again: playAgainBox(end.deal, { names: names(), inviteQuery }), compare: end.replay_of ? compareBox(end.deal, { gameName: gameName(), names: names(), inviteQuery }) : null };
    }
    replace(
      evaluation,
      h("div", { class: "eval-top" }, h("h2", { testid: "eval-title", text: endNumber === null ? t("result.title_redeal") : t("result.title", { n: endNumber }) }), h("button", { type: "button", class: "ghost small close", testid: "eval-close", "aria-label": t("common.close"), text: "✕", onclick: () => continueAfter(end) })),
      // only the body scrolls: the title with its ✕ and the actions below stay in view (issue 40, defect 2)
      h("div", { class: "eval-body", testid: "eval-body" }, evaluationContent(end.result || {}, { gameName: gameName(), names: names(), mySeat: mySeat(), lines: end.result_lines || [], totals: end.totals || null }), learned.compare, learned.again),
      h(
        "div",
        { class: "eval-links" },
        h("a", { class: "button small", testid: "replay-link", href: `#/replay/${end.deal}${inviteQuery}`, text: t("result.replay") }),
        h("a", { class: "button small ghost", testid: "record-download", href: recordUrl, download: `stich-deal-${end.deal}.json`, text: t("result.record") }),
        more ? h("span", { class: "muted small", testid: "eval-next" }, running ? t("result.next_running", { n: running }) : betweenDeals() ? waitingLine(s.waiting, { mySeat: mySeat(), names: names() }) : t("result.next_soon")) : null,
        h("button", { type: "button", class: "primary small", testid: "eval-continue", dataset: { waits: mustContinue(s.waiting, end.deal, mySeat()) ? "true" : "false" }, text: t("result.continue"), onclick: () => continueAfter(end) }),
        status() === "finished" ? h("a", { class: "button small ghost", href: "#/", text: t("result.back_lobby") }) : null,
      ),
    );
  }

  return { continueAfter, renderEvaluation };
}
