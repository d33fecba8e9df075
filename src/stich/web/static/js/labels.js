// Names for people of the engine's words: actions, events, phases, contracts and parties.
// The engine speaks action texts such as `play H10`, `announce re`, `bid dreier`, `take lower`;
// the games' own German terms (Re, Kontra, Hochzeit, Dreier, Pagat...) stay German in English too.

import { cardName } from "./cards.js";
import { t } from "./i18n.js";

/** Verbs whose argument is a card in the player's own hand: the card itself is clicked. */
export const CARD_CLICK_VERBS = new Set(["play", "discard", "offer"]);
/** Verbs whose argument is a card (shown by name on a button when not clicked in the hand). */
const CARD_VERBS = new Set(["play", "discard", "offer", "buy", "lay_out"]);

const key = (text) => text.trim().replace(/\s+/g, ".");

/** An action's label for a button or the log: game- and phase-specific where the words differ. */
export function actionLabel(text, gameName, phase, pack) {
  const k = key(text);
  // Doppelkopf shown with the German pack names its suit solos after German suits (Eichel, Grün, Herz, Schellen).
  const german = pack === "german" && gameName === "doppelkopf" ? t(`action.${k}.german`, {}, "") : "";
  if (german) return german;
  const found = (phase && t(`action.${gameName}.${phase}.${k}`, {}, "")) || t(`action.${gameName}.${k}`, {}, "") || t(`action.${k}`, {}, "");
  if (found) return found;
  const [verb, arg] = text.split(" ");
  if (arg && CARD_VERBS.has(verb) && /^[CSHDT]/.test(arg)) return t(`verb.${verb}`, { card: cardName(arg, gameName, pack) }, text);
  return text.replaceAll("_", " ");
}

/** A longer explanation of an action (tooltip), when the catalog has one: the phase's own first, as for the label
 * ("pass" is "Ich liege" when announcing and "Gut" against a Kontra, and never explained as passing a bid: issue 40, defect 5). */
export function actionHint(text, gameName, phase) {
  const k = key(text);
  return (phase && t(`hint.${gameName}.${phase}.${k}`, {}, "")) || t(`hint.${gameName}.${k}`, {}, "") || t(`hint.${k}`, {}, "");
}

/**
 * Split the legal actions: card actions clicked in the hand (card text -> action text) and the rest as buttons.
 * A card is clickable for one action only; any further action with the same card becomes a button.
 */
export function splitActions(legal, hand) {
  const inHand = new Set(hand || []);
  const cardActions = new Map();
  const buttons = [];
  for (const text of legal || []) {
    const [verb, arg] = text.split(" ");
    if (CARD_CLICK_VERBS.has(verb) && arg && inHand.has(arg) && !cardActions.has(arg)) cardActions.set(arg, text);
    else buttons.push(text);
  }
  return { cardActions, buttons };
}

/** An event of the log (`[seat, "announce re"]`) as a sentence. */
export function eventText(seat, text, names, gameName, pack) {
  const name = names[seat] ?? t("table.seat_n", { n: seat + 1 });
  const [verb, arg] = text.split(" ");
  if (arg === "?") return t(`event.hidden.${verb}`, { name }, t("event.hidden", { name, verb }));
  if (verb === "play") return t("event.play", { name, card: cardName(arg, gameName, pack) });
  return t("event.generic", { name, action: actionLabel(text, gameName, null, pack) });
}

/** A phase's name for people. */
export function phaseLabel(phase, gameName) {
  return t(`phase.${gameName}.${phase}`, {}, "") || t(`phase.${phase}`, {}, phase);
}

/** A contract's name for people (`damen` -> "Damensolo", `dreier` -> "Dreier"). */
export function contractLabel(gameName, contract, kind) {
  if (!contract) return "";
  if (gameName === "doppelkopf") {
    if (kind && kind !== "solo" && kind !== "normal") return t(`contract.doppelkopf.kind.${kind}`, { contract: t(`contract.doppelkopf.${contract}`, {}, contract) }, kind);
    return t(`contract.doppelkopf.${contract}`, {}, contract);
  }
  return t(`contract.${gameName}.${contract}`, {}, "") || t(`contract.${contract}`, {}, String(contract).replaceAll("_", " "));
}

/** A party or side name (`re`, `kontra`, `declarer`, `defenders`, `lone`, `opponents`). */
export function partyLabel(party) {
  return t(`party.${party}`, {}, party);
}

/** A result item or special point's name (`unter_90`, `fuchs_gefangen`, `valat_announced`). */
export function itemLabel(gameName, name) {
  return t(`item.${gameName}.${name}`, {}, "") || t(`item.${name}`, {}, String(name).replaceAll("_", " "));
}
