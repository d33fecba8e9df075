// A table (#/table/{id}?invite=TOKEN): seats, joining and bots while it is open; then the live deal over the
// WebSocket: the hand, legal cards and actions, the trick, whose turn it is, the evaluation and the score sheet.

import { api, ApiError } from "../api.js";
import { gameNameOf, packFor } from "../cards.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { defaultBot, loadBots, playerName } from "../games.js";
import { TableSocket } from "../socket.js";
import { me, onSetting } from "../store.js";
import { showToast } from "../toast.js";
import { apiErrorText, refusalText } from "../server_errors.js";
import { renderLastTrick, renderTalon, renderTrick } from "../table/felt.js";
import { renderInfo, renderLog, renderSheet } from "../table/panels.js";
import { leaveWarning } from "../absence.js";
import { seatPlate } from "../table/seats.js";
import { handKeys, layoutHand } from "../table/hand.js";
import { createChat } from "../table/chat.js";
import { takePendingJoin } from "./lobby.js";
import { moveGapMs, trickAnimation, trickHoldMs } from "../settings.js";
import { MovePacer } from "../table/pacing.js";
import { sweepTrick } from "../table/trick_sweep.js";
import { playTone } from "../sounds.js";
import { localClock, seatClock, tickCountdowns } from "../table/clock.js";
import { noticeLine, presenceNotices } from "../table/presence.js";
import { localWaiting, waitingLine } from "../table/ready.js";
import { createHead } from "../table/head.js";
import { createNotices } from "../table/notices.js";
import { createEvaluationView } from "../table/evaluation_view.js";
import { createControls } from "../table/controls.js";
import { createHintBox, renderTableMarks } from "../learning.js";
import { createSeatRequests } from "../table/seat_requests.js";
import { createTrickDialog } from "../table/trick_list.js";
import { createFinalStandings } from "../table/final_standings.js";

function errorMessage(error) {
  return apiErrorText(error);
}

