// A table's list in words: free play or a list, how many deals, who deals, and what is compulsory
// (Pflichtsolo and Vorführung, Mußrunde). The facts come from the server (`rules` of a table summary,
// POST /api/tables/rules for the lobby's form); only the wording is here.

import { t } from "./i18n.js";

/** One paragraph that says what a table with these `rules` plays. */
export function rulesText(rules) {
  if (!rules) return "";
  const parts = [t(`rules.kind_${rules.kind === "list" ? "list" : "free"}${rules.deals === 1 ? "_one" : ""}`, { deals: rules.deals })];
  if (rules.kind === "list" && rules.rounds) parts.push(t("rules.rounds", { rounds: rules.rounds, length: rules.list_length }));
  parts.push(rules.dealer === "declarer" ? t("rules.dealer_declarer") : t("rules.dealer_rotates", { seats: rules.seats }));
  if (rules.dealer_sits_out) parts.push(t("rules.dealer_sits_out", { active: rules.active }));
  if (rules.compulsory === "pflichtsolo") {
    parts.push(t("rules.pflichtsolo", { length: rules.list_length }));
    if (rules.vorfuehrung) parts.push(t("rules.vorfuehrung"));
    if (!rules.rounds) parts.push(t("rules.short_list", { length: rules.list_length }));
  } else if (rules.compulsory === "mussrunde") {
    parts.push(t("rules.mussrunde", { seats: rules.seats }));
  } else if (rules.game === "doppelkopf") {
    parts.push(t("rules.no_pflichtsolo"));
  }
  return parts.join(" ");
}

/** "Vorführung" / "Mußrunde": why a deal's declarer is forced (the `forced.why` of a deal start). */
export function forcedWhy(why) {
  return t(`rules.forced_${why}`, {}, why);
}
