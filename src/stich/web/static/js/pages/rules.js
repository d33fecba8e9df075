// A game's rules in short (#/rules/{game}): deal, bidding, play, counting, scoring and a worked example, in the
// project's own words from the rules dossiers (i18n/rules.{de,en}.json), with links to the other games.

import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { gameTitle } from "../games.js";

export const GAMES = ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"];
export const SECTIONS = ["intro", "deal", "bidding", "play", "counting", "scoring", "example"];

/** A link to a game's rules page, for the lobby and (in a new tab, so that nobody leaves a running table) the table. */
export function rulesLink(gameName, newTab = false) {
  const target = newTab ? { target: "_blank", rel: "noopener" } : {};
  return h("a", { class: "small rules-link", testid: "rules-link", href: `/#/rules/${gameName}`, text: t("rules_page.link", { game: gameTitle(gameName) }), ...target });
}

/** The rules page. */
export function mount(root, { params }) {
  const game = GAMES.includes(params[0]) ? params[0] : GAMES[0];
  const container = h("section", { class: "page rules-page", testid: "rules-page", dataset: { game } });
  root.replaceChildren(container);
  function render() {
    replace(
      container,
      h("h1", { text: t("rules_page.title", { game: gameTitle(game) }) }),
      h("nav", { class: "rules-games", "aria-label": t("rules_page.games") }, GAMES.map((g) => h("a", { href: `#/rules/${g}`, class: g === game ? "current" : "", text: gameTitle(g) }))),
      SECTIONS.map((section) =>
        h("section", { class: "card-panel rules-section", dataset: { section } }, section === "intro" ? null : h("h2", { text: t(`rules_page.${game}.${section}`, {}, t(`rules_page.${section}`)) }), h("p", { text: t(`rules.${game}.${section}`) })),
      ),
      h("p", { class: "muted small", text: t("rules_page.source") }),
    );
  }
  render();
  return { relabel: render };
}