/** The table page. */
export function mount(root, { params, query }) {
  const tableId = params[0];
  const invite = query.get("invite");
  const inviteQuery = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  const s = {
    summary: null,
    table: null,
    dealStart: null,
    state: null,
    lastEnd: null,
    tableEnd: null,
    sheet: new Map(),
    connection: "reconnecting",
    retryAt: null,
    pending: false,
    evalHidden: false,
    bots: [],
    botChoice: null,
    notice: null,
    finished: false,
    logOpen: false,
    hold: null,
    clock: null,
    waiting: null,
    timedOut: new Set(),
  };
  let holdTimer = null;
  let finalStandings = null;
  let socket = null;
  let alive = true;
  let countdown = null;

  // ------------------------------------------------------------ skeleton
  const title = h("h1", { class: "table-title" });
  const dealInfo = h("span", { class: "deal-info muted" });
  const watching = h("span", { class: "tag watching", hidden: true });
  const connection = h("span", { class: "connection", testid: "connection", role: "status", dataset: { state: "reconnecting" } });
  const retryButton = h("button", { type: "button", class: "ghost small", hidden: true, onclick: () => socket?.retryNow() });
  const inviteInput = h("input", { class: "invite-input", testid: "invite-link", readOnly: true, "aria-label": t("table.invite_label"), onfocus: (e) => e.target.select() });
  const copyButton = h("button", { type: "button", class: "small", onclick: copyInvite });
  const inviteBox = h("div", { class: "invite-box" }, h("label", { class: "small muted", text: "" }), inviteInput, copyButton);
  const notice = h("div", { class: "notice", role: "alert", hidden: true });
  const rulesLine = h("p", { class: "table-rules muted small", testid: "table-rules" });
  const marksLine = h("p", { class: "table-marks small", testid: "table-marks", hidden: true });
  const forcedBox = h("div", { class: "forced-note", testid: "forced-note", role: "status", hidden: true });
  const absenceNote = h("div", { class: "notice absence-note", testid: "absence-note", role: "status", hidden: true });
  const presenceLine = noticeLine();

  const felt = h("div", { class: "felt", role: "region" });
  const seatsLayer = h("div", { class: "seats-layer" });
  const trick = h("div", { class: "trick", testid: "trick", role: "group" });
  const talonBox = h("div", { class: "talon-box" });
  const centerInfo = h("div", { class: "center-info" });
  const turn = h("div", { class: "turn", testid: "turn", role: "status", "aria-live": "polite", dataset: { seat: "-1", mine: "false" } });
  const lastTrick = h("div", { class: "last-trick", testid: "last-trick", role: "group" });
  const trickDialog = createTrickDialog(); // every trick of the deal on demand, opened from the last trick (issue 43)
  const evaluation = h("section", { class: "evaluation", testid: "evaluation", hidden: true, "aria-live": "polite", tabindex: "-1" });
  felt.append(seatsLayer, talonBox, trick, centerInfo, lastTrick, evaluation);

  const prompt = h("div", { class: "prompt" });
  const actions = h("div", { class: "actions", testid: "actions", role: "group" });
  const confirmBox = h("div", { class: "confirm-box", testid: "confirm-box", role: "alertdialog", hidden: true });
  const hand = h("div", { class: "hand", testid: "hand", role: "group" });
  const hintBox = createHintBox({ s, tableId, view: () => view(), mySeat: () => mySeat(), gameName: () => gameName(), pack: () => pack() });
  handKeys(hand);

  const infoPanel = h("section", { class: "card-panel info-panel" });
  const sheetPanel = h("section", { class: "card-panel sheet-panel", testid: "score-sheet" });
  const logPanel = h("details", { class: "card-panel log-panel", ontoggle: (e) => { s.logOpen = e.target.open; } });
  const showEval = h("button", { type: "button", class: "small", hidden: true, onclick: () => { s.evalHidden = false; render(); evaluation.focus(); } });
  const chat = createChat({ send: (message) => Boolean(socket?.send(message)) });
  const side = h("aside", { class: "side" }, showEval, infoPanel, chat.element, sheetPanel, logPanel);

  const layout = h(
    "div",
    { class: "table-layout", testid: "table-layout" },
    h("div", { class: "play-area" }, felt, h("div", { class: "controls" }, turn, forcedBox, prompt, confirmBox, actions, hintBox.element), hand),
    side,
  );
  const page = h(
    "div",
    { class: "page table-page" },
    h("div", { class: "table-head" }, h("div", { class: "table-head-main" }, title, dealInfo, watching), h("div", { class: "table-head-side" }, connection, retryButton, inviteBox)),
    rulesLine,
    marksLine,
    notice,
    // notices float over the table: they never push the felt or the hand down (issue 40, defect 3)
    h("div", { class: "table-notices", testid: "table-notices" }, absenceNote, presenceLine.element),
    layout,
    trickDialog.element,
  );
  root.replaceChildren(page);

  // ------------------------------------------------------------- helpers
  const gameName = () => s.summary?.game_name || gameNameOf(s.summary?.game || s.state?.view?.game);
  const pack = () => packFor(gameName());
  const seatsInfo = () => s.table?.seats || s.summary?.seats || [];
  const seatCount = () => seatsInfo().length || 4;
  const status = () => (s.finished ? "finished" : s.table?.status || s.summary?.status || "open");
  const mySeat = () => {
    if (s.state && s.state.seat !== undefined && s.state.seat !== null) return s.state.seat;
    const seat = s.summary?.your_seat;
    if (seat !== undefined) return seat;
    // A finished table's stored summary does not say; the seat with one's own name is one's own.
    const mine = me() && (s.summary?.seats || []).find((x) => x.kind === "human" && x.name === me().name);
    return mine ? mine.seat : null;
  };
  const names = () =>
    seatsInfo().map((seat, i) => (seat.kind === "empty" ? t("table.seat_n", { n: i + 1 }) : playerName(seat.name, i, seat.kind === "bot" ? seat.bot || "bot" : null)));
  const view = () => s.state?.view || null;

  function copyInvite() {
    const text = inviteInput.value;
    if (!text) return;
    const done = () => showToast(t("table.invite_copied"));
    if (navigator.clipboard?.writeText) navigator.clipboard.writeText(text).then(done, () => { inviteInput.select(); document.execCommand("copy"); done(); });
    else {
      inviteInput.select();
      document.execCommand("copy");
      done();
    }
  }

  // ------------------------------------------------------------- network
  async function loadSummary() {
    try {
      s.summary = await api(`/api/tables/${encodeURIComponent(tableId)}${inviteQuery}`);
      if (s.summary.status === "finished") s.finished = true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        s.notice = "table.not_found";
      } else s.notice = errorMessage(error);
    }
  }

  async function loadSheet() {
    try {
      const data = await api(`/api/tables/${encodeURIComponent(tableId)}/deals${inviteQuery}`);
      const finished = (data.deals || []).filter((d) => d.status === "finished");
      await Promise.all(
        finished.map(async (deal) => {
          if (s.sheet.has(deal.id)) return;
          try {
            const record = await api(`${deal.record_url}${inviteQuery}`);
            s.sheet.set(deal.id, { deal: deal.id, number: deal.number, result: record.result, recordUrl: deal.record_url, standIn: record.meta?.stand_in_seats || [], timedOut: record.meta?.timed_out_moves || [], hints: record.meta?.hints || [] });
          } catch {
            /* a record that cannot be read leaves its row out */
          }
        }),
      );
      const running = (data.deals || []).some((d) => d.status !== "finished");
      if ((s.finished || !running) && !s.lastEnd && finished.length) {
        const last = [...s.sheet.values()].sort((a, b) => b.number - a.number)[0];
        if (last) s.lastEnd = { deal: last.deal, number: last.number, result: last.result, record_url: last.recordUrl, totals: null };
      }
      render();
    } catch {
      /* the sheet shows what the socket tells */
    }
  }

  function connect() {
    socket?.close();
    socket = new TableSocket(tableId, {
      invite,
      onMessage: (msg) => pacer.push(msg), // shown at the pace the player chose for other players' moves
      onStatus(state, info) {
        s.connection = state;
        s.retryAt = info.retryAt || null;
        if (state === "closed" && info.code === 4403) s.notice = "table.private_needs_invite";
        renderConnection();
      },
    });
    socket.connect();
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        s.welcome = msg;
        break;
      case "table":
        {
          const before = s.table;
          for (const note of presenceNotices(before, msg, { mySeat: mySeat(), names: names() })) presenceLine.show(note);
          s.table = msg;
          const changed = !before || before.status !== msg.status || JSON.stringify(before.seats.map((x) => [x.kind, x.name])) !== JSON.stringify(msg.seats.map((x) => [x.kind, x.name]));
          if (changed) loadSummary().then(render);
          if (msg.status === "finished") s.finished = true;
        }
        break;
      case "deal_start":
        s.dealStart = msg;
        s.waiting = null;
        break;
      case "waiting":
        s.waiting = localWaiting(msg);
        break;
      case "timeout":
        if (msg.seat === mySeat()) s.timedOut.add(msg.deal);
        // one's own timeout is a warning that stays long enough to be read (issue 40, defect 1)
        if (msg.seat === mySeat()) showToast(t("clock.timeout_me"), "warn");
        else showToast(t("clock.timeout_seat", { name: names()[msg.seat] ?? msg.seat }));
        break;
      case "state":
        noteCompletedTrick(s.state, msg);
        if (!myTurnIn(s.state) && myTurnIn(msg)) playTone("turn");
        s.state = msg;
        s.clock = localClock(msg);
        s.pending = false;
        // The evaluation stays until the player clicks "Weiter"; it sits on the felt and never covers the buttons.
        break;
      case "deal_end":
        s.lastEnd = msg;
        s.evalHidden = false;
        s.sheet.set(msg.deal, { deal: msg.deal, number: msg.number, result: msg.result, recordUrl: msg.record_url, standIn: msg.stand_in_seats || [], timedOut: msg.timed_out_moves || [], hints: msg.hints || [] });
        break;
      case "table_end":
        s.tableEnd = msg;
        s.finished = true;
        break;
      case "chat":
      case "chat_history":
        chat.receive(msg);
        return;
      case "error":
        if (chat.takeError(msg)) return;
        s.pending = false;
        if (msg.field === "table") {
          if (/finished/.test(msg.message)) {
            s.finished = true;
            loadSheet();
          } else s.notice = /no such table/.test(msg.message) ? "table.not_found" : refusalText(msg.field, msg.message);
        } else {
          showToast(t("table.refused", { message: refusalText(msg.field, msg.message) }), "error");
          if (msg.field === "step" || msg.field === "deal") socket?.send({ type: "sync" });
        }
        break;
      default:
        return;
    }
    render();
  }

  /** Keep a trick that was just completed in view for a moment, as players collect it at a real table. */
  function noteCompletedTrick(before, after) {
    const complete = (m) => (m?.view?.tricks || []).filter((tr) => tr.winner !== null && tr.winner !== undefined).length;
    if (!before || before.deal !== after.deal || complete(after) <= complete(before)) return;
    const tricks = after.view.tricks.filter((tr) => tr.winner !== null && tr.winner !== undefined);
    const holdMs = trickHoldMs();
    s.hold = { deal: after.deal, trick: tricks[tricks.length - 1], until: Date.now() + holdMs };
    if (s.hold.trick.winner === mySeat()) playTone("trick");
    clearTimeout(holdTimer);
    holdTimer = setTimeout(() => {
      s.hold = null;
      render();
    }, holdMs + 20);
  }

  /** Whether a state message asks the viewer to act. */
  function myTurnIn(msg) {
    const v = msg?.view;
    return Boolean(v && v.phase !== "end" && v.to_move === msg.seat && typeof msg.seat === "number" && (v.legal_actions || []).length);
  }

  function sendAction(action) {
    if (s.pending || !s.state) return;
    s.hold = null;
    const ok = socket?.send({ type: "action", action, step: s.state.step, deal: s.state.deal });
    if (!ok) {
      showToast(t("table.not_connected"), "error");
      return;
    }
    s.pending = true;
    render();
  }

  // ------------------------------------------------------------- render
  function renderConnection() {
    connection.dataset.state = s.connection;
    connection.hidden = status() === "finished" || Boolean(s.notice); // nothing to connect to: say nothing
    let text = t(`conn.${s.connection}`);
    if (s.connection === "reconnecting" && s.retryAt) {
      const seconds = Math.max(0, Math.ceil((s.retryAt - Date.now()) / 1000));
      text = t("conn.retry_in", { seconds });
    }
    connection.textContent = text;
    retryButton.hidden = connection.hidden || s.connection !== "reconnecting" || !s.retryAt;
    retryButton.textContent = t("conn.retry_now");
    clearTimeout(countdown);
    if (s.connection === "reconnecting" && s.retryAt && alive) countdown = setTimeout(renderConnection, 500);
  }

  /** Whether leaving now hands one's seat to a stand-in bot: a running table at which one sits. */
  const leaving = () => status() === "playing" && !s.finished && typeof mySeat() === "number";

  function renderFelt() {
    const v = view();
    const viewpoint = mySeat() ?? 0;
    const n = seatCount();
    felt.dataset.seats = String(n);
    const nm = names();
    const canJoin = status() === "open" && mySeat() === null;
    replace(
      seatsLayer,
      seatsInfo().map((seat, index) =>
        withClock(seatPlate(seat, { index, view: v, viewpoint, seats: n, mySeat: mySeat(), name: nm[index], gameName: gameName(), pack: pack(), narrow: felt.clientWidth < 520, canJoin, onJoin: joinSeat }), index),
      ),
    );
    const tricks = v?.tricks || [];
    const current = tricks.length ? tricks[tricks.length - 1] : null;
    const complete = [...tricks].reverse().find((tr) => tr.winner !== null && tr.winner !== undefined) || null;
    const ctx = { viewpoint, seats: n, gameName: gameName(), pack: pack(), names: names(), active: v?.public?.active };
    const held = s.hold && s.hold.deal === s.state?.deal && Date.now() < s.hold.until ? s.hold.trick : null;
    renderTrick(trick, held || (v && v.phase !== "end" ? current : null), ctx);
    sweepTrick(trick, { winner: held?.winner, until: s.hold?.until ?? 0, viewpoint, seats: n, enabled: Boolean(held) && trickAnimation() });
    const previous = current && current.winner === null ? complete : tricks.filter((tr) => tr.winner !== null && tr.winner !== undefined).slice(-2, -1)[0] || complete;
    renderLastTrick(lastTrick, previous, ctx);
    trickDialog.refresh(v?.tricks, ctx);
    lastTrick.append(trickDialog.button);
    const talon = v?.public?.talon;
    const showTalon = talon && v && !["play", "end"].includes(v.phase);
    replace(talonBox, showTalon ? renderTalon(talon, { gameName: gameName(), pack: pack(), taken: v.public.talon_taken }) : null);
    // The centre: waiting for players (with the bot controls), or the turn.
    replace(centerInfo);
    if (s.notice) return renderTurn(null); // a table one may not see (or that does not exist): only the notice speaks
    if (status() === "open") centerInfo.append(openTableControls());
    else if (status() === "finished" && !s.lastEnd) centerInfo.append(h("div", { class: "muted", text: t("table.finished") }));
    else if (betweenDeals() && s.evalHidden) centerInfo.append(h("div", { class: "muted waiting-center" }, waitingLine(s.waiting, { mySeat: mySeat(), names: names() })));
    else if (status() === "playing" && !v) centerInfo.append(h("div", { class: "muted", text: t("table.next_deal_soon") }));
    renderTurn(v);
  }

  /** The seat whose clock runs gets it on its plate. */
  function withClock(plate, index) {
    const clock = currentClock();
    if (clock && clock.seat === index) plate.querySelector(".plate")?.append(seatClock(clock));
    return plate;
  }

  /** The clock of the moment the page shows (none once the deal is over). */
  const currentClock = () => (s.clock && s.state && s.clock.deal === s.state.deal && s.clock.step === s.state.step && view()?.phase !== "end" ? s.clock : null);

  /** Between two deals, while the server waits for "Weiter" (its "waiting" message is for the last finished deal). */
  const betweenDeals = () => Boolean(s.waiting && status() === "playing" && s.lastEnd && s.waiting.deal === s.lastEnd.deal && (!s.dealStart || s.dealStart.deal === s.lastEnd.deal));

  function render() {
    if (!alive) return;
    renderHead();
    renderConnection();
    renderFelt();
    renderControls();
    const nm = names();
    renderForced();
    renderAbsence();
    renderConfirm();
    hintBox.renderHint(render);
    renderTableMarks(marksLine, s.summary);
    const forced = s.dealStart?.forced && s.state?.deal === s.dealStart.deal ? s.dealStart.forced : null;
    renderInfo(infoPanel, { view: view(), gameName: gameName(), names: nm, pack: pack(), forced, mySeat: mySeat() });
    const rows = [...s.sheet.values()].sort((a, b) => a.number - b.number);
    const summed = nm.map((_, i) => rows.reduce((sum, row) => sum + (row.result?.scores?.[i] ?? 0), 0));
    const totals = s.tableEnd?.totals || s.table?.totals || s.summary?.totals || summed;
    renderSheet(sheetPanel, { rows, totals, names: nm, mySeat: mySeat(), gameName: gameName(), inviteQuery });
    renderLog(logPanel, { events: view()?.events || [], names: nm, gameName: gameName(), pack: pack(), open: s.logOpen });
    renderEvaluation();
    finalStandings?.render();
  }

  // ------------------------------------------------------- the page's parts
  const ctx = {
    s, tableId, invite, inviteQuery,
    title, dealInfo, inviteBox, inviteInput, copyButton, watching, notice, felt, rulesLine, absenceNote, forcedBox, layout,
    evaluation, showEval, side, turn, prompt, actions, confirmBox, hand,
    socket: () => socket,
    alive: () => alive,
    gameName, pack, seatsInfo, status, mySeat, names, view, currentClock, betweenDeals,
    render, sendAction, loadSummary, connect,
  };
  const { renderHead } = createHead(ctx);
  const { renderAbsence, renderForced } = createNotices(ctx);
  const { renderEvaluation } = createEvaluationView(ctx);
  const controls = createControls(ctx);
  const { renderTurn, renderControls, renderConfirm } = controls;
  const { joinSeat, openTableControls } = createSeatRequests(ctx);
  finalStandings = createFinalStandings(ctx);
  side.prepend(finalStandings.panel);

  // ---------------------------------------------------------------- start
  const beforeUnload = (event) => {
    if (!leaving()) return;
    event.preventDefault();
    event.returnValue = leaveWarning(); // browsers show their own text; the warning itself is what counts
  };
  window.addEventListener("beforeunload", beforeUnload);
  const resize = new ResizeObserver(() => layoutHand(hand));
  resize.observe(hand);
  const offSetting = onSetting(() => render());
  const pacer = new MovePacer(onMessage, moveGapMs, () => mySeat(), () => s.hold?.until ?? 0);
  const stopTicking = tickCountdowns(page);

  (async () => {
    const [bots] = await Promise.all([loadBots().catch(() => []), loadSummary()]);
    s.bots = bots;
    s.botChoice = defaultBot(bots);
    const pending = takePendingJoin(tableId);
    if (pending && me() && s.summary?.status === "open" && s.summary.your_seat === null) {
      try {
        await api(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", body: pending.invite || invite ? { seat: pending.seat ?? null, invite: pending.invite || invite } : { seat: pending.seat ?? null } });
        await loadSummary();
      } catch (error) {
        showToast(errorMessage(error), "error");
      }
    }
    render();
    if (!alive) return;
    if (s.finished) {
      s.connection = "closed";
      renderConnection();
    } else connect();
    loadSheet();
  })();
  render();

  return {
    /** Asked by the router before another page replaces this one: warn before handing the seat to a bot. */
    confirmLeave() {
      return !leaving() || window.confirm(leaveWarning());
    },
    unmount() {
      alive = false;
      window.removeEventListener("beforeunload", beforeUnload);
      clearTimeout(countdown);
      clearTimeout(holdTimer);
      trickDialog.close();
      controls.stop();
      pacer.close();
      resize.disconnect();
      offSetting();
      chat.destroy();
      stopTicking();
      presenceLine.stop();
      socket?.close();
    },
    relabel() {
      render();
      chat.render();
    },
  };
}
