// Table chat (issue 28, decision 0036). Players talk with each other; spectators talk among themselves and also
// read the players' chat; players never see the spectators'. Quick phrases travel as ids and are worded here, in the
// reader's language. Free text is only ever shown as text (textContent, never markup). A person can be muted: their
// messages are hidden on this browser, remembered in localStorage for the person who muted them. The panel lives in
// the side column, in the page's flow, so it never covers the hand or the buttons; it can be collapsed (remembered).

import { h, replace } from "../dom.js";
import { language, t } from "../i18n.js";
import { me } from "../store.js";

/** The quick phrases, in the order offered (the server's `stich.web.runtime.chat.PHRASES`). */
export const PHRASES = ["hello", "good_luck", "well_played", "thanks", "sorry", "wait", "back", "bye"];
/** Messages kept on the page (the server keeps its own last ones for late joiners). */
const KEPT = 200;
const OPEN_KEY = "stich.chatOpen";
const MUTED_KEY = "stich.chatMuted";
const ERROR_MS = 8000;
/** Error fields that belong to the chat (the server's refusals of a `chat` message). */
const CHAT_FIELDS = new Set(["chat", "text", "phrase"]);

function readJson(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null") ?? fallback;
  } catch {
    return fallback;
  }
}

/** The key a name is compared by (like the server's: NFKC and lower case). */
export function nameKey(name) {
  return String(name || "").normalize("NFKC").toLowerCase();
}

/** Whom the mute list belongs to: the person using this browser (by name), so that two people sharing it keep theirs. */
const viewer = () => nameKey(me()?.name || "");

/** The muted people of this viewer: `{key: name}`. */
export function mutedPeople() {
  const all = readJson(MUTED_KEY, {});
  const mine = all && typeof all === "object" ? all[viewer()] : null;
  return mine && typeof mine === "object" ? mine : {};
}

function storeMuted(people) {
  const all = readJson(MUTED_KEY, {});
  all[viewer()] = people;
  localStorage.setItem(MUTED_KEY, JSON.stringify(all));
}

function clock(at) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleTimeString(language() === "de" ? "de-DE" : "en-GB", { hour: "2-digit", minute: "2-digit" });
}

let panels = 0;

/** A small speaker with a cross (drawn, so that it needs no emoji font). */
function muteIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "chat-mute-icon");
  const speaker = document.createElementNS(ns, "path");
  speaker.setAttribute("d", "M2 6h3l4-3v10l-4-3H2z");
  speaker.setAttribute("fill", "currentColor");
  const cross = document.createElementNS(ns, "path");
  cross.setAttribute("d", "M11 6l4 4M15 6l-4 4");
  cross.setAttribute("stroke", "currentColor");
  cross.setAttribute("stroke-width", "1.6");
  cross.setAttribute("stroke-linecap", "round");
  svg.append(speaker, cross);
  return svg;
}

/**
 * The chat panel of a table page. `send(message)` sends over the table's socket (false when not connected).
 * Returns `{element, receive(msg), takeError(msg), render(), destroy()}`.
 */
