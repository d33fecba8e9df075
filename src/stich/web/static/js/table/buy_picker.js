// Droggn's "Kaufen" (the Ansager names one card he wants; its holder hands it over for his face-down card):
// one line that says so, and a compact picker of the cards one may name, instead of a button per card (issue 40, defect 4).

import { cardName } from "../cards.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** Whether an action names a card to buy. */
export const isBuy = (text) => text.startsWith("buy ");

/** The explaining line and the picker for the `buy …` actions; `onBuy(action)` sends the one chosen. */
export function buyPicker(buys, { gameName, pack, busy, onBuy }) {
  const select = h(
    "select",
    { testid: "buy-select", "aria-label": t("buy.pick") },
    buys.map((text) => h("option", { value: text, text: cardName(text.split(" ")[1], gameName, pack) })),
  );
  return h(
    "div",
    { class: "buy-picker", testid: "buy-picker" },
    h("p", { class: "buy-explain small", testid: "buy-explain", text: t("buy.explain") }),
    h(
      "div",
      { class: "button-row" },
      select,
      h("button", { type: "button", class: "action primary", testid: "buy-submit", disabled: busy, text: t("buy.submit"), onclick: () => onBuy(select.value) }),
    ),
  );
}
