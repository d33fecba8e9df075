// The analysis of a finished deal on the replay page (issue 43, /api/deals/{id}/analysis, docs/web.md):
// offered to the deal's player, computed on the server with progress, its costly moments marked on the timeline.

import { api, ApiError } from "../api.js";
import { h } from "../dom.js";
import { formatNumber, language, t } from "../i18n.js";
import { actionLabel } from "../labels.js";

const POLL_MS = 1000;

/**
 * The analysis state of one replay: `changed()` is called whenever it moves on (the page re-renders).
 * The analysis belongs to the deal's player only: for anyone else (401/403) and for a running deal (409) nothing is shown.
 * `autostart` (the history's "Analysis" link, `?analyse=1`) starts it at once instead of offering it.
 */
export function createAnalysis(dealId, inviteQuery, changed, { autostart = false } = {}) {
  const url = `/api/deals/${encodeURIComponent(dealId)}/analysis${inviteQuery}`;
  let state = "checking"; // checking | hidden | offer | running | done | failed
  let progress = null;
  let result = null;
  let message = "";
  let timer = null;
  let alive = true;

  function take(answer) {
    if (!alive) return;
    if (answer?.status === "done") {
      state = "done";
      result = answer;
    } else if (answer?.status === "failed") {
      state = "failed";
      message = answer.error || "";
    } else {
      state = "running";
      progress = answer;
      timer = setTimeout(poll, POLL_MS);
    }
    changed();
  }

  function refuse(error) {
    if (!alive) return;
    if (error instanceof ApiError && error.status === 404 && error.field === "analysis") {
      if (autostart) {
        autostart = false;
        start();
        return;
      }
      state = "offer";
    }
    else if (error instanceof ApiError && [401, 403, 404, 409].includes(error.status)) state = "hidden";
    else {
      state = "failed";
      message = error.message;
    }
    changed();
  }

  function poll() {
    api(url).then(take, refuse);
  }

  function start() {
    state = "running";
    progress = null;
    changed();
    api(url, { method: "POST" }).then(take, refuse);
  }

  /** The costly decisions, in deal order. */
  function costly() {
    return (result?.analysis?.decisions || []).filter((d) => d.costly);
  }

  /** The frame step before a decision (the replay's step k shows the deal after k actions). */
  const stepOf = (decision) => decision.index;

  function describe(d, look) {
    const where = d.trick === null || d.trick === undefined ? t("analysis.bidding") : t("analysis.trick", { n: d.trick + 1 });
    const label = (text) => actionLabel(text, look.gameName, d.phase, look.pack);
    return t("analysis.row", { where, played: label(d.played), best: label(d.best), cost: formatNumber(Math.round(d.cost * 100) / 100) });
  }

  /** Marks of the costly moments on the slider (`look`: the game and card pack the labels use), placed by step. */
  function timeline(last, go, look) {
    const marks = costly();
    if (state !== "done" || !marks.length || last <= 0) return null;
    return h(
      "div",
      { class: "analysis-timeline", testid: "analysis-timeline", "aria-label": t("analysis.timeline") },
      marks.map((d) =>
        h("button", {
          type: "button",
          class: ["analysis-mark", d.exact && "exact"],
          testid: "analysis-mark",
          style: `left: ${(100 * stepOf(d)) / last}%`,
          title: describe(d, look),
          "aria-label": describe(d, look),
          dataset: { step: stepOf(d) },
          onclick: () => go(stepOf(d)),
        }),
      ),
    );
  }

  /** The panel: the offer, the progress, or the costly decisions with cost, exactness and reason. */
  function panel(step, go, look) {
    if (state === "checking" || state === "hidden") return null;
    const title = h("h2", { text: t("analysis.title") });
    if (state === "offer") {
      return h("section", { class: "card-panel replay-analysis", testid: "analysis" }, title, h("p", { class: "muted small", text: t("analysis.explain") }), h("button", { type: "button", testid: "analysis-start", text: t("analysis.start"), onclick: start }));
    }
    if (state === "running") {
      const text = progress?.total ? t("analysis.running", { done: progress.done, total: progress.total }) : t("analysis.starting");
      return h("section", { class: "card-panel replay-analysis", testid: "analysis" }, title, h("p", { class: "muted", testid: "analysis-progress", "aria-live": "polite", text }));
    }
    if (state === "failed") {
      return h("section", { class: "card-panel replay-analysis", testid: "analysis" }, title, h("p", { class: "notice", text: t("analysis.failed", { message }) }), h("button", { type: "button", testid: "analysis-start", text: t("analysis.retry"), onclick: start }));
    }
    const rows = costly();
    const lang = language();
    const data = result.analysis;
    return h(
      "section",
      { class: "card-panel replay-analysis", testid: "analysis" },
      title,
      h("p", { class: "muted small", text: t("analysis.summary", { worlds: result.budget, count: rows.length, total: formatNumber(Math.round(data.total_cost * 100) / 100), decisions: data.decisions.length }) }),
      rows.length
        ? h(
            "ol",
            { class: "analysis-list" },
            rows.map((d) =>
              h(
                "li",
                { class: ["analysis-item", step === stepOf(d) && "current"], testid: "analysis-item", dataset: { step: stepOf(d), played: d.played, best: d.best } },
                h("button", { type: "button", class: "link", onclick: () => go(stepOf(d)), text: describe(d, look) }),
                d.exact ? h("span", { class: "tag", title: t("analysis.exact_title"), text: t("analysis.exact") }) : null,
                d.method === "solver" ? h("span", { class: "tag", title: t("analysis.solved_title"), text: t("analysis.solved") }) : null,
                d.reason ? h("div", { class: "muted small", text: d.reason[lang] || d.reason.en }) : null,
              ),
            ),
          )
        : h("p", { text: t("analysis.none") }),
    );
  }

  poll();
  return {
    timeline,
    panel,
    stop() {
      alive = false;
      if (timer) clearTimeout(timer);
    },
  };
}