export function createChat({ send }) {
  const c = {
    seen: false, // a chat_history arrived: the table is live and we may show the panel
    messages: [],
    channel: "players",
    maxChars: 200,
    open: readJson(OPEN_KEY, true) !== false,
    unread: 0,
    error: "",
    pendingText: "",
  };
  let errorTimer = null;
  const bodyId = `chat-body-${++panels}`;

  const label = h("span", { class: "chat-label" });
  const unread = h("span", { class: "chat-unread", testid: "chat-unread", hidden: true });
  const toggle = h("button", { type: "button", class: "chat-toggle", testid: "chat-toggle", "aria-controls": bodyId, onclick: () => setOpen(!c.open) }, label, unread);
  const note = h("p", { class: "chat-note muted small", testid: "chat-note" });
  const log = h("ol", { class: "chat-log", testid: "chat-log", role: "log", "aria-live": "polite" });
  const mutedBox = h("div", { class: "chat-muted small", testid: "chat-muted", hidden: true });
  const phrases = h("div", { class: "chat-phrases", testid: "chat-phrases", role: "group" });
  const counter = h("span", { class: "chat-count muted small", "aria-hidden": "true", hidden: true });
  const input = h("input", { class: "chat-input", testid: "chat-input", type: "text", autocomplete: "off", enterkeyhint: "send", oninput: renderCounter });
  const sendButton = h("button", { type: "submit", class: "primary small", testid: "chat-send" });
  const form = h("form", { class: "chat-form", testid: "chat-form", onsubmit: (event) => { event.preventDefault(); sendText(); } }, input, counter, sendButton);
  const signIn = h("p", { class: "chat-signin muted small", testid: "chat-signin", hidden: true });
  const errorLine = h("p", { class: "chat-error small", testid: "chat-error", role: "alert", hidden: true });
  const body = h("div", { class: "chat-body", id: bodyId }, note, log, mutedBox, phrases, form, signIn, errorLine);
  const element = h("section", { class: "card-panel chat-panel", testid: "chat", hidden: true }, h("h2", { class: "chat-head" }, toggle), body);

  const mine = (m) => Boolean(me()) && m.name === me().name;

  function setOpen(open) {
    c.open = open;
    localStorage.setItem(OPEN_KEY, JSON.stringify(open));
    if (open) c.unread = 0;
    render();
    if (open) log.scrollTop = log.scrollHeight;
  }

  function showError(text) {
    c.error = text;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => { c.error = ""; renderError(); }, ERROR_MS);
    renderError();
  }

  function sendMessage(message) {
    if (!send(message)) {
      showError(t("chat.error.offline"));
      return false;
    }
    c.error = "";
    renderError();
    return true;
  }

  function sendText() {
    const text = input.value;
    if (!text.trim()) return showError(t("chat.error.empty"));
    if (sendMessage({ type: "chat", text })) {
      c.pendingText = text;
      input.value = "";
      renderCounter();
    }
  }

  function mute(key, name) {
    storeMuted({ ...mutedPeople(), [key]: name });
    render();
  }

  function unmute(key) {
    const people = { ...mutedPeople() };
    delete people[key];
    storeMuted(people);
    render();
  }

  /** A `chat` or `chat_history` message from the server. */
  function receive(msg) {
    if (msg.type === "chat_history") {
      c.seen = true;
      c.channel = msg.channel || "players";
      c.maxChars = msg.max_chars || c.maxChars;
      c.messages = (msg.messages || []).slice(-KEPT);
      render();
    } else if (msg.type === "chat") {
      if (c.messages.some((m) => m.id === msg.id)) return;
      c.messages.push(msg);
      if (c.messages.length > KEPT) c.messages.splice(0, c.messages.length - KEPT);
      if (mine(msg)) c.pendingText = "";
      else if (!c.open && !(msg.key in mutedPeople())) c.unread += 1;
      if (c.seen) addLine(msg);
      else render();
    }
  }

  /** One new message: appended to the log (the log is a live region: only the new line is announced). */
  function addLine(msg) {
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    const item = line(msg, mutedPeople());
    if (item) {
      log.querySelector(".chat-empty")?.remove();
      log.append(item);
      while (log.children.length > KEPT) log.firstElementChild.remove();
    }
    if (atBottom || mine(msg)) log.scrollTop = log.scrollHeight;
    renderHead();
  }

  function renderHead() {
    element.dataset.open = String(c.open);
    toggle.setAttribute("aria-expanded", String(c.open));
    toggle.title = c.open ? t("chat.hide") : t("chat.show");
    label.textContent = t("chat.title");
    unread.hidden = c.open || !c.unread;
    unread.textContent = String(c.unread);
    unread.setAttribute("aria-label", t("chat.unread", { n: c.unread }));
  }

  /** An `error` from the server: true when it is the chat's (shown in the panel), false to let the table show it. */
  function takeError(msg) {
    if (!CHAT_FIELDS.has(String(msg.field))) return false;
    let text;
    if (msg.status === 429) text = t("chat.error.rate", { seconds: msg.retry_after ?? 1 });
    else if (msg.field === "chat" && /goes by your name/.test(String(msg.message))) text = t("chat.error.name_taken");
    else if (msg.field === "chat") text = t("chat.sign_in");
    else if (/combining marks/.test(String(msg.message))) text = t("chat.error.marks");
    else if (msg.field === "phrase") text = t("chat.error.phrase");
    else if (/too long/.test(String(msg.message))) text = t("chat.error.too_long", { max: c.maxChars });
    else text = t("chat.error.empty");
    if (c.pendingText && !input.value) input.value = c.pendingText; // nothing was said: give the text back
    c.pendingText = "";
    renderCounter();
    showError(text);
    return true;
  }

  function renderCounter() {
    const used = [...input.value].length;
    counter.hidden = used < c.maxChars * 0.75;
    counter.textContent = `${used}/${c.maxChars}`;
  }

  function renderError() {
    errorLine.hidden = !c.error;
    errorLine.textContent = c.error;
  }

  function line(m, muted) {
    if (m.key in muted) return null;
    const own = mine(m);
    const phrase = typeof m.phrase === "string" && m.phrase;
    return h(
      "li",
      { class: ["chat-line", own ? "mine" : "", m.channel === "spectators" ? "from-spectator" : ""], testid: "chat-message", dataset: { id: m.id, key: m.key, channel: m.channel } },
      h("time", { class: "chat-time muted", datetime: new Date(m.at || 0).toISOString(), text: clock(m.at) }),
      " ",
      h("span", { class: "chat-who", testid: "chat-who", text: m.name }),
      m.channel === "spectators" ? h("span", { class: "tag chat-tag", text: t("chat.spectator_tag") }) : null,
      m.guest ? h("span", { class: "tag chat-tag", testid: "chat-guest", text: t("chat.guest_tag") }) : null,
      " ",
      h("span", { class: ["chat-text", phrase ? "phrase" : ""], testid: "chat-text", text: phrase ? t(`chat.phrase.${phrase}`, {}, phrase) : m.text }),
      own
        ? null
        : h("button", { type: "button", class: "ghost small chat-mute", testid: "chat-mute", dataset: { key: m.key }, title: t("chat.mute", { name: m.name }), "aria-label": t("chat.mute", { name: m.name }), onclick: () => mute(m.key, m.name) }, muteIcon()),
    );
  }

  /** Draw the whole panel (after the history, a language switch, a mute, collapsing). */
  function render() {
    element.hidden = !c.seen;
    if (!c.seen) return;
    element.dataset.channel = c.channel;
    body.hidden = !c.open;
    renderHead();
    const spectator = c.channel === "spectators";
    note.textContent = spectator ? t("chat.note_spectator") : t("chat.note_player");
    const muted = mutedPeople();
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    const lines = c.messages.map((m) => line(m, muted)).filter(Boolean);
    replace(log, lines.length ? lines : h("li", { class: "chat-empty muted small", text: t("chat.empty") }));
    if (atBottom || !c.open) log.scrollTop = log.scrollHeight;
    const people = Object.entries(muted);
    mutedBox.hidden = !people.length;
    replace(
      mutedBox,
      people.length ? h("span", { class: "muted", text: t("chat.muted_label") }) : null,
      people.map(([key, name]) => h("button", { type: "button", class: "ghost small chat-unmute", testid: "chat-unmute", dataset: { key }, title: t("chat.unmute", { name }), text: `${name} ✕`, onclick: () => unmute(key) })),
    );
    const canWrite = Boolean(me());
    phrases.hidden = form.hidden = !canWrite;
    signIn.hidden = canWrite;
    signIn.textContent = t("chat.sign_in");
    phrases.setAttribute("aria-label", t("chat.phrases"));
    replace(phrases, PHRASES.map((id) => h("button", { type: "button", class: "chip small", testid: "chat-phrase", dataset: { phrase: id }, text: t(`chat.phrase.${id}`), onclick: () => sendMessage({ type: "chat", phrase: id }) })));
    const placeholder = spectator ? t("chat.placeholder_spectators") : t("chat.placeholder_players");
    input.placeholder = placeholder;
    input.setAttribute("aria-label", placeholder);
    input.maxLength = c.maxChars;
    sendButton.textContent = t("chat.send");
    renderCounter();
    renderError();
  }

  return {
    element,
    receive,
    takeError,
    render,
    destroy() {
      clearTimeout(errorTimer);
    },
  };
}
