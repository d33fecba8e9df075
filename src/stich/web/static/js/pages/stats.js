// Personal statistics per game (#/stats): deals played, won and lost, score total and mean; then per game
// the Re/Kontra (declarer/defender) split with win rates, solos or contracts played alone and won per contract,
// and announcements made and won.

import { api, ApiError } from "../api.js";
import { h, replace } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { gameTitle } from "../games.js";
import { contractLabel } from "../labels.js";
import { partyName } from "./history.js";

/** The games whose players announce (Re/Kontra and the rest, Ultimo/Valat, Ulti). */
const ANNOUNCING = new Set(["doppelkopf", "tapp_tarock", "dappen"]);

/** The statistics page. */
export function mount(root) {
  let data = null;
  let error = null;
  let alive = true;
  let includeStandIn = false;
  const container = h("section", { class: "page stats-page", testid: "stats" });
  root.replaceChildren(container);

  function render() {
    if (!alive) return;
    const games = data?.games || [];
    const mean = (value) => (typeof value === "number" ? value.toFixed(2).replace(".", t("number.decimal")) : "—");
    replace(
      container,
      h("h1", { text: data?.name ? t("stats.title_name", { name: data.name }) : t("stats.title") }),
      error ? h("p", { class: "notice" }, error, " ", h("a", { href: "#/login", text: t("nav.login") })) : null,
      !data && !error ? h("p", { class: "muted", text: t("common.loading") }) : null,
      data ? standInControls() : null,
      data ? h("p", { class: "muted small", testid: "stats-timeouts-note", text: t("stats.timeouts_note") }) : null,
      data && !games.length ? h("p", { class: "muted", text: t("stats.empty") }) : null,
      games.length
        ? h(
            "div",
            { class: "card-panel" },
            h(
              "table",
              { class: "data-table stats-table" },
              h("thead", {}, h("tr", {}, h("th", { text: t("stats.game") }), h("th", { class: "num", text: t("stats.deals") }), h("th", { class: "num", text: t("stats.won") }), h("th", { class: "num", text: t("stats.lost") }), h("th", { class: "num", text: t("stats.rate") }), h("th", { class: "num", text: t("stats.total") }), h("th", { class: "num", text: t("stats.mean") }))),
              h(
                "tbody",
                {},
                games.map((g) => {
                  const rate = g.deals ? Math.round((100 * g.won) / g.deals) : 0;
                  return h(
                    "tr",
                    { testid: "stats-row", dataset: { game: g.game } },
                    h("td", {}, h("strong", { text: gameTitle(g.game) })),
                    h("td", { class: "num", text: formatNumber(g.deals) }),
                    h("td", { class: "num", text: formatNumber(g.won) }),
                    h("td", { class: "num", text: formatNumber(g.lost) }),
                    h("td", { class: "num" }, `${rate} %`, h("div", { class: "bar", "aria-hidden": "true" }, h("span", { style: { width: `${rate}%` } }))),
                    h("td", { class: ["num", g.score_total > 0 && "plus", g.score_total < 0 && "minus"], text: formatNumber(g.score_total) }),
                    h("td", { class: "num", text: mean(g.score_mean) }),
                  );
                }),
              ),
            ),
          )
        : null,
      games.length ? h("div", { class: "stats-details" }, games.map(details)) : null,
    );
  }

  const rate = (won, deals) => (deals ? `${Math.round((100 * won) / deals)} %` : "—");

  /** One game's richer figures: the sides, the deals played alone per contract, the announcements. */
  function details(g) {
    const parties = Object.entries(g.parties || {});
    const contracts = Object.entries(g.contracts || {});
    const doko = g.game === "doppelkopf";
    const row = (label, deals, won, attrs) =>
      h("tr", attrs, h("td", { text: label }), h("td", { class: "num", text: formatNumber(deals) }), h("td", { class: "num", text: formatNumber(won) }), h("td", { class: "num", text: rate(won, deals) }));
    const head = (first) => h("thead", {}, h("tr", {}, h("th", { text: first }), h("th", { class: "num", text: t("stats.deals") }), h("th", { class: "num", text: t("stats.won") }), h("th", { class: "num", text: t("stats.rate") })));
    const alone = g.declared || { deals: 0, won: 0 };
    const announcements = g.announcements || { made: 0, won: 0 };
    return h(
      "section",
      { class: "card-panel", testid: "stats-details", dataset: { game: g.game } },
      h("h3", { text: gameTitle(g.game) }),
      h("table", { class: "data-table" }, head(t("stats.party")), h("tbody", {}, parties.map(([party, p]) => row(partyName(g.game, party), p.deals, p.won, { testid: "stats-party", dataset: { key: party } })))),
      h("p", { testid: "stats-declared", dataset: { deals: alone.deals, won: alone.won }, text: t(doko ? "stats.solos" : "stats.declared", { deals: formatNumber(alone.deals), won: formatNumber(alone.won) }) }),
      contracts.length
        ? h("table", { class: "data-table" }, head(t(doko ? "stats.solo_kind" : "stats.contract")), h("tbody", {}, contracts.map(([contract, c]) => row(contractLabel(g.game, contract, null) || contract, c.deals, c.won, { testid: "stats-contract", dataset: { key: contract } }))))
        : null,
      ANNOUNCING.has(g.game) || announcements.made
        ? h("p", { testid: "stats-announcements", dataset: { made: announcements.made, won: announcements.won }, text: t("stats.announcements", { made: formatNumber(announcements.made), won: formatNumber(announcements.won) }) })
        : null,
    );
  }

  /** Deals a stand-in bot played for me are left out unless I ask for them (issue 28: honest absence). */
  function standInControls() {
    const count = data.stand_in_deals || 0;
    const box = h("input", { type: "checkbox", testid: "stats-include-stand-in", checked: includeStandIn, onchange: (e) => { includeStandIn = e.target.checked; load(); } });
    return h(
      "div",
      { class: "stand-in-controls" },
      h("label", { class: "check small" }, box, " ", t("stats.include_stand_in")),
      count ? h("p", { class: "muted small", testid: "stats-stand-in-note", text: t(includeStandIn ? "stats.stand_in_included" : "stats.stand_in_excluded", { n: count }) }) : null,
    );
  }

  function load() {
    api(`/api/me/stats${includeStandIn ? "?include_stand_in=true" : ""}`)
      .then((answer) => {
        data = answer;
        render();
      })
      .catch((err) => {
        error = err instanceof ApiError && err.status === 401 ? t("stats.login_first") : t("error.generic", { message: err.message });
        render();
      });
  }
  load();
  render();
  return {
    unmount() {
      alive = false;
    },
    relabel: render,
  };
}
