// A seat at the table: the name plate (presence, bot, dealer, party or contract, what the player said,
// tricks taken), the backs of the player's cards, and a "sit here" button on a free seat of an open table.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { actionLabel, contractLabel, partyLabel } from "../labels.js";
import { botTitle } from "../games.js";
import { profileHref } from "../pages/leaderboard.js";
import { backsFan, onEllipse, seatAngle } from "./felt.js";

const SVG = "http://www.w3.org/2000/svg";

/** A small robot drawn inline (no emoji font needed). */
function botIcon() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "bot-icon");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M7 1h2v2h3a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h3zM5.5 6.5a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4m5 0a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4M5 10.5h6v1H5zM0 6h1v4H0zm15 0h1v4h-1z");
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

/** Tricks taken so far, by seat. */
export function wonTricks(view) {
  const out = {};
  for (const tr of view?.tricks || []) if (tr.winner !== null && tr.winner !== undefined) out[tr.winner] = (out[tr.winner] || 0) + 1;
  return out;
}

/** What a seat said last (a bid, a reservation; during play only announcements and doublings), for its speech bubble. */
export function lastWords(seat, view, gameName, pack) {
  if (!view || view.phase === "end") return "";
  const events = view.events || [];
  const playing = view.phase === "play";
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const [actor, text] = events[i];
    if (actor !== seat) continue;
    const verb = text.split(" ")[0];
    if (verb === "play") return "";
    if (playing && !/^(announce|kontra|rekontra|subkontra|double|retour|schwacher|lay_out)/.test(text)) return "";
    if (text.split(" ")[1] === "?") return t(`bubble.hidden.${verb}`, {}, t("bubble.hidden")); // a card the viewer may not see
    return actionLabel(text, gameName, null, pack);
  }
  return "";
}

function badges(seat, index, pub, gameName) {
  const out = [];
  if (pub.dealer === index) out.push(h("span", { class: "badge dealer", title: t("table.dealer"), text: t("table.dealer_short") }));
  if (Array.isArray(pub.active) && pub.active.length && !pub.active.includes(index)) out.push(h("span", { class: "badge out", text: t("table.sits_out") }));
  const party = pub.parties?.[index] ?? pub.parties?.[String(index)];
  if (party) out.push(h("span", { class: ["badge", "party", party], text: partyLabel(party) }));
  const declarer = [pub.declarer, pub.soloist, pub.lone].find((x) => typeof x === "number");
  if (declarer === index && gameName !== "doppelkopf") out.push(h("span", { class: "badge declarer", text: contractLabel(gameName, pub.contract, pub.kind) || t("party.declarer") }));
  if (gameName === "doppelkopf" && pub.soloist === index && pub.kind && pub.kind !== "normal") out.push(h("span", { class: "badge declarer", text: contractLabel("doppelkopf", pub.contract, pub.kind) }));
  if (seat.kind === "human" && seat.stand_in) out.push(h("span", { class: "badge away", text: t("table.stand_in") }));
  else if (seat.kind === "human" && seat.away) out.push(h("span", { class: "badge away", text: t("table.away") }));
  return out;
}

/**
 * One seat's element (data-testid="seat", data-seat, data-occupant), placed around the felt.
 * @param {object} seat the seat as the server describes it (kind, name, bot, connected, away, stand_in)
 * @param {{index: number, view: object|null, viewpoint: number, seats: number, mySeat: number|null, name: string,
 *          gameName: string, pack: string, narrow: boolean, canJoin: boolean, onJoin: (seat: number) => void}} ctx
 */
export function seatPlate(seat, { index, view, viewpoint, seats, mySeat, name, gameName, pack, narrow, canJoin, onJoin }) {
  const angle = seatAngle(index, viewpoint, seats);
  const pos = onEllipse(angle, 43, 41);
  // On a narrow felt the side seats move up, out of the trick's way.
  if (narrow && Math.abs(Math.cos((angle * Math.PI) / 180)) > 0.5) pos.y -= 14;
  const isMe = index === mySeat;
  const pub = view?.public || {};
  const occupant = seat.kind === "empty" ? "" : name;
  const said = lastWords(index, view, gameName, pack);
  const tricksWon = wonTricks(view)[index];
  const count = pub.hand_sizes?.[index] ?? pub.hand_sizes?.[String(index)];
  const toMove = view && view.to_move === index && view.phase !== "end";
  const presence = seat.kind === "bot" ? "bot" : seat.connected ? "on" : seat.kind === "human" ? "off" : "";
  return h(
    "div",
    {
      class: ["seat", isMe && "me", toMove && "to-move", seat.kind, pos.x < 22 ? "edge-left" : pos.x > 78 ? "edge-right" : "", pos.y < 15 && "edge-top"],
      title: seat.kind === "bot" ? botTitle(seat.bot) : null,
      testid: "seat",
      dataset: { seat: index, occupant },
      // A seat on the right edge is anchored by its right side: anchored by its left side near the edge, the box
      // had only the few pixels up to the felt's edge to grow into, and its plate wrapped into a round blob.
      style: pos.x > 78 ? { right: `${Math.max(1.5, 100 - pos.x)}%`, top: `${pos.y}%` } : { left: `${Math.min(98.5, Math.max(1.5, pos.x))}%`, top: `${pos.y}%` },
      "aria-label": t("table.seat_label", { n: index + 1, name: occupant || t("lobby.free_seat") }),
    },
    h(
      "div",
      { class: "plate" },
      h("span", { class: ["presence", presence], "aria-hidden": "true" }),
      seat.kind === "bot" ? botIcon() : null,
      seat.kind === "human" && !seat.guest && !isMe
        ? h("a", { class: "seat-name", href: profileHref(occupant), testid: "seat-profile", text: occupant })
        : h("span", { class: "seat-name", text: seat.kind === "empty" ? t("lobby.free_seat") : occupant }),
      isMe ? h("span", { class: "you", text: t("table.you") }) : null,
      badges(seat, index, pub, gameName),
      tricksWon ? h("span", { class: "tricks-won", title: t("table.tricks_won", { n: tricksWon }), text: `▣ ${tricksWon}` }) : null,
    ),
    said ? h("div", { class: "said", text: said }) : null,
    !isMe && typeof count === "number" && count > 0 && view && view.phase !== "end" ? backsFan(count, pack) : null,
    seat.kind === "empty" && canJoin
      ? h("button", { type: "button", class: "primary small", testid: "join-seat", dataset: { seat: index }, text: t("table.sit_here"), onclick: () => onJoin(index) })
      : null,
  );
}
