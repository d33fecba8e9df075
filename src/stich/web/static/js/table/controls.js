// What the player does at the table: whose turn it is (with the clock), the phase and prompt, the action buttons,
// the hand with its legal cards, automatic play of a single legal card, and the confirmation of cards one cannot take back.

import { cardName } from "../cards.js";
import { append, h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { actionHint, actionLabel, phaseLabel, splitActions } from "../labels.js";
import { singleCardAction } from "../settings.js";
import { hintTip } from "../touch_hints.js";
import { renderHand } from "./hand.js";
import { clockIcon, countdown as clockCountdown } from "./clock.js";
import { buyPicker, isBuy } from "./buy_picker.js";
import { deadlineLine } from "./deadlines.js";

/** The turn line, prompt, action buttons, hand and confirmation box of one table page; `stop()` ends its timer. */
export function createControls(ctx) {
  const { s, turn, prompt, actions, confirmBox, hand, alive, view, mySeat, names, gameName, pack, currentClock, sendAction, render } = ctx;
  let autoTimer = null;
  /** With automatic play on, the only card one may play is played by itself, once per step (a short pause first, so it is seen). */
  function autoPlay(v, myTurn) {
    const action = myTurn && !s.pending ? singleCardAction(v.legal_actions) : null;
    const key = action ? `${s.state.deal}:${s.state.step}` : null;
    if (!action || s.autoKey === key) return;
    s.autoKey = key;
    clearTimeout(autoTimer);
    const wait = Math.max(400, (s.hold?.until ?? 0) - Date.now() + 50); // after the last trick has gone to its winner
    autoTimer = setTimeout(() => {
      if (alive() && s.state && `${s.state.deal}:${s.state.step}` === key && !s.pending) sendAction(action);
    }, wait);
  }

  /** Card actions that cannot be taken back once sent (a discard, a hidden offer): asked for, explained, then sent. */
  const CONFIRMED_VERBS = new Set(["discard", "offer"]);

  /** Discards are picked first (a click toggles a card), then confirmed once for all of them (issue 40, defect 15). */
  function pickDiscard(action) {
    const card = action.split(" ")[1];
    const deal = s.state?.deal;
    if (!s.discards || s.discards.deal !== deal) s.discards = { deal, picked: [] };
    const picked = s.discards.picked;
    const at = picked.indexOf(card);
    if (at >= 0) picked.splice(at, 1);
    else picked.push(card);
    render();
  }

  /** The picked discards still waiting to be sent: one each time the server asks for the next. */
  function sendQueuedDiscard(v, myTurn) {
    const queue = s.discardQueue;
    if (!queue || !myTurn || s.pending) return;
    const next = queue.cards[0];
    const action = `discard ${next}`;
    if (queue.deal !== s.state?.deal || next === undefined || !(v.legal_actions || []).includes(action)) {
      s.discardQueue = null; // the discard is over (or the deal): what is left is not sent
      return;
    }
    queue.cards.shift();
    setTimeout(() => { if (alive()) sendAction(action); }, 0);
  }

  function chooseCard(action) {
    if (action.startsWith("discard ")) pickDiscard(action);
    else if (CONFIRMED_VERBS.has(action.split(" ")[0])) {
      s.confirming = { action, step: s.state?.step, deal: s.state?.deal };
      render();
      confirmBox.querySelector("button")?.focus();
    } else sendAction(action);
  }

  function renderConfirm() {
    if (renderDiscardConfirm()) return;
    const c = s.confirming;
    const current = c && s.state && c.step === s.state.step && c.deal === s.state.deal && (view()?.legal_actions || []).includes(c.action);
    if (!current) s.confirming = null;
    confirmBox.hidden = !current;
    if (!current) return confirmBox.replaceChildren();
    const [verb, card] = c.action.split(" ");
    replace(
      confirmBox,
      h("p", { text: t(`confirm.${gameName()}.${verb}`, { card: cardName(card, gameName(), pack()) }, t(`confirm.${verb}`, { card: cardName(card, gameName(), pack()) })) }),
      h("button", { type: "button", class: "primary small", testid: "confirm-action", text: t("confirm.ok"), onclick: () => { s.confirming = null; sendAction(c.action); } }),
      h("button", { type: "button", class: "small", testid: "cancel-action", text: t("confirm.back"), onclick: () => { s.confirming = null; render(); } }),
    );
  }

  /** The confirmation of the picked discards (true when shown); a card no longer to be discarded drops out. */
  function renderDiscardConfirm() {
    const legal = view()?.legal_actions || [];
    const picks = s.discards && s.discards.deal === s.state?.deal ? s.discards.picked.filter((card) => legal.includes(`discard ${card}`)) : [];
    if (s.discards) s.discards.picked = picks;
    if (!picks.length || s.discardQueue?.cards.length) return false;
    const names = picks.map((card) => cardName(card, gameName(), pack()));
    confirmBox.hidden = false;
    replace(
      confirmBox,
      h("p", { text: picks.length === 1 ? t(`confirm.${gameName()}.discard`, { card: names[0] }, t("confirm.discard", { card: names[0] })) : t("confirm.discard_many", { n: picks.length, cards: names.join(", ") }) }),
      h("button", { type: "button", class: "primary small", testid: "confirm-action", text: t("confirm.ok"), onclick: () => { s.discards = null; s.discardQueue = { deal: s.state?.deal, cards: picks.slice(1) }; sendAction(`discard ${picks[0]}`); } }),
      h("button", { type: "button", class: "small", testid: "cancel-action", text: t("confirm.back"), onclick: () => { s.discards = null; render(); } }),
    );
    return true;
  }

  /** An illegal card clicked: the server (the engine) says why, with the rule; nothing changes at the table. */
  function explainIllegal(card, cardActions) {
    const verb = [...cardActions.values()][0]?.split(" ")[0] || "play";
    sendAction(`${verb} ${card}`);
  }

  function renderTurn(v) {
    const seat = v && v.phase !== "end" && v.to_move >= 0 ? v.to_move : -1;
    const mine = seat >= 0 && seat === mySeat() && (v.legal_actions || []).length > 0;
    turn.dataset.seat = String(seat);
    turn.dataset.mine = mine ? "true" : "false";
    turn.classList.toggle("mine", mine);
    if (seat < 0) {
      turn.textContent = "";
      turn.hidden = true;
      return;
    }
    turn.hidden = false;
    const clock = currentClock();
    replace(
      turn,
      mine ? t("table.your_turn") : t("table.their_turn", { name: names()[seat] ?? seat }),
      clock && clock.seat === seat ? [" · ", clockIcon(), " ", clockCountdown(clock.deadline, { testid: "turn-clock", seat })] : null,
    );
  }

  function renderControls() {
    const v = view();
    const myTurn = Boolean(v && v.to_move === mySeat() && (v.legal_actions || []).length);
    const { cardActions, buttons } = splitActions(myTurn ? v.legal_actions : [], v?.hand || []);
    replace(prompt);
    if (v && v.phase !== "end") {
      const phase = phaseLabel(v.phase, gameName());
      let hint = "";
      if (myTurn) {
        const verbs = new Set([...cardActions.values()].map((a) => a.split(" ")[0]));
        if (verbs.has("discard")) hint = t("table.prompt_discard");
        else if (verbs.has("play")) hint = t("table.prompt_play");
        else hint = t("table.prompt_choose");
      }
      append(prompt, [h("span", { class: "phase", text: phase }), hint ? h("span", { class: "hint", text: hint }) : null]);
    }
    const buys = buttons.filter(isBuy);
    replace(
      actions,
      buys.length ? buyPicker(buys, { gameName: gameName(), pack: pack(), busy: s.pending, onBuy: sendAction }) : null,
      buttons.filter((text) => !isBuy(text)).map((text) => [
        h("button", {
          type: "button",
          class: ["action", actionKind(text)],
          testid: "action",
          dataset: { action: text },
          title: actionHint(text, gameName(), v?.phase) || null,
          disabled: s.pending,
          text: actionLabel(text, gameName(), v?.phase, pack()),
          onclick: () => sendAction(text),
        }),
        hintTip(actionHint(text, gameName(), v?.phase)), // the explanation on a touch screen, where a title never shows
      ]),
      // until when each call offered may be made ("Re bis zur 2. Karte"), next to the buttons (issue 43)
      deadlineLine(buttons, { view: v, deadlines: s.state?.deadlines, gameName: gameName(), pack: pack() }),
    );
    actions.setAttribute("aria-label", t("table.actions"));
    if (v && Array.isArray(v.hand) && mySeat() !== null) {
      hand.hidden = false;
      renderHand(hand, { hand: v.hand, groups: s.state.hand_groups || v.hand_groups, cardActions, myTurn, busy: s.pending, gameName: gameName(), pack: pack(), onPlay: chooseCard, onIllegal: (card) => explainIllegal(card, cardActions) });
      const picked = new Set(s.discards && s.discards.deal === s.state.deal ? s.discards.picked : []);
      for (const el of hand.querySelectorAll(".card")) {
        el.classList.toggle("picked", picked.has(el.dataset.card));
        if (cardActions.get(el.dataset.card)?.startsWith("discard ")) el.setAttribute("aria-pressed", picked.has(el.dataset.card) ? "true" : "false");
      }
      sendQueuedDiscard(v, myTurn);
      autoPlay(v, myTurn);
    } else {
      hand.replaceChildren();
      hand.hidden = mySeat() === null;
      hand.setAttribute("aria-label", t("table.hand_label", { n: 0 }));
    }
  }

  function actionKind(text) {
    const verb = text.split(" ")[0];
    if (["announce", "kontra", "rekontra", "subkontra", "double", "retour", "schwacher"].includes(verb)) return "call";
    if (["pass", "gesund"].includes(verb)) return "quiet";
    return "";
  }

  return { renderTurn, renderControls, renderConfirm, stop: () => clearTimeout(autoTimer) };
}
