// The table settings a player keeps in this browser (localStorage, through store.js): sort order and size of
// the cards, automatic play of a single legal card, the pace at which other players' moves are shown, sounds,
// and a trick that visibly goes to its winner. What each one does at the table is decided here, so that
// pages/table.js only asks.

import { setting, setSetting } from "./store.js";

/** Every table setting: its choices (the first is the default) or a boolean default. */
export const TABLE_SETTINGS = {
  sortOrder: { choices: ["trumps_first", "trumps_last", "low_first"] },
  cardSize: { choices: ["m", "s", "l"] },
  botSpeed: { choices: ["normal", "fast", "slow"] },
  autoPlay: { flag: false },
  sound: { flag: false },
  trickToWinner: { flag: true },
};

/** A table setting's value, a known choice (anything else stored reads as the default). */
export function tableSetting(name) {
  const spec = TABLE_SETTINGS[name];
  const value = setting(name);
  if (spec.choices) return spec.choices.includes(value) ? value : spec.choices[0];
  return typeof value === "boolean" ? value : spec.flag;
}

/** Change a table setting (refused values are ignored, so a stored value is always a known one). */
export function setTableSetting(name, value) {
  const spec = TABLE_SETTINGS[name];
  if (spec.choices ? !spec.choices.includes(value) : typeof value !== "boolean") return;
  setSetting(name, value);
  if (name === "cardSize") applyCardSize();
}

/** The card size as an attribute of the page (<html data-card-size="s|m|l">); the style sheet scales the cards. */
export function applyCardSize() {
  document.documentElement.dataset.cardSize = tableSetting("cardSize");
}

/**
 * The hand's groups in the order the player likes: the game's order (trumps first, high to low),
 * trumps last, or each group from low to high.
 */
export function arrangeGroups(groups, order = tableSetting("sortOrder")) {
  if (order === "trumps_last" && groups.length > 1) return [...groups.slice(1), groups[0]];
  if (order === "low_first") return groups.map((group) => [...group].reverse());
  return groups;
}

/**
 * The action to send by itself when automatic play is on: the one card that may be played, when it is the
 * only thing the player can do (no announcement is open beside it, no card to lay away or to offer).
 */
export function singleCardAction(legalActions, enabled = tableSetting("autoPlay")) {
  if (!enabled || !Array.isArray(legalActions) || legalActions.length !== 1) return null;
  return legalActions[0].startsWith("play ") ? legalActions[0] : null;
}

/** Milliseconds between showing one move of another player and the next, at each speed (0: as the server sends them). */
export const MOVE_GAP_MS = { fast: 0, normal: 0, slow: 1100 };

/** How long a completed trick stays in the middle before it is collected, at each speed. */
export const TRICK_HOLD_MS = { fast: 650, normal: 1300, slow: 2200 };

/** The pause between two shown moves of other players now. */
export function moveGapMs() {
  return MOVE_GAP_MS[tableSetting("botSpeed")];
}

/** How long a complete trick stays now. */
export function trickHoldMs() {
  return TRICK_HOLD_MS[tableSetting("botSpeed")];
}

/** Whether animations are wanted: the player's setting, and the system's reduced-motion preference. */
export function trickAnimation() {
  return tableSetting("trickToWinner") && !window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}
