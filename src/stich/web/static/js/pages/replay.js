// The replay of a finished deal (#/replay/{dealId}): every hand open, the trick, step by step
// (buttons, slider, arrow keys, Home/End), the evaluation at the end, and for the deal's player its analysis
// with the costly moments marked on the timeline (replay_analysis.js).

import { api, ApiError } from "../api.js";
import { cardElement, gameNameOf, packFor } from "../cards.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { eventText, phaseLabel } from "../labels.js";
import { botSpecOfName, botTitle, gameTitle, playerName } from "../games.js";
import { evaluationContent } from "../results.js";
import { groupHand } from "../table/hand.js";
import { standInMark } from "../absence.js";
import { namedTrickCard, trickEnds, trickSeats, trickStep } from "../table/trick_list.js";
import { createAnalysis } from "./replay_analysis.js";
import { compareBox, playAgainBox } from "../learning.js";

/** The replay page. */
export function mount(root, { params, query }) {
  const dealId = params[0];
  const invite = query.get("invite");
  const inviteQuery = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  let data = null;
  let error = null;
  let step = Number(query.get("step")) || 0;
  let alive = true;
  const analysis = createAnalysis(dealId, inviteQuery, () => render(), { autostart: query.get("analyse") === "1" });
  let learned = null; // "play again" and the comparison with the original, made once the deal is loaded

  const container = h("section", { class: "page replay-page", testid: "replay" });
  root.replaceChildren(container);

  const frames = () => data?.frames || [];
  const last = () => Math.max(0, frames().length - 1);
  const gameName = () => gameNameOf(data?.game);
  const names = () => (data?.seats || []).map((n, i) => playerName(n, i));

  function go(next) {
    step = Math.max(0, Math.min(last(), next));
    render();
  }

  function onKey(event) {
    if (!data || event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowLeft") go(step - 1);
    else if (event.key === "ArrowRight") go(step + 1);
    else if (event.key === "PageDown") go(trickStep(trickEnds(frames()), step, 1, last()));
    else if (event.key === "PageUp") go(trickStep(trickEnds(frames()), step, -1, last()));
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(last());
    else return;
    event.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  function trickOf(observation) {
    const tricks = observation?.tricks || [];
    return tricks.length ? tricks[tricks.length - 1] : null;
  }

  function render() {
    if (!alive) return;
    if (error) {
      replace(container, h("h1", { text: t("replay.title") }), h("p", { class: "notice", text: error }), h("a", { href: "#/history", text: t("nav.history") }));
      return;
    }
    if (!data) {
      replace(container, h("h1", { text: t("replay.title") }), h("p", { class: "muted", text: t("common.loading") }));
      return;
    }
    const frame = frames()[step] || {};
    const observations = frame.observations || [];
    const nm = names();
    const game = gameName();
    const pack = packFor(game);
    const first = observations[0] || {};
    const toMove = first.to_move;
    const slider = h("input", { type: "range", min: "0", max: String(last()), value: String(step), "aria-label": t("replay.slider"), oninput: (e) => go(Number(e.target.value)) });
    const action = frame.action ? eventText(frame.action.seat, frame.action.text, nm, game, pack) : t("replay.dealt");
    const trick = trickOf(first);
    const hands = nm.map((name, seat) => {
      const obs = observations[seat] || {};
      const cards = obs.hand || [];
      const groups = groupHand(cards, frame.hand_groups?.[seat] || obs.hand_groups);
      return h(
        "div",
        { class: ["replay-hand", seat === toMove && first.phase !== "end" && "to-move"], testid: "replay-hand", dataset: { seat } },
        h("h3", { title: botSpecOfName(data.seats[seat]) ? botTitle(botSpecOfName(data.seats[seat])) : null }, name, (data.stand_in_seats || []).includes(seat) ? standInMark([seat], nm) : null, seat === toMove && first.phase !== "end" ? h("span", { class: "tag", text: t("replay.to_move") }) : null, h("span", { class: "muted small", text: t("table.cards_in_hand", { n: cards.length }) })),
        h(
          "div",
          { class: "replay-cards" },
          groups.map((group, gi) => group.map((card, ci) => cardElement(card, { gameName: game, pack, extraClass: ci === 0 && gi > 0 ? "group-start" : "" }))),
        ),
      );
    });
    // each card of the trick with the player who played it (issue 43)
    const trickCards = trick ? trickSeats(trick, first.public?.active, nm.length).map((seat, i) => namedTrickCard(trick.cards[i], seat, trick, { gameName: game, pack, names: nm })) : [];
    const ends = trickEnds(frames());
    const trickNumber = (first.tricks || []).filter((tr) => tr.cards?.length).length;
    const trickTitle = trickNumber ? t("replay.trick_of", { n: trickNumber, total: ends.length }) : t("replay.trick");
    const done = trick && trick.winner !== null && trick.winner !== undefined;
    const trickFacts = trick?.cards?.length ? [t("tricks.led_by", { name: nm[trick.leader] }), done ? t("tricks.won_by", { name: nm[trick.winner] }) : null].filter(Boolean).join(" · ") : "";
    const atEnd = step === last() && data.result;
    replace(
      container,
      h("h1", {}, t("replay.title"), " ", h("span", { class: "tag", text: gameTitle(game) }), h("span", { class: "muted small", text: ` #${data.deal_id}` })),
      h(
        "div",
        { class: "replay-bar" },
        h("button", { type: "button", testid: "replay-first", "aria-label": t("replay.first"), text: "«", onclick: () => go(0), disabled: step === 0 }),
        h("button", { type: "button", testid: "replay-prev-trick", text: `◀◀ ${t("replay.prev_trick")}`, onclick: () => go(trickStep(ends, step, -1, last())), disabled: step === 0 }),
        h("button", { type: "button", testid: "replay-prev", text: `◀ ${t("replay.prev")}`, onclick: () => go(step - 1), disabled: step === 0 }),
        h("span", { class: "replay-step", testid: "replay-step", "aria-live": "polite", text: `${step} / ${last()}` }),
        h("button", { type: "button", testid: "replay-next", text: `${t("replay.next")} ▶`, onclick: () => go(step + 1), disabled: step >= last() }),
        h("button", { type: "button", testid: "replay-next-trick", text: `${t("replay.next_trick")} ▶▶`, onclick: () => go(trickStep(ends, step, 1, last())), disabled: step >= last() }),
        h("button", { type: "button", testid: "replay-last", "aria-label": t("replay.last"), text: "»", onclick: () => go(last()), disabled: step >= last() }),
        h("div", { class: "replay-slider" }, slider, analysis.timeline(last(), go, { gameName: game, pack })),
      ),
      standInMark(data.stand_in_seats, nm) ? h("p", { class: "replay-stand-in" }, standInMark(data.stand_in_seats, nm)) : null,
      h("p", { class: "muted small", text: t("replay.keys_tricks") }),
      h(
        "div",
        { class: "replay-center" },
        h("div", { class: "replay-trick", testid: "replay-trick" }, h("div", { class: "mini-title", testid: "replay-trick-title", text: trickTitle }), h("div", { class: "mini-cards" }, trickCards.length ? trickCards : h("span", { class: "small", text: "—" })), trickFacts ? h("div", { class: "small replay-trick-facts", testid: "replay-trick-facts", text: trickFacts }) : null),
        h("div", {}, h("div", { class: "replay-action", text: action }), h("div", { class: "muted small", text: first.phase ? phaseLabel(first.phase, game) : "" })),
      ),
      h("div", { class: "replay-grid" }, hands),
      atEnd ? h("section", { class: "card-panel replay-eval" }, h("h2", { text: t("result.heading") }), evaluationContent(data.result, { gameName: game, names: nm, mySeat: null, lines: data.result_lines || [] })) : null,
      analysis.panel(step, go, { gameName: game, pack }),
      learned?.compare,
      learned?.again,
      h("p", {}, h("a", { class: "button small ghost", href: `/api/deals/${dealId}/record${inviteQuery}`, download: `stich-deal-${dealId}.json`, text: t("result.record") })),
    );
  }

  api(`/api/deals/${encodeURIComponent(dealId)}/replay${inviteQuery}`)
    .then((answer) => {
      data = answer;
      learned = { again: playAgainBox(dealId, { names: names(), inviteQuery }), compare: compareBox(dealId, { gameName: gameName(), names: names(), inviteQuery }) };
      step = Math.min(step, last());
      render();
    })
    .catch((err) => {
      error = err instanceof ApiError && err.status === 404 ? t("replay.not_found") : err instanceof ApiError && err.status === 409 ? t("replay.not_finished") : t("error.generic", { message: err.message });
      render();
    });
  render();

  return {
    unmount() {
      alive = false;
      analysis.stop();
      document.removeEventListener("keydown", onKey);
    },
    relabel: render,
  };
}
