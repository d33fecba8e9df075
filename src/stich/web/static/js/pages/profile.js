// A player's profile (#/players/NAME, #/players/bot:SPEC): ratings per game with their history as a plot,
// the statistics of their rated deals, and their recent public tables.

import { api, ApiError } from "../api.js";
import { h, replace } from "../dom.js";
import { formatDate, formatNumber, t } from "../i18n.js";
import { botTitle, gameTitle } from "../games.js";
import { apiErrorText } from "../server_errors.js";
import { ratingPlot } from "../rating_plot.js";

/** The profile page. */
export function mount(root, { params }) {
  let alive = true;
  let data = null;
  let error = null;
  const name = decodeURIComponent(params[0] || "");
  const container = h("section", { class: "page profile-page", testid: "profile" });
  root.replaceChildren(container);

  const poolLabel = (r) => [gameTitle(r.game), t(`ratings.family.${r.game}.${r.family}`, {}, "")].filter(Boolean).join(" · ");
  const shownName = () => (data?.kind === "bot" ? botTitle(data.name) : data?.name || name);

  function rating(r) {
    return h(
      "div",
      { class: "card-panel rating-card", testid: "profile-rating", dataset: { pool: r.pool } },
      h("h3", {}, h("a", { href: `#/ratings/${r.game}?family=${encodeURIComponent(r.family)}`, text: poolLabel(r) })),
      h(
        "p",
        { class: "rating-figures" },
        h("strong", { class: "rating-value", testid: "profile-rating-value", text: r.rating.toFixed(2) }),
        " ",
        h("span", { class: "muted small", text: t("ratings.figures", { rank: formatNumber(r.rank), deals: formatNumber(r.deals), won: formatNumber(r.won), lost: formatNumber(r.lost) }) }),
      ),
      r.history.length ? ratingPlot(r.history, data.start_rating ?? 0, t("ratings.plot_label", { pool: poolLabel(r) })) : null,
    );
  }

  function stats() {
    const games = data?.stats || [];
    if (!games.length) return null;
    return h(
      "div",
      { class: "card-panel" },
      h("h2", { text: t("ratings.stats") }),
      h(
        "table",
        { class: "data-table" },
        h("thead", {}, h("tr", {}, h("th", { text: t("stats.game") }), ["deals", "won", "lost", "total"].map((k) => h("th", { class: "num", text: t(`stats.${k}`) })))),
        h(
          "tbody",
          {},
          games.map((g) =>
            h(
              "tr",
              { testid: "profile-stats-row" },
              h("td", { text: gameTitle(g.game) }),
              h("td", { class: "num", text: formatNumber(g.deals) }),
              h("td", { class: "num", text: formatNumber(g.won) }),
              h("td", { class: "num", text: formatNumber(g.lost) }),
              h("td", { class: "num", text: formatNumber(g.score_total) }),
            ),
          ),
        ),
      ),
    );
  }

  function tables() {
    const recent = data?.recent_tables || [];
    if (!recent.length) return null;
    return h(
      "div",
      { class: "card-panel" },
      h("h2", { text: t("ratings.recent_tables") }),
      h(
        "ul",
        { class: "recent-tables" },
        recent.map((table) =>
          h(
            "li",
            { testid: "profile-table" },
            h("a", { href: `#/table/${table.id}`, text: gameTitle(table.game) }),
            " ",
            table.rated ? h("span", { class: "tag", text: t("lobby.rated") }) : null,
            h("span", { class: ["tag", "status", table.status], text: t(`status.${table.status}`) }),
            " ",
            h("span", { class: "muted small", text: formatDate(table.created_at) }),
          ),
        ),
      ),
    );
  }

  function render() {
    if (!alive) return;
    replace(
      container,
      h("h1", { testid: "profile-name", text: t("ratings.profile_title", { name: shownName() }) }),
      h("p", {}, h("a", { href: "#/ratings", text: t("ratings.back") })),
      error ? h("p", { class: "notice", role: "alert", testid: "profile-error", text: error }) : null,
      !data && !error ? h("p", { class: "muted", text: t("common.loading") }) : null,
      data?.registered ? h("p", { class: "muted small", text: t("ratings.registered", { date: data.registered }) }) : null,
      data && !data.ratings.length ? h("p", { class: "muted", testid: "profile-unrated", text: t("ratings.no_rating") }) : null,
      data ? h("div", { class: "rating-cards" }, data.ratings.map(rating)) : null,
      data ? stats() : null,
      data ? tables() : null,
    );
  }

  async function load() {
    try {
      data = await api(`/api/players/${encodeURIComponent(name)}`);
    } catch (err) {
      error = err instanceof ApiError && err.status === 404 ? t("ratings.no_player") : apiErrorText(err);
    }
    render();
  }

  render();
  load();
  return {
    unmount() {
      alive = false;
    },
    relabel: render,
  };
}
