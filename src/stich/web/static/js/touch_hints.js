// Tooltips on touch screens: a title attribute shows on hover, which a finger never does. An element with an
// explanation gets a small "?" beside it (shown only where there is no hover, see app.css); a tap on it shows
// the explanation in a bubble, a tap anywhere else (or Escape) hides it.

import { h } from "./dom.js";
import { t } from "./i18n.js";

let bubble = null;
let owner = null;

function hide() {
  if (bubble) bubble.hidden = true;
  if (owner) owner.setAttribute("aria-expanded", "false");
  owner = null;
}

function show(tip) {
  if (!bubble) {
    bubble = h("div", { class: "hint-bubble", role: "tooltip", id: "hint-bubble", testid: "hint-bubble", hidden: true });
    document.body.append(bubble);
  }
  if (owner === tip && !bubble.hidden) return hide(); // a second tap on the same "?" closes it
  hide();
  owner = tip;
  bubble.textContent = tip.dataset.hint;
  bubble.hidden = false;
  tip.setAttribute("aria-expanded", "true");
  const box = tip.getBoundingClientRect();
  const width = Math.min(280, window.innerWidth - 16);
  bubble.style.maxWidth = `${width}px`;
  const left = Math.max(8, Math.min(window.innerWidth - width - 8, box.left + box.width / 2 - width / 2));
  bubble.style.left = `${left}px`;
  const below = box.bottom + 8;
  const height = bubble.offsetHeight;
  bubble.style.top = `${below + height > window.innerHeight - 8 ? Math.max(8, box.top - height - 8) : below}px`;
}

/** A "?" button that explains `text` on a tap (null without a text). */
export function hintTip(text) {
  if (!text) return null;
  return h("button", {
    type: "button",
    class: "hint-tip",
    testid: "hint-tip",
    dataset: { hint: text },
    "aria-label": t("tooltip.show"),
    "aria-describedby": "hint-bubble",
    "aria-expanded": "false",
    text: "?",
  });
}

/** Listen once, for the whole page: taps on a "?" show its explanation, taps elsewhere and Escape hide it. */
export function installTouchHints() {
  document.addEventListener("click", (event) => {
    const tip = event.target.closest?.(".hint-tip");
    if (tip) {
      event.preventDefault();
      show(tip);
    }
  });
  document.addEventListener("pointerdown", (event) => {
    if (!owner) return;
    if (event.target.closest?.(".hint-tip") === owner || bubble?.contains(event.target)) return;
    hide();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") hide();
  });
  window.addEventListener("hashchange", hide);
}
