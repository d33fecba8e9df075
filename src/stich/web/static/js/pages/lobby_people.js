// The lobby's people (issue 44): how many are online and who, Schnellstart, invite notices, and the friends list
// (add by name, remove, online, at which table, invite to one's open table). Refreshed with the lobby's table list.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { gameTitle } from "../games.js";
import { me } from "../store.js";
import { showToast } from "../toast.js";
import { apiErrorText } from "../server_errors.js";

/** The people panel of one lobby page; `refresh(tables)` with the lobby's latest tables (one's own open table is offered for invites). */
export function createPeoplePanel({ games }) {
  const onlineLine = h("p", { class: "online-line", testid: "online-line" });
  const invitesBox = h("div", { class: "invites", testid: "invites" });
  const friendsList = h("ul", { class: "friends", testid: "friends" });
  const friendName = h("input", { testid: "friend-name", name: "friend", maxlength: "24", placeholder: t("people.friend_placeholder"), "aria-label": t("people.friend_name") });
  const friendError = h("p", { class: "form-error", role: "alert" });
  const gameSelect = h("select", { testid: "quick-game", "aria-label": t("people.quick_game") }, games.map((g) => h("option", { value: g.name, text: gameTitle(g.name, g.title) })));
  let myTable = null;

  async function quickStart() {
    try {
      const answer = await api("/api/quickstart", { method: "POST", body: { game: gameSelect.value } });
      location.hash = `#/table/${encodeURIComponent(answer.table.id)}`;
    } catch (error) {
      showToast(apiErrorText(error), "error");
    }
  }

  async function addFriend(event) {
    event.preventDefault();
    friendError.textContent = "";
    const name = friendName.value.trim();
    if (!name) return;
    try {
      await api("/api/friends", { method: "POST", body: { name } });
      friendName.value = "";
      refresh();
    } catch (error) {
      friendError.textContent = error.status === 404 ? t("people.no_such_account") : error.status === 409 && error.field === "name" ? t("people.friend_refused") : apiErrorText(error);
    }
  }

  async function act(path, method = "POST", body = undefined, done = null) {
    try {
      const answer = await api(path, { method, body });
      if (done) done(answer);
      refresh();
    } catch (error) {
      showToast(apiErrorText(error), "error");
    }
  }

  function renderInvites(invites) {
    replace(
      invitesBox,
      invites.map((n) =>
        h(
          "div",
          { class: "notice invite-notice", testid: "invite-notice", role: "status" },
          h("span", { text: t("people.invited", { name: n.from, game: gameTitle(n.game_name) }) }),
          h("button", { type: "button", class: "primary small", testid: "invite-accept", text: t("people.accept"), onclick: () => act(`/api/invites/${n.id}/accept`, "POST", undefined, (table) => { location.hash = `#/table/${encodeURIComponent(table.id)}`; }) }),
          h("button", { type: "button", class: "ghost small", testid: "invite-decline", text: t("people.decline"), onclick: () => act(`/api/invites/${n.id}/decline`) }),
        ),
      ),
    );
  }

  function renderFriends(friends) {
    replace(
      friendsList,
      friends.length
        ? friends.map((f) =>
            h(
              "li",
              { class: ["friend", f.online && "online"], testid: "friend", dataset: { name: f.name, online: f.online ? "true" : "false" } },
              h("span", { class: "presence-dot", "aria-hidden": "true" }),
              h("span", { class: "friend-name", text: f.name }),
              h("span", { class: "muted small", testid: "friend-status", text: f.online ? t("people.online") : t("people.offline") }),
              f.tables.map((tbl) => h("a", { class: "small", testid: "friend-table", href: `#/table/${encodeURIComponent(tbl.id)}`, text: t("people.at_table", { game: gameTitle(tbl.game_name) }) })),
              myTable ? h("button", { type: "button", class: "small", testid: "friend-invite", text: t("people.invite"), onclick: () => act(`/api/tables/${encodeURIComponent(myTable)}/invite`, "POST", { name: f.name }, () => showToast(t("people.invite_sent", { name: f.name }))) }) : null,
              h("button", { type: "button", class: "ghost small", testid: "friend-remove", "aria-label": t("people.remove", { name: f.name }), title: t("people.remove", { name: f.name }), text: "✕", onclick: () => act(`/api/friends/${encodeURIComponent(f.name)}`, "DELETE") }),
            ),
          )
        : h("li", { class: "muted small", text: t("people.no_friends") }),
    );
  }

  async function refresh(tables = null) {
    if (tables) myTable = tables.find((tbl) => tbl.status === "open" && tbl.your_seat !== null && tbl.your_seat !== undefined)?.id ?? null;
    try {
      const online = await api("/api/online");
      onlineLine.textContent = t("people.online_count", { count: online.count }) + (online.names.length ? `: ${online.names.join(", ")}` : "");
      const identity = me();
      if (identity) renderInvites((await api("/api/invites")).invites);
      if (identity && !identity.guest) renderFriends((await api("/api/friends")).friends);
    } catch {
      /* the next refresh tries again */
    }
  }

  const identity = me();
  const element = h(
    "section",
    { class: "card-panel people-panel", testid: "people-panel" },
    h("div", { class: "people-top" }, onlineLine, h("div", { class: "quickstart" }, gameSelect, h("button", { type: "button", class: "primary", testid: "quickstart", text: t("people.quickstart"), onclick: quickStart }))),
    invitesBox,
    identity && !identity.guest
      ? h(
          "details",
          { class: "friends-box", open: true },
          h("summary", { text: t("people.friends") }),
          friendsList,
          h("form", { class: "friend-add", onsubmit: addFriend }, friendName, h("button", { type: "submit", class: "small", testid: "friend-add", text: t("people.add") })),
          friendError,
        )
      : h("p", { class: "muted small", text: t("people.friends_need_account") }),
  );
  return { element, refresh };
}
