// The leaderboard of one game (#/ratings/GAME?family=ddv): people and bot specs by rating (mu - 3 sigma), a page at a time.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { botTitle, gameTitle } from "../games.js";
import { apiErrorText } from "../server_errors.js";

const PAGE = 50;

/** The link to a player's profile (`bot:SPEC` for a bot). */
export function profileHref(name, kind = "person") {
  return `#/players/${encodeURIComponent(kind === "bot" ? `bot:${name}` : name)}`;
}

/** The leaderboard page. */
export function mount(root, { params, query }) {
  let alive = true;
  let pools = [];
  let data = null;
  let error = null;
  const game = params[0] || "doppelkopf";
  const family = query.get("family");
  const offset = Math.max(0, Number(query.get("offset")) || 0);
  const container = h("section", { class: "page ratings-page", testid: "leaderboard" });
  root.replaceChildren(container);

  const familyLabel = (g, f) => t(`ratings.family.${g}.${f}`, {}, "");
  const poolLabel = (p) => [gameTitle(p.game), familyLabel(p.game, p.family)].filter(Boolean).join(" · ");
  const href = (g, f, from = 0) => `#/ratings/${g}?` + new URLSearchParams({ ...(f ? { family: f } : {}), ...(from ? { offset: String(from) } : {}) });

  function render() {
    if (!alive) return;
    const lines = data?.players || [];
    replace(
      container,
      h("h1", { text: t("ratings.title") }),
      h("p", { class: "muted small", text: t("ratings.explain") }),
      h(
        "nav",
        { class: "pool-tabs", "aria-label": t("ratings.pools") },
        pools.map((p) =>
          h("a", { href: href(p.game, p.family), class: "tag", testid: "pool-tab", "aria-current": data && p.pool === data.pool ? "page" : null, text: poolLabel(p) }),
        ),
      ),
      error ? h("p", { class: "notice", role: "alert", text: error }) : null,
      !data && !error ? h("p", { class: "muted", text: t("common.loading") }) : null,
      data ? h("h2", { testid: "leaderboard-title", text: poolLabel(data) }) : null,
      data && !lines.length ? h("p", { class: "muted", testid: "leaderboard-empty", text: t("ratings.empty") }) : null,
      lines.length
        ? h(
            "div",
            { class: "card-panel" },
            h(
              "table",
              { class: "data-table leaderboard" },
              h(
                "thead",
                {},
                h("tr", {}, ["rank", "player", "rating", "deals", "won", "lost"].map((k) => h("th", { class: k === "player" ? "" : "num", text: t(`ratings.${k}`) }))),
              ),
              h(
                "tbody",
                {},
                lines.map((line) =>
                  h(
                    "tr",
                    { testid: "leaderboard-row", dataset: { kind: line.kind } },
                    h("td", { class: "num", text: formatNumber(line.rank) }),
                    h(
                      "td",
                      {},
                      h("a", { href: profileHref(line.name, line.kind), testid: "player-link", text: line.kind === "bot" ? botTitle(line.name) : line.name }),
                      line.kind === "bot" ? h("span", { class: "tag", text: t("ratings.bot") }) : null,
                    ),
                    h("td", { class: "num", title: `μ ${line.mu} · σ ${line.sigma}`, text: line.rating.toFixed(2) }),
                    h("td", { class: "num", text: formatNumber(line.deals) }),
                    h("td", { class: "num", text: formatNumber(line.won) }),
                    h("td", { class: "num", text: formatNumber(line.lost) }),
                  ),
                ),
              ),
            ),
          )
        : null,
      data && data.total > PAGE
        ? h(
            "p",
            { class: "pager" },
            offset > 0 ? h("a", { href: href(game, data.family, Math.max(0, offset - PAGE)), class: "button ghost", text: t("ratings.previous") }) : null,
            h("span", { class: "muted small", text: t("ratings.page", { from: offset + 1, to: offset + lines.length, total: data.total }) }),
            offset + PAGE < data.total ? h("a", { href: href(game, data.family, offset + PAGE), class: "button ghost", text: t("ratings.next") }) : null,
          )
        : null,
    );
  }

  async function load() {
    try {
      const [list, board] = await Promise.all([
        api("/api/ratings"),
        api(`/api/ratings/${encodeURIComponent(game)}?` + new URLSearchParams({ ...(family ? { family } : {}), limit: String(PAGE), offset: String(offset) })),
      ]);
      pools = list.pools;
      data = board;
    } catch (err) {
      error = apiErrorText(err);
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
