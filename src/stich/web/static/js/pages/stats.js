// Personal statistics per game (#/stats): deals played, won and lost, score total and mean.

import { api, ApiError } from "../api.js";
import { h, replace } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { gameTitle } from "../games.js";

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
