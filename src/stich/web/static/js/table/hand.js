// The player's hand: cards in the groups players of the game hold them in (hand_groups from the server),
// overlapping in a fan that fits the screen (two rows on a narrow phone), legal cards raised,
// the others dimmed and disabled; arrow keys move between cards.

import { cardElement } from "../cards.js";
import { t } from "../i18n.js";
import { arrangeGroups } from "../settings.js";

/** Group the hand: the server's hand_groups when they hold exactly the hand's cards, else by suit letter. */
export function groupHand(hand, handGroups) {
  if (Array.isArray(handGroups) && handGroups.length) {
    const flat = handGroups.flat();
    if (flat.length === hand.length && [...flat].sort().join() === [...hand].sort().join()) {
      // The last of several groups holds plain cards (a game's trumps come first): show its suits apart too.
      if (handGroups.length < 2) return handGroups;
      return [...handGroups.slice(0, -1), ...bySuit(handGroups[handGroups.length - 1])];
    }
  }
  return bySuit(hand);
}

/** Runs of cards of one suit letter, in the given order. */
function bySuit(hand) {
  const groups = [];
  let last = null;
  for (const card of hand) {
    const suit = card.charAt(0);
    if (suit !== last) groups.push([]);
    groups[groups.length - 1].push(card);
    last = suit;
  }
  return groups;
}

/**
 * Render the hand into `container` (the element with data-testid="hand").
 * @param {{hand: string[], groups: string[][]|null, cardActions: Map<string,string>, myTurn: boolean, busy: boolean,
 *          gameName: string, pack: string, onPlay: (action: string) => void}} opts
 */
export function renderHand(container, { hand, groups, cardActions, myTurn, busy, gameName, pack, onPlay, onIllegal = null }) {
  const focused = document.activeElement?.closest?.('[data-testid="hand"] .card')?.dataset.card ?? null;
  const grouped = arrangeGroups(groupHand(hand, groups)); // in the order the player chose (settings)
  const cards = [];
  const seen = new Map();
  grouped.forEach((group, groupIndex) => {
    group.forEach((card, index) => {
      const action = cardActions.get(card);
      const legal = Boolean(action) && myTurn && !busy;
      const dim = myTurn && cardActions.size > 0 && !legal;
      const copy = (seen.get(card) || 0) + 1;
      seen.set(card, copy);
      const el = cardElement(card, {
        gameName,
        pack,
        legal,
        tag: "button",
        extraClass: [legal ? "legal" : "", dim ? "illegal" : "", index === 0 && groupIndex > 0 ? "group-start" : ""].join(" "),
        onClick: legal ? () => onPlay(action) : dim && onIllegal && !busy ? () => onIllegal(card) : null,
      });
      // A card that may not be played now stays clickable on one's turn: the click asks why (the rule is shown).
      el.disabled = !legal && !(dim && onIllegal && !busy);
      if (dim && onIllegal) el.title = `${el.title} — ${t("table.illegal_card_hint")}`;
      el.dataset.copy = String(copy);
      if (action && legal) el.title = `${el.title} — ${t(`verb_hint.${action.split(" ")[0]}`, {}, "")}`.replace(/ — $/, "");
      cards.push(el);
    });
  });
  container.replaceChildren(...cards);
  container.setAttribute("aria-label", t("table.hand_label", { n: hand.length }));
  container.classList.toggle("my-turn", myTurn);
  layoutHand(container);
  if (focused) {
    const again = container.querySelector(`.card[data-card="${CSS.escape(focused)}"]:not([disabled])`) || container.querySelector(".card:not([disabled])");
    if (again) again.focus({ preventScroll: true });
  }
}

/**
 * Lay the cards out: overlap so that the hand fits the width; a gentle fan on wide screens;
 * two rows when one row would show less than a third of each card.
 */
export function layoutHand(container) {
  const cards = [...container.querySelectorAll(".card")];
  for (const card of cards) {
    card.style.removeProperty("--slot");
    card.classList.remove("row-start");
  }
  container.classList.remove("two-rows");
  for (const br of container.querySelectorAll(".row-break")) br.remove();
  if (!cards.length) return;
  const style = getComputedStyle(container);
  const inner = container.clientWidth - parseFloat(style.paddingLeft || "0") - parseFloat(style.paddingRight || "0");
  const wide = inner > 700;
  const cardWidth = cards[0].querySelector(".card-visual")?.getBoundingClientRect().width || 80;
  const groupGap = cardWidth * 0.14;
  const n = cards.length;
  const groupStarts = cards.filter((c) => c.classList.contains("group-start")).length;
  // A fanned row needs room for its tilted outer cards.
  const width = wide ? inner - cardWidth * 0.45 : inner;
  const fit = (count, gaps) => (count <= 1 ? cardWidth : (width - cardWidth - gaps * groupGap - 8) / (count - 1));
  let step = Math.min(cardWidth * 0.62, fit(n, groupStarts));
  let rows = [cards];
  if (step < cardWidth * 0.34 && n > 8) {
    // Two rows, split at the group boundary nearest the middle.
    let split = Math.ceil(n / 2);
    let best = Infinity;
    cards.forEach((card, i) => {
      if (card.classList.contains("group-start") && Math.abs(i - n / 2) < best && Math.abs(i - n / 2) <= n / 4) {
        best = Math.abs(i - n / 2);
        split = i;
      }
    });
    rows = [cards.slice(0, split), cards.slice(split)];
    container.classList.add("two-rows");
    const br = document.createElement("span");
    br.className = "row-break";
    br.setAttribute("aria-hidden", "true");
    container.insertBefore(br, rows[1][0]);
    const longest = Math.max(...rows.map((r) => r.length));
    step = Math.min(cardWidth * 0.62, fit(longest, Math.max(...rows.map((r) => r.filter((c) => c.classList.contains("group-start")).length))));
  }
  const fan = !container.classList.contains("two-rows") && wide;
  for (const row of rows) {
    // Each card's box is the strip of it that shows (the last one whole), so a click lands on the card one sees.
    row.forEach((card, i) => {
      if (i === 0) card.classList.add("row-start");
      const next = row[i + 1];
      if (!next) return;
      const extra = next.classList.contains("group-start") ? groupGap : 0;
      card.style.setProperty("--slot", `${Math.max(4, Math.floor(step + extra))}px`);
    });
    if (fan) {
      const mid = (row.length - 1) / 2;
      const angle = Math.min(2.2, 22 / row.length);
      row.forEach((card, i) => {
        const d = i - mid;
        card.style.setProperty("--fan-rotate", `${(d * angle).toFixed(2)}deg`);
        card.style.setProperty("--fan-lift", `${((Math.abs(d) * angle) ** 2 * 0.08).toFixed(1)}px`);
      });
    } else {
      row.forEach((card) => {
        card.style.setProperty("--fan-rotate", "0deg");
        card.style.setProperty("--fan-lift", "0px");
      });
    }
  }
}

/** Left/right arrows, Home and End move the focus between the hand's enabled cards. */
export function handKeys(container) {
  container.addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    const cards = [...container.querySelectorAll(".card:not([disabled])")];
    if (!cards.length) return;
    const index = cards.indexOf(document.activeElement);
    let next = index;
    if (event.key === "ArrowLeft") next = index <= 0 ? cards.length - 1 : index - 1;
    if (event.key === "ArrowRight") next = index >= cards.length - 1 ? 0 : index + 1;
    if (event.key === "Home") next = 0;
    if (event.key === "End") next = cards.length - 1;
    cards[next].focus();
    event.preventDefault();
  });
}
